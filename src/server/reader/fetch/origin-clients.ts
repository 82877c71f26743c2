import type { Client, Dispatcher } from 'undici';

/**
 * The connections to one origin, as undici's Agent asks for them (its `factory`): up to `connections` Clients, one
 * connection each, made when a request finds none of them idle.
 *
 * undici's own per-origin Pool does the same, but every Pool carries a 2,048-slot request queue and its
 * bookkeeping: about 27 KB of heap per origin against a Client's 7 KB (docs/decisions.md "Process memory: idle and
 * peak"). The Agent keeps an origin's dispatcher as long as one of its connections is open (the keep-alive time),
 * and a round reaches a new host with nearly every feed, so that cost was paid for every host of the last ten
 * seconds: at 4,000 feeds a 304 round held 4,000 Pools, over 100 MB. A request waiting for a free connection queues
 * in the least busy Client (its queue is an ordinary array), which is what the Pool did with its own queue.
 *
 * And however fast a round goes, at most `maxOrigins` origins keep their connections: when a request goes to one
 * more, the connections of the origin used least recently that has nothing under way are closed (a browser keeps
 * a few hundred sockets in the same way). Without that cap the connections kept alive grew with the rate of the
 * round, which is the number of feeds for a 304 round (4,000 feeds in 2 s: 4,000 connections and their sockets,
 * about 13 KB each). What reuse is worth keeps: a redirect's target, a site page and its icon follow within
 * milliseconds, and a host with many feeds stays among the recent ones.
 */
export type OriginDispatcher = Dispatcher & { readonly closed: boolean; readonly destroyed: boolean };
export type OriginFactory = (origin: string | URL, options: Client.Options) => OriginDispatcher;

export function originClients(undici: { Client: typeof Client; Dispatcher: typeof Dispatcher }, connections: number, maxOrigins: number): OriginFactory {
  const max = Math.max(1, connections);
  // The origins with connections, the one that had a request last at the end (a Set keeps insertion order).
  const recent = new Set<OriginClients>();

  /** Closes the connections of the least recently used origin that has no request under way. */
  const evict = () => {
    for (const origin of recent) {
      if (origin.busy) continue;
      origin.release();
      return;
    }
  };

  class OriginClients extends undici.Dispatcher {
    private readonly clients: Client[] = [];
    private ended: 'closed' | 'destroyed' | null = null;

    constructor(
      private readonly origin: string | URL,
      private readonly options: Client.Options,
    ) {
      super();
    }

    get closed(): boolean {
      return this.ended !== null;
    }

    get destroyed(): boolean {
      return this.ended === 'destroyed';
    }

    /** An idle Client, else a new one while there are fewer than `max`, else the one with the fewest requests. */
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      // After close a Client of ours answers the request as undici does (ClientClosedError to the handler).
      if (this.ended) return (this.clients[0] ?? this.add()).dispatch(options, handler);
      const known = recent.delete(this);
      recent.add(this);
      if (!known && recent.size > maxOrigins) evict();
      let best: Client | null = null;
      let bestSize = Infinity;
      for (const client of this.clients) {
        const size = client.stats.size;
        if (size < bestSize) {
          best = client;
          bestSize = size;
        }
        if (size === 0) break;
      }
      if (!best || (bestSize > 0 && this.clients.length < max)) best = this.add();
      return best.dispatch(options, handler);
    }

    /** Whether a request is under way or waits on one of the connections. */
    get busy(): boolean {
      return this.clients.some((c) => c.stats.size > 0);
    }

    /**
     * Closes the connections (idle ones close at once); a later request opens a new one. When the last has closed,
     * the Agent hears of it and lets go of this origin.
     */
    release(): void {
      recent.delete(this);
      for (const client of this.clients.splice(0)) void client.close();
    }

    private add(): Client {
      const client = new undici.Client(this.origin, this.options);
      // The Agent counts connections through these events and lets go of the origin when the last one closed.
      client.on('connect', (origin, targets) => void this.emit('connect', origin, [this, ...targets]));
      client.on('disconnect', (origin, targets, err) => void this.emit('disconnect', origin, [this, ...targets], err));
      client.on('connectionError', (origin, targets, err) => void this.emit('connectionError', origin, [this, ...targets], err));
      // undici passes the targets to 'drain' listeners too, and the Agent's listener spreads them (its types leave
      // them out).
      const emit = this.emit.bind(this) as (event: 'drain', origin: URL, targets: Dispatcher[]) => boolean;
      client.on('drain', ((origin: URL, targets: Dispatcher[]) => void emit('drain', origin, [this, ...targets])) as (origin: URL) => void);
      this.clients.push(client);
      return client;
    }

    override close(): Promise<void>;
    override close(callback: () => void): void;
    override close(callback?: () => void): Promise<void> | void {
      this.ended ??= 'closed';
      recent.delete(this);
      if (this.clients.length === 0) this.add();
      const done = Promise.all(this.clients.filter((c) => !c.closed).map((c) => c.close())).then(() => {});
      if (!callback) return done;
      void done.then(callback);
    }

    override destroy(): Promise<void>;
    override destroy(err: Error | null): Promise<void>;
    override destroy(callback: () => void): void;
    override destroy(err: Error | null, callback: () => void): void;
    override destroy(errOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
      const err = typeof errOrCallback === 'function' ? null : (errOrCallback ?? null);
      const cb = typeof errOrCallback === 'function' ? errOrCallback : callback;
      this.ended = 'destroyed';
      recent.delete(this);
      if (this.clients.length === 0) this.add();
      const done = Promise.all(this.clients.filter((c) => !c.destroyed).map((c) => c.destroy(err))).then(() => {});
      if (!cb) return done;
      void done.then(cb);
    }
  }

  return (origin, options) => new OriginClients(origin, options);
}
