/**
 * How many refreshes of one process hold a fetched document at once (docs/decisions.md "Refresh engine: requests
 * and documents in flight"): REFRESH_CONCURRENCY. A slot is taken before the body is read and given back once the
 * feed's writes are committed (or it failed), so the bodies, the parsed documents and the writes waiting for their
 * group are bounded by it, whatever a feed's size. A conditional request answered 304 never takes one: more of
 * those are in flight than there are slots.
 *
 * Waiters are served in arrival order; a waiter whose signal aborts leaves the line and is rejected with the
 * signal's reason, and a slot given back passes straight to the next waiter.
 */
export class DocumentSlots {
  private held = 0;
  private readonly line: Array<{ resolve: () => void; leave?: () => void }> = [];

  constructor(readonly size: number) {}

  /** Slots taken now. */
  get inUse(): number {
    return this.held;
  }

  /** Refreshes waiting for a slot. */
  get waiting(): number {
    return this.line.length;
  }

  /** Resolves once the caller holds a slot (give it back with release()); rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    // The signal's reason as it is, as the fetch throws it (an AbortError unless the aborter gave its own).
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.held < this.size) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: { resolve: () => void; leave?: () => void } = { resolve };
      if (signal) {
        const onAbort = () => {
          const at = this.line.indexOf(waiter);
          if (at !== -1) this.line.splice(at, 1);
          reject(signal.reason as Error);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.leave = () => signal.removeEventListener('abort', onAbort);
      }
      this.line.push(waiter);
    });
  }

  /** Gives a slot back: to the first waiter, if any. */
  release(): void {
    const next = this.line.shift();
    if (next) {
      next.leave?.();
      next.resolve();
      return;
    }
    if (this.held > 0) this.held--;
  }
}
