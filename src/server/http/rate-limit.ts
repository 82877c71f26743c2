import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import { CODES } from '../../common/codes.js';
import type { Config } from '../config.js';

/**
 * ioredis is only needed when REDIS_URL is set; loading it anyway costs the embedded shape memory that
 * bench/README.md "Budgets" (`feeder all` ≤ 150 MB) does not spare. It is CommonJS, so it is required synchronously on first use.
 */
const require = createRequire(import.meta.url);
const loadIoredis = (): typeof import('ioredis') => require('ioredis');

/**
 * Fixed-window rate limits with one interface over two stores (docs/ARCHITECTURE.md "Shape of the system"): in memory for the embedded shape,
 * Redis when REDIS_URL is set, so several `feeder web` processes share their counts.
 * Used by the account endpoints here and by the public API (100/min and 5,000/day per user) later.
 */
export interface RateLimitResult {
  /** False once the window holds more than `limit` hits (this one included). */
  allowed: boolean;
  /** Hits left in the window after this one. */
  remaining: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

export interface RateLimitStore {
  /** Counts one hit against `key` and says whether it is within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** The window of `key` without counting: `allowed` says whether one more hit would be. */
  peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

const result = (count: number, limit: number, resetMs: number): RateLimitResult => ({
  allowed: count <= limit,
  remaining: Math.max(0, limit - count),
  resetMs: Math.max(0, resetMs),
});

/** A window seen without a hit: allowed while one more hit fits. */
const peekResult = (count: number, limit: number, resetMs: number): RateLimitResult => ({
  allowed: count < limit,
  remaining: Math.max(0, limit - count),
  resetMs: Math.max(0, resetMs),
});

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private hitsSinceSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    if (++this.hitsSinceSweep >= 1000) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return result(w.count, limit, w.resetAt - now);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const w = this.windows.get(key);
    return w && w.resetAt > now ? peekResult(w.count, limit, w.resetAt - now) : peekResult(0, limit, windowMs);
  }

  /** Drops ended windows so the map does not grow with every address ever seen. */
  private sweep(now: number): void {
    this.hitsSinceSweep = 0;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

/**
 * INCR and PEXPIRE in one script, so a crash between the two can never leave a counter without expiry,
 * and the remaining time comes back in the same round trip.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** The count and remaining time of a window, without counting (0 and -2 when there is none). */
const PEEK_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
return {count, redis.call('PTTL', KEYS[1])}
`;

type RedisWithHit = Redis & {
  feederRateHit(key: string, windowMs: number): Promise<[number, number]>;
  feederRatePeek(key: string): Promise<[number, number]>;
};

/** The longest a request waits for Redis to count a hit (docs/ARCHITECTURE.md "Rules" 15). */
export const REDIS_RATE_LIMIT_TIMEOUT_MS = 1000;
/** After a failed or slow call, how long the in-memory counts are used before Redis is asked again. */
export const REDIS_RETRY_AFTER_MS = 5000;

/**
 * Counts in Redis, shared by every process. While Redis is unreachable or slow, each process counts in memory
 * instead (never "no limit": docs/decisions.md "Redis outages"), and goes back to Redis once it answers again:
 * at once when the connection is ready again, else after REDIS_RETRY_AFTER_MS. The memory counts start from zero
 * and are dropped on the way back, so during an outage each process allows up to the limit once more.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;
  private readonly owned: boolean;
  private readonly fallback: MemoryRateLimitStore;
  /** Until when Redis is left alone after a failure (ms since the epoch); 0 while it answers. */
  private downUntil = 0;
  private everReady = false;
  private readonly firstConnect: Promise<boolean>;
  private readonly onReady = () => {
    this.everReady = true;
    this.downUntil = 0;
  };

  /** Takes a URL (the store owns and closes the connection) or an existing client (the caller closes it). */
  constructor(
    redis: string | Redis,
    private readonly prefix = 'feeder:rl:',
    private readonly options: { log?: WarnLog; now?: () => number; timeoutMs?: number } = {},
  ) {
    this.owned = typeof redis === 'string';
    const timeoutMs = options.timeoutMs ?? REDIS_RATE_LIMIT_TIMEOUT_MS;
    const client =
      typeof redis === 'string'
        ? // Fail fast when Redis is away rather than queueing requests: no offline queue, bounded connect and calls.
          new (loadIoredis().Redis)(redis, {
            maxRetriesPerRequest: 1,
            connectTimeout: timeoutMs,
            commandTimeout: timeoutMs,
            enableOfflineQueue: false,
            enableAutoPipelining: true,
          })
        : redis;
    client.defineCommand('feederRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    client.defineCommand('feederRatePeek', { numberOfKeys: 1, lua: PEEK_SCRIPT });
    // Without a listener ioredis reports connection errors on stderr; the store reports outages itself.
    if (this.owned) client.on('error', () => {});
    client.on('ready', this.onReady);
    this.everReady = client.status === 'ready';
    this.firstConnect = new Promise<boolean>((resolve) => {
      if (this.everReady) return resolve(true);
      client.once('ready', () => resolve(true));
      setTimeout(() => resolve(false), timeoutMs).unref();
    });
    this.redis = client as RedisWithHit;
    this.fallback = new MemoryRateLimitStore(options.now);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Redis while it answers; the in-memory counts while it is away, then Redis again. */
  private async use<T>(inRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (this.downUntil > this.now()) return inMemory();
    // A lost connection is not waited for (its commands would fail at once: no offline queue); the first one is,
    // for at most the connect timeout, so a process that just started shares its counts from the first request.
    if (this.redis.status !== 'ready' && (this.everReady || !(await this.firstConnect))) return this.down(undefined, inMemory);
    try {
      return await inRedis();
    } catch (err) {
      return this.down(err, inMemory);
    }
  }

  private down<T>(err: unknown, inMemory: () => Promise<T>): Promise<T> {
    if (this.downUntil === 0) this.options.log?.warn({ err }, 'Redis is unreachable: rate limits are counted per process until it is back');
    this.downUntil = this.now() + REDIS_RETRY_AFTER_MS;
    return inMemory();
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.use(
      async () => {
        const [count, ttl] = await this.redis.feederRateHit(this.prefix + key, Math.max(1, Math.round(windowMs)));
        return result(Number(count), limit, Number(ttl));
      },
      () => this.fallback.hit(key, limit, windowMs),
    );
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.use(
      async () => {
        const [count, ttl] = await this.redis.feederRatePeek(this.prefix + key);
        return peekResult(Number(count), limit, Number(ttl) > 0 ? Number(ttl) : windowMs);
      },
      () => this.fallback.peek(key, limit, windowMs),
    );
  }

  async close(): Promise<void> {
    this.redis.off('ready', this.onReady);
    await this.fallback.close();
    if (this.owned) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Where the Redis store says that it fell back to memory (the web process's logger). */
export interface WarnLog {
  warn(obj: object, msg: string): void;
}

/** The store the configuration asks for. */
export function createRateLimitStore(config: Pick<Config, 'redisUrl'>, log?: WarnLog): RateLimitStore {
  return config.redisUrl ? new RedisRateLimitStore(config.redisUrl, undefined, { log }) : new MemoryRateLimitStore();
}

export interface RateLimitRule {
  /** The bucket, e.g. `login:ip:1.2.3.4` or `login:email:a@b.c`. */
  key: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until every exceeded window has ended (the Retry-After value); 0 when allowed. */
  retryAfterSeconds: number;
  /**
   * Each rule's window after this hit, in the order of the rules (the public API's X-RateLimit-* headers);
   * empty when the store failed and the request was let through.
   */
  results: RateLimitResult[];
}

function decide(results: RateLimitResult[]): RateLimitDecision {
  const denied = results.filter((r) => !r.allowed);
  if (denied.length === 0) return { allowed: true, retryAfterSeconds: 0, results };
  const waitMs = Math.max(...denied.map((r) => r.resetMs));
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), results };
}

export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly log?: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** Counts one hit in every rule's bucket; denied when any bucket is over its limit. */
  async check(rules: RateLimitRule[]): Promise<RateLimitDecision> {
    let results: RateLimitResult[];
    try {
      results = await Promise.all(rules.map((r) => this.store.hit(r.key, r.limit, r.windowMs)));
    } catch (err) {
      // Redis outages never get here (RedisRateLimitStore counts in memory then); a store that throws anyway is a
      // bug, and must not lock everyone out of their accounts: allow and say so loudly.
      this.log?.error({ err }, 'rate limit store failed; request allowed');
      return { allowed: true, retryAfterSeconds: 0, results: [] };
    }
    return decide(results);
  }

  /**
   * Like check, but rule by rule: a request refused by one rule is not counted by the rules after it (their
   * windows are only looked at). The public API puts its per-minute limit before the daily one, so a client
   * hammering past the first does not use up the second (docs/decisions.md "Public API v1").
   */
  async checkInOrder(rules: RateLimitRule[]): Promise<RateLimitDecision> {
    const results: RateLimitResult[] = [];
    try {
      for (const r of rules) {
        const refused = results.some((x) => !x.allowed);
        results.push(await (refused ? this.store.peek(r.key, r.limit, r.windowMs) : this.store.hit(r.key, r.limit, r.windowMs)));
      }
    } catch (err) {
      this.log?.error({ err }, 'rate limit store failed; request allowed');
      return { allowed: true, retryAfterSeconds: 0, results: [] };
    }
    // A window only looked at still says when it has room again, so Retry-After covers a full day window too.
    return decide(results);
  }

  /**
   * Whether the rules' buckets are full, without counting: for doors that count only failures (Fever's api_key),
   * which must refuse every try once the bucket is full, the right key included, or a guess could still succeed.
   */
  async full(rules: RateLimitRule[]): Promise<RateLimitDecision> {
    const results = await Promise.all(rules.map((r) => this.store.peek(r.key, r.limit, r.windowMs)));
    return decide(results);
  }

  /**
   * A preHandler (it runs after body validation, so rules may read the parsed body) answering
   * 429 `{message, code: 'RATE_LIMITED'}` with Retry-After when any rule's bucket is full.
   */
  guard(rulesFor: (request: FastifyRequest) => RateLimitRule[]) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const rules = rulesFor(request);
      if (rules.length === 0) return;
      const decision = await this.check(rules);
      if (decision.allowed) return;
      reply.status(429).header('retry-after', String(decision.retryAfterSeconds)).send({ message: CODES.RATE_LIMITED, code: 'RATE_LIMITED' });
      return reply;
    };
  }
}

/**
 * The sign-in limit handed to the reader-app adapters (Fever, Google Reader): the web login's limiter and buckets
 * (accounts.routes signInRules), per client address and, where the door names one, per account.
 */
export interface SignInLimit {
  limiter: RateLimiter;
  rules(ip: string, email?: string): RateLimitRule[];
}
