import type { Db } from '../db/database.js';

/**
 * One feed's writes: database work only (no fetch, no wait on anything else), safe to run again after a rollback.
 * `end` takes writes that are better done once for the whole transaction, after every job's own (TransactionEnd).
 */
export type WriteJob<T> = (trx: Db, end: TransactionEnd) => Promise<T>;

/**
 * Writes the jobs of one transaction leave for its end: each `write` runs once, after every job, with all the items
 * the jobs queued for it, and commits with them. SQLite's full-text index is written this way
 * (articles.repository.ts): FTS5 keeps new entries in memory until the transaction's next statement savepoint,
 * then writes them as a new index segment and merges segments, so entries written last make one segment per
 * transaction instead of one per feed (docs/decisions.md "Refresh engine: the main thread's cost").
 */
export class TransactionEnd {
  private readonly batches = new Map<(trx: Db, items: never[]) => Promise<void>, unknown[]>();

  add<I>(write: (trx: Db, items: I[]) => Promise<void>, items: I[]): void {
    if (items.length === 0) return;
    let batch = this.batches.get(write);
    if (!batch) this.batches.set(write, (batch = []));
    for (const item of items) batch.push(item);
  }

  async run(trx: Db): Promise<void> {
    for (const [write, items] of this.batches) await write(trx, items as never[]);
    this.batches.clear();
  }
}

/**
 * A write many feeds make the same way, each with one item (the row of a 304: feeds.repository recordNotModified):
 * one statement writes the items of a whole group. Being one statement, it is atomic without a transaction, so a
 * group of nothing else runs it alone (WriteGroups.add); in a group with jobs it runs at the transaction's end.
 * Each item must be safe to write again after a rollback, and items in one call must name distinct rows.
 */
export type BatchWrite<I> = (db: Db, items: I[]) => Promise<void>;

/** Runs a job and then what it left for the end, in `trx`: a transaction of its own. */
export async function runWriteJob<T>(trx: Db, job: WriteJob<T>): Promise<T> {
  const end = new TransactionEnd();
  const result = await job(trx, end);
  await end.run(trx);
  return result;
}

type Pending = { resolve: (value: unknown) => void; reject: (err: unknown) => void } & (
  { job: WriteJob<unknown>; batch?: undefined; item?: undefined } | { job?: undefined; batch: BatchWrite<unknown>; item: unknown }
);

/**
 * Group commit for the refresh's writes (docs/decisions.md "Refresh engine: storing in groups"): the feeds whose
 * writes arrive while a transaction runs are written together in the next one. A commit is most of what storing a
 * feed costs on SQLite (its WAL frames: every page the feed's rows touched, index pages included) and a WAL flush on
 * PostgreSQL; feeds committed together share those pages and that flush (and on SQLite one full-text segment:
 * TransactionEnd). A group waits for company at most WriteGroupOptions.windowMs, never longer than it takes half
 * the refresh's slots to fill it, and not at all once every refresh under way has brought its job (`writers`).
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
  /**
   * Entries per group at most, jobs and batch items together (default maxJobs): a group this full starts at once.
   * Batch items do not count towards maxJobs: each is a row of one statement, cheap to write and to write again.
   */
  maxEntries?: number;
  /** Groups running at once: SQLite has one writer; PostgreSQL spreads them over its pool's connections. */
  concurrency: number;
  /**
   * How long the first job of a group waits for others. SQLite runs a whole transaction synchronously, so no job
   * can arrive while one runs: without a window every feed would commit alone. 0: start at once (groups then form
   * only while earlier groups run, as on PostgreSQL, whose queries are asynchronous).
   */
  windowMs: number;
  /**
   * How many writers may still bring jobs (the refreshes under way, those whose jobs wait included): a group starts
   * at once when every one of them has brought its job, so a lone refresh (refresh-now, a quiet server) does not
   * wait out the window. Without it, only maxJobs and the window decide.
   */
  writers?: () => number;
}

export class WriteGroups {
  private readonly pending: Pending[] = [];
  /** How many of `pending` are jobs (the rest are batch items). */
  private pendingJobs = 0;
  private running = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: WriteGroupOptions,
  ) {}

  /** Runs `job` in the next group's transaction; settles after that transaction committed (or failed). */
  run<T>(job: WriteJob<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.push({ job, resolve: resolve as (value: unknown) => void, reject }));
  }

  /**
   * Writes `item` with `batch`, together with the items of the same batch write in the next group: one statement
   * when the group holds nothing else (no transaction), else at the end of the group's transaction. Settles once
   * that is committed (or failed).
   */
  add<I>(batch: BatchWrite<I>, item: I): Promise<void> {
    return new Promise<void>((resolve, reject) => this.push({ batch: batch as BatchWrite<unknown>, item, resolve: resolve as (value: unknown) => void, reject }));
  }

  private push(p: Pending): void {
    this.pending.push(p);
    if (p.job) this.pendingJobs++;
    if (this.full()) this.pump();
    else this.timer ??= setTimeout(() => this.pump(), this.options.windowMs);
  }

  /** A writer finished without a job (skipped, failed) or after its job: the group may have all it can get. */
  writerDone(): void {
    if (this.pending.length > 0 && this.full()) this.pump();
  }

  private full(): boolean {
    const { maxJobs, windowMs, writers } = this.options;
    return this.pendingJobs >= maxJobs || this.pending.length >= this.maxEntries || windowMs <= 0 || (writers !== undefined && this.pending.length >= writers());
  }

  private get maxEntries(): number {
    return Math.max(this.options.maxJobs, this.options.maxEntries ?? this.options.maxJobs);
  }

  /** The next group: entries in the order they came, up to maxJobs jobs and maxEntries in all. */
  private nextGroup(): Pending[] {
    let jobs = 0;
    let n = 0;
    while (n < this.pending.length && n < this.maxEntries) {
      if (this.pending[n].job) {
        if (jobs === this.options.maxJobs) break;
        jobs++;
      }
      n++;
    }
    this.pendingJobs -= jobs;
    return this.pending.splice(0, n);
  }

  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running < this.options.concurrency && this.pending.length > 0) {
      const group = this.nextGroup();
      this.running++;
      void this.commit(group).finally(() => {
        this.running--;
        // What arrived meanwhile has waited a transaction's time already.
        if (this.pending.length > 0) this.pump();
      });
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    const batch = group[0].batch;
    if (batch && group.every((p) => p.batch === batch)) return this.commitBatch(batch, group);
    if (group.length > 1) {
      let results: unknown[] | undefined;
      try {
        results = await this.db.transaction().execute(async (trx) => {
          const end = new TransactionEnd();
          const out: unknown[] = [];
          for (const p of group) {
            if (p.job) out.push(await p.job(trx, end));
            else {
              end.add(p.batch, [p.item]);
              out.push(undefined);
            }
          }
          await end.run(trx);
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
        if (p.job) p.resolve(await this.db.transaction().execute((trx) => runWriteJob(trx, p.job)));
        else p.resolve(await p.batch(this.db, [p.item]));
      } catch (err) {
        p.reject(err);
      }
    }
  }

  /** A group of one batch write's items only: one statement, and when it fails, each item alone. */
  private async commitBatch(batch: BatchWrite<unknown>, group: Pending[]): Promise<void> {
    try {
      await batch(
        this.db,
        group.map((p) => p.item),
      );
      for (const p of group) p.resolve(undefined);
      return;
    } catch (err) {
      if (group.length === 1) {
        group[0].reject(err);
        return;
      }
    }
    for (const p of group) {
      try {
        await batch(this.db, [p.item]);
        p.resolve(undefined);
      } catch (err) {
        p.reject(err);
      }
    }
  }
}
