/**
 * Work a request starts but does not wait for (mail sent after the answer; decisions.md "Unknown accounts cost the
 * same time"): each task's failure is logged, never thrown, and the owner drains what is still running on
 * shutdown. One per app, made in the composition root; tests drain it to see the outcome.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  /** Starts the task at once (synchronously up to its first await) and returns without waiting for it. */
  run(task: () => Promise<void>, onError: (err: unknown) => void = this.onError): void {
    const p = (async () => {
      try {
        await task();
      } catch (err) {
        onError(err);
      }
    })();
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Waits until every task started so far, and those they started, has ended. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
