import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { RedisRateLimitStore } from '../../http/rate-limit.js';
import { HAVE_REDIS, TEST_REDIS_URL } from '../../test/redis.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { PUBLIC_API_LIMITS } from './public.routes.js';

/**
 * The public API's rate limits (public-area-and-api.md §9: 100 a minute and 5,000 a day per user; docs/decisions.md
 * "Public API v1"): the headers on every answer, 429 with Retry-After, one budget per user over all their tokens,
 * the brute-force limits of authenticate, and, with Redis, one budget shared by several app processes.
 * Small limits stand in for the real ones and the test clock moves time; nothing waits.
 */

const BASE = '/public-api/v1';
const MINUTE = 60_000;

const headersOf = (res: LightMyRequestResponse) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
  reset: Number(res.headers['x-ratelimit-reset']),
  retryAfter: res.headers['retry-after'],
});

async function tokenFor(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token;
}

const getFeeds = (t: TestApp, token: string) => t.app.inject({ method: 'GET', url: `${BASE}/feeds`, headers: { authorization: `Bearer ${token}` } });

describe('public API rate limits (memory store)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      publicApiLimits: {
        perMinute: { limit: 3, windowMs: MINUTE },
        perDay: { limit: 5, windowMs: 24 * 60 * MINUTE },
        authPerAccount: { limit: 4, windowMs: 10 * MINUTE },
        anonPerIp: { limit: 2, windowMs: MINUTE },
      },
    });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  it('counts per user over all tokens, shows the tighter window, and answers 429 with Retry-After', async () => {
    const { email, password } = await t.createUser();
    const first = await tokenFor(t, email, password);
    const second = await tokenFor(t, email, password);

    const r1 = await getFeeds(t, first);
    expect(r1.statusCode).toBe(200);
    expect(headersOf(r1)).toMatchObject({ limit: '3', remaining: '2', retryAfter: undefined });
    expect(headersOf(r1).reset).toBeGreaterThan(55);
    expect(headersOf(r1).reset).toBeLessThanOrEqual(60);
    expect(headersOf(await getFeeds(t, second))).toMatchObject({ limit: '3', remaining: '1' }); // the other token, the same budget
    // errors count and carry the headers too
    const bad = await t.app.inject({ method: 'GET', url: `${BASE}/articles?per_page=1000`, headers: { authorization: `Bearer ${first}` } });
    expect(bad.statusCode).toBe(400);
    expect(headersOf(bad)).toMatchObject({ limit: '3', remaining: '0' });

    const refused = await getFeeds(t, first);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: expect.any(String), code: 'RATE_LIMITED' });
    const h = headersOf(refused);
    expect(h).toMatchObject({ limit: '3', remaining: '0' });
    expect(Number(h.retryAfter)).toBeGreaterThan(55);
    expect(Number(h.retryAfter)).toBeLessThanOrEqual(60);

    // another user is not affected
    const other = await t.createUser();
    expect((await getFeeds(t, await tokenFor(t, other.email, other.password))).statusCode).toBe(200);

    // a minute later the minute window starts again; now the day window (5) is the tighter one: 3 used (the
    // refused call did not count), then 4 and 5
    t.clock.advance(MINUTE + 1000);
    const next = await getFeeds(t, first);
    expect(next.statusCode).toBe(200);
    expect(headersOf(next)).toMatchObject({ limit: '5', remaining: '1' });
    expect(headersOf(next).reset).toBeGreaterThan(23 * 3600);
    expect(headersOf(await getFeeds(t, first))).toMatchObject({ limit: '5', remaining: '0' });

    // the day is used up: refused for the rest of it, and Retry-After says so
    t.clock.advance(MINUTE + 1000);
    const dayRefused = await getFeeds(t, second);
    expect(dayRefused.statusCode).toBe(429);
    expect(headersOf(dayRefused)).toMatchObject({ limit: '5', remaining: '0' });
    expect(Number(dayRefused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    t.clock.advance(24 * 60 * MINUTE);
    expect((await getFeeds(t, second)).statusCode).toBe(200);
  });

  it('does not count calls the per-minute limit refused toward the daily limit', async () => {
    const { email, password } = await t.createUser();
    const token = await tokenFor(t, email, password);
    for (let i = 0; i < 3; i++) expect((await getFeeds(t, token)).statusCode).toBe(200);
    // A client hammering on past the minute's limit (3) …
    for (let i = 0; i < 10; i++) {
      const refused = await getFeeds(t, token);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // … still has the rest of its day (5) once the minute is over.
    t.clock.advance(MINUTE + 1000);
    expect((await getFeeds(t, token)).statusCode).toBe(200);
    expect((await getFeeds(t, token)).statusCode).toBe(200);
    const dayRefused = await getFeeds(t, token);
    expect(dayRefused.statusCode).toBe(429);
    expect(Number(dayRefused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
  });

  it('limits authenticate per account, even with the right password', async () => {
    const { email, password } = await t.createUser();
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email, password: 'wrong password' } });
      expect(res.statusCode).toBe(401);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
    }
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email.toUpperCase(), password } })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email, password } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    t.clock.advance(10 * MINUTE + 1000);
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email, password } })).statusCode).toBe(200);
  });

  it('limits calls without a valid token per address', async () => {
    const anon = () => t.app.inject({ method: 'GET', url: `${BASE}/feeds`, remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${'x'.repeat(43)}` } });
    expect((await anon()).statusCode).toBe(401);
    expect((await anon()).statusCode).toBe(401);
    const refused = await anon();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('uses 100 a minute and 5,000 a day unless told otherwise', () => {
    expect(PUBLIC_API_LIMITS.perMinute).toEqual({ limit: 100, windowMs: MINUTE });
    expect(PUBLIC_API_LIMITS.perDay).toEqual({ limit: 5000, windowMs: 24 * 60 * MINUTE });
  });
});

describe.skipIf(!HAVE_REDIS)('public API rate limits on Redis, shared by two app processes', () => {
  let a: TestApp;
  let b: TestApp;
  let stores: RedisRateLimitStore[];

  beforeAll(async () => {
    // Two stores (two connections) with one prefix: what two `feeder web` processes with one REDIS_URL have.
    const prefix = `feeder-test:${randomBytes(6).toString('hex')}:`;
    stores = [new RedisRateLimitStore(TEST_REDIS_URL, prefix), new RedisRateLimitStore(TEST_REDIS_URL, prefix)];
    const limits = { perMinute: { limit: 4, windowMs: MINUTE } };
    a = await createTestApp({ rateLimitStore: stores[0], publicApiLimits: limits });
    b = await createTestApp({ database: a.database, rateLimitStore: stores[1], publicApiLimits: limits });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    for (const s of stores) await s.close();
  });

  it('counts a user’s calls to either process against one budget', async () => {
    const { email, password } = await a.createUser();
    const token = await tokenFor(a, email, password);
    const answers = [];
    for (const app of [a, b, a, b, a]) answers.push(await getFeeds(app, token));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 429]);
    expect(answers.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0']);
    expect(Number(answers[4].headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(answers[4].headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await getFeeds(b, token)).statusCode).toBe(429);
  });
});
