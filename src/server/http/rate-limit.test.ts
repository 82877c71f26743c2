import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_REDIS, TEST_REDIS_URL } from '../test/redis.js';
import { createTestApp, uniqueEmail, type TestApp } from '../test/test-app.js';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore, type RateLimitStore } from './rate-limit.js';

/** A unique key prefix per run, removed afterwards, so runs never share counters. */
const prefix = () => `feeder-test:${randomBytes(6).toString('hex')}:`;

async function removeKeys(keyPrefix: string) {
  const redis = new Redis(TEST_REDIS_URL);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
}

describe('MemoryRateLimitStore', () => {
  it('counts hits in a fixed window and starts again when it ends', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    expect(await store.hit('k', 2, 1000)).toEqual({ allowed: true, remaining: 1, resetMs: 1000 });
    now += 400;
    expect(await store.hit('k', 2, 1000)).toEqual({ allowed: true, remaining: 0, resetMs: 600 });
    expect(await store.hit('k', 2, 1000)).toEqual({ allowed: false, remaining: 0, resetMs: 600 });
    expect((await store.hit('other', 2, 1000)).allowed).toBe(true);
    now += 600;
    expect(await store.hit('k', 2, 1000)).toEqual({ allowed: true, remaining: 1, resetMs: 1000 });
  });
});

describe.skipIf(!HAVE_REDIS)('RedisRateLimitStore', () => {
  const keyPrefix = prefix();
  afterAll(() => removeKeys(keyPrefix));

  it('counts atomically across clients (as several web processes would) and expires the window', async () => {
    const a = new RedisRateLimitStore(TEST_REDIS_URL, keyPrefix);
    const b = new RedisRateLimitStore(TEST_REDIS_URL, keyPrefix);
    try {
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).hit('shared', 7, 300)));
      expect(results.filter((r) => r.allowed)).toHaveLength(7);
      expect(Math.min(...results.map((r) => r.remaining))).toBe(0);
      for (const r of results) expect(r.resetMs).toBeGreaterThan(0);
      for (const r of results) expect(r.resetMs).toBeLessThanOrEqual(300);
      await new Promise((r) => setTimeout(r, 350));
      expect(await a.hit('shared', 7, 300)).toMatchObject({ allowed: true, remaining: 6 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('puts an expiry on every counter', async () => {
    const store = new RedisRateLimitStore(TEST_REDIS_URL, keyPrefix);
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await store.hit('ttl', 5, 60_000);
      const ttl = await redis.pttl(`${keyPrefix}ttl`);
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await store.close();
      await redis.quit();
    }
  });
});

describe('RateLimiter', () => {
  it('lets requests through when the store fails (an outage must not lock people out)', async () => {
    const broken: RateLimitStore = { hit: async () => Promise.reject(new Error('down')), peek: async () => Promise.reject(new Error('down')), close: async () => {} };
    const errors: unknown[] = [];
    const limiter = new RateLimiter(broken, { error: (obj: unknown) => errors.push(obj) });
    expect(await limiter.check([{ key: 'x', limit: 1, windowMs: 1000 }])).toEqual({ allowed: true, retryAfterSeconds: 0, results: [] });
    expect(errors).toHaveLength(1);
  });

  it('reports the longest wait of the exceeded buckets, in whole seconds', async () => {
    let now = 0;
    const limiter = new RateLimiter(new MemoryRateLimitStore(() => now));
    const rules = [
      { key: 'short', limit: 1, windowMs: 1500 },
      { key: 'long', limit: 1, windowMs: 10 * 60_000 },
    ];
    expect((await limiter.check(rules)).allowed).toBe(true);
    now = 100;
    expect(await limiter.check(rules)).toMatchObject({ allowed: false, retryAfterSeconds: 600 });
  });
});

/** The account endpoints answer 429 with Retry-After, on either store. */
const stores: Array<[string, (keyPrefix: string) => RateLimitStore, boolean]> = [
  ['memory', () => new MemoryRateLimitStore(), true],
  ['redis', (keyPrefix) => new RedisRateLimitStore(TEST_REDIS_URL, keyPrefix), HAVE_REDIS],
];

for (const [name, makeStore, available] of stores) {
  describe.skipIf(!available)(`auth rate limits (${name} store)`, () => {
    let t: TestApp;
    let store: RateLimitStore;
    const keyPrefix = prefix();
    const minutes = (n: number) => n * 60_000;
    beforeAll(async () => {
      store = makeStore(keyPrefix);
      t = await createTestApp({
        rateLimitStore: store,
        authLimits: {
          loginPerIp: { limit: 6, windowMs: minutes(10) },
          loginPerEmail: { limit: 3, windowMs: minutes(10) },
          mailPerIp: { limit: 100, windowMs: minutes(10) },
          mailPerEmail: { limit: 2, windowMs: minutes(10) },
          passwordCheckPerUser: { limit: 2, windowMs: minutes(10) },
          registerPerIp: { limit: 2, windowMs: minutes(10) },
          resetPerIp: { limit: 1, windowMs: minutes(10) },
        },
      });
    });
    afterAll(async () => {
      await t.close();
      await store.close();
      if (name === 'redis') await removeKeys(keyPrefix);
    });

    const login = (email: string, ip = '10.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: ip, payload: { email, password: 'wrong password' } });

    function expect429(res: Awaited<ReturnType<typeof login>>, maxSeconds: number) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ code: 'RATE_LIMITED', message: expect.any(String) });
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
    }

    it('limits sign-in attempts per address (any spelling), even with the right password', async () => {
      const { email, password } = await t.createUser();
      for (let i = 0; i < 3; i++) expect((await login(email.toUpperCase(), `10.1.0.${i}`)).statusCode).toBe(401);
      expect429(await login(` ${email}`, '10.1.0.9'), 600);
      const right = await t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '10.1.1.1', payload: { email, password } });
      expect429(right, 600);
    });

    it('limits sign-in attempts per IP address across accounts', async () => {
      for (let i = 0; i < 6; i++) expect((await login(uniqueEmail('ip'), '10.2.0.1')).statusCode).toBe(401);
      expect429(await login(uniqueEmail('ip'), '10.2.0.1'), 600);
      expect((await login(uniqueEmail('ip'), '10.2.0.2')).statusCode).toBe(401);
    });

    it('limits recovery mails per address and password checks per user', async () => {
      const s = await t.signUp();
      for (let i = 0; i < 2; i++) expect((await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: s.email } })).statusCode).toBe(200);
      expect429(await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: s.email } }), 600);
      // resend-verification has its own bucket
      expect((await t.app.inject({ method: 'POST', url: '/auth/resend-verification', payload: { email: s.email } })).statusCode).toBe(200);

      const check = () => t.app.inject({ method: 'POST', url: '/auth/verify-password', headers: t.bearer(s.access_token), payload: { password: 'guess guess' } });
      expect((await check()).statusCode).toBe(200);
      expect((await check()).statusCode).toBe(200);
      expect429(await check(), 600);
      // Password changes count against the same bucket; profile edits without a password do not.
      expect429(
        await t.app.inject({ method: 'PUT', url: '/auth/me', headers: t.bearer(s.access_token), payload: { password: 'new password 1', old_password: 'guess guess' } }),
        600,
      );
      expect((await t.app.inject({ method: 'PUT', url: '/auth/me', headers: t.bearer(s.access_token), payload: { name: 'Still Fine' } })).statusCode).toBe(200);
    });

    it('limits registration and reset attempts per IP address', async () => {
      const reg = () =>
        t.app.inject({ method: 'POST', url: '/auth/register', remoteAddress: '10.3.0.1', payload: { name: 'R', email: uniqueEmail('r'), password: 'password123' } });
      expect((await reg()).statusCode).toBe(201);
      expect((await reg()).statusCode).toBe(201);
      expect429(await reg(), 600);
      const reset = () => t.app.inject({ method: 'POST', url: '/auth/reset-password', remoteAddress: '10.3.0.2', payload: { token: 'nope', password: 'password123' } });
      expect((await reset()).statusCode).toBe(400);
      expect429(await reset(), 600);
    });
  });
}

describe('auth rate limits: production defaults', () => {
  it('allow a browser test suite about 30 sign-ins from one address within 10 minutes', async () => {
    const t = await createTestApp({ authLimits: {} });
    try {
      const users = await Promise.all(Array.from({ length: 3 }, () => t.createUser()));
      for (let i = 0; i < 30; i++) {
        const { email, password } = users[i % users.length];
        const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
        expect(res.statusCode, `login ${i + 1}`).toBe(200);
      }
    } finally {
      await t.close();
    }
  });
});
