import { Slots } from './slots.js';

/**
 * At most `perHost` requests at once to one host from this process ("limits concurrent requests per
 * host"), so a refresh of many feeds on one site (a blog platform, YouTube) never hammers it. Each host busy now has
 * its slots (slots.ts), dropped once nobody holds or waits for one: waiters are served in arrival order, and one
 * whose signal aborts leaves the line.
 */
export class HostLimiter {
  private readonly hosts = new Map<string, Slots>();

  constructor(private readonly perHost: number) {}

  /** Hosts with a request under way or waiting (tests see that an idle host leaves nothing behind). */
  get busyHosts(): number {
    return this.hosts.size;
  }

  async run<T>(url: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const host = hostOf(url);
    let slots = this.hosts.get(host);
    if (!slots) {
      slots = new Slots(this.perHost);
      this.hosts.set(host, slots);
    }
    try {
      await slots.acquire(signal);
      try {
        return await task();
      } finally {
        slots.release();
      }
    } finally {
      // After the task, or after a wait its signal ended: a host nobody holds or waits for is dropped.
      if (slots.inUse === 0 && slots.waiting === 0) this.hosts.delete(host);
    }
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}
