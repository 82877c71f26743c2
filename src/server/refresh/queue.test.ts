import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFeed } from '../feeds/feeds.repository.js';
import { DIALECTS } from '../test/dialects.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { createRefreshEnv } from '../test/refresh-env.js';
import { turn, until } from '../test/wait.js';
import { EmbeddedQueue } from './queue.js';

describe('EmbeddedQueue', () => {
  it('runs each queued feed once, urgent ones first, never more than the concurrency at once', async () => {
    const queue = new EmbeddedQueue();
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    await queue.enqueue([1, 2, 3, 1, 2]);
    await queue.enqueue([9], { urgent: true });
    queue.consume(async (id) => {
      running++;
      peak = Math.max(peak, running);
      order.push(id);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    }, 2);
    await queue.idle();
    expect(order).toEqual([9, 1, 2, 3]);
    expect(peak).toBe(2);
    await queue.close();
  });

  it('starts a further handler only while admit says yes, and asks again when one finishes', async () => {
    const queue = new EmbeddedQueue();
    let running = 0;
    let peak = 0;
    let open = true;
    const done: number[] = [];
    await queue.enqueue([1, 2, 3, 4, 5, 6]);
    queue.consume(
      async (id) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        done.push(id);
        running--;
      },
      4,
      () => open,
    );
    // Admitted: four start at once. Closed: one at a time (the first always starts, so the queue never stalls).
    await new Promise((r) => setTimeout(r, 1));
    expect(running).toBe(4);
    open = false;
    await queue.idle();
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(4);
    await queue.enqueue([7, 8, 9]);
    peak = 0;
    await queue.idle();
    expect(peak).toBe(1);
    await queue.close();
  });

  it('on close waits for running work, then aborts it after the grace period', async () => {
    const queue = new EmbeddedQueue();
    let sawAbort = false;
    queue.consume(
      (_id, signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve();
          });
        }),
      1,
    );
    await queue.enqueue([1, 2]);
    await queue.close(50);
    expect(sawAbort).toBe(true);
    expect(await queue.pending()).toBe(0);
  });

  it('shares its shutdown signal with many running handlers without a MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const queue = new EmbeddedQueue();
      let started = 0;
      let release!: () => void;
      const allStarted = new Promise<void>((resolve) => (release = resolve));
      // Like a fetch each handler listens on the signal while it runs; REFRESH_CONCURRENCY may exceed Node's 10.
      queue.consume(
        (_id, signal) =>
          new Promise<void>((resolve) => {
            signal.addEventListener('abort', () => resolve(), { once: true });
            if (++started === 32) release();
          }),
        32,
      );
      await queue.enqueue(Array.from({ length: 32 }, (_, i) => i + 1));
      await allStarted;
      await queue.close(0);
      await turn();
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`graceful shutdown (${dialect})`, () => {
    let server: TestFeedServer;
    beforeAll(async () => {
      server = await startTestFeedServer();
    });
    afterAll(async () => {
      await server.close();
    });

    it('claims the due feeds a full scheduler step left behind as soon as the queue runs low, not a period later', async () => {
      // Steps of 2 feeds: the first step claims 4 batches (8 of 12) and stops; the other 4 must not wait an hour.
      const env = await createRefreshEnv(dialect, { engine: { tickMs: 3_600_000, scheduleBatch: 2 } });
      try {
        const user = await env.user();
        const paths = Array.from({ length: 12 }, (_, i) => `/backlog-${dialect}-${i}.xml`);
        for (const path of paths) {
          server.set(path, { body: rss(path, [item(1)]) });
          await env.subscribe(user, server.url(path));
        }
        const started = env.clock.now().toISOString();
        env.engine.start();
        await until(async () => {
          const fetched = await env.database.db.selectFrom('feeds').select('id').where('last_fetched_at', '>=', started).execute();
          return fetched.length === paths.length;
        }, 10_000);
        expect(paths.map((p) => server.hits(p))).toEqual(paths.map(() => 1));
      } finally {
        await env.close();
      }
    });

    it('hands a feed that is still being fetched back, due at once, when the grace period runs out', async () => {
      const env = await createRefreshEnv(dialect);
      try {
        server.set('/slow.xml', { body: rss('Slow', [item(1)]), delayMs: 3000 });
        const feedId = await env.subscribe(await env.user(), server.url('/slow.xml'));
        env.engine.start();
        await env.engine.enqueue([feedId]);
        while (server.hits('/slow.xml') === 0) await new Promise((r) => setTimeout(r, 10));
        await env.engine.stop(100);
        const feed = (await findFeed(env.database.db, feedId))!;
        expect(feed.lease_until).toBeNull();
        expect(feed.error_count).toBe(0);
        expect(Date.parse(feed.next_check_at)).toBeLessThanOrEqual(env.clock.now().getTime());
      } finally {
        await env.close();
      }
    });

    it('hands back a feed still waiting for a document slot too, without having asked its server', async () => {
      // One slot: the slow feed holds it, the other waits for it (leased, not yet fetched) when the process stops.
      const env = await createRefreshEnv(dialect, { env: { REFRESH_CONCURRENCY: '1' } });
      try {
        const user = await env.user();
        server.set(`/slot-holder-${dialect}.xml`, { body: rss('Slow', [item(1)]), delayMs: 3000 });
        server.set(`/slot-waiter-${dialect}.xml`, { body: rss('Waiting', [item(1)]) });
        const holder = await env.subscribe(user, server.url(`/slot-holder-${dialect}.xml`));
        const waiter = await env.subscribe(user, server.url(`/slot-waiter-${dialect}.xml`));
        env.engine.start();
        await env.engine.enqueue([holder, waiter]);
        await until(async () => {
          const leased = await env.database.db.selectFrom('feeds').select('id').where('id', 'in', [holder, waiter]).where('lease_until', 'is not', null).execute();
          return leased.length === 2 && server.hits(`/slot-holder-${dialect}.xml`) === 1;
        });
        await env.engine.stop(100);
        expect(server.hits(`/slot-waiter-${dialect}.xml`)).toBe(0);
        for (const id of [holder, waiter]) {
          const feed = (await findFeed(env.database.db, id))!;
          expect(feed).toMatchObject({ lease_until: null, error_count: 0, last_error_code: null });
          expect(Date.parse(feed.next_check_at)).toBeLessThanOrEqual(env.clock.now().getTime());
        }
      } finally {
        await env.close();
      }
    });
  });
}
