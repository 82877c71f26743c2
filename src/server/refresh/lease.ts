import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/database.js';
import { renewLeases } from '../feeds/feeds.repository.js';
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

/**
 * The leases of one engine instance: their owner id, their end for a given start, and the heartbeat that renews
 * all of them in one statement while at least one refresh holds a lease.
 */
export class LeaseKeeper {
  readonly owner: string;
  private held = 0;
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
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
