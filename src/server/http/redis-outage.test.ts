import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullmqQueue } from '../refresh/queue.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { RedisRateLimitStore } from './rate-limit.js';
import { freePort, until } from '../test/wait.js';

/**
 * A Redis outage in the scaled-out shape (docs/decisions.md "Redis outages"): a `feeder web` process whose Redis
 * (a private redis-server on a free port, killed mid-test) goes away keeps its sign-in limits (counted in memory
 * instead), answers subscriptions and "refresh now" at once (the feeds wait as due in the database), and counts in
 * Redis again once it is back. The answer times are asserted on purpose: the outage used to make them hang.
 */
const MINUTE = 60_000;
const ANSWER_WITHIN_MS = 3000;

function startRedis(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
}

async function redisUp(url: string): Promise<void> {
  await until(async () => {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } finally {
      probe.disconnect();
    }
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('a Redis outage (private redis-server, killed mid-test)', () => {
  let redis: ChildProcess;
  let url: string;
  let port: number;
  let t: TestApp;
  let store: RedisRateLimitStore;
  let queue: BullmqQueue;
  let server: TestFeedServer;
  const prefix = `feeder-test:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = startRedis(port);
    await redisUp(url);
    server = await startTestFeedServer();
    store = new RedisRateLimitStore(url, prefix);
    queue = new BullmqQueue(url, `feeder-test-${randomBytes(6).toString('hex')}`);
    t = await createTestApp({
      rateLimitStore: store,
      // The production sign-in limit per account (20); a wide one per address so only the account's counts.
      authLimits: { loginPerEmail: { limit: 20, windowMs: 10 * MINUTE }, loginPerIp: { limit: 1000, windowMs: 10 * MINUTE } },
      // `feeder web` with REDIS_URL: it only enqueues.
      engine: { role: 'web', queue },
    });
    await queue.pending(); // connected before the outage, as a running process is
  });

  afterAll(async () => {
    await t?.close();
    await store?.close();
    await server?.close();
    if (redis) await kill(redis);
  });

  const login = (email: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'wrong password' } });

  it('keeps limiting wrong sign-ins, answers subscriptions and refresh-now at once, and uses Redis again once it is back', async () => {
    const victim = await t.createUser();
    expect((await login(victim.email)).statusCode).toBe(401); // counted in Redis

    await kill(redis);

    // 40 wrong passwords against one account while Redis is down: the limit (20) holds, counted in this process.
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login(victim.email)).statusCode);
    // (At most 20 accepted: a call that was slow before the kill may have been counted in memory already.)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20);
    expect(statuses.slice(20)).toEqual(Array(20).fill(429));

    // Subscribing and refresh-now answer within a couple of seconds; the feed waits as due in the database.
    const reader = await t.signUp();
    server.set('/outage.xml', { body: rss('During the outage', [item(1)]) });
    let started = Date.now();
    const added = await t.app.inject({ method: 'POST', url: '/api/feeds', headers: t.bearer(reader.access_token), payload: { url: server.url('/outage.xml') } });
    expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
    expect(added.statusCode, added.body).toBe(201);
    const feedId = added.json().id as number;

    started = Date.now();
    const refreshed = await t.app.inject({ method: 'POST', url: `/api/feeds/${feedId}/refresh`, headers: t.bearer(reader.access_token) });
    expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
    expect(refreshed.statusCode, refreshed.body).toBe(202);
    expect(refreshed.json()).toEqual({ queued: true });
    const feed = await t.database.db.selectFrom('feeds').select('next_check_at').where('id', '=', feedId).executeTakeFirstOrThrow();
    expect(Date.parse(feed.next_check_at)).toBeLessThanOrEqual(t.clock.now().getTime());

    // Redis is back: counts go to Redis again (the store reconnects by itself).
    redis = startRedis(port);
    await redisUp(url);
    const direct = new Redis(url);
    try {
      const other = await t.createUser();
      await until(async () => {
        await login(other.email);
        return (await direct.get(`${prefix}loginPerEmail:login:${other.email}`)) !== null;
      });
    } finally {
      direct.disconnect();
    }
  });
});
