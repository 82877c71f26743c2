import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/dialects.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { HAVE_REDIS, TEST_REDIS_URL } from '../test/redis.js';
import { createRefreshEnv, type RefreshEnv } from '../test/refresh-env.js';
import { createRefreshEngine, type RefreshEngine } from './engine.js';
import { BullmqQueue } from './queue.js';
import { until } from '../test/wait.js';

/**
 * The scaled-out shape with a real Redis: two `feeder worker` engines share one database and one
 * BullMQ queue, and a `feeder web` engine only enqueues. Every feed must be fetched exactly once per round.
 */
const FEEDS = 60;

for (const dialect of DIALECTS) {
  describe.skipIf(!HAVE_REDIS)(`scaled out with BullMQ on Redis (${dialect})`, () => {
    let server: TestFeedServer;
    let env: RefreshEnv;
    let workers: RefreshEngine[];
    let web: RefreshEngine;
    let queues: BullmqQueue[];
    const paths = Array.from({ length: FEEDS }, (_, i) => `/scaled-${dialect}-${i}.xml`);
    let feedIds: number[];

    beforeAll(async () => {
      server = await startTestFeedServer();
      env = await createRefreshEnv(dialect);
      const name = `feeder-test-${randomBytes(6).toString('hex')}`;
      queues = [0, 1, 2].map(() => new BullmqQueue(TEST_REDIS_URL, name));
      const engine = (role: 'worker' | 'web', queue: BullmqQueue) =>
        createRefreshEngine({ config: env.config, database: env.database, role, now: env.clock.now, queue, tickMs: 3_600_000 });
      workers = [engine('worker', queues[0]), engine('worker', queues[1])];
      web = engine('web', queues[2]);
      const user = await env.user();
      feedIds = [];
      for (const [i, path] of paths.entries()) {
        server.set(path, { body: rss(`Feed ${i}`, [item(2), item(1)]), delayMs: 5 });
        feedIds.push(await env.subscribe(user, server.url(path)));
      }
    });

    afterAll(async () => {
      await Promise.all([...workers, web].map((e) => e.stop(1000)));
      await queues[0].obliterate().catch(() => {});
      await env.close();
      await server.close();
    });

    const fetchedAfter = async (since: string) => {
      const rows = await env.database.db.selectFrom('feeds').select('id').where('last_fetched_at', '>=', since).execute();
      return rows.length;
    };

    it('fetches every feed exactly once per round, however many workers run', async () => {
      const round1 = env.clock.now().toISOString();
      for (const w of workers) w.start(); // each runs a scheduler step at once, racing for the same due feeds
      await until(async () => (await fetchedAfter(round1)) === FEEDS, 15_000);
      expect(paths.map((p) => server.hits(p))).toEqual(paths.map(() => 1));

      // Next round: both schedulers race again; the second fetch of each feed is a conditional 304.
      env.clock.advance(27 * 3_600_000);
      const round2 = env.clock.now().toISOString();
      // A row another transaction has locked at that instant (a round-1 icon update still finishing) is skipped
      // (SKIP LOCKED) and taken at the next scheduler step, so the schedulers step until every feed is claimed.
      let claimed = 0;
      for (let step = 0; step < 20 && claimed < FEEDS; step++) {
        const counts = await Promise.all(workers.map((w) => w.schedule()));
        claimed += counts[0] + counts[1];
      }
      expect(claimed).toBe(FEEDS);
      await until(async () => (await fetchedAfter(round2)) === FEEDS, 15_000);
      expect(paths.map((p) => server.hits(p))).toEqual(paths.map(() => 2));
      expect(paths.every((p) => server.requests(p)[1]['if-none-match'])).toBe(true);
    });

    it('a web process only enqueues; a worker fetches the feed, once even when asked twice', async () => {
      const before = server.hits(paths[0]);
      const since = env.clock.now().toISOString();
      env.clock.advance(1000);
      await web.enqueue([feedIds[0], feedIds[0]]);
      await until(async () => {
        const feed = await env.database.db.selectFrom('feeds').select('last_fetched_at').where('id', '=', feedIds[0]).executeTakeFirstOrThrow();
        return (feed.last_fetched_at ?? '') > since;
      }, 15_000);
      await new Promise((r) => setTimeout(r, 200));
      expect(server.hits(paths[0])).toBe(before + 1);
    });
  });
}

describe.skipIf(!HAVE_REDIS)('BullmqQueue', () => {
  it('runs a waiting feed once however often it is queued, and urgent feeds before scheduled ones', async () => {
    const queue = new BullmqQueue(TEST_REDIS_URL, `feeder-test-${randomBytes(6).toString('hex')}`);
    try {
      await queue.enqueue([1, 2, 3]);
      await queue.enqueue([2, 3]);
      await queue.enqueue([9], { urgent: true });
      expect(await queue.pending()).toBe(4);
      const order: number[] = [];
      queue.consume(async (id) => void order.push(id), 1);
      await until(async () => order.length === 4, 15_000);
      expect(order).toEqual([9, 1, 2, 3]);
    } finally {
      await queue.obliterate();
      await queue.close(100);
    }
  });
});

for (const dialect of DIALECTS) {
  describe.skipIf(!HAVE_REDIS)(`a worker shutting down with BullMQ (${dialect})`, () => {
    it('hands a feed it is still fetching back after the grace period, due at once', async () => {
      const server = await startTestFeedServer();
      const queue = new BullmqQueue(TEST_REDIS_URL, `feeder-test-${randomBytes(6).toString('hex')}`);
      const env = await createRefreshEnv(dialect, { engine: { role: 'worker', queue, tickMs: 3_600_000 } });
      try {
        server.set('/slow.xml', { body: rss('Slow', [item(1)]), delayMs: 3000 });
        const feedId = await env.subscribe(await env.user(), server.url('/slow.xml'));
        env.engine.start();
        await until(async () => server.hits('/slow.xml') > 0, 15_000);
        await env.engine.stop(100);
        const feed = await env.database.db.selectFrom('feeds').selectAll().where('id', '=', feedId).executeTakeFirstOrThrow();
        expect(feed.lease_until).toBeNull();
        expect(feed.error_count).toBe(0);
        expect(Date.parse(feed.next_check_at)).toBeLessThanOrEqual(env.clock.now().getTime());
      } finally {
        await queue.obliterate().catch(() => {});
        await env.close();
        await server.close();
      }
    });
  });
}
