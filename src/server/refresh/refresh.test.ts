import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { articleBody, ftsMatchQuery, pgTsQuery } from '../articles/article-text.js';
import { countUnread, listFeedArticles, searchVectorsAgree } from '../articles/articles.repository.js';
import { searchArticles } from '../articles/reading.repository.js';
import { findFeed } from '../feeds/feeds.repository.js';
import { createFetcher, type Fetcher } from '../reader/fetch/index.js';
import { DIALECTS } from '../test/dialects.js';
import { ITEM_EPOCH_MS, item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { createRefreshEnv, type RefreshEnv } from '../test/refresh-env.js';
import { until } from '../test/wait.js';
import { cleanupArticles } from './cleanup.js';
import { inlineProcessor } from './document-pool.js';
import { createRefreshEngine, type RefreshEngine } from './engine.js';
import { Slots } from './slots.js';
import { packTexts } from './pack-texts.js';
import type { StoredDocument } from './process-document.js';
import { insertFilter } from '../feeds/filters.repository.js';
import { createReadingList } from '../reading-lists/reading-lists.repository.js';
import { setRead } from '../articles/reading-state.js';
import type { RefreshOutcome } from './refresh-feed.js';

const HOUR = 3_600_000;

for (const dialect of DIALECTS) {
  describe(`feed refresh (${dialect})`, () => {
    let server: TestFeedServer;
    let env: RefreshEnv;
    let path: string;
    let n = 0;

    beforeAll(async () => {
      server = await startTestFeedServer();
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(async () => {
      env = await createRefreshEnv(dialect);
      path = `/feed-${++n}.xml`;
    });
    afterEach(async () => {
      await env.close();
    });

    /** The titles a user's search finds (read ones too), sorted: the query built as the service builds it. */
    const searchTitles = async (userId: number, q: string) => {
      const match = (dialect === 'postgres' ? pgTsQuery : ftsMatchQuery)(q)!;
      const found = await searchArticles(env.database.db, userId, env.clock.now().toISOString(), { match, showRead: true, limit: 10, offset: 0 });
      return found.rows.map((r) => r.title).sort();
    };

    /** PostgreSQL: the feed has `count` articles, and each stored vector is what to_tsvector makes of its title and plain text. */
    const expectVectorsOfPostgres = async (feedId: number, count: number) => {
      const { rows } = await sql<{
        title: string;
        content: string | null;
        stored: string;
      }>`select title, content, search_vector::text as stored from articles where feed_id = ${feedId}`.execute(env.database.db);
      expect(rows).toHaveLength(count);
      for (const r of rows) {
        const { rows: made } = await sql<{ v: string }>`select to_tsvector('simple', ${`${r.title} ${articleBody(r.content, null)}`})::text as v`.execute(
          env.database.db,
        );
        expect(r.stored).toBe(made[0].v);
      }
    };

    it('stores a new feed once for every subscriber, and a re-fetch is a conditional 304', async () => {
      server.set(path, { body: rss('News <&> Views', [item(3), item(2), item(1)]) });
      const [alice, bob] = [await env.user(), await env.user()];
      const feedId = await env.subscribe(alice, server.url(path));
      expect(await env.subscribe(bob, server.url(path))).toBe(feedId);

      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 3, updatedArticles: 0 });
      const feed = (await findFeed(env.database.db, feedId))!;
      expect(feed.title).toBe('News <&> Views');
      expect(feed.format).toBe('rss');
      expect(feed.etag).toMatch(/^"/);
      expect(feed.error_count).toBe(0);
      expect(feed.lease_until).toBeNull();
      expect(Date.parse(feed.next_check_at)).toBeGreaterThan(env.clock.now().getTime());
      const articles = await listFeedArticles(env.database.db, feedId);
      expect(articles.map((a) => a.title)).toEqual(['Item 3', 'Item 2', 'Item 1']);
      expect(articles[0].content).toContain('About Item 3');
      expect(await countUnread(env.database.db, alice)).toBe(3);
      expect(await countUnread(env.database.db, bob)).toBe(3);

      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'not-modified' });
      const second = server.requests(path)[1];
      expect(second['if-none-match']).toBe(feed.etag);
      expect(second['if-modified-since']).toBe(feed.last_modified);
      expect(second['user-agent']).toMatch(/^Feeder\//);
      expect(await listFeedArticles(env.database.db, feedId)).toHaveLength(3);
    });

    it('stores feeds refreshed together in one write group, each searchable', async () => {
      const other = `${path}-other`;
      server.set(path, { body: rss('Birds', [item(1, { title: 'Kestrel sighted' }), item(2, { title: 'Heron nests' })]) });
      server.set(other, { body: rss('Trees', [item(1, { title: 'Oak blossoms', description: '<p>Acorns and kestrel feathers</p>' })]) });
      const alice = await env.user();
      const feeds = [await env.subscribe(alice, server.url(path)), await env.subscribe(alice, server.url(other))];
      const outcomes = await Promise.all(feeds.map((id) => env.engine.refreshFeed(id)));
      expect(outcomes).toEqual([
        { status: 'ok', newArticles: 2, updatedArticles: 0 },
        { status: 'ok', newArticles: 1, updatedArticles: 0 },
      ]);
      const search = (q: string) => searchTitles(alice, q);
      expect(await search('kestrel')).toEqual(['Kestrel sighted', 'Oak blossoms']);
      expect(await search('heron')).toEqual(['Heron nests']);
    });

    it('indexes new and edited articles for search, whether the vector was made while parsing or by the database', async () => {
      // Item 1's text is left to PostgreSQL (a host and a version: search-vector.ts handles neither), item 2's is
      // made beside parsing; the edit of item 2 is too.
      const a1 = { title: 'Release notes', description: '<p>Kestrel 2.5 ships from kestrel.example.org today</p>' };
      const a2 = { title: 'Well-known birds', description: '<p>The kestrel hovers; Straße über Felder…</p>' };
      server.set(path, { body: rss('Birds', [item(1, a1), item(2, a2)]) });
      const alice = await env.user();
      const feedId = await env.subscribe(alice, server.url(path));
      await env.engine.refreshFeed(feedId);
      server.set(path, { body: rss('Birds', [item(1, a1), item(2, { ...a2, title: 'Well-known falcons' })]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 0, updatedArticles: 1 });
      const search = (q: string) => searchTitles(alice, q);
      expect(await search('kestrel')).toEqual(['Release notes', 'Well-known falcons']);
      expect(await search('well-known falc')).toEqual(['Well-known falcons']);
      expect(await search('birds')).toEqual([]);
      expect(await search('über')).toEqual(['Well-known falcons']);
      if (dialect === 'postgres') await expectVectorsOfPostgres(feedId, 2);
    });

    it('finds hosts, numbers, e-mail addresses and dates as the user types them, on both databases', async () => {
      const body = '<p>Mirror at example.com, version 3.5, write to news-desk@example.org by 2026-11-25 (see https://example.net/a/b).</p>';
      server.set(path, {
        body: rss('Notes', [
          item(1, { title: 'Release', description: body }),
          item(2, { title: 'Other', description: '<p>An example of commerce in 2026, 35 of them</p>' }),
        ]),
      });
      const alice = await env.user();
      await env.engine.refreshFeed(await env.subscribe(alice, server.url(path)));
      const search = (q: string) => searchTitles(alice, q);
      for (const q of ['example.com', '3.5', 'version 3.5', 'news-desk@example.org', '2026-11-25', 'https://example.net/a/b', '"example.com",', 'examp'])
        expect({ q, found: await search(q) }).toEqual({ q, found: q === 'examp' ? ['Other', 'Release'] : ['Release'] });
    });

    it('writes the feeds answered 304 together in one statement, each row with its own state', async () => {
      const paths = [path, `${path}-b`, `${path}-c`];
      paths.forEach((p, i) => server.set(p, { body: rss(`Feed ${i}`, [item(2), item(1)]) }));
      const alice = await env.user();
      const feeds: number[] = [];
      for (const p of paths) feeds.push(await env.subscribe(alice, server.url(p)));
      for (const id of feeds) await env.engine.refreshFeed(id);
      const stored = await Promise.all(feeds.map(async (id) => (await findFeed(env.database.db, id))!));
      // Different schedules (posts every 10 hours / every hour) and an error the 304 clears.
      const postedAt = env.clock.now().toISOString();
      await env.database.db.updateTable('feeds').set({ post_gap_minutes: 600, newest_post_at: postedAt }).where('id', '=', feeds[0]).execute();
      await env.database.db.updateTable('feeds').set({ post_gap_minutes: 60, newest_post_at: postedAt }).where('id', '=', feeds[2]).execute();
      await env.database.db.updateTable('feeds').set({ error_count: 2, last_error: 'earlier', last_error_code: 'FETCH_HTTP_ERROR' }).where('id', '=', feeds[1]).execute();

      env.clock.advance(HOUR);
      const now = env.clock.now();
      expect(await Promise.all(feeds.map((id) => env.engine.refreshFeed(id)))).toEqual(feeds.map(() => ({ status: 'not-modified' })));
      const after = env.clock.now().toISOString();
      for (const [i, id] of feeds.entries()) {
        const feed = (await findFeed(env.database.db, id))!;
        expect(feed.last_fetched_at! >= now.toISOString() && feed.last_fetched_at! <= after).toBe(true);
        expect(feed).toMatchObject({
          etag: stored[i].etag,
          last_modified: stored[i].last_modified,
          updated_at: feed.last_fetched_at,
          last_success_at: stored[i].last_success_at,
          error_count: 0,
          last_error: null,
          last_error_code: null,
          lease_until: null,
          lease_owner: null,
          title: `Feed ${i}`,
        });
        expect(server.requests(paths[i])[1]['if-none-match']).toBe(stored[i].etag);
      }
      const next = (id: number) => findFeed(env.database.db, id).then((f) => Date.parse(f!.next_check_at) - now.getTime());
      expect(await next(feeds[0])).toBeGreaterThanOrEqual(480 * 60_000);
      expect(await next(feeds[2])).toBeLessThanOrEqual(120 * 60_000);
    });

    it('keeps the posting frequency on the feed row; a 304 schedules from it, and a feed without it learns it once', async () => {
      server.set(path, { body: rss('Hourly', [item(3), item(2), item(1)]) });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      await env.engine.refreshFeed(feedId);
      const stored = (await findFeed(env.database.db, feedId))!;
      expect(stored.post_gap_minutes).toBe(60);
      expect(stored.newest_post_at).toBe(new Date(ITEM_EPOCH_MS + 3 * HOUR).toISOString());

      // A 304 reads no articles: a frequency set on the row (every 10 hours, last post just now) is what it uses.
      const now = env.clock.now();
      await env.database.db.updateTable('feeds').set({ post_gap_minutes: 600, newest_post_at: now.toISOString() }).where('id', '=', feedId).execute();
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'not-modified' });
      const next = Date.parse((await findFeed(env.database.db, feedId))!.next_check_at) - now.getTime();
      expect(next).toBeGreaterThanOrEqual(540 * 60_000);
      expect(next).toBeLessThanOrEqual(660 * 60_000);

      // A feed stored before the row kept it (migration 0010) reads its newest articles once and keeps the result.
      await env.database.db.updateTable('feeds').set({ post_gap_minutes: null, newest_post_at: null }).where('id', '=', feedId).execute();
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'not-modified' });
      const learned = (await findFeed(env.database.db, feedId))!;
      expect(learned.post_gap_minutes).toBe(60);
      expect(learned.newest_post_at).toBe(stored.newest_post_at);
    });

    it('adds only new items, updates an edited item in place and keeps its read state', async () => {
      const user = await env.user();
      const feedId = await env.subscribe(user, server.url(path));
      server.set(path, { body: rss('Blog', [item(2), item(1)]) });
      await env.engine.refreshFeed(feedId);
      const before = await listFeedArticles(env.database.db, feedId);
      const edited = before.find((a) => a.title === 'Item 1')!;
      await env.database.db.updateTable('user_articles').set({ is_read: 1 }).where('article_id', '=', edited.id).execute();

      server.set(path, { body: rss('Blog', [item(3), item(2), item(1, { title: 'Item 1 (corrected)' })]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 1 });
      const after = await listFeedArticles(env.database.db, feedId);
      expect(after).toHaveLength(3);
      const updated = after.find((a) => a.id === edited.id)!;
      expect(updated.title).toBe('Item 1 (corrected)');
      expect(updated.updated_at).not.toBeNull();
      const state = await env.database.db.selectFrom('user_articles').selectAll().where('article_id', '=', edited.id).executeTakeFirstOrThrow();
      expect(state.is_read).toBe(1);
      expect(await countUnread(env.database.db, user)).toBe(2);
    });

    it("gives new articles to the feed's subscribers only, and an item that comes back is neither stored nor given again", async () => {
      const [alice, bob, carol] = [await env.user(), await env.user(), await env.user()];
      const feedId = await env.subscribe(alice, server.url(path));
      await env.subscribe(bob, server.url(path));
      const otherPath = `${path}-other`;
      server.set(otherPath, { body: rss('Other', [item(1, { title: 'Elsewhere' })]) });
      const otherId = await env.subscribe(carol, server.url(otherPath));
      server.set(path, { body: rss('Blog', [item(2), item(1)]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 2, updatedArticles: 0 });
      // Item 1 leaves the document and comes back: the store compares with the last document only, so it arrives as
      // new and the insert's conflict clause keeps the stored row (and its copies) as they are.
      server.set(path, { body: rss('Blog', [item(3), item(2)]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
      server.set(path, { body: rss('Blog', [item(4), item(3), item(2), item(1)]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
      expect(await env.engine.refreshFeed(otherId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });

      const copies = await env.database.db.selectFrom('user_articles').select(['user_id', 'article_id', 'feed_id', 'published_at']).execute();
      const articles = await listFeedArticles(env.database.db, feedId);
      expect(articles.map((a) => a.title)).toEqual(['Item 4', 'Item 3', 'Item 2', 'Item 1']);
      for (const user of [alice, bob]) {
        const mine = copies.filter((c) => c.user_id === user).sort((a, b) => a.article_id - b.article_id);
        // One copy of each article, with the article's feed and date.
        expect(mine.map((c) => [c.article_id, c.feed_id, c.published_at])).toEqual([...articles].sort((a, b) => a.id - b.id).map((a) => [a.id, feedId, a.published_at]));
      }
      expect(copies.filter((c) => c.user_id === carol).map((c) => c.feed_id)).toEqual([otherId]);
      expect(await countUnread(env.database.db, alice)).toBe(4);
      const subscription = await env.database.db
        .selectFrom('subscriptions')
        .select(['unread_count', 'article_count'])
        .where('user_id', '=', bob)
        .executeTakeFirstOrThrow();
      expect(subscription).toEqual({ unread_count: 4, article_count: 4 });
    });

    it('stores feeds of every length exactly once for each subscriber, through inserts padded to a few sizes', async () => {
      // paddedRows: 17–64 rows are written as the next multiple of 8, the extra rows copies of the last one, which the
      // conflict clause drops; 70 items are a statement of 64 and one of 6. Every item must be stored and given once.
      const [alice, bob] = [await env.user(), await env.user()];
      const lengths = [1, 15, 16, 17, 23, 24, 50, 64, 65, 70];
      const titles = (count: number) => Array.from({ length: count }, (_, j) => `Item ${count - j}`);
      let expected = 0;
      for (const count of lengths) {
        const feedPath = `${path}-${count}`;
        server.set(feedPath, {
          body: rss(
            `Feed of ${count}`,
            Array.from({ length: count }, (_, j) => item(count - j)),
          ),
        });
        const feedId = await env.subscribe(alice, server.url(feedPath));
        await env.subscribe(bob, server.url(feedPath));
        expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: count, updatedArticles: 0 });
        expect((await listFeedArticles(env.database.db, feedId)).map((a) => a.title)).toEqual(titles(count));
        // The new copies are counted as they are given (the padding rows, dropped, count for nothing).
        const counters = await env.database.db.selectFrom('subscriptions').select(['unread_count', 'article_count']).where('feed_id', '=', feedId).execute();
        expect(counters).toEqual([
          { unread_count: count, article_count: count },
          { unread_count: count, article_count: count },
        ]);
        expected += count;
      }
      const copies = await env.database.db.selectFrom('user_articles').select(['user_id', 'article_id']).execute();
      expect(copies).toHaveLength(expected * 2);
      expect(new Set(copies.map((c) => `${c.user_id}:${c.article_id}`)).size).toBe(expected * 2);
      expect(await countUnread(env.database.db, bob)).toBe(expected);
      // Each article has its search entry once: every title holds "Item".
      const indexed =
        dialect === 'sqlite'
          ? sql<{ n: number }>`select count(*) as n from articles_fts where articles_fts match 'item'`
          : sql<{ n: number }>`select count(*) as n from articles where search_vector @@ to_tsquery('simple', 'item')`;
      expect(Number((await indexed.execute(env.database.db)).rows[0].n)).toBe(expected);
    });

    it("counts new articles in each subscriber's counters, leaving out what a subscriber's filter hides", async () => {
      const db = env.database.db;
      const [alice, bob] = [await env.user(), await env.user()];
      const feedId = await env.subscribe(alice, server.url(path));
      await env.subscribe(bob, server.url(path));
      const bobSub = await db.selectFrom('subscriptions').select('id').where('user_id', '=', bob).where('feed_id', '=', feedId).executeTakeFirstOrThrow();
      await insertFilter(db, bob, { subscriptionId: bobSub.id, feedId, type: 'exclude', scope: 'title', text: 'Item 2', now: env.clock.now().toISOString() });
      const counters = async () =>
        (await db.selectFrom('subscriptions').select(['user_id', 'unread_count', 'article_count']).where('feed_id', '=', feedId).orderBy('user_id').execute()).map(
          (r) => [r.unread_count, r.article_count],
        );

      server.set(path, { body: rss('Blog', [item(2), item(1)]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 2, updatedArticles: 0 });
      expect(await counters()).toEqual([
        [2, 2],
        [1, 1],
      ]);
      // Alice reads one; a later document brings one new item, which Bob's filter lets through.
      const first = (await listFeedArticles(db, feedId)).find((a) => a.title === 'Item 1')!;
      await setRead(db, alice, env.clock.now().toISOString(), [first.id], true);
      server.set(path, { body: rss('Blog', [item(3), item(2), item(1)]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
      expect(await counters()).toEqual([
        [2, 3],
        [2, 2],
      ]);
      // An edit the filter now judges (the title no longer matches): Bob sees it again.
      server.set(path, { body: rss('Blog', [item(3), item(2, { title: 'Item two' }), item(1)]) });
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 0, updatedArticles: 1 });
      expect(await counters()).toEqual([
        [2, 3],
        [3, 3],
      ]);
    });

    it('gives a later subscriber the stored articles at once', async () => {
      server.set(path, { body: rss('Blog', [item(2), item(1)]) });
      const first = await env.user();
      const feedId = await env.subscribe(first, server.url(path));
      await env.engine.refreshFeed(feedId);
      const later = await env.user();
      await env.subscribe(later, server.url(path));
      expect(await countUnread(env.database.db, later)).toBe(2);
      expect(server.hits(path)).toBe(1);
    });

    it('dates an undated item with the time it was first seen, keeping the document order', async () => {
      server.set(path, { body: rss('Undated', [item(2, { pubDate: undefined }), item(1, { pubDate: undefined })]) });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      await env.engine.refreshFeed(feedId);
      const [newest, older] = await listFeedArticles(env.database.db, feedId);
      expect(newest.title).toBe('Item 2');
      expect(older.title).toBe('Item 1');
      expect(Math.abs(Date.parse(newest.published_at) - env.clock.now().getTime())).toBeLessThan(60_000);
    });

    it('records a failure with a translatable code and backs off exponentially', async () => {
      server.set(path, { status: 500, body: 'oops', contentType: 'text/plain' });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      const outcome = await env.engine.refreshFeed(feedId);
      expect(outcome).toMatchObject({ status: 'error', code: 'FETCH_HTTP_ERROR' });
      let feed = (await findFeed(env.database.db, feedId))!;
      expect(feed.error_count).toBe(1);
      expect(feed.last_error_code).toBe('FETCH_HTTP_ERROR');
      expect(feed.last_error).toMatch(/500/);
      const firstDelay = Date.parse(feed.next_check_at) - env.clock.now().getTime();
      expect(firstDelay).toBeGreaterThan(13 * 60_000); // 15 min ± 10 %
      expect(firstDelay).toBeLessThan(17 * 60_000);

      await env.engine.refreshFeed(feedId);
      await env.engine.refreshFeed(feedId);
      feed = (await findFeed(env.database.db, feedId))!;
      expect(feed.error_count).toBe(3);
      const thirdDelay = Date.parse(feed.next_check_at) - env.clock.now().getTime();
      expect(thirdDelay).toBeGreaterThan(50 * 60_000); // 60 min ± 10 %

      server.set(path, { body: rss('Back', [item(1)]) });
      expect(await env.engine.refreshFeed(feedId)).toMatchObject({ status: 'ok' });
      feed = (await findFeed(env.database.db, feedId))!;
      expect(feed).toMatchObject({ error_count: 0, last_error: null, last_error_code: null, title: 'Back' });
    });

    it('honours Retry-After on 429', async () => {
      server.set(path, { status: 429, body: '', headers: { 'retry-after': '7200' } });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      expect(await env.engine.refreshFeed(feedId)).toMatchObject({ status: 'error', code: 'FETCH_RATE_LIMITED' });
      const feed = (await findFeed(env.database.db, feedId))!;
      expect(Date.parse(feed.next_check_at) - env.clock.now().getTime()).toBeGreaterThanOrEqual(2 * HOUR - 1000);
    });

    it('records a document that is not a feed as a parse error and keeps the stored articles', async () => {
      server.set(path, { body: rss('Blog', [item(1)]) });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      await env.engine.refreshFeed(feedId);
      server.set(path, { body: '<!doctype html><html><body><h1>Maintenance</h1></body></html>', contentType: 'text/html' });
      const outcome = await env.engine.refreshFeed(feedId);
      expect(outcome).toMatchObject({ status: 'error' });
      expect((outcome as { code: string }).code).toMatch(/^PARSE_/);
      expect(await listFeedArticles(env.database.db, feedId)).toHaveLength(1);
    });

    it('moves the feed to its new address after a permanent redirect', async () => {
      const target = `${path}.moved`;
      server.set(target, { body: rss('Moved', [item(1)]) });
      server.set(path, { status: 301, headers: { location: target } });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      expect(await env.engine.refreshFeed(feedId)).toMatchObject({ status: 'ok', newArticles: 1 });
      expect((await findFeed(env.database.db, feedId))!.url).toBe(server.url(target));
    });

    it('keeps the old address after a temporary redirect', async () => {
      const target = `${path}.tmp`;
      server.set(target, { body: rss('Temp', [item(1)]) });
      server.set(path, { status: 302, headers: { location: target } });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      await env.engine.refreshFeed(feedId);
      expect((await findFeed(env.database.db, feedId))!.url).toBe(server.url(path));
    });

    it('sanitises what a hostile feed sends before it is stored', async () => {
      server.set(path, {
        body: rss('Evil', [
          item(1, {
            title: 'Hi <script>alert(1)</script>',
            description: '<p onclick="steal()">x</p><script>alert(2)</script><a href="javascript:alert(3)">y</a><img src="https://t.example/p.gif" width="1" height="1">',
          }),
        ]),
      });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      await env.engine.refreshFeed(feedId);
      const [a] = await listFeedArticles(env.database.db, feedId);
      expect(a.title).not.toContain('<script');
      const html = `${a.content ?? ''}${a.summary ?? ''}`;
      expect(html).not.toMatch(/<script|onclick|javascript:|p\.gif/i);
    });

    it('skips a feed whose lease another worker holds', async () => {
      server.set(path, { body: rss('Blog', [item(1)]) });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      const until = new Date(env.clock.now().getTime() + 60_000).toISOString();
      await env.database.db.updateTable('feeds').set({ lease_until: until }).where('id', '=', feedId).execute();
      expect(await env.engine.refreshFeed(feedId)).toEqual({ status: 'skipped' });
      expect(server.hits(path)).toBe(0);
    });

    it('holds at most REFRESH_CONCURRENCY documents at once, while its conditional requests all go out together', async () => {
      const inner = createFetcher({ timeoutMs: 5_000, maxBytes: 1024 * 1024, allowPrivateHosts: true, userAgent: 'Feeder/test' });
      // Feed requests under way, as the engine's fetcher sees them (the icon look-ups after a first fetch use it too).
      let underWay = 0;
      let peakRequests = 0;
      const fetcher: Fetcher = {
        async fetch(url, options) {
          if (!url.includes('-slot-')) return inner.fetch(url, options);
          underWay++;
          peakRequests = Math.max(peakRequests, underWay);
          try {
            return await inner.fetch(url, options);
          } finally {
            underWay--;
          }
        },
        close: () => inner.close(),
      };
      // Slots that count what takes one, and how many were held at most.
      class CountingSlots extends Slots {
        taken = 0;
        peak = 0;
        override async acquire(signal?: AbortSignal): Promise<void> {
          await super.acquire(signal);
          this.taken++;
          this.peak = Math.max(this.peak, this.inUse);
        }
      }
      const documents = new CountingSlots(2);
      // Every feed is on 127.0.0.1: the per-host limit must not be what bounds them.
      const two = await createRefreshEnv(dialect, { env: { REFRESH_CONCURRENCY: '2', REFRESH_PER_HOST: '16' }, engine: { fetcher, documents } });
      try {
        const user = await two.user();
        const paths = Array.from({ length: 8 }, (_, i) => `${path}-slot-${i}`);
        const feeds: number[] = [];
        for (const p of paths) {
          server.set(p, { body: rss(p, [item(1)]), delayMs: 100 });
          feeds.push(await two.subscribe(user, server.url(p)));
        }
        /** Refreshes every feed at once (as the queue's slots would start them). */
        const round = async (expected: RefreshOutcome['status']) => {
          peakRequests = 0;
          documents.taken = 0;
          documents.peak = 0;
          expect(await Promise.all(feeds.map(async (id) => (await two.engine.refreshFeed(id)).status))).toEqual(feeds.map(() => expected));
          expect(documents.inUse).toBe(0);
          expect(documents.waiting).toBe(0);
        };
        // New feeds have no validators: each takes its slot before asking, so two requests at a time.
        await round('ok');
        expect(documents.taken).toBe(8);
        expect(documents.peak).toBe(2);
        expect(peakRequests).toBe(2);
        // Conditional requests answered 304 all go out at once; none takes a slot.
        two.clock.advance(HOUR);
        await round('not-modified');
        expect(documents.taken).toBe(0);
        expect(peakRequests).toBe(8);
        // Conditional requests answered with a new document: all sent at once, each document read under a slot.
        for (const p of paths) server.set(p, { body: rss(p, [item(2), item(1)]), delayMs: 100 });
        two.clock.advance(HOUR);
        await round('ok');
        expect(documents.taken).toBe(8);
        expect(documents.peak).toBe(2);
        expect(peakRequests).toBe(8);
        for (const id of feeds) expect((await listFeedArticles(two.database.db, id)).map((a) => a.title)).toEqual(['Item 2', 'Item 1']);
        // Through the queue: it starts four refreshes per slot, so the 304s again all go out together.
        two.clock.advance(HOUR);
        peakRequests = 0;
        const hits = paths.map((p) => server.hits(p));
        two.engine.start();
        await two.engine.enqueue(feeds);
        await until(async () => paths.every((p, i) => server.hits(p) === hits[i] + 1) && underWay === 0, 10_000);
        expect(peakRequests).toBe(8);
      } finally {
        await two.close();
      }
    });

    it('never lets the per-host limit and the document slots wait on each other', async () => {
      // One slot, one request per host, both feeds on 127.0.0.1. The known feed's conditional request holds the
      // host's turn and gets a new document; the new feed, started next, must not hold the only slot meanwhile.
      const one = await createRefreshEnv(dialect, { env: { REFRESH_CONCURRENCY: '1', REFRESH_PER_HOST: '1' } });
      try {
        const user = await one.user();
        const known = `${path}-known`;
        const fresh = `${path}-fresh`;
        server.set(known, { body: rss('Known', [item(1)]) });
        const knownId = await one.subscribe(user, server.url(known));
        expect((await one.engine.refreshFeed(knownId)).status).toBe('ok');
        server.set(known, { body: rss('Known', [item(2), item(1)]), delayMs: 300 });
        server.set(fresh, { body: rss('Fresh', [item(1)]) });
        const freshId = await one.subscribe(user, server.url(fresh));
        one.clock.advance(HOUR);
        const outcomes = await Promise.all([one.engine.refreshFeed(knownId), one.engine.refreshFeed(freshId)]);
        expect(outcomes).toEqual([
          { status: 'ok', newArticles: 1, updatedArticles: 0 },
          { status: 'ok', newArticles: 1, updatedArticles: 0 },
        ]);
      } finally {
        await one.close();
      }
    });

    it('hands a feed back, not blamed, when its new document waits for a slot past the fetch time limit', async () => {
      const fetcher = createFetcher({ timeoutMs: 400, maxBytes: 1024 * 1024, allowPrivateHosts: true, userAgent: 'Feeder/test' });
      const documents = new Slots(1);
      const one = await createRefreshEnv(dialect, { env: { REFRESH_CONCURRENCY: '1' }, engine: { fetcher, documents } });
      try {
        const user = await one.user();
        const p = `${path}-waits`;
        server.set(p, { body: rss('Waits', [item(1)]) });
        const feedId = await one.subscribe(user, server.url(p));
        expect((await one.engine.refreshFeed(feedId)).status).toBe('ok');
        // The only slot is held elsewhere (a slow download, say) for longer than the fetch's time limit.
        await documents.acquire();
        server.set(p, { body: rss('Waits', [item(2), item(1)]) });
        one.clock.advance(HOUR);
        expect(await one.engine.refreshFeed(feedId)).toEqual({ status: 'returned' });
        expect(documents.waiting).toBe(0);
        const row = await one.database.db.selectFrom('feeds').selectAll().where('id', '=', feedId).executeTakeFirstOrThrow();
        expect(row).toMatchObject({ error_count: 0, last_error: null, last_error_code: null, lease_until: null });
        expect(Date.parse(row.next_check_at)).toBeLessThanOrEqual(one.clock.now().getTime());
        // With the slot free again, the next refresh stores the new article.
        documents.release();
        expect(await one.engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
      } finally {
        await one.close();
      }
    });

    it('schedules only due feeds that somebody reads, each once', async () => {
      server.set(path, { body: rss('Blog', [item(1)]) });
      const feedId = await env.subscribe(await env.user(), server.url(path));
      const { ensureFeed } = await import('../feeds/feeds.repository.js');
      await ensureFeed(env.database.db, server.url(`${path}.orphan`), env.clock.now().toISOString());
      expect(await env.engine.schedule()).toBe(1);
      expect(await env.engine.schedule()).toBe(0); // queued: not due again until its job is done or lost
      await env.engine.refreshFeed(feedId);
      expect(await env.engine.schedule()).toBe(0);
      env.clock.advance(27 * HOUR);
      expect(await env.engine.schedule()).toBe(1);
    });

    it('cleans up old read articles nobody kept, but never favourites, unread ones or what is still in the feed', async () => {
      const user = await env.user();
      const feedId = await env.subscribe(user, server.url(path));
      const old = (n: number) => item(n, { pubDate: new Date(Date.UTC(2020, 0, n)).toUTCString() });
      server.set(path, { body: rss('Old', [old(4), old(3), old(2), old(1)]) });
      await env.engine.refreshFeed(feedId);
      const byTitle = new Map((await listFeedArticles(env.database.db, feedId)).map((a) => [a.title, a.id]));
      const setState = (title: string, state: { is_read?: number; is_favorite?: number }) =>
        env.database.db.updateTable('user_articles').set(state).where('article_id', '=', byTitle.get(title)!).execute();
      await setState('Item 1', { is_read: 1 });
      await setState('Item 2', { is_read: 1, is_favorite: 1 });
      await setState('Item 4', { is_read: 1 });
      // Item 3 stays unread. Everything is still in the feed: nothing may go yet.
      expect((await cleanupArticles(env.database, { retentionDays: 180, now: env.clock.now() })).articles).toBe(0);

      // The feed moves on: only Item 4 is still in it.
      env.clock.advance(HOUR);
      server.set(path, { body: rss('Old', [old(4)]) });
      await env.engine.refreshFeed(feedId);
      const removed = await cleanupArticles(env.database, { retentionDays: 180, now: env.clock.now() });
      expect(removed.articles).toBe(1);
      const left = (await listFeedArticles(env.database.db, feedId)).map((a) => a.title).sort();
      expect(left).toEqual(['Item 2', 'Item 3', 'Item 4']);
    });

    // PostgreSQL only: SQLite has no search vectors to check (defined only there, so no run counts it as skipped).
    describe('new items whose texts come as bytes, as a parse thread answers (pack-texts.ts)', () => {
      const engines: RefreshEngine[] = [];
      afterEach(async () => {
        for (const engine of engines.splice(0)) await engine.stop(1000);
      });

      /** An engine whose processor answers as document-worker.ts does: texts packed, the buffer moved across. */
      const packingEngine = () => {
        const seen = { packed: 0, docs: [] as StoredDocument[] };
        const engine = createRefreshEngine({
          config: env.config,
          database: env.database,
          role: 'all',
          now: env.clock.now,
          processor: {
            process: async (input) => {
              const doc = await inlineProcessor.process(input);
              const buffer = packTexts(doc);
              if (buffer) seen.packed++;
              const received = structuredClone(doc, { transfer: doc.buffers ?? [] });
              seen.docs.push(received);
              return received;
            },
            close: async () => {},
          },
        });
        engines.push(engine);
        return { engine, seen };
      };

      const birds = () =>
        rss('Birds', [
          item(1, { title: 'Kestrel', description: '<p>A kestrel hovers over the meadow — “Grüße” from 日本 🐦</p>' }),
          item(2, { title: 'Heron', description: '<p>A heron waits in the reeds</p>' }),
          item(3, { title: 'Silent', description: '' }),
        ]);

      it('stores them as the same text as from strings, searchable, filtered and matched by smart lists', async () => {
        const { engine, seen } = packingEngine();
        const db = env.database.db;
        const [alice, bob] = [await env.user(), await env.user()];
        const bytesPath = `${path}-bytes`;
        server.set(path, { body: birds() });
        server.set(bytesPath, { body: birds() });
        // The same document twice: once through the inline processor (strings), once packed (bytes).
        const stringsFeed = await env.subscribe(alice, server.url(path));
        const bytesFeed = await env.subscribe(alice, server.url(bytesPath));
        await env.subscribe(bob, server.url(bytesPath));
        const bobSub = await db.selectFrom('subscriptions').select('id').where('user_id', '=', bob).where('feed_id', '=', bytesFeed).executeTakeFirstOrThrow();
        const now = env.clock.now().toISOString();
        await insertFilter(db, bob, { subscriptionId: bobSub.id, feedId: bytesFeed, type: 'exclude', scope: 'content', text: 'meadow', now });
        const rules = JSON.stringify([{ rule_type: 'keyword', rule_scope: 'content', rule_value: 'reeds', include_all_feeds: true, selected_feeds: [] }]);
        const list = await createReadingList(db, alice, { name: 'Reeds', description: '', is_smart: 1, rules }, now);

        expect(await env.engine.refreshFeed(stringsFeed)).toEqual({ status: 'ok', newArticles: 3, updatedArticles: 0 });
        expect(await engine.refreshFeed(bytesFeed)).toEqual({ status: 'ok', newArticles: 3, updatedArticles: 0 });
        expect(seen.packed).toBe(1);
        // Once stored, the document's buffers were given back (pack-texts.ts releaseTexts): its views read empty. The
        // rows below were written before that.
        const [received] = seen.docs;
        expect(received.buffers).toBeUndefined();
        expect(received.fresh[0].content).toBeInstanceOf(Uint8Array);
        expect((received.fresh[0].content as Uint8Array).byteLength).toBe(0);

        const stored = async (feedId: number) => {
          const { rows } = await sql<Record<string, unknown>>`select title, content, summary, teaser, ${
            dialect === 'sqlite' ? sql`typeof(content) || ' ' || typeof(teaser)` : sql`pg_typeof(content)::text || ' ' || pg_typeof(teaser)::text`
          } as types from articles where feed_id = ${feedId} order by title`.execute(db);
          return rows;
        };
        const fromBytes = await stored(bytesFeed);
        expect(fromBytes).toEqual(await stored(stringsFeed));
        expect(fromBytes[0]).toMatchObject({ title: 'Heron', types: 'text text' });
        expect(fromBytes[1].content).toContain('“Grüße” from 日本 🐦');
        // An empty description: no content, an empty teaser (a string, not bytes).
        expect(fromBytes[2]).toMatchObject({ title: 'Silent', content: null, teaser: '' });

        // Search reads the text stored from bytes: both feeds' Kestrel.
        expect(await searchTitles(alice, 'grüße')).toEqual(['Kestrel', 'Kestrel']);
        expect(await searchTitles(alice, 'reeds')).toEqual(['Heron', 'Heron']);
        // Bob's filter hid the meadow's article of the packed feed; the smart list took the reeds' (its feeds: all).
        const hidden = await db
          .selectFrom('user_articles')
          .innerJoin('articles', 'articles.id', 'user_articles.article_id')
          .select(['articles.title', 'user_articles.is_hidden'])
          .where('user_articles.user_id', '=', bob)
          .orderBy('articles.title')
          .execute();
        expect(hidden).toEqual([
          { title: 'Heron', is_hidden: 0 },
          { title: 'Kestrel', is_hidden: 1 },
          { title: 'Silent', is_hidden: 0 },
        ]);
        const members = await db
          .selectFrom('reading_list_articles')
          .innerJoin('articles', 'articles.id', 'reading_list_articles.article_id')
          .select(['articles.title', 'articles.feed_id'])
          .where('reading_list_articles.list_id', '=', list.id)
          .execute();
        expect(members.map((m) => m.title)).toEqual(['Heron', 'Heron']);
        expect(members.map((m) => m.feed_id).sort()).toEqual([stringsFeed, bytesFeed].sort());
      });
    });

    if (dialect === 'postgres')
      describe('the check whether PostgreSQL makes search vectors as the parse threads do', () => {
        const engines: RefreshEngine[] = [];
        afterEach(async () => {
          // Before the database goes (the outer afterEach runs after this one).
          for (const engine of engines.splice(0)) await engine.stop(1000);
        });

        /**
         * An engine whose check (engine.ts searchVectors) gives `answers` in turn (an Error: the check fails), then
         * the real check's; `seen` keeps how often it was asked, whether each refresh had the parse threads make the
         * vectors, and the warnings logged.
         */
        const engineWith = (answers: Array<boolean | Error>) => {
          const seen = { checks: 0, threadVectors: [] as boolean[], warnings: [] as string[] };
          const engine = createRefreshEngine({
            config: env.config,
            database: env.database,
            role: 'all',
            now: env.clock.now,
            log: { info: () => {}, error: () => {}, warn: (_fields: unknown, msg?: string) => void seen.warnings.push(msg ?? '') },
            processor: {
              process: (input) => {
                seen.threadVectors.push(input.searchVectors === true);
                return inlineProcessor.process(input);
              },
              close: async () => {},
            },
            searchVectorsAgree: async (db) => {
              const answer = answers[seen.checks++];
              if (answer instanceof Error) throw answer;
              return answer ?? searchVectorsAgree(db);
            },
          });
          engines.push(engine);
          return { engine, seen };
        };

        const birds = ['Kestrel sighted', 'Heron nests', 'Osprey dives', 'Falcon returns'];
        /** The feed with its first `count` birds: every refresh stores one new article. */
        const publish = (count: number) =>
          server.set(path, {
            body: rss(
              'Birds',
              birds.slice(0, count).map((title, i) => item(i + 1, { title })),
            ),
          });

        it('stores searchable articles while the check fails, and checks again a minute later', async () => {
          const { engine, seen } = engineWith([new Error('connection reset')]);
          const alice = await env.user();
          const feedId = await env.subscribe(alice, server.url(path));
          const search = (q: string) => searchTitles(alice, q);

          // The check fails: the refresh goes on, PostgreSQL makes the vectors.
          publish(1);
          expect(await engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
          expect(seen).toMatchObject({ checks: 1, threadVectors: [false] });
          expect(seen.warnings).toEqual([expect.stringMatching(/^could not compare search vectors/)]);
          expect(await search('kestrel')).toEqual(['Kestrel sighted']);

          // Within the minute: not asked again.
          env.clock.advance(59_000);
          publish(2);
          expect(await engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
          expect(seen).toMatchObject({ checks: 1, threadVectors: [false, false] });

          // After it: asked again; it agrees, so the parse threads make the vectors from now on.
          env.clock.advance(2_000);
          publish(3);
          expect(await engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
          expect(seen).toMatchObject({ checks: 2, threadVectors: [false, false, true] });

          // That answer is kept.
          env.clock.advance(HOUR);
          publish(4);
          expect(await engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
          expect(seen).toMatchObject({ checks: 2, threadVectors: [false, false, true, true] });
          expect(seen.warnings).toHaveLength(1);

          for (const [q, title] of [
            ['kestrel', 'Kestrel sighted'],
            ['heron', 'Heron nests'],
            ['osprey', 'Osprey dives'],
            ['falcon', 'Falcon returns'],
          ])
            expect(await search(q)).toEqual([title]);
          await expectVectorsOfPostgres(feedId, 4);
        });

        for (const agree of [true, false])
          it(`asks once when the check answers ${agree ? 'yes' : 'no'}${agree ? '' : ', and warns'}`, async () => {
            const { engine, seen } = engineWith([agree]);
            const alice = await env.user();
            const feedId = await env.subscribe(alice, server.url(path));
            publish(1);
            expect(await engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
            env.clock.advance(HOUR);
            publish(2);
            expect(await engine.refreshFeed(feedId)).toEqual({ status: 'ok', newArticles: 1, updatedArticles: 0 });
            expect(seen).toMatchObject({ checks: 1, threadVectors: [agree, agree] });
            expect(seen.warnings).toEqual(agree ? [] : [expect.stringMatching(/differently from the parse threads/)]);
            expect(await searchTitles(alice, 'heron')).toEqual(['Heron nests']);
            await expectVectorsOfPostgres(feedId, 2);
          });
      });
  });
}
