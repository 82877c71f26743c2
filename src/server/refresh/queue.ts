import type { Queue, Worker } from 'bullmq';
import { setMaxListeners } from 'node:events';
import { createRequire } from 'node:module';
import { LEASE_MS } from './lease.js';

/**
 * bullmq and what it pulls in (ioredis, msgpackr, cron-parser, luxon, … some 250 modules) cost every process that
 * loads them several MB, yet only the scaled-out shape (REDIS_URL set) uses them, and bench/README.md "Budgets" caps `feeder all`
 * at 150 MB. So bullmq is loaded on first use; its main entry is CommonJS, so a synchronous require keeps
 * `new BullmqQueue(…)` synchronous. The type import above is erased at build time.
 */
const require = createRequire(import.meta.url);
const loadBullmq = (): typeof import('bullmq') => require('bullmq');

/**
 * The queue's shutdown signal is handed to every running handler, and each fetch adds its own abort listener, so
 * up to four times REFRESH_CONCURRENCY listeners are attached at once by design (engine.ts REQUESTS_PER_DOCUMENT_SLOT);
 * Node's default limit of 10 would print a MaxListenersExceededWarning for what is not a leak.
 */
function shutdownController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/**
 * The refresh queue (docs/ARCHITECTURE.md "Shape of the system"): feed ids go in, a consumer refreshes them. Two implementations behind one
 * interface: in-process for the embedded shape (`feeder all` without REDIS_URL), BullMQ on Redis when scaled out
 * (`feeder web` only enqueues, `feeder worker` processes consume). Either way a feed waiting in the queue is
 * there once (deduplicated by feed id), and the refresh lease (feeds.repository acquireLease) makes sure two
 * consumers never fetch the same feed at once.
 */
export interface RefreshQueue {
  readonly kind: 'embedded' | 'bullmq';
  /** Adds feeds to the queue; a feed already waiting is not added twice. `urgent` goes before scheduled work. */
  enqueue(feedIds: number[], options?: { urgent?: boolean }): Promise<void>;
  /**
   * Starts consuming with at most `concurrency` handlers at once. `admit`, when given, is asked before each further
   * handler starts: while it says no, no more start (the in-process queue; BullMQ's workers run `concurrency`).
   */
  consume(handler: (feedId: number, signal: AbortSignal) => Promise<void>, concurrency: number, admit?: () => boolean): void;
  /** How many feeds wait or run (embedded: exact; BullMQ: waiting + active across all workers). */
  pending(): Promise<number>;
  /**
   * Stops taking work and waits for the running handlers. After `graceMs` their signal is aborted, so a handler
   * returns its feed (gives the lease back) instead of holding shutdown up.
   */
  close(graceMs?: number): Promise<void>;
}

export const BULLMQ_QUEUE_NAME = 'feeder-refresh';

/**
 * The longest a request or a scheduler step waits for Redis on the producer side (enqueue, pending): BullMQ waits
 * for a connection that is not there forever, so every call is raced against this (docs/ARCHITECTURE.md "Rules" 15). A
 * refused call is answered by the engine, which makes the feeds due in the database instead (docs/decisions.md
 * "Redis outages").
 */
export const REDIS_CALL_TIMEOUT_MS = 2000;

function bounded<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: Redis did not answer within ${ms} ms`)), ms);
  });
  // The call may still fail after the timeout won; that late failure is nobody's to handle.
  call.catch(() => {});
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}

/** The in-process queue: a FIFO (urgent ones first) with a set of waiting ids, drained by a bounded pool. */
export class EmbeddedQueue implements RefreshQueue {
  readonly kind = 'embedded' as const;
  private readonly waiting: number[] = [];
  private readonly queued = new Set<number>();
  private readonly running = new Map<number, Promise<void>>();
  private handler: ((feedId: number, signal: AbortSignal) => Promise<void>) | null = null;
  private concurrency = 1;
  private admit: () => boolean = () => true;
  private closed = false;
  private readonly abort = shutdownController();
  private idleWaiters: Array<() => void> = [];

  async enqueue(feedIds: number[], options: { urgent?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    const fresh: number[] = [];
    for (const id of feedIds) {
      // A feed being refreshed right now is not queued again: the running refresh is as fresh as it gets.
      if (this.queued.has(id) || this.running.has(id)) continue;
      this.queued.add(id);
      fresh.push(id);
    }
    if (options.urgent) this.waiting.unshift(...fresh);
    else this.waiting.push(...fresh);
    this.pump();
  }

  consume(handler: (feedId: number, signal: AbortSignal) => Promise<void>, concurrency: number, admit?: () => boolean): void {
    this.handler = handler;
    this.concurrency = Math.max(1, concurrency);
    if (admit) this.admit = admit;
    this.pump();
  }

  async pending(): Promise<number> {
    return this.waiting.length + this.running.size;
  }

  /** Resolves when nothing waits or runs (tests and the benchmark). */
  idle(): Promise<void> {
    if (this.waiting.length === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    // A handler that finishes asks again (finally below), so a refused start is only put off, never lost.
    while (!this.closed && this.handler && this.running.size < this.concurrency && this.waiting.length > 0 && (this.running.size === 0 || this.admit())) {
      const id = this.waiting.shift()!;
      this.queued.delete(id);
      const run = this.handler(id, this.abort.signal)
        .catch(() => {
          /* handlers record their own errors on the feed */
        })
        .finally(() => {
          this.running.delete(id);
          this.pump();
        });
      this.running.set(id, run);
    }
    if (this.waiting.length === 0 && this.running.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  async close(graceMs = 10_000): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    this.queued.clear();
    const timer = setTimeout(() => this.abort.abort(), graceMs);
    try {
      await Promise.all(this.running.values());
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * BullMQ on Redis. The job id is the feed id, so a feed that already waits is not queued twice; finished jobs are
 * removed at once so the feed can be queued again for its next check. Jobs carry no payload beyond the id: the
 * consumer reads the current state from the database.
 */
export class BullmqQueue implements RefreshQueue {
  readonly kind = 'bullmq' as const;
  private readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly abort = shutdownController();

  private readonly timeoutMs: number;

  constructor(
    private readonly redisUrl: string,
    private readonly name = BULLMQ_QUEUE_NAME,
    options: { timeoutMs?: number } = {},
  ) {
    const { Queue } = loadBullmq();
    this.timeoutMs = options.timeoutMs ?? REDIS_CALL_TIMEOUT_MS;
    // The producer's connection fails fast while Redis is away (no offline queue, one retry, bounded connect
    // and commands), as BullMQ recommends for a Queue; only the Worker's blocking connection must wait.
    this.queue = new Queue(name, {
      connection: {
        url: redisUrl,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: this.timeoutMs,
        commandTimeout: this.timeoutMs,
      },
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
    });
    // Without a listener a connection error would be thrown as an 'error' event and end the process.
    this.queue.on('error', () => {});
  }

  async enqueue(feedIds: number[], options: { urgent?: boolean } = {}): Promise<void> {
    if (feedIds.length === 0) return;
    await bounded(this.add(feedIds, options), this.timeoutMs, 'enqueue');
  }

  private async add(feedIds: number[], options: { urgent?: boolean }): Promise<void> {
    await this.queue.addBulk(
      feedIds.map((id) => ({
        name: 'refresh',
        data: { feedId: id },
        // Urgent work goes to the front of the wait list (LIFO). Not `priority`: in BullMQ a job without a
        // priority runs before every prioritised one, so `priority: 1` would put it behind scheduled work.
        opts: { jobId: `feed-${id}`, ...(options.urgent ? { lifo: true } : {}) },
      })),
    );
  }

  consume(handler: (feedId: number, signal: AbortSignal) => Promise<void>, concurrency: number): void {
    const { Worker } = loadBullmq();
    this.worker = new Worker(
      this.name,
      async (job) => {
        const feedId = Number((job.data as { feedId?: unknown }).feedId);
        if (Number.isInteger(feedId) && feedId > 0) await handler(feedId, this.abort.signal);
      },
      {
        connection: { url: this.redisUrl, maxRetriesPerRequest: null },
        concurrency: Math.max(1, concurrency),
        // A job whose worker died is found stalled (lock run out, checked every 15 s) within 45 s and handed to
        // another worker; by then the feed's lease (LEASE_MS, renewed as often as this lock) has run out too, or
        // runs out soon after, and the feed is due for the scheduler (docs/decisions.md "Leases and crashed workers").
        lockDuration: LEASE_MS,
        stalledInterval: LEASE_MS / 2,
      },
    );
    // Connection hiccups are retried by ioredis; an 'error' event without a listener would crash the process.
    this.worker.on('error', () => {});
  }

  async pending(): Promise<number> {
    const counts = await bounded(this.queue.getJobCounts('waiting', 'active', 'delayed'), this.timeoutMs, 'pending');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  async close(graceMs = 10_000): Promise<void> {
    const timer = setTimeout(() => this.abort.abort(), graceMs);
    try {
      // close() waits for active jobs; the abort makes them return their feed after the grace period.
      if (this.worker) await this.worker.close();
    } finally {
      clearTimeout(timer);
      await bounded(this.queue.close(), this.timeoutMs, 'close').catch(() => {});
    }
  }

  /** Removes every job of this queue (tests use their own queue name). */
  async obliterate(): Promise<void> {
    await this.queue.obliterate({ force: true });
  }
}
