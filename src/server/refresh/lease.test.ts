import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { acquireLease, claimDueFeeds, findFeed, renewLeases } from '../feeds/feeds.repository.js';
import { DIALECTS } from '../test/dialects.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { createRefreshEnv } from '../test/refresh-env.js';
import { createRefreshEngine, QUEUED_GRACE_MS, SCHEDULE_BATCH } from './engine.js';
import { LEASE_MS, LeaseKeeper } from './lease.js';
import { EmbeddedQueue } from './queue.js';
import { until } from '../test/wait.js';

/**
 * Leases and crashed workers (docs/decisions.md "Leases and crashed workers"): a feed whose worker died while
 * refreshing it is fetched again within about a minute (lease run out + one scheduler step of 30 s), and a live
 * worker keeps its lease however long its fetch takes.
 */
const SCHEDULER_STEP_MS = 30_000;

/** The feed ids a lease statement names (acquireLeases: an array on PostgreSQL, a JSON array on SQLite). */
function leaseIds(query: CompiledQuery): number[] {
  for (const p of query.parameters) {
    if (Array.isArray(p)) return p as number[];
    if (typeof p === 'string' && p.startsWith('[')) return JSON.parse(p) as number[];
  }
  return [];
}

/** The database as the lease keeper sees it, with every statement recorded and those naming `failFor` failing. */
function watched(db: Db, failFor: number | null = null): { db: Db; statements: number[][] } {
  const statements: number[][] = [];
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'executeQuery') {
        return (query: CompiledQuery) => {
          const ids = leaseIds(query);
          statements.push(ids);
          if (failFor !== null && ids.includes(failFor)) return Promise.reject(new Error(`statement failed for feed ${failFor}`));
          return target.executeQuery(query);
        };
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, statements };
}

for (const dialect of DIALECTS) {
  describe(`feed leases (${dialect})`, () => {
    let server: TestFeedServer;
    beforeAll(async () => {
      server = await startTestFeedServer();
    });
    afterAll(async () => {
      await server.close();
    });

    it("a feed a dead worker was refreshing is fetched again by another engine's scheduler within a minute", async () => {
      const env = await createRefreshEnv(dialect, { engine: { tickMs: 3_600_000 } });
      try {
        server.set('/orphaned.xml', { body: rss('Orphaned', [item(1)]) });
        const feedId = await env.subscribe(await env.user(), server.url('/orphaned.xml'));
        // What a worker leaves behind when it is killed mid-fetch: its scheduler claimed the feed, its consumer took
        // the lease (as refreshFeed does), and nobody will ever renew or release it.
        const crashedAt = env.clock.now();
        const at = crashedAt.toISOString();
        const claimed = await claimDueFeeds(env.database.db, dialect, at, new Date(crashedAt.getTime() + QUEUED_GRACE_MS).toISOString(), SCHEDULE_BATCH);
        expect(claimed).toEqual([feedId]);
        expect(await acquireLease(env.database.db, feedId, 'dead-host:4242:0000', at, new Date(crashedAt.getTime() + LEASE_MS).toISOString())).toBeDefined();

        env.engine.start(); // a surviving worker, or the restarted process
        expect(await env.engine.schedule()).toBe(0); // the lease still holds
        expect(server.hits('/orphaned.xml')).toBe(0);

        // Within the lease and one scheduler step the feed is claimed and fetched again.
        env.clock.advance(LEASE_MS + 1000);
        expect(await env.engine.schedule()).toBe(1);
        await (env.engine.queue as EmbeddedQueue).idle();
        expect(server.hits('/orphaned.xml')).toBe(1);
        const feed = (await findFeed(env.database.db, feedId))!;
        expect(feed.title).toBe('Orphaned');
        expect(feed.lease_until).toBeNull();
        expect(feed.lease_owner).toBeNull();
        expect(LEASE_MS + SCHEDULER_STEP_MS).toBeLessThanOrEqual(60_000);
      } finally {
        await env.close();
      }
    });

    it('a restarted embedded process fetches at once what its dead predecessor had claimed but not started', async () => {
      const env = await createRefreshEnv(dialect, { engine: { tickMs: 3_600_000 } });
      try {
        server.set('/queued.xml', { body: rss('Queued', [item(1)]) });
        server.set('/queued-live.xml', { body: rss('Queued live', [item(1)]) });
        const u = await env.user();
        const feedId = await env.subscribe(u, server.url('/queued.xml'));
        const at = env.clock.now();
        const grace = new Date(at.getTime() + QUEUED_GRACE_MS).toISOString();
        // The dead process's scheduler claimed the feed for its in-process queue, which died with it.
        expect(await claimDueFeeds(env.database.db, dialect, at.toISOString(), grace, SCHEDULE_BATCH, 'dead-host:4242:0000')).toEqual([feedId]);
        // A feed another process is fetching right now (a live lease) is left alone.
        const liveId = await env.subscribe(u, server.url('/queued-live.xml'));
        await claimDueFeeds(env.database.db, dialect, at.toISOString(), grace, SCHEDULE_BATCH, 'live-host:1:0000');
        expect(await acquireLease(env.database.db, liveId, 'live-host:1:0000', at.toISOString(), new Date(at.getTime() + LEASE_MS).toISOString())).toBeDefined();

        env.engine.start(); // the restarted process: no clock advance, far within the claim's 15 minutes
        await until(async () => server.hits('/queued.xml') === 1);
        await (env.engine.queue as EmbeddedQueue).idle();
        const feed = (await findFeed(env.database.db, feedId))!;
        expect(feed.title).toBe('Queued');
        expect(feed.lease_owner).toBeNull();
        expect(server.hits('/queued-live.xml')).toBe(0);
        expect((await findFeed(env.database.db, liveId))!.lease_owner).toBe('live-host:1:0000');
      } finally {
        await env.close();
      }
    });

    it('a live worker renews its lease while a fetch outlasts it, so no other worker fetches the feed meanwhile', async () => {
      // Real time passes here (the heartbeat is a timer): a 1.5 s lease renewed every 0.5 s, a 4 s fetch.
      const env = await createRefreshEnv(dialect, { engine: { tickMs: 3_600_000, leaseMs: 1500 } });
      const other = createRefreshEngine({
        config: env.config,
        database: env.database,
        role: 'worker',
        now: env.clock.now,
        queue: new EmbeddedQueue(),
        tickMs: 3_600_000,
        leaseMs: 1500,
      });
      try {
        server.set('/slow-lease.xml', { body: rss('Slow', [item(1)]), delayMs: 4000 });
        const feedId = await env.subscribe(await env.user(), server.url('/slow-lease.xml'));
        const running = env.engine.refreshFeed(feedId);
        await until(async () => server.hits('/slow-lease.xml') > 0);
        await new Promise((r) => setTimeout(r, 2500)); // past the first lease's end
        expect(await other.schedule()).toBe(0);
        expect(await other.refreshFeed(feedId)).toEqual({ status: 'skipped' });
        expect(await running).toMatchObject({ status: 'ok' });
        expect(server.hits('/slow-lease.xml')).toBe(1);
      } finally {
        await other.stop(100);
        await env.close();
      }
    });

    it('takes the leases asked for at once in one statement: a feed asked twice once, a feed another worker holds not', async () => {
      const env = await createRefreshEnv(dialect, { engine: { tickMs: 3_600_000 } });
      try {
        const u = await env.user();
        const ids: number[] = [];
        for (let i = 0; i < 4; i++) ids.push(await env.subscribe(u, server.url(`/batch-lease-${i}.xml`)));
        const at = env.clock.now();
        expect(await acquireLease(env.database.db, ids[3], 'other-host:1:0000', at.toISOString(), new Date(at.getTime() + LEASE_MS).toISOString())).toBeDefined();

        const { db, statements } = watched(env.database.db);
        const keeper = new LeaseKeeper(db, dialect, env.clock.now, { warn: () => {} }, LEASE_MS, 'me:1:0000');
        const leased = await Promise.all([ids[0], ids[1], ids[0], ids[2], ids[3]].map((id) => keeper.acquire(id)));
        expect(leased.map((f) => f?.id)).toEqual([ids[0], ids[1], undefined, ids[2], undefined]);
        expect(statements).toEqual([[ids[0], ids[1], ids[2], ids[3]]]);
        for (const id of ids.slice(0, 3)) expect((await findFeed(env.database.db, id))!.lease_owner).toBe('me:1:0000');
        expect((await findFeed(env.database.db, ids[3]))!.lease_owner).toBe('other-host:1:0000');
        // Held now: asked again (a later turn, a statement of its own), nobody gets them.
        expect(await keeper.acquire(ids[0])).toBeUndefined();
        expect(statements).toHaveLength(2);
      } finally {
        await env.close();
      }
    });

    if (dialect === 'postgres')
      it('renews the leases a write group is not writing, without waiting for the group', async () => {
        // A write group holds the row of the feed it is finishing until it commits. The heartbeat used to wait for
        // that row while holding the others it had renewed, and the group's next feed row then closed a deadlock.
        const env = await createRefreshEnv(dialect, { engine: { tickMs: 3_600_000 } });
        try {
          const db = env.database.db;
          const u = await env.user();
          const ids: number[] = [];
          for (let i = 0; i < 3; i++) ids.push(await env.subscribe(u, server.url(`/renew-${i}.xml`)));
          const at = env.clock.now();
          const first = new Date(at.getTime() + LEASE_MS).toISOString();
          for (const id of ids) expect(await acquireLease(db, id, 'me:3:0000', at.toISOString(), first)).toBeDefined();
          const later = new Date(at.getTime() + 10_000 + LEASE_MS).toISOString();
          await db.transaction().execute(async (group) => {
            await group.updateTable('feeds').set({ title: 'Being stored' }).where('id', '=', ids[0]).execute();
            // On another connection, while the group holds ids[0]: the heartbeat must come back, not wait.
            expect(await renewLeases(db, 'me:3:0000', at.toISOString(), later)).toBe(2);
            // The group goes on to a feed row the heartbeat has just renewed.
            await group.updateTable('feeds').set({ title: 'Stored next' }).where('id', '=', ids[1]).execute();
          });
          expect((await findFeed(db, ids[0]))!.lease_until).toBe(first);
          expect((await findFeed(db, ids[1]))!.lease_until).toBe(later);
          expect((await findFeed(db, ids[2]))!.lease_until).toBe(later);
          // Once the group has committed, the next heartbeat renews all three.
          expect(await renewLeases(db, 'me:3:0000', at.toISOString(), later)).toBe(3);
        } finally {
          await env.close();
        }
      });

    it("takes each lease alone when the batch's statement fails, so only the feed at fault fails", async () => {
      const env = await createRefreshEnv(dialect, { engine: { tickMs: 3_600_000 } });
      try {
        const u = await env.user();
        const ids: number[] = [];
        for (let i = 0; i < 3; i++) ids.push(await env.subscribe(u, server.url(`/batch-lease-fail-${i}.xml`)));
        const { db, statements } = watched(env.database.db, ids[1]);
        const keeper = new LeaseKeeper(db, dialect, env.clock.now, { warn: () => {} }, LEASE_MS, 'me:2:0000');
        const results = await Promise.allSettled(ids.map((id) => keeper.acquire(id)));
        expect(results.map((r) => (r.status === 'fulfilled' ? r.value?.id : 'failed'))).toEqual([ids[0], 'failed', ids[2]]);
        expect(statements).toEqual([ids, [ids[0]], [ids[1]], [ids[2]]]);
        expect((await findFeed(env.database.db, ids[1]))!.lease_owner).toBeNull();
        expect((await findFeed(env.database.db, ids[2]))!.lease_owner).toBe('me:2:0000');
      } finally {
        await env.close();
      }
    });
  });
}
