import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import { CODES } from '../../common/codes.js';
import type { Config } from '../config.js';

/**
 * ioredis is only needed when REDIS_URL is set; loading it anyway costs the embedded shape memory that
 * design.md §5 (`feeder all` ≤ 150 MB) does not spare. It is CommonJS, so it is required synchronously on first use.
 */
const require = createRequire(import.meta.url);
const loadIoredis = (): typeof import('ioredis') => require('ioredis');

/**
 * Fixed-window rate limits with one interface over two stores (design.md §1): in memory for the embedded shape,
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
  close(): Promise<void>;
}

const result = (count: number, limit: number, resetMs: number): RateLimitResult => ({
  allowed: count <= limit,
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

type RedisWithHit = Redis & { feederRateHit(key: string, windowMs: number): Promise<[number, number]> };

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;
  private readonly owned: boolean;

  /** Takes a URL (the store owns and closes the connection) or an existing client (the caller closes it). */
  constructor(
    redis: string | Redis,
    private readonly prefix = 'feeder:rl:',
  ) {
    this.owned = typeof redis === 'string';
    const client =
      typeof redis === 'string'
        ? // Fail fast when Redis is away rather than queueing requests for long.
          new (loadIoredis().Redis)(redis, { maxRetriesPerRequest: 1, commandTimeout: 2000, enableAutoPipelining: true })
        : redis;
    client.defineCommand('feederRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = client as RedisWithHit;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const [count, ttl] = await this.redis.feederRateHit(this.prefix + key, Math.max(1, Math.round(windowMs)));
    return result(Number(count), limit, Number(ttl));
  }

  async close(): Promise<void> {
    if (this.owned) await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The store the configuration asks for. */
export function createRateLimitStore(config: Pick<Config, 'redisUrl'>): RateLimitStore {
  return config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore();
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
      // A limiter outage must not lock everyone out of their accounts: allow and say so loudly.
      this.log?.error({ err }, 'rate limit store failed; request allowed');
      return { allowed: true, retryAfterSeconds: 0, results: [] };
    }
    const denied = results.filter((r) => !r.allowed);
    if (denied.length === 0) return { allowed: true, retryAfterSeconds: 0, results };
    const waitMs = Math.max(...denied.map((r) => r.resetMs));
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), results };
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
      reply
        .status(429)
        .header('retry-after', String(decision.retryAfterSeconds))
        .send({ message: CODES.RATE_LIMITED, code: 'RATE_LIMITED' });
      return reply;
    };
  }
}
