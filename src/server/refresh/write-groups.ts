import type { Db } from '../db/database.js';

/** One feed's writes: database work only (no fetch, no wait on anything else), safe to run again after a rollback. */
export type WriteJob<T> = (trx: Db) => Promise<T>;

interface Pending {
  job: WriteJob<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for the refresh's writes (docs/decisions.md "Refresh engine: storing in groups"): the feeds whose
 * writes arrive while a transaction runs are written together in the next one. A commit is most of what storing a
 * feed costs on SQLite (its WAL frames: every page the feed's rows touched, index pages included) and a WAL flush on
 * PostgreSQL; feeds committed together share those pages and that flush. A group waits a few milliseconds for
 * company at most (WriteGroupOptions.windowMs), never longer than it takes half the refresh's slots to fill it.
 *
 * Every feed still becomes visible all at once or not at all (docs/ARCHITECTURE.md "A refresh, step by step" 5): a
 * job's writes commit with its group, and its promise settles only after that commit, so the refresh releases its
 * lease (the row write is in the job) only once its data is stored. When anything in a group fails, the group is
 * rolled back and each of its jobs runs again in a transaction of its own, so one feed's error (or a deadlock with
 * the lease heartbeat on PostgreSQL) is that feed's alone and no other feed loses its writes.
 */
export interface WriteGroupOptions {
  /** Jobs per group at most: a full group starts at once (and bounds what is redone when one job fails). */
  maxJobs: number;
  /** Groups running at once: SQLite has one writer; PostgreSQL spreads them over its pool's connections. */
  concurrency: number;
  /**
   * How long the first job of a group waits for others. SQLite runs a whole transaction synchronously, so no job
   * can arrive while one runs: without a window every feed would commit alone. 0: start at once (groups then form
   * only while earlier groups run, as on PostgreSQL, whose queries are asynchronous).
   */
  windowMs: number;
}

export class WriteGroups {
  private readonly pending: Pending[] = [];
  private running = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: WriteGroupOptions,
  ) {}

  /** Runs `job` in the next group's transaction; settles after that transaction committed (or failed). */
  run<T>(job: WriteJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ job, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length >= this.options.maxJobs || this.options.windowMs <= 0) this.pump();
      else this.timer ??= setTimeout(() => this.pump(), this.options.windowMs);
    });
  }

  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running < this.options.concurrency && this.pending.length > 0) {
      const group = this.pending.splice(0, this.options.maxJobs);
      this.running++;
      void this.commit(group).finally(() => {
        this.running--;
        // What arrived meanwhile has waited a transaction's time already.
        if (this.pending.length > 0) this.pump();
      });
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    if (group.length > 1) {
      let results: unknown[] | undefined;
      try {
        results = await this.db.transaction().execute(async (trx) => {
          const out: unknown[] = [];
          for (const p of group) out.push(await p.job(trx));
          return out;
        });
      } catch {
        // Rolled back as a whole: each job runs again alone, below.
      }
      if (results) {
        const done = results;
        group.forEach((p, i) => p.resolve(done[i]));
        return;
      }
    }
    for (const p of group) {
      try {
        p.resolve(await this.db.transaction().execute(p.job));
      } catch (err) {
        p.reject(err);
      }
    }
  }
}
