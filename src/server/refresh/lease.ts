import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db, Dialect } from '../db/database.js';
import { acquireLeases, renewLeases, type LeasedFeed } from '../feeds/feeds.repository.js';
import type { Logger } from '../log.js';

/**
 * How long a feed's refresh lease lasts without renewal (docs/decisions.md "Leases and crashed workers"). The owner
 * renews its leases every third of this while a refresh runs, so a live worker keeps its feed however long the
 * fetch takes, and a dead worker's feed is free again within this time; the scheduler's next step (every 30 s)
 * then claims it, so a crashed worker's feeds are fetched again within about a minute.
 */
export const LEASE_MS = 30_000;

/** An id for this engine instance: host and pid for operators reading the feeds table, and random so it never repeats. */
export function leaseOwnerId(): string {
  return `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Leases asked for in one statement at most (acquire); more wait for the next. */
export const LEASE_BATCH_MAX = 64;

interface LeaseWanted {
  feedId: number;
  resolve: (feed: LeasedFeed | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * The leases of one engine instance: their owner id, their end for a given start, the heartbeat that renews
 * all of them in one statement while at least one refresh holds a lease, and the taking of leases, batched.
 */
export class LeaseKeeper {
  readonly owner: string;
  private held = 0;
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> = Promise.resolve();
  private wanted: LeaseWanted[] = [];
  private flushing = false;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly now: () => Date,
    private readonly log: Pick<Logger, 'warn'>,
    readonly durationMs: number = LEASE_MS,
    owner: string = leaseOwnerId(),
  ) {
    this.owner = owner.slice(0, 100);
  }

  /** The end of a lease taken at `from`. */
  until(from: Date): string {
    return new Date(from.getTime() + this.durationMs).toISOString();
  }

  /**
   * Takes the lease of one feed for this owner (feeds.repository acquireLease): the feed's row, or undefined when
   * another worker holds the lease or the feed is gone. The leases asked for within one turn of the event loop are
   * taken in one statement (acquireLeases): refreshes start together, as the queue refills the slots of the feeds a
   * write group just committed, and each lease was a round trip of its own (docs/decisions.md "Refresh engine: the
   * 304 round on PostgreSQL"). When that statement fails, each feed's lease is taken alone, so one feed's trouble
   * (or a deadlock) is that feed's only. The wait is one statement's, bounded like every query.
   */
  acquire(feedId: number): Promise<LeasedFeed | undefined> {
    return new Promise((resolve, reject) => {
      this.wanted.push({ feedId, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushing = false;
    while (this.wanted.length > 0) void this.take(this.wanted.splice(0, LEASE_BATCH_MAX));
  }

  private async take(batch: LeaseWanted[]): Promise<void> {
    // One feed asked for twice at once (refresh-now while its scheduled job starts) is leased once: the first asker
    // has it, the others are told another worker holds it, as the second of two statements would be.
    const first = new Map<number, LeaseWanted>();
    const again: LeaseWanted[] = [];
    for (const w of batch) {
      if (first.has(w.feedId)) again.push(w);
      else first.set(w.feedId, w);
    }
    for (const w of again) w.resolve(undefined);
    const now = this.now();
    const lease = (ids: number[]) => acquireLeases(this.db, this.dialect, ids, this.owner, now.toISOString(), this.until(now));
    try {
      const rows = await lease([...first.keys()]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const [id, w] of first) w.resolve(byId.get(id));
      return;
    } catch (err) {
      if (first.size === 1) {
        for (const w of first.values()) w.reject(err);
        return;
      }
    }
    await Promise.all(
      [...first].map(([id, w]) =>
        lease([id]).then(
          (rows) => w.resolve(rows[0]),
          (err: unknown) => w.reject(err),
        ),
      ),
    );
  }

  /** Marks a lease as held by a running refresh; the returned function ends that (call it once the lease is released). */
  hold(): () => void {
    if (this.held++ === 0) {
      this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.durationMs / 3)));
      this.timer.unref();
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.held === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** One heartbeat: extends every lease this owner still holds. A failed one is retried by the next. */
  renew(): Promise<void> {
    const now = this.now();
    this.renewing = this.renewing.then(() =>
      renewLeases(this.db, this.owner, now.toISOString(), this.until(now)).then(
        () => undefined,
        (err: unknown) => this.log.warn({ err }, 'could not renew feed leases'),
      ),
    );
    return this.renewing;
  }
}
