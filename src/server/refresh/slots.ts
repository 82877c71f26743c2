/**
 * A number of slots handed out in arrival order: at most `size` holders at once, the rest wait in line. The refresh
 * engine keeps two kinds: its document slots (REFRESH_CONCURRENCY a process: a refresh holds one from before its body
 * is read until its writes are committed; docs/decisions.md "Refresh engine: requests and documents in flight") and,
 * per host, the requests to one site at once (host-limiter.ts).
 *
 * A waiter whose signal aborts leaves the line and is rejected with the signal's reason, and a slot given back passes
 * straight to the next waiter.
 */
export class Slots {
  private held = 0;
  private readonly line: Array<{ resolve: () => void; leave?: () => void }> = [];

  constructor(readonly size: number) {}

  /** Slots taken now. */
  get inUse(): number {
    return this.held;
  }

  /** Callers waiting for a slot. */
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
