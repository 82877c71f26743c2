/**
 * At most `perHost` requests at once to one host from this process ("limits concurrent requests per
 * host"), so a refresh of many feeds on one site (a blog platform, YouTube) never hammers it. Waiters are
 * served in arrival order.
 */
export class HostLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiters = new Map<string, Array<() => void>>();

  constructor(private readonly perHost: number) {}

  async run<T>(url: string, task: () => Promise<T>): Promise<T> {
    const host = hostOf(url);
    await this.acquire(host);
    try {
      return await task();
    } finally {
      this.release(host);
    }
  }

  private acquire(host: string): Promise<void> {
    const n = this.active.get(host) ?? 0;
    if (n < this.perHost) {
      this.active.set(host, n + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const list = this.waiters.get(host) ?? [];
      list.push(resolve);
      this.waiters.set(host, list);
    });
  }

  private release(host: string): void {
    const list = this.waiters.get(host);
    const next = list?.shift();
    if (next) {
      if (list!.length === 0) this.waiters.delete(host);
      next(); // the slot passes straight to the next waiter
      return;
    }
    const n = (this.active.get(host) ?? 1) - 1;
    if (n <= 0) this.active.delete(host);
    else this.active.set(host, n);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}
