import { randomBytes } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadingList } from '../../common/api.js';
import * as readingState from '../articles/reading-state.js';
import { isVisible } from '../articles/visible-articles.js';
import { readingListCounts } from '../articles/reading.repository.js';
import { migrateToLatest, openPostgres, openSqlite, type Database } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';
import type { Tables } from '../db/tables.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import { cleanupArticles } from '../refresh/cleanup.js';
import { DIALECTS, TEST_POSTGRES_URL } from '../test/dialects.js';
import { item, type TestFeedServer, type TestItem } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, refetch, signedInUser, subscribeFetched } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';

/**
 * The reading lists' counters (docs/decisions.md "Reading-list counters"; migration 0011): after every kind of write
 * that changes what a list's counts show (read marks of every kind, membership by hand, by a smart list's recompute
 * and by matching arriving articles, filters, unsubscribing, a list deleted, the clean-up), the stored counters equal
 * a full recount from the members, and the lists' counts the API answers (mute applied when reading) equal a count
 * over the visible members, as they were counted before the counters. On both dialects.
 */

type Db = Kysely<Tables>;

/** Stored counter rows that differ from a full recount over the members (missing, extra or wrong); empty when all agree. */
async function counterDrift(db: Db) {
  const stored = await db.selectFrom('reading_list_counts').selectAll().execute();
  const recount = await db
    .selectFrom('reading_list_articles as rla')
    .leftJoin('user_articles as ua', (j) => j.onRef('ua.user_id', '=', 'rla.user_id').onRef('ua.article_id', '=', 'rla.article_id'))
    .select([
      'rla.user_id',
      'rla.list_id',
      'rla.feed_id',
      sql<number>`sum(case when ua.is_hidden = 0 and ua.is_read = 0 then 1 else 0 end)`.as('unread_count'),
      sql<number>`sum(case when ua.is_hidden = 0 then 1 else 0 end)`.as('article_count'),
    ])
    .groupBy(['rla.user_id', 'rla.list_id', 'rla.feed_id'])
    .execute();
  const key = (r: { user_id: number; list_id: number; feed_id: number }) => `user ${r.user_id} list ${r.list_id} feed ${r.feed_id}`;
  const want = new Map(recount.map((r) => [key(r), [Number(r.unread_count), Number(r.article_count)]]));
  const have = new Map(stored.map((r) => [key(r), [Number(r.unread_count), Number(r.article_count)]]));
  const drift: string[] = [];
  for (const [k, v] of want)
    if (JSON.stringify(have.get(k)) !== JSON.stringify(v)) drift.push(`${k}: stored ${JSON.stringify(have.get(k))}, recount ${JSON.stringify(v)}`);
  for (const [k, v] of have) if (!want.has(k)) drift.push(`${k}: stored ${JSON.stringify(v)} without members`);
  return drift;
}

for (const dialect of DIALECTS) {
  describe(`reading-list counters (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));

    /** Each list's visible members (not filtered out, feed not muted now), all and unread, counted over the members. */
    async function visibleCounts(userId: number, now: string): Promise<Map<number, { total: number; unread: number }>> {
      const rows = await t.database.db
        .selectFrom('reading_lists')
        .innerJoin('reading_list_articles', 'reading_list_articles.list_id', 'reading_lists.id')
        .innerJoin('user_articles', (j) =>
          j.onRef('user_articles.article_id', '=', 'reading_list_articles.article_id').onRef('user_articles.user_id', '=', 'reading_list_articles.user_id'),
        )
        .select((eb) => [
          'reading_lists.id',
          eb.fn.countAll<number>().as('total'),
          eb.fn.sum<number>(eb.case().when('user_articles.is_read', '=', 0).then(1).else(0).end()).as('unread'),
        ])
        .where('reading_lists.user_id', '=', userId)
        .where((eb) => isVisible(eb, userId, now))
        .groupBy('reading_lists.id')
        .execute();
      return new Map(rows.map((r) => [r.id, { total: Number(r.total), unread: Number(r.unread) }]));
    }

    it('keeps every counter equal to a recount, and every answer equal to a count of the visible members, after every kind of write', async () => {
      const u = await signedInUser(t);
      const other = await signedInUser(t);
      const db = t.database.db;

      /** The API's counts (lists, unread counts, each list's page totals) against a count over the visible members. */
      async function answersAgree(step: string) {
        const live = await visibleCounts(u.id, t.clock.now().toISOString());
        const lists: ReadingList[] = (await u.get('/api/reading-lists')).json().reading_lists;
        const unread: { id: number; unread_article_count: number }[] = (await u.get('/api/reading-lists/unread_counts')).json().unread_counts;
        for (const l of lists) {
          const want = live.get(l.id) ?? { total: 0, unread: 0 };
          expect([l.article_count, l.unread_article_count], `${step}: list ${l.name}`).toEqual([want.total, want.unread]);
          expect(unread.find((c) => c.id === l.id)?.unread_article_count, `${step}: unread_counts ${l.name}`).toBe(want.unread);
          const page = (await u.get(`/api/reading-lists/${l.id}/articles?per_page=1`)).json();
          const unreadPage = (await u.get(`/api/reading-lists/${l.id}/articles?per_page=1&show_read=0`)).json();
          expect([page.total, unreadPage.total], `${step}: page totals ${l.name}`).toEqual([want.total, want.unread]);
        }
        expect(unread.map((c) => c.id)).toEqual(lists.map((l) => l.id));
      }
      async function check(step: string) {
        expect(await counterDrift(db), step).toEqual([]);
        await answersAgree(step);
      }

      const items = (titles: string[], from = 1): TestItem[] => titles.map((title, i) => item(from + i, { title }));
      const a = await subscribeFetched(t, server, u.id, 'A', items(['Rust 1', 'Rust 2', 'Rust 3', 'Rust 4']));
      const b = await subscribeFetched(t, server, u.id, 'B', items(['Go 1', 'Go 2', 'Rust in Go 3', 'Go 4']));
      const c = await subscribeFetched(t, server, u.id, 'C', items(['Zig 1', 'Zig 2', 'Zig 3']));
      // Another user with a smart list over a shared feed: never touched by u's calls.
      await subscribe(db, other.id, a.id, t.clock.now().toISOString());
      expect((await other.post('/api/reading-lists', { name: 'Theirs', is_smart: true, rules: [{ rule_value: 'rust', rule_scope: 'title' }] })).statusCode).toBe(201);
      // A feed the other user reads already: subscribing to it brings stored articles into u's smart list.
      const e = await subscribeFetched(t, server, other.id, 'E', items(['Go 10', 'Rust 10', 'Go 11'], 10));
      const idOf = async (title: string) => (await db.selectFrom('articles').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id;

      const smartRes = await u.post('/api/reading-lists', { name: 'Rust', is_smart: true, rules: [{ rule_value: 'rust', rule_scope: 'title' }] });
      expect(smartRes.statusCode, smartRes.body).toBe(201);
      const smart: ReadingList = smartRes.json().reading_list;
      const simple: ReadingList = (await u.post('/api/reading-lists', { name: 'Simple' })).json().reading_list;
      const empty: ReadingList = (await u.post('/api/reading-lists', { name: 'Empty' })).json().reading_list;
      expect(smart.article_count).toBe(5);
      await check('lists created');

      const steps: [string, () => Promise<{ statusCode: number; body: string } | void>][] = [
        ['add member A', async () => u.post(`/api/reading-lists/${simple.id}/articles/${await idOf('Rust 1')}`)],
        ['add member B', async () => u.post(`/api/reading-lists/${simple.id}/articles/${await idOf('Go 1')}`)],
        ['add member C', async () => u.post(`/api/reading-lists/${simple.id}/articles/${await idOf('Zig 1')}`)],
        ['add member C again', async () => u.post(`/api/reading-lists/${simple.id}/articles/${await idOf('Zig 2')}`)],
        ['mark read', async () => u.post(`/api/articles/${await idOf('Rust 1')}/read`)],
        ['mark unread', async () => u.post(`/api/articles/${await idOf('Rust 1')}/unread`)],
        ['mark-read ids', async () => u.post('/api/articles/mark-read', { article_ids: [await idOf('Rust 2'), await idOf('Go 1')] })],
        ['read/all feed', () => u.post('/api/articles/read/all', { feed_id: c.id })],
        [
          'read/all list, undone',
          async () => {
            const marked = await u.post('/api/articles/read/all', { reading_list_id: smart.id });
            expect(marked.json().marked, marked.body).toBeGreaterThan(0);
            await check('read/all list');
            return u.post('/api/articles/read/undo', { undo_token: marked.json().undo_token });
          },
        ],
        [
          'read/all everything, undone',
          async () => {
            const marked = await u.post('/api/articles/read/all', {});
            await check('read/all everything');
            return u.post('/api/articles/read/undo', { undo_token: marked.json().undo_token });
          },
        ],
        ['unread read since', async () => void (await readingState.unreadReadSince(db, u.id, t.clock.now().toISOString(), '2000-01-01T00:00:00.000Z'))],
        ['remove member', async () => u.del(`/api/reading-lists/${simple.id}/articles/${await idOf('Zig 2')}`)],
        ['remove last member of a feed', async () => u.del(`/api/reading-lists/${simple.id}/articles/${await idOf('Go 1')}`)],
        ['smart rules changed', () => u.put(`/api/reading-lists/${smart.id}`, { name: 'Go', is_smart: true, rules: [{ rule_value: 'go', rule_scope: 'title' }] })],
        ['subscribing to a feed whose stored articles match', async () => void (await subscribe(db, u.id, e.id, t.clock.now().toISOString()))],
        ['new and edited articles arrive', () => refetch(t, server, b, 'B', items(['Go 1', 'Go 2', 'Rust in Go 3', 'Java 4', 'Go 5', 'Go 6', 'Java 7']))],
        ['filter hides members', () => u.post(`/api/feeds/${b.id}/filters`, { filter_type: 'exclude', filter_scope: 'title', filter_text: 'Go 2' })],
        ['filter on a feed with a listed article', () => u.post(`/api/feeds/${c.id}/filters`, { filter_type: 'exclude', filter_scope: 'title', filter_text: 'Hidden' })],
        ['an edit the filter hides arrives', () => refetch(t, server, c, 'C', items(['Hidden Zig 1', 'Zig 2', 'Zig 3']))],
        [
          'filter removed',
          async () => {
            const filters = (await u.get(`/api/feeds/${b.id}/filters`)).json().filters;
            return u.del(`/api/feeds/filters/${filters[0].id}`);
          },
        ],
        ['mute', () => u.post(`/api/feeds/${b.id}/mute`, { permanently: true })],
        ['mark read while muted elsewhere', async () => u.post(`/api/articles/${await idOf('Zig 3')}/read`)],
        ['unmute', () => u.post(`/api/feeds/${b.id}/unmute`)],
        ['timed mute', () => u.post(`/api/feeds/${b.id}/mute`, { duration: 1, permanently: false })],
        [
          'timed mute ends by itself',
          async () => {
            // The smart list ('go') holds feed B's articles and two of feed E: only E's are visible while B is muted.
            expect((await visibleCounts(u.id, t.clock.now().toISOString())).get(smart.id)?.total).toBe(2);
            // Two hours on (past the web session's token, so asked of the repository the service reads).
            const later = new Date(t.clock.now().getTime() + 2 * 3_600_000).toISOString();
            const live = await visibleCounts(u.id, later);
            expect(live.get(smart.id)?.total).toBeGreaterThan(2);
            const counted = await readingListCounts(db, u.id, later);
            expect(new Map(counted.filter((r) => r.total > 0).map((r) => [r.list_id, { total: r.total, unread: r.unread }]))).toEqual(live);
          },
        ],
        ['unmute B', () => u.post(`/api/feeds/${b.id}/unmute`)],
        ['back to rust', () => u.put(`/api/reading-lists/${smart.id}`, { name: 'Rust', is_smart: true, rules: [{ rule_value: 'rust', rule_scope: 'title' }] })],
        ['unsubscribe', () => u.del(`/api/feeds/${a.id}`)],
        [
          'clean-up',
          async () => {
            await u.post('/api/articles/read/all', {});
            // Fetched again later with other items: the old ones are no longer in their feed, the clean-up's candidates.
            t.clock.advance(2 * 3_600_000);
            try {
              await refetch(t, server, c, 'C', items(['Zig 7'], 7));
              await refetch(t, server, b, 'B', items(['Go 8'], 8));
            } finally {
              t.clock.reset();
            }
            expect((await cleanupArticles(t.database, { retentionDays: 1, now: new Date(Date.UTC(2027, 5, 1)) })).articles).toBeGreaterThan(0);
          },
        ],
        ['list deleted', () => u.del(`/api/reading-lists/${simple.id}`)],
        ['all feeds deleted', () => u.del('/api/feeds/all')],
      ];
      for (const [name, step] of steps) {
        const res = await step();
        if (res) expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
        await check(name);
      }
      expect(await db.selectFrom('reading_list_counts').select('list_id').where('user_id', '=', u.id).execute()).toEqual([]);
      expect(empty.article_count).toBe(0);
    });
  });

  describe(`migration 0011 (${dialect})`, () => {
    let database: Database;
    let schema: string | undefined;
    let destroy: () => Promise<void>;

    beforeAll(async () => {
      if (dialect === 'sqlite') {
        database = openSqlite(':memory:');
        destroy = () => database.destroy();
        return;
      }
      schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      database = openPostgres(TEST_POSTGRES_URL, { schema, max: 2 });
      destroy = async () => {
        await database.destroy();
        const c = new pg.Client({ connectionString: TEST_POSTGRES_URL });
        await c.connect();
        await c.query(`drop schema if exists ${schema} cascade`);
        await c.end();
      };
    });
    afterAll(() => destroy());

    it('fills the counters of the lists that exist', async () => {
      const db = database.db;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
      expect((await migrator.migrateTo('0010_feed_posting_frequency')).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      const user = await db
        .insertInto('users')
        .values({ email: 'm@example.com', name: 'M', password_hash: 'x', is_verified: 1, language_preference: 'en', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const feedIds: number[] = [];
      for (const n of [1, 2]) {
        const feed = await db
          .insertInto('feeds')
          .values({ url: `https://m.test/${n}`, title: `F${n}`, next_check_at: now, error_count: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        feedIds.push(feed.id);
        await db.insertInto('subscriptions').values({ user_id: user.id, feed_id: feed.id, sort_order: n, created_at: now }).execute();
      }
      const lists = [];
      for (const name of ['One', 'Two', 'Empty'])
        lists.push(
          (await db.insertInto('reading_lists').values({ user_id: user.id, name, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id,
        );
      // Six articles per feed: every other one read, the third of each feed hidden by a filter.
      for (const feedId of feedIds) {
        for (let i = 0; i < 6; i++) {
          const article = await db
            .insertInto('articles')
            .values({
              feed_id: feedId,
              guid: `g${i}`,
              guid_hash: `h${feedId}-${i}`,
              title: `T${i}`,
              content_hash: 'c',
              published_at: now,
              created_at: now,
              last_seen_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await db
            .insertInto('user_articles')
            .values({ user_id: user.id, article_id: article.id, feed_id: feedId, published_at: now, is_read: i % 2, is_favorite: 0, is_hidden: i === 2 ? 1 : 0 })
            .execute();
          for (const listId of i < 4 ? [lists[0]] : [lists[0], lists[1]])
            await db
              .insertInto('reading_list_articles')
              .values({ list_id: listId, article_id: article.id, user_id: user.id, feed_id: feedId, published_at: now, added_at: now })
              .execute();
        }
      }
      await migrateToLatest(db);
      expect(await counterDrift(db)).toEqual([]);
      const sums = await db
        .selectFrom('reading_list_counts')
        .select((eb) => ['list_id', eb.fn.sum<number>('article_count').as('total'), eb.fn.sum<number>('unread_count').as('unread')])
        .groupBy('list_id')
        .orderBy('list_id')
        .execute();
      // List One: 6 members per feed, 5 not hidden, of those 2 unread (0 and 4); list Two: articles 4 and 5.
      expect(sums.map((s) => [s.list_id, Number(s.total), Number(s.unread)])).toEqual([
        [lists[0], 10, 4],
        [lists[1], 4, 2],
      ]);
    });
  });
}
