import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { claimDueFeeds, markFeedsDue, releaseStaleClaims } from '../feeds/feeds.repository.js';
import { searchVectorsAgree } from '../articles/articles.repository.js';
import { createFetcher, type Fetcher } from '../reader/fetch/index.js';
import type { LogRecord } from '../log.js';
import { documentWorkerAvailable, inlineProcessor, poolParsers, WorkerPoolProcessor, type DocumentProcessor, type ParsePool } from './document-pool.js';
import { Slots } from './slots.js';
import { HostLimiter } from './host-limiter.js';
import { LEASE_MS, LeaseKeeper } from './lease.js';
import { BullmqQueue, EmbeddedQueue, type RefreshQueue } from './queue.js';
import { refreshFeed, type RefreshContext, type RefreshOutcome } from './refresh-feed.js';
import { WriteGroups } from './write-groups.js';

/**
 * The refresh engine (docs/ARCHITECTURE.md "Shape of the system"): a scheduler that finds due feeds, a queue, and consumers that
 * refresh them through the reader pipeline.
 *
 *   role  | scheduler | consumer | queue
 *   all   | yes       | yes      | in-process, or BullMQ when REDIS_URL is set
 *   web   | no        | no       | enqueue only (refresh-now, new subscriptions); BullMQ when REDIS_URL is set
 *   worker| yes       | yes      | BullMQ when REDIS_URL is set (several workers share it), else in-process
 *
 * Several schedulers may run (one per worker): claiming due feeds is atomic in the database, and every refresh
 * takes the feed's lease first, so a feed is fetched once per round however many processes run.
 */
export type EngineRole = 'all' | 'web' | 'worker';
export type RefreshLog = RefreshContext['log'];

/** After a failed comparison of search vectors with PostgreSQL, the next attempt waits this long. */
const VECTORS_RETRY_MS = 60_000;

/** No log at all (tests that give the engine none). */
const SILENT: RefreshLog = { info: () => {}, warn: () => {}, error: () => {} };

export interface RefreshEngine {
  readonly queue: RefreshQueue;
  /** The process's HTTP client for feeds (SSRF-guarded); discovery and article extraction use it too. */
  readonly fetcher: Fetcher;
  /**
   * The process's worker pool (document-pool.ts): article extraction, discovery and OPML import parse on it, in
   * every role, a web-only process included (its workers start on first use and end when idle).
   */
  readonly pool: ParsePool;
  /** Starts the scheduler and consumers of this role. */
  start(): void;
  /**
   * Queues feeds for a refresh as soon as possible (new subscription, "refresh now"). Bounded: when the queue
   * cannot take them within REDIS_CALL_TIMEOUT_MS, they are made due in the database instead.
   */
  enqueue(feedIds: number[]): Promise<void>;
  /** Refreshes one feed now in this process and says how it went (refresh-now that waits, tests, benchmark). */
  refreshFeed(feedId: number): Promise<RefreshOutcome>;
  /** One scheduler step: claims due feeds and queues them; returns how many. */
  schedule(): Promise<number>;
  /** Stops the scheduler, lets running refreshes finish (or hand their feed back after the grace period). */
  stop(graceMs?: number): Promise<void>;
}

export interface RefreshEngineDeps {
  config: Readonly<Config>;
  database: Database;
  role: EngineRole;
  log?: RefreshLog;
  now?: () => Date;
  /** Tests pass their own fetcher (e.g. one that allows 127.0.0.1), queue or document processor. */
  fetcher?: Fetcher;
  queue?: RefreshQueue;
  processor?: DocumentProcessor;
  pool?: WorkerPoolProcessor;
  /** The document slots (default REFRESH_CONCURRENCY of them); tests pass their own to see what takes one. */
  documents?: Slots;
  /** Scheduler period in ms (default 30 s). */
  tickMs?: number;
  /** Feeds claimed per scheduler step (default SCHEDULE_BATCH); tests. */
  scheduleBatch?: number;
  /** Refresh lease length in ms (default LEASE_MS) and this instance's owner id (default host:pid:random); tests. */
  leaseMs?: number;
  leaseOwner?: string;
  /** PostgreSQL: whether it makes search vectors as the parse threads do (default articles.repository.ts searchVectorsAgree); tests. */
  searchVectorsAgree?: typeof searchVectorsAgree;
}

/** The User-Agent of every feed request: what we are and where we run, so publishers can tell (polite crawling). */
export const userAgent = (publicUrl: string) => `Feeder/0.1 (feed reader; +${publicUrl})`;
/** Feeds claimed per scheduler step; more wait for the next step (30 s later) or the step after a drained queue. */
export const SCHEDULE_BATCH = 500;
/** How long a claimed feed may wait in the queue before the scheduler considers its job lost. */
export const QUEUED_GRACE_MS = 15 * 60_000;
/**
 * Refreshes under way per document slot (REFRESH_CONCURRENCY), at most REQUESTS_MAX: the others are conditional
 * requests that the server answers 304 without a document, which wait on the network, not on the CPU or memory
 * (docs/decisions.md "Refresh engine: requests and documents in flight").
 */
export const REQUESTS_PER_DOCUMENT_SLOT = 4;
const REQUESTS_MAX = 256;
/** How often at most a consumer asks whether the queue ran low while more feeds are due (engine refill). */
const REFILL_CHECK_MS = 250;

/**
 * How the refresh's writes are grouped into transactions (write-groups.ts): at most half the document slots wait
 * for a group to fill, for at most WRITE_GROUP_WINDOW_MS. A 304's row write is a batch item, not a job: a group takes
 * one from every refresh under way (one statement for them all; docs/decisions.md "Refresh engine: the 304 round on
 * PostgreSQL"). SQLite has one writer; on PostgreSQL two groups at once let
 * its backends use both cores while Node works. SQLite's window is long enough for a group to fill at the rate a
 * first round stores new feeds (40–100 a second): what a commit costs there grows with the pages it writes, not the
 * feeds, and its full-text index gets one new segment per transaction (docs/decisions.md "Refresh engine: the main
 * thread's cost"); PostgreSQL's groups form while earlier ones run.
 */
const WRITE_GROUP_WINDOW_MS = { sqlite: 100, postgres: 20 } as const;
const WRITE_GROUPS_AT_ONCE = { sqlite: 1, postgres: 2 } as const;

/** Icon look-ups at once per process, and how many may wait (more are skipped: the next refresh tries again). */
const BACKGROUND_CONCURRENCY = 4;
const BACKGROUND_MAX_WAITING = 1000;

/** A small bounded pool for follow-up work that must not hold a feed's job (icons). */
class BackgroundPool {
  private running = 0;
  private readonly waiting: Array<() => Promise<void>> = [];
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  run(task: () => Promise<void>): void {
    if (this.waiting.length >= this.maxWaiting) return;
    this.waiting.push(task);
    this.pump();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift()!;
      this.running++;
      task()
        .catch(() => {})
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
    if (this.running === 0 && this.waiting.length === 0) for (const resolve of this.idle) resolve();
  }

  /** Drops what waits and gives running tasks up to `ms` to finish. */
  async drain(ms: number): Promise<void> {
    this.waiting.length = 0;
    if (this.running === 0) return;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    this.idle.add(done);
    const timer = new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
    await Promise.race([finished, timer]);
    this.idle.delete(done);
  }
}

export function createRefreshEngine(deps: RefreshEngineDeps): RefreshEngine {
  const { config, database, role } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? SILENT;
  const fetcher =
    deps.fetcher ??
    createFetcher({
      timeoutMs: config.feeds.fetchTimeoutMs,
      maxBytes: config.feeds.maxBytes,
      allowPrivateHosts: config.feeds.allowPrivateHosts,
      userAgent: userAgent(config.publicUrl),
    });
  const queue: RefreshQueue = deps.queue ?? (config.redisUrl ? new BullmqQueue(config.redisUrl) : new EmbeddedQueue());
  // One pool per process, at least one worker even with REFRESH_PARSE_THREADS=0: the requests' parsing (extraction,
  // discovery, OPML) never runs on the main thread (docs/decisions.md "Worker pool").
  // The threads' log records go out through the engine's log (log.ts: the process's one logger).
  const threadLog = (r: LogRecord) =>
    log[r.level === 'warn' ? 'warn' : r.level === 'error' || r.level === 'fatal' ? 'error' : 'info']({ component: 'parse-thread', ...r.fields }, r.msg);
  const pool = deps.pool ?? new WorkerPoolProcessor(Math.max(1, config.feeds.parseThreads), undefined, {}, threadLog);
  // A refresh's documents go to the pool too when the compiled worker is there (dist/); from TypeScript sources
  // (the engine's tests) and with REFRESH_PARSE_THREADS=0 they run inline, on the refresh's own thread.
  const processor = deps.processor ?? (role !== 'web' && config.feeds.parseThreads > 0 && documentWorkerAvailable() ? pool : inlineProcessor);
  const background = new BackgroundPool(BACKGROUND_CONCURRENCY, BACKGROUND_MAX_WAITING);
  const documents = deps.documents ?? new Slots(config.feeds.concurrency);
  const requestsAtOnce = Math.min(REQUESTS_MAX, config.feeds.concurrency * REQUESTS_PER_DOCUMENT_SLOT);
  // Refreshes under way in this process: a write group does not wait for company that cannot come (a refresh
  // waiting for a document slot brings nothing before a group has committed).
  let refreshing = 0;
  const writes = new WriteGroups(database.db, {
    maxJobs: Math.max(1, Math.floor(config.feeds.concurrency / 2)),
    maxEntries: requestsAtOnce,
    concurrency: WRITE_GROUPS_AT_ONCE[database.dialect],
    windowMs: WRITE_GROUP_WINDOW_MS[database.dialect],
    writers: () => refreshing - documents.waiting,
  });
  // PostgreSQL: the parse threads make the search vectors when this database computes them as they do; asked once,
  // and after a failed attempt again a minute later (docs/decisions.md "Refresh engine: the search vector on the
  // parse threads").
  let vectorsAgree: Promise<boolean> | null = null;
  // When the last comparison failed (0: it has not).
  let vectorsFailedAt = 0;
  const compareVectors = deps.searchVectorsAgree ?? searchVectorsAgree;
  const searchVectors = (): Promise<boolean> => {
    if (vectorsAgree && (vectorsFailedAt === 0 || now().getTime() - vectorsFailedAt < VECTORS_RETRY_MS)) return vectorsAgree;
    vectorsFailedAt = 0;
    vectorsAgree = compareVectors(database.db).then(
      (agree) => {
        if (!agree) log.warn({}, 'PostgreSQL computes search vectors differently from the parse threads; it computes them itself');
        return agree;
      },
      (err: unknown) => {
        vectorsFailedAt = now().getTime();
        log.warn({ err }, 'could not compare search vectors with PostgreSQL; it computes them itself for now');
        return false;
      },
    );
    return vectorsAgree;
  };
  const ctx: RefreshContext = {
    database,
    fetcher,
    hostLimiter: new HostLimiter(config.feeds.perHost),
    processor,
    leases: new LeaseKeeper(database.db, database.dialect, now, log, deps.leaseMs ?? LEASE_MS, deps.leaseOwner),
    config: config.feeds,
    now,
    log,
    background: (task) => background.run(task),
    parsers: poolParsers(pool),
    writes,
    documents,
    ...(database.dialect === 'postgres' ? { searchVectors } : {}),
  };
  const refresh = async (feedId: number, signal?: AbortSignal): Promise<RefreshOutcome> => {
    refreshing++;
    try {
      return await refreshFeed(ctx, feedId, signal);
    } finally {
      refreshing--;
      writes.writerDone();
    }
  };

  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<unknown> = Promise.resolve();
  let stopped = false;

  /**
   * Queues feeds; when the queue cannot take them (Redis away or too slow: BullmqQueue bounds every call), the
   * feeds are made due in the database instead, so a scheduler takes them once the queue is back, and the caller
   * (a subscription, "refresh now") answers at once (docs/decisions.md "Redis outages"). False when it fell back.
   */
  const enqueueOrMarkDue = async (feedIds: number[], options: { urgent?: boolean }, at: Date): Promise<boolean> => {
    try {
      await queue.enqueue(feedIds, options);
      return true;
    } catch (err) {
      log.warn({ count: feedIds.length, err }, 'could not queue feeds; they are due in the database for the scheduler instead');
      await markFeedsDue(database.db, feedIds, at.toISOString());
      return false;
    }
  };

  const batch = deps.scheduleBatch ?? SCHEDULE_BATCH;
  const schedule = async (): Promise<number> => {
    const at = now();
    let total = 0;
    // Keep claiming while whole batches come back, but never queue more than the consumers can start on soon:
    // the rest stays due in the database, where it costs nothing.
    for (;;) {
      const ids = await claimDueFeeds(database.db, database.dialect, at.toISOString(), new Date(at.getTime() + QUEUED_GRACE_MS).toISOString(), batch, ctx.leases.owner);
      if (!(await enqueueOrMarkDue(ids, {}, at))) break;
      total += ids.length;
      if (ids.length < batch) break;
      if ((await queue.pending()) >= batch * 4) {
        // More are due: the consumers ask for the next step once the queue runs low (refill below).
        backlog = true;
        break;
      }
    }
    return total;
  };

  /**
   * Due feeds left in the database by a full step are claimed as soon as the queue runs low, not at the next
   * period: a round of 304s drains four batches in a few seconds and would otherwise idle until the next tick.
   * Asked at most every REFILL_CHECK_MS (BullMQ's pending() is a Redis call).
   */
  let backlog = false;
  let refillCheckedAt = 0;
  let refillTimer: NodeJS.Timeout | null = null;
  const refill = () => {
    if (!backlog || stopped || refillTimer) return;
    refillTimer = setTimeout(
      () => {
        refillTimer = null;
        // A step under way asks again when it ends (tick).
        if (!backlog || stopped || stepping) return;
        refillCheckedAt = Date.now();
        void queue.pending().then(
          (n) => {
            if (n >= batch || !backlog || stopped) return;
            backlog = false;
            tick();
          },
          () => {},
        );
      },
      Math.max(0, refillCheckedAt + REFILL_CHECK_MS - Date.now()),
    );
    refillTimer.unref();
  };

  let stepping = false;
  const tick = () => {
    // A step that outlasts the period (a slow database) is not overtaken by the next one.
    if (stepping) return;
    stepping = true;
    ticking = schedule()
      .catch((err: unknown) => log.error({ err }, 'refresh scheduler step failed'))
      .finally(() => {
        stepping = false;
        refill();
      });
  };

  return {
    queue,
    fetcher,
    pool,
    start() {
      if (role === 'web') return;
      queue.consume(
        async (feedId, signal) => {
          const outcome = await refresh(feedId, signal);
          if (outcome.status === 'error') log.info({ feedId, code: outcome.code, message: outcome.message }, 'feed refresh failed');
          refill();
        },
        requestsAtOnce,
        // A further refresh starts only while none waits for a document slot: new feeds (a first round, an import)
        // then run about REFRESH_CONCURRENCY at once, as each takes a slot, and only conditional requests go beyond.
        () => documents.waiting === 0,
      );
      if (queue.kind === 'embedded') {
        // The in-process queue of a process that died (or was stopped with feeds still waiting) is gone with it:
        // what it had claimed is due again now, not after the claim's 15 minutes (docs/decisions.md "Leases and
        // crashed workers"). BullMQ keeps its jobs in Redis, so a worker there has nothing to take back.
        stepping = true;
        ticking = releaseStaleClaims(database.db, ctx.leases.owner, now().toISOString())
          .then((n) => n > 0 && log.info({ count: n }, 'feeds claimed by an earlier process are due again'))
          .catch((err: unknown) => log.warn({ err }, 'could not take back earlier claims'))
          .finally(() => {
            stepping = false;
            tick();
          });
      } else tick();
      timer = setInterval(tick, deps.tickMs ?? 30_000);
      timer.unref();
    },
    async enqueue(feedIds) {
      // A lone `feeder web` without Redis has nobody consuming its in-process queue: it makes the feeds due
      // instead, and the worker's scheduler takes them within one step.
      if (role === 'web' && queue.kind === 'embedded') await markFeedsDue(database.db, feedIds, now().toISOString());
      else await enqueueOrMarkDue(feedIds, { urgent: true }, now());
    },
    refreshFeed: (feedId) => refresh(feedId),
    schedule,
    async stop(graceMs = 10_000) {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      if (refillTimer) clearTimeout(refillTimer);
      await ticking;
      await queue.close(graceMs);
      // Icon look-ups are not worth holding shutdown for: whatever is unfinished is retried at the next refresh.
      await background.drain(graceMs);
      await processor.close();
      if (processor !== pool) await pool.close();
      await fetcher.close();
    },
  };
}
