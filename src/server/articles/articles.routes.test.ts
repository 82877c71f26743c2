import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticlePage, ArticleStateResponse, ExtractContentResponse, UnreadCounts } from '../../common/api.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import { backfillTeasers } from '../maintenance.js';
import { DIALECTS } from '../test/dialects.js';
import { item, rss, type TestFeedServer, type TestItem } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, signedInUser, subscribeFetched } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';

/**
 * The articles API (dashboard.md §7 "Articles", §4, §8; docs/decisions.md "Reading") through HTTP, on both
 * dialects, with feeds refreshed from a local feed server.
 */

const HOUR = 3_600_000;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const articlePage = (n: number) => `<!doctype html><html><head><title>Story ${n}</title></head><body>
<nav><a href="/">Home</a></nav><div class="ad-banner">Cheap flights! Book now!</div>
<article><h1>Story ${n}</h1>${range(1, 4)
  .map((p) => `<p>Paragraph ${p} of story ${n} explains in some detail what the committee found, why it matters for the town, and what happens next week.</p>`)
  .join('')}<img src="/tracker.gif" width="1" height="1"></article></body></html>`;

for (const dialect of DIALECTS) {
  describe(`articles API (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));

    async function user() {
      const u = await signedInUser(t);
      const self = {
        ...u,
        async page(url: string): Promise<ArticlePage> {
          const res = await u.get(url);
          expect(res.statusCode, res.body).toBe(200);
          return res.json();
        },
        // The counts and total alone: every answer also carries its version token (see the delta test in feeds).
        counts: async (): Promise<UnreadCounts> => {
          const { counts, total } = (await u.get('/api/feeds/unread_counts')).json<UnreadCounts>();
          return { counts, total };
        },
        /** Subscribes to a feed served at a new path with these items and refreshes it. */
        feed: async (title: string, items: TestItem[]): Promise<number> => (await subscribeFetched(t, server, u.id, title, items)).id,
        async follow(feedId: number) {
          await subscribe(t.database.db, u.id, feedId, new Date().toISOString());
        },
      };
      return self;
    }
    const idsOf = (p: ArticlePage) => p.articles.map((a) => a.id);

    it('lists unread articles newest first, stable across pages, with totals from the counters', async () => {
      const u = await user();
      const feedId = await u.feed(
        'Paged',
        range(1, 25).map((i) => item(i, { description: `<p>About <b>item</b> ${i} &amp; more</p>` })),
      );
      const p1 = await u.page('/api/articles');
      expect(p1).toMatchObject({ total: 25, current_page: 1, pages: 2, per_page: 20, active_filters: [], has_active_filters: false });
      expect(p1.articles.map((a) => a.title)).toEqual(
        range(6, 25)
          .reverse()
          .map((i) => `Item ${i}`),
      );
      const first = p1.articles[0];
      expect(first).toMatchObject({ feed_id: feedId, feed_title: 'Paged', summary: 'About item 25 & more', is_read: false, is_favorite: false, in_reading_list: false });
      expect(first.content).toContain('<b>item</b>');
      expect(first.published_at).toMatch(/Z$/);
      const p2 = await u.page('/api/articles?page=2');
      expect(idsOf(p2)).toHaveLength(5);
      expect(new Set([...idsOf(p1), ...idsOf(p2)]).size).toBe(25);
      const small = await Promise.all([1, 2, 3].map((p) => u.page(`/api/articles?per_page=10&page=${p}`)));
      expect(small.flatMap(idsOf)).toEqual([...idsOf(p1), ...idsOf(p2)]);
      expect(small[0].pages).toBe(3);
      expect((await u.page('/api/articles?page=9')).articles).toEqual([]);
    });

    it('keeps titles that only look like markup, and one of them changes nothing for later feeds or lists', async () => {
      const u = await user();
      const first = await u.feed('Why the <textarea> element is special', [
        item(1, { title: 'Why the <textarea> element is special', description: '<p>One <b>bold</b></p>' }),
      ]);
      const second = await u.feed('C++ <Weekly>', [item(1, { title: '<b>Breaking:</b> std::vector<int>', description: '<p>Two <i>it</i></p>' })]);
      const page = await u.page('/api/articles');
      const byFeed = (id: number) => page.articles.find((a) => a.feed_id === id);
      expect(byFeed(first)).toMatchObject({ title: 'Why the <textarea> element is special', summary: 'One bold' });
      expect(byFeed(second)).toMatchObject({ title: 'Breaking: std::vector<int>', summary: 'Two it' });
      expect((await u.get('/api/articles/search?q=bold')).statusCode).toBe(200);
    });

    it('shows the teaser stored with the article; older articles get theirs from the maintenance job', async () => {
      const u = await user();
      // 100,000 nested <div> (1.1 MB): the sanitiser flattens it and the teaser is made once, when it is stored.
      const deep = `${'<div>'.repeat(100_000)}deep text${'</div>'.repeat(100_000)}`;
      const feedId = await u.feed('Teasers', [item(1, { description: '<p>Stored <b>teaser</b> &amp; text</p>' }), item(2, { description: deep })]);
      const stored = () => t.database.db.selectFrom('articles').select(['id', 'teaser']).where('feed_id', '=', feedId).orderBy('id').execute();
      expect((await stored()).map((r) => r.teaser)).toEqual(['Stored teaser & text', 'deep text']);
      const summaries = async () => (await u.page(`/api/articles?feed_id=${feedId}`)).articles.map((a) => a.summary);
      expect(await summaries()).toEqual(['deep text', 'Stored teaser & text']);
      // Lists show the stored teaser; they do not compute it from the HTML again.
      const [first] = await stored();
      await t.database.db.updateTable('articles').set({ teaser: 'As stored' }).where('id', '=', first.id).execute();
      expect(await summaries()).toEqual(['deep text', 'As stored']);
      // A row from before migration 0008: the same (bounded) teaser until the maintenance job stores it.
      await t.database.db.updateTable('articles').set({ teaser: null }).where('feed_id', '=', feedId).execute();
      expect(await summaries()).toEqual(['deep text', 'Stored teaser & text']);
      expect(await backfillTeasers(t.database)).toBeGreaterThanOrEqual(2);
      expect((await stored()).map((r) => r.teaser)).toEqual(['Stored teaser & text', 'deep text']);
    });

    it('lists read and unread together newest first across pages, with read ones interleaved', async () => {
      const u = await user();
      await u.feed(
        'Mixed A',
        range(1, 9).map((i) => item(i)),
      );
      await u.feed(
        'Mixed B',
        range(1, 9).map((i) => item(i, { title: `Other ${i}` })),
      );
      const everything = (await u.page('/api/articles?per_page=100')).articles;
      expect(everything).toHaveLength(18);
      // Every third article read: the read and the unread ones alternate in date order.
      for (const a of everything.filter((_, i) => i % 3 === 0)) expect((await u.post(`/api/articles/${a.id}/read`)).statusCode).toBe(200);
      const pages = await Promise.all([1, 2, 3, 4].map((p) => u.page(`/api/articles?show_read=true&per_page=5&page=${p}`)));
      expect(pages[0]).toMatchObject({ total: 18, pages: 4 });
      expect(pages.flatMap(idsOf)).toEqual(idsOf({ articles: everything } as ArticlePage));
      expect(pages.flatMap((p) => p.articles.map((a) => a.is_read))).toEqual(everything.map((_, i) => i % 3 === 0));
    });

    it('read and unread move an article out of and back into the unread list and the counts', async () => {
      const u = await user();
      const feedId = await u.feed(
        'States',
        range(1, 3).map((i) => item(i)),
      );
      const [newest] = (await u.page('/api/articles')).articles;
      const read = await u.post(`/api/articles/${newest.id}/read`);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json<ArticleStateResponse>()).toEqual({ id: newest.id, is_read: true, is_favorite: false });
      expect((await u.page('/api/articles')).total).toBe(2);
      expect(idsOf(await u.page('/api/articles'))).not.toContain(newest.id);
      const all = await u.page('/api/articles?show_read=true');
      expect(all.total).toBe(3);
      expect(all.articles.find((a) => a.id === newest.id)!.is_read).toBe(true);
      expect((await u.page('/api/articles?show_read=1')).total).toBe(3);
      expect(await u.counts()).toEqual({ counts: { [feedId]: 2 }, total: 2 });
      const readIds = await u.get('/api/articles/read?ids_only=true');
      expect(readIds.json()).toEqual([newest.id]);
      // An empty JSON body and no body at all both work.
      const unread = await t.app.inject({
        method: 'POST',
        url: `/api/articles/${newest.id}/unread`,
        headers: { ...u.headers, 'content-type': 'application/json' },
        payload: '',
      });
      expect(unread.statusCode, unread.body).toBe(200);
      expect(unread.json<ArticleStateResponse>().is_read).toBe(false);
      expect((await u.counts()).total).toBe(3);
      expect((await u.post(`/api/articles/${newest.id}/unread`, {})).statusCode).toBe(200);
    });

    it('lists one feed, 404s for feeds the user does not subscribe to, and shows the custom title', async () => {
      const u = await user();
      const other = await user();
      const a = await u.feed('Feed A', [item(1), item(3)]);
      const b = await u.feed('Feed B', [item(2)]);
      const foreign = await other.feed('Foreign', [item(4)]);
      expect((await u.page(`/api/feeds/${a}/articles`)).articles.map((x) => x.feed_id)).toEqual([a, a]);
      expect((await u.page(`/api/feeds/${b}/articles`)).total).toBe(1);
      expect((await u.get(`/api/feeds/${foreign}/articles`)).json()).toMatchObject({ code: 'FEED_NOT_FOUND' });
      expect((await u.get(`/api/feeds/${foreign}/articles`)).statusCode).toBe(404);
      expect((await u.get('/api/feeds/99999999/articles')).statusCode).toBe(404);
      expect((await u.get('/api/feeds/abc/articles')).statusCode).toBe(400);
      const renamed = await u.post('/api/feeds/set_custom_title', { feed_id: a, custom_title: 'My A' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const all = await u.page('/api/articles');
      expect(all.articles.map((x) => x.feed_title)).toEqual(['My A', 'Feed B', 'My A']);
    });

    it('leaves muted feeds out of lists, counts, search and bulk marking, and refuses state changes on them', async () => {
      const u = await user();
      const loud = await u.feed('Loud', [item(1, { title: 'Loud zebra news' })]);
      const quiet = await u.feed('Quiet', [item(2, { title: 'Quiet zebra news' }), item(3, { title: 'Quiet other' })]);
      const quietIds = idsOf(await u.page(`/api/feeds/${quiet}/articles`));
      const muted = await u.post(`/api/feeds/${quiet}/mute`, { permanently: true });
      expect(muted.statusCode, muted.body).toBe(200);

      const all = await u.page('/api/articles');
      expect(all.articles.map((a) => a.feed_id)).toEqual([loud]);
      expect(all.total).toBe(1);
      expect(await u.page(`/api/feeds/${quiet}/articles`)).toMatchObject({ articles: [], total: 0, pages: 1 });
      expect((await u.page('/api/articles/search?q=zebra')).articles.map((a) => a.title)).toEqual(['Loud zebra news']);
      expect((await u.page(`/api/articles/search?q=zebra&feed_id=${quiet}`)).total).toBe(0);
      for (const action of ['read', 'unread', 'favorite', 'unfavorite']) {
        const res = await u.post(`/api/articles/${quietIds[0]}/${action}`);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'FEED_MUTED' });
      }
      expect((await u.post('/api/articles/mark-read', { article_ids: quietIds })).json()).toMatchObject({ marked: 0 });
      expect((await u.post('/api/articles/read/all')).json()).toMatchObject({ marked: 1 });

      expect((await u.post(`/api/feeds/${quiet}/unmute`)).statusCode).toBe(200);
      expect((await u.page('/api/articles')).total).toBe(2);
      expect(await u.counts()).toEqual({ counts: { [loud]: 0, [quiet]: 2 }, total: 2 });
    });

    it('a timed mute ends by itself', async () => {
      const u = await user();
      const feed = await u.feed('Timed', [item(1)]);
      expect((await u.post(`/api/feeds/${feed}/mute`, { duration: 1 })).statusCode).toBe(200);
      expect((await u.page('/api/articles')).total).toBe(0);
      t.clock.advance(2 * HOUR);
      try {
        await u.renew();
        expect((await u.page('/api/articles')).total).toBe(1);
      } finally {
        t.clock.reset();
      }
    });

    it("answers 404 for other users' and unknown articles, and ignores them in bulk", async () => {
      const owner = await user();
      const stranger = await user();
      await owner.feed('Private', [item(1)]);
      const [a] = idsOf(await owner.page('/api/articles'));
      for (const action of ['read', 'unread', 'favorite', 'unfavorite']) {
        const res = await stranger.post(`/api/articles/${a}/${action}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'ARTICLE_NOT_FOUND' });
      }
      expect((await stranger.get(`/api/articles/${a}/reading-lists`)).statusCode).toBe(404);
      expect((await owner.get(`/api/articles/${a}/reading-lists`)).json()).toEqual({ reading_lists: [] });
      // The owner's lists holding the article (the reading-lists suite tests them in full).
      const list = (await owner.post('/api/reading-lists', { name: 'Later' })).json().reading_list;
      expect((await owner.post(`/api/reading-lists/${list.id}/articles/${a}`)).statusCode).toBe(201);
      expect((await owner.get(`/api/articles/${a}/reading-lists`)).json()).toEqual({ reading_lists: [{ id: list.id, name: 'Later', is_smart: false }] });
      expect((await stranger.get(`/api/articles/${a}/reading-lists`)).statusCode).toBe(404);
      expect((await stranger.post('/api/extract-article-content', { articleId: a })).statusCode).toBe(404);
      expect((await stranger.post('/api/articles/mark-read', { article_ids: [a] })).json()).toMatchObject({ marked: 0 });
      expect((await stranger.post('/api/articles/read/all', { article_ids: [a] })).json()).toMatchObject({ marked: 0 });
      expect((await owner.post('/api/articles/2147483000/read')).statusCode).toBe(404);
      expect((await owner.page('/api/articles')).total).toBe(1);
      expect((await stranger.get('/api/articles')).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/articles' })).statusCode).toBe(401);
    });

    it('hides filtered-out articles from lists, counts and search, also those arriving later', async () => {
      const u = await user();
      const feed = await subscribeFetched(t, server, u.id, 'Mixed', [item(1, { title: 'Sports: match report' }), item(2, { title: 'Science: new comet' })]);
      const added = await u.post(`/api/feeds/${feed.id}/filters`, { filter_type: 'exclude', filter_scope: 'title', filter_text: 'sports' });
      expect(added.statusCode, added.body).toBe(201);

      const view = await u.page(`/api/feeds/${feed.id}/articles`);
      expect(view.articles.map((a) => a.title)).toEqual(['Science: new comet']);
      expect(view).toMatchObject({ total: 1, has_active_filters: true });
      expect(view.active_filters).toEqual([expect.objectContaining({ filter_text: 'sports', feed_id: feed.id, feed_title: 'Mixed' })]);
      expect((await u.page('/api/articles')).active_filters).toHaveLength(1);
      expect((await u.page('/api/articles/search?q=match')).total).toBe(0);

      server.set(feed.path, {
        body: rss('Mixed', [
          item(1, { title: 'Sports: match report' }),
          item(2, { title: 'Science: new comet' }),
          item(3, { title: 'Sports: transfer news' }),
          item(4, { title: 'Politics today' }),
        ]),
      });
      expect(await t.refresh.refreshFeed(feed.id)).toMatchObject({ status: 'ok', newArticles: 2 });
      expect((await u.page(`/api/feeds/${feed.id}/articles`)).articles.map((a) => a.title)).toEqual(['Politics today', 'Science: new comet']);
      expect(await u.counts()).toEqual({ counts: { [feed.id]: 2 }, total: 2 });
      expect((await u.post('/api/articles/read/all')).json()).toMatchObject({ marked: 2 });
      expect((await u.page(`/api/feeds/${feed.id}/articles?show_read=true`)).total).toBe(2);
    });

    it('searches titles and text: all words, the last as a prefix, newest first, with show_read and feed_id', async () => {
      const u = await user();
      const a = await u.feed('Tech', [
        item(1, { title: 'Kubernetes operators explained', description: '<p>Controllers <em>reconcile</em> state</p>' }),
        item(2, { title: 'Rust in production', description: '<p>Memory safety at scale; Kubernetes too</p>' }),
        item(3, { title: 'Gardening', description: '<p>Tomatoes and beans</p>' }),
      ]);
      const b = await u.feed('Other', [item(4, { title: 'Kubernetes at home' })]);
      const titles = async (q: string) => (await u.page(`/api/articles/search?q=${encodeURIComponent(q)}`)).articles.map((x) => x.title);
      expect(await titles('kubernetes')).toEqual(['Kubernetes at home', 'Rust in production', 'Kubernetes operators explained']);
      expect(await titles('  KUBERN  ')).toHaveLength(3);
      expect(await titles('kubernetes oper')).toEqual(['Kubernetes operators explained']);
      expect(await titles('reconcile')).toEqual(['Kubernetes operators explained']);
      expect(await titles('tomatoes beans')).toEqual(['Gardening']);
      expect(await titles('nothingmatcheshere')).toEqual([]);
      expect(await titles('beans kubernetes')).toEqual([]);

      const scoped = await u.page(`/api/articles/search?q=kubernetes&feed_id=${b}`);
      expect(scoped.articles.map((x) => x.feed_id)).toEqual([b]);
      const p2 = await u.page('/api/articles/search?q=kubernetes&per_page=2&page=2');
      expect(p2).toMatchObject({ total: 3, pages: 2, current_page: 2 });
      expect(p2.articles).toHaveLength(1);
      expect((await u.page('/api/articles/search?q=kubernetes&per_page=2&page=5')).total).toBe(3);

      const [home] = (await u.page('/api/articles/search?q=home')).articles;
      await u.post(`/api/articles/${home.id}/read`);
      expect(await titles('home')).toEqual([]);
      expect((await u.page('/api/articles/search?q=home&show_read=true')).articles.map((x) => x.id)).toEqual([home.id]);

      const stranger = await user();
      expect((await stranger.page('/api/articles/search?q=kubernetes')).total).toBe(0);
      expect((await stranger.get(`/api/articles/search?q=kubernetes&feed_id=${a}`)).statusCode).toBe(404);
    });

    it('treats hostile search input as text, and refuses empty and overlong queries', async () => {
      const u = await user();
      await u.feed('Syntax', [item(1, { title: 'C++ and "quotes" near the end' })]);
      for (const q of ['"', '*', 'NEAR(', '-', '"unbalanced', 'a OR b', 'title:foo', 'NOT', '^x', "'", '\\', ':*', '!&|', '()', 'x*y', '"quotes', 'near(quotes']) {
        const res = await u.get(`/api/articles/search?q=${encodeURIComponent(q)}`);
        expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
      }
      expect((await u.page(`/api/articles/search?q=${encodeURIComponent('"quotes"')}`)).total).toBe(1);
      // NEAR is a word like any other here (the title has "near"); a word's parts must be adjacent: "end-near" is not.
      expect((await u.page(`/api/articles/search?q=${encodeURIComponent('NEAR( quotes')}`)).total).toBe(1);
      expect((await u.page(`/api/articles/search?q=${encodeURIComponent('quotes-near')}`)).total).toBe(1);
      expect((await u.page(`/api/articles/search?q=${encodeURIComponent('end-near')}`)).total).toBe(0);
      for (const q of ['', '   ']) {
        const res = await u.get(`/api/articles/search?q=${encodeURIComponent(q)}`);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'SEARCH_QUERY_REQUIRED' });
      }
      expect((await u.get('/api/articles/search')).json()).toMatchObject({ code: 'SEARCH_QUERY_REQUIRED' });
      const long = await u.get(`/api/articles/search?q=${'a'.repeat(201)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({ code: 'SEARCH_QUERY_TOO_LONG' });
      expect((await u.get(`/api/articles/search?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    });

    it('marks read by feed, by ids, or everything (with or without a body), and the counts follow', async () => {
      const u = await user();
      const a = await u.feed(
        'A',
        range(1, 4).map((i) => item(i)),
      );
      const b = await u.feed(
        'B',
        range(5, 7).map((i) => item(i)),
      );
      expect((await u.post('/api/articles/read/all', { feed_id: a })).json()).toMatchObject({ marked: 4 });
      expect(await u.counts()).toEqual({ counts: { [a]: 0, [b]: 3 }, total: 3 });
      const bIds = idsOf(await u.page(`/api/feeds/${b}/articles`));
      expect((await u.post('/api/articles/read/all', { article_ids: [bIds[0]] })).json()).toMatchObject({ marked: 1 });
      expect((await u.post('/api/articles/mark-read', { article_ids: [bIds[1], bIds[1], 2147483000] })).json()).toMatchObject({ marked: 1 });
      expect((await u.counts()).total).toBe(1);
      const noBody = await t.app.inject({ method: 'POST', url: '/api/articles/read/all', headers: u.headers });
      expect(noBody.statusCode, noBody.body).toBe(200);
      expect(noBody.json()).toMatchObject({ marked: 1 });
      expect(await u.counts()).toEqual({ counts: { [a]: 0, [b]: 0 }, total: 0 });
      expect((await u.page('/api/articles')).total).toBe(0);
      expect((await u.page('/api/articles?show_read=true')).total).toBe(7);
      const emptyJson = await t.app.inject({ method: 'POST', url: '/api/articles/read/all', headers: { ...u.headers, 'content-type': 'application/json' }, payload: '' });
      expect(emptyJson.json()).toMatchObject({ marked: 0 });
      expect((await u.post('/api/articles/read/all', {})).json()).toMatchObject({ marked: 0 });

      const stranger = await user();
      expect((await stranger.post('/api/articles/read/all', { feed_id: a })).statusCode).toBe(404);
      expect((await u.post('/api/articles/read/all', { feed_id: a, article_ids: [1] })).statusCode).toBe(400);
    });

    it('favourites: listed read and unread, newest first, ids, and gone after unfavourite', async () => {
      const u = await user();
      const feed = await u.feed(
        'Favs',
        range(1, 3).map((i) => item(i)),
      );
      const [x3, x2, x1] = idsOf(await u.page('/api/articles'));
      for (const id of [x1, x3]) expect((await u.post(`/api/articles/${id}/favorite`)).json()).toMatchObject({ id, is_favorite: true });
      await u.post(`/api/articles/${x3}/read`);
      const favs = await u.page('/api/articles/favorites');
      expect(idsOf(favs)).toEqual([x3, x1]);
      expect(favs.articles[0]).toMatchObject({ is_read: true, is_favorite: true });
      expect(favs.total).toBe(2);
      expect((await u.get('/api/articles/favorites/ids')).json()).toEqual({ favorite_article_ids: [x3, x1] });
      expect((await u.page('/api/articles/favorites?per_page=1&page=2')).articles.map((a) => a.id)).toEqual([x1]);
      expect((await u.post(`/api/articles/${x1}/unfavorite`)).json()).toEqual({ id: x1, is_read: false, is_favorite: false });
      expect(idsOf(await u.page('/api/articles/favorites'))).toEqual([x3]);
      expect(x2).toBeDefined();
      await u.post(`/api/feeds/${feed}/mute`, { permanently: true });
      expect((await u.page('/api/articles/favorites')).total).toBe(0);
      expect((await u.get('/api/articles/favorites/ids')).json()).toEqual({ favorite_article_ids: [] });
    });

    it('refuses malformed input with 400', async () => {
      const u = await user();
      const bad: Array<[string, string, unknown]> = [
        ['POST', '/api/articles/mark-read', { article_ids: 'x' }],
        ['POST', '/api/articles/mark-read', { article_ids: [1.5] }],
        ['POST', '/api/articles/mark-read', { article_ids: ['1'] }],
        ['POST', '/api/articles/mark-read', { article_ids: range(1, 1001) }],
        ['POST', '/api/articles/mark-read', {}],
        ['POST', '/api/articles/read/all', { feed_id: 'abc' }],
        ['POST', '/api/extract-article-content', { url: 'http://example.com/' }],
        ['POST', '/api/extract-article-content', { articleId: 'x' }],
        ['GET', '/api/articles?per_page=101', undefined],
        ['GET', '/api/articles?page=0', undefined],
        ['GET', '/api/articles?show_read=maybe', undefined],
        ['POST', '/api/articles/0/read', undefined],
      ];
      for (const [method, url, payload] of bad) {
        const res = await t.app.inject({ method: method as 'GET', url, headers: u.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json()).toHaveProperty('code');
      }
      const broken = await t.app.inject({
        method: 'POST',
        url: '/api/articles/mark-read',
        headers: { ...u.headers, 'content-type': 'application/json' },
        payload: '{"article_ids": [',
      });
      expect(broken.statusCode).toBe(400);
    });

    describe('full-content extraction', () => {
      it('extracts the article page once, sanitised, and serves the cache to every reader', async () => {
        const u = await user();
        const path = `/story-${dialect}.html`;
        server.set(path, { body: articlePage(1), contentType: 'text/html; charset=utf-8' });
        server.set(`/elsewhere-${dialect}.html`, { body: articlePage(2), contentType: 'text/html' });
        const feed = await u.feed('Pages', [item(1, { link: server.url(path) })]);
        const [a] = (await u.page('/api/articles')).articles;
        const res = await u.post('/api/extract-article-content', { url: server.url(`/elsewhere-${dialect}.html`), articleId: a.id });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<ExtractContentResponse>();
        expect(body).toMatchObject({ warning: null, error: null, cached: false });
        expect(body.content).toContain('Paragraph 4 of story 1');
        expect(body.content).not.toContain('Cheap flights');
        expect(body.content).not.toContain('tracker.gif');
        expect(server.hits(`/elsewhere-${dialect}.html`)).toBe(0);
        expect(server.hits(path)).toBe(1);

        const other = await user();
        await other.follow(feed);
        const again = (await other.post('/api/extract-article-content', { articleId: a.id, url: null })).json<ExtractContentResponse>();
        expect(again).toEqual({ ...body, cached: true });
        expect(server.hits(path)).toBe(1);
      });

      it('extracts an article page carrying U+0000 on both databases; the HTML parser drops it (decisions.md "No NUL characters")', async () => {
        const u = await user();
        const path = `/nul-${dialect}.html`;
        server.set(path, { body: articlePage(3).replace(/Paragraph (\d)/g, 'Para\u0000graph $1'), contentType: 'text/html; charset=utf-8' });
        await u.feed('NUL pages', [item(1, { link: server.url(path) })]);
        const [a] = (await u.page('/api/articles')).articles;
        const res = await u.post('/api/extract-article-content', { articleId: a.id });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<ExtractContentResponse>();
        expect(body).toMatchObject({ error: null, cached: false });
        expect(body.content).toContain('graph 4 of story 3');
        expect(body.content).not.toContain('\u0000');
        const again = (await u.post('/api/extract-article-content', { articleId: a.id })).json<ExtractContentResponse>();
        expect(again).toMatchObject({ cached: true, content: body.content });
      });

      it("falls back to the article's own content with a warning, and does not refetch for an hour", async () => {
        const u = await user();
        server.set(`/gone-${dialect}.html`, { status: 404, body: 'not here', contentType: 'text/html' });
        server.set(`/file-${dialect}.pdf`, { body: '%PDF-1.4 …', contentType: 'application/pdf' });
        await u.feed('Broken pages', [
          item(1, { link: server.url(`/gone-${dialect}.html`), description: '<p>Own text one</p>' }),
          item(2, { link: server.url(`/file-${dialect}.pdf`), description: '<p>Own text two</p>' }),
        ]);
        const [pdf, gone] = (await u.page('/api/articles')).articles;
        const first = (await u.post('/api/extract-article-content', { articleId: gone.id })).json<ExtractContentResponse>();
        expect(first).toMatchObject({ warning: 'EXTRACT_FETCH_FAILED', cached: false });
        expect(first.content).toContain('Own text one');
        expect(first.error).toBeTruthy();
        const notHtml = (await u.post('/api/extract-article-content', { articleId: pdf.id })).json<ExtractContentResponse>();
        expect(notHtml).toMatchObject({ warning: 'EXTRACT_NOT_HTML' });
        expect(notHtml.content).toContain('Own text two');

        const again = (await u.post('/api/extract-article-content', { articleId: gone.id })).json<ExtractContentResponse>();
        expect(again).toMatchObject({ warning: 'EXTRACT_FETCH_FAILED', cached: true });
        expect(server.hits(`/gone-${dialect}.html`)).toBe(1);

        server.set(`/gone-${dialect}.html`, { body: articlePage(3), contentType: 'text/html' });
        t.clock.advance(HOUR + 60_000);
        try {
          await u.renew();
          const later = (await u.post('/api/extract-article-content', { articleId: gone.id })).json<ExtractContentResponse>();
          expect(later).toMatchObject({ warning: null, cached: false });
          expect(later.content).toContain('Paragraph 1 of story 3');
          expect(server.hits(`/gone-${dialect}.html`)).toBe(2);
        } finally {
          t.clock.reset();
        }
      });

      it("answers a page too deeply nested for Readability with a warning and the feed's content, not an error", async () => {
        const u = await user();
        // 22 KB of 2,000 nested <div>s: Readability alone took 26 s on it, blocking every request.
        const deep = `<html><body>${'<div>'.repeat(2000)}<p>${'Deep text. '.repeat(30)}</p>${'</div>'.repeat(2000)}</body></html>`;
        server.set(`/deep-${dialect}.html`, { body: deep, contentType: 'text/html' });
        await u.feed('Deep pages', [item(1, { link: server.url(`/deep-${dialect}.html`), description: '<p>Own deep text</p>' })]);
        const [a] = (await u.page('/api/articles')).articles;
        const res = await u.post('/api/extract-article-content', { articleId: a.id });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json<ExtractContentResponse>();
        expect(body).toMatchObject({ warning: 'EXTRACT_TOO_COMPLEX', cached: false });
        expect(body.error).toMatch(/too complex/);
        expect(body.content).toContain('Own deep text');
      });
    });
  });
}
