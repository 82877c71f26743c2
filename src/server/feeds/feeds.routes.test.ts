import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddFeedResponse, Feed, SearchFeedResult, UnreadCounts } from '../../common/api.js';
import { DIALECTS } from '../test/dialects.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { signedInUser } from '../test/feed-user.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { WorkerPoolProcessor } from '../refresh/document-pool.js';
import { iconHash } from './icons.js';
import { MUTE_HOURS } from '../../common/limits.js';
import { FeedSchema } from '../../common/schemas/feeds.js';

/**
 * The feeds API (dashboard.md §7 "Feeds", §8 "Feed management"; docs/decisions.md "Reading") through HTTP, on both
 * dialects, against a local feed server.
 */

const HOUR = 3_600_000;

const page = (links: { href: string; title?: string }[]) =>
  `<!doctype html><html><head><title>A site</title>${links
    .map((l) => `<link rel="alternate" type="application/rss+xml" href="${l.href}"${l.title ? ` title="${l.title}"` : ''}>`)
    .join('')}</head><body>Hello</body></html>`;

for (const dialect of DIALECTS) {
  describe(`feeds API (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      server = await startTestFeedServer();
      for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']) {
        server.set(`/${name}.xml`, { body: rss(`${name[0].toUpperCase()}${name.slice(1)} feed`, [item(1), item(2), item(3)]) });
      }
      server.set('/site/', {
        body: page([
          { href: '/beta.xml', title: 'Beta by link' },
          { href: '/gamma.xml', title: 'Gamma by link' },
        ]),
        contentType: 'text/html',
      });
      server.set('/empty-site/', { body: page([]), contentType: 'text/html' });
      server.set('/broken.xml', { status: 500, body: 'oops' });
      // Declares more than the body cap (FEED_MAX_BYTES): refused before anything is read.
      server.set('/huge.xml', { body: rss('Huge', []), headers: { 'content-length': String(50 * 1024 * 1024) } });
    });
    afterAll(async () => {
      await server.close();
      await t.close();
    });
    afterEach(() => {
      vi.restoreAllMocks();
      t.clock.reset();
    });

    async function user() {
      const u = await signedInUser(t);
      const { call } = u;
      return {
        ...u,
        async add(path: string): Promise<AddFeedResponse> {
          const res = await call('POST', '/api/feeds', { url: server.url(path) });
          expect(res.statusCode, res.body).toBe(201);
          return res.json();
        },
        feeds: async (): Promise<Feed[]> => (await call('GET', '/api/feeds')).json(),
        /** The counts without their version token (which every full answer carries; see the delta test). */
        counts: async (): Promise<UnreadCounts> => {
          const { version, ...rest } = (await call('GET', '/api/feeds/unread_counts')).json<UnreadCounts>();
          expect(version).toMatch(/^u1\./);
          return rest;
        },
      };
    }

    /** Stores the feed's articles as the refresh engine does (the engine is not running in tests). */
    async function fetchArticles(feedId: number) {
      // A feed an earlier test fetched already answers 304: its articles are stored.
      const outcome = await t.refresh.refreshFeed(feedId);
      expect(['ok', 'not-modified']).toContain(outcome.status);
    }

    it('needs a signed-in user', async () => {
      for (const [method, url] of [
        ['GET', '/api/feeds'],
        ['GET', '/api/feeds/unread_counts'],
        ['POST', '/api/feeds'],
        ['DELETE', '/api/feeds/all'],
        ['POST', '/api/feeds/1/mute'],
      ] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('UNAUTHORIZED');
      }
    });

    it('starts with no feeds and no unread articles', async () => {
      const u = await user();
      expect(await u.feeds()).toEqual([]);
      expect(await u.counts()).toEqual({ counts: {}, total: 0 });
    });

    it('subscribes to a feed URL: 201 with the feed, its discovered title, queued for an urgent refresh', async () => {
      const u = await user();
      const enqueue = vi.spyOn(t.refresh, 'enqueue');
      const added = await u.add('/alpha.xml');
      expect(added).toMatchObject({
        is_new: true,
        title: 'Alpha feed',
        original_title: 'Alpha feed',
        custom_title: null,
        url: server.url('/alpha.xml'),
        is_muted: false,
        muted_permanently: false,
        muted_until: null,
        sort_order: 0,
        folder_id: null,
        favicon_url: null,
      });
      expect(added.created_at).toMatch(/Z$/);
      expect(enqueue).toHaveBeenCalledWith([added.id]);
      const list = await u.feeds();
      expect(list.map((f) => f.id)).toEqual([added.id]);
      expect(list[0]).not.toHaveProperty('is_new');
      // New subscriptions go to the end of the order.
      const second = await u.add('/beta.xml');
      expect(second.sort_order).toBe(1);
    });

    it('answers 409 FEED_EXISTS for a feed the user reads already, typed directly or found behind a page', async () => {
      const u = await user();
      await u.add('/beta.xml');
      const again = await u.post('/api/feeds', { url: `  ${server.url('/beta.xml')}#top ` });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'FEED_EXISTS' });
      const viaPage = await u.post('/api/feeds', { url: server.url('/site/') });
      expect(viaPage.statusCode).toBe(409);
      expect((await u.feeds()).length).toBe(1);
    });

    it('takes the first feed a page links to', async () => {
      const u = await user();
      const added = await u.add('/site/');
      expect(added.url).toBe(server.url('/beta.xml'));
    });

    it('a feed other users read already arrives with its articles, counted at once', async () => {
      const a = await user();
      const feed = await a.add('/gamma.xml');
      await fetchArticles(feed.id);
      const b = await user();
      const added = await b.add('/gamma.xml');
      expect(added.id).toBe(feed.id);
      expect(added.title).toBe('Gamma feed');
      expect(await b.counts()).toEqual({ counts: { [feed.id]: 3 }, total: 3 });
    });

    it('refuses bad addresses with the codes the add dialog translates', async () => {
      const u = await user();
      const cases: [unknown, number, string][] = [
        [{ url: '' }, 400, 'URL_REQUIRED'],
        [{ url: '   ' }, 400, 'URL_REQUIRED'],
        [{ url: 'hello' }, 400, 'INVALID_URL'],
        [{ url: 'ftp://example.com/feed' }, 400, 'INVALID_URL'],
        [{ url: 'javascript:alert(1)' }, 400, 'INVALID_URL'],
        [{}, 400, 'VALIDATION_ERROR'],
        [{ url: 42 }, 400, 'VALIDATION_ERROR'],
        [{ url: null }, 400, 'VALIDATION_ERROR'],
        [{ url: server.url('/nothing-here.xml') }, 404, 'FEED_NOT_FOUND'],
        [{ url: server.url('/empty-site/') }, 404, 'FEED_NOT_FOUND'],
        [{ url: server.url('/broken.xml') }, 502, 'FETCH_HTTP_ERROR'],
        [{ url: 'http://127.0.0.1:9/feed.xml' }, 502, 'FETCH_CONNECTION'],
        [{ url: server.url('/huge.xml') }, 422, 'FETCH_TOO_LARGE'],
      ];
      for (const [payload, status, code] of cases) {
        const res = await u.post('/api/feeds', payload);
        expect([JSON.stringify(payload), res.statusCode, res.json().code]).toEqual([JSON.stringify(payload), status, code]);
        expect(typeof res.json().message).toBe('string');
      }
      const malformed = await t.app.inject({
        method: 'POST',
        url: '/api/feeds',
        headers: { ...u.headers, 'content-type': 'application/json' },
        payload: '{"url": ',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().code).toBe('INVALID_JSON');
      expect(await u.feeds()).toEqual([]);
    });

    it('lists feeds with custom title, original title, icon and last error', async () => {
      const u = await user();
      const a = await u.add('/alpha.xml');
      await t.database.db
        .updateTable('feeds')
        .set({ icon_data: 'iVBORw0KGgo=', icon_type: 'image/png', icon_hash: iconHash('iVBORw0KGgo='), last_error_code: 'FETCH_TIMEOUT' })
        .where('id', '=', a.id)
        .execute();
      await u.post('/api/feeds/set_custom_title', { feed_id: a.id, custom_title: 'My alpha' });
      const [feed] = await u.feeds();
      expect(feed).toMatchObject({
        id: a.id,
        title: 'My alpha',
        original_title: 'Alpha feed',
        custom_title: 'My alpha',
        favicon_base64: 'iVBORw0KGgo=',
        favicon_type: 'image/png',
        favicon_url: `/api/icons/${iconHash('iVBORw0KGgo=')}`,
        last_error_code: 'FETCH_TIMEOUT',
      });
      await t.database.db.updateTable('feeds').set({ icon_data: null, icon_type: null, icon_hash: null, last_error_code: null }).where('id', '=', a.id).execute();
    });

    it('lists exactly the fields of the schema: the list is written with JSON.stringify, which drops nothing', async () => {
      const u = await user();
      await u.add('/epsilon.xml');
      const listed = await u.feeds();
      expect(listed.length).toBeGreaterThan(0);
      for (const feed of listed) expect(Object.keys(feed).sort()).toEqual(Object.keys(FeedSchema.properties).sort());
    });

    it('a feed without any title is listed with an empty title (the web app shows "Unbenannter Feed")', async () => {
      const u = await user();
      const a = await u.add('/delta.xml');
      await t.database.db.updateTable('feeds').set({ title: '' }).where('id', '=', a.id).execute();
      expect((await u.feeds())[0]).toMatchObject({ title: '', original_title: '', custom_title: null });
      await t.database.db.updateTable('feeds').set({ title: 'Delta feed' }).where('id', '=', a.id).execute();
    });

    it('set_custom_title trims, clears with empty or null, and allows 200 characters', async () => {
      const u = await user();
      const a = await u.add('/alpha.xml');
      const set = async (custom_title: unknown) => u.post('/api/feeds/set_custom_title', { feed_id: a.id, custom_title });
      let res = await set('  Morning read  ');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: a.id, title: 'Morning read', custom_title: 'Morning read', original_title: 'Alpha feed' });
      res = await set('   ');
      expect(res.json()).toMatchObject({ title: 'Alpha feed', custom_title: null });
      await set('x');
      res = await set(null);
      expect(res.json()).toMatchObject({ title: 'Alpha feed', custom_title: null });
      res = await set('ä'.repeat(199) + '😀');
      expect(res.statusCode).toBe(200);
      expect(res.json().custom_title).toBe('ä'.repeat(199) + '😀');
      res = await set('a'.repeat(201));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('CUSTOM_TITLE_TOO_LONG');
      expect((await u.feeds())[0].custom_title).toBe('ä'.repeat(199) + '😀');
      for (const body of [{ custom_title: 'x' }, { feed_id: 'one', custom_title: 'x' }, { feed_id: a.id, custom_title: 5 }, { feed_id: a.id }]) {
        const bad = await u.post('/api/feeds/set_custom_title', body);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().code).toBe('VALIDATION_ERROR');
      }
    });

    it('PUT /api/feeds/{id} writes custom_title and ignores the read-only fields a client echoes back', async () => {
      const u = await user();
      const a = await u.add('/alpha.xml');
      const feed = (await u.feeds())[0];
      let res = await u.put(`/api/feeds/${a.id}`, { ...feed, custom_title: ' Renamed ', title: 'ignored', url: 'http://evil.example/', id: 999999 });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: a.id, title: 'Renamed', custom_title: 'Renamed', url: server.url('/alpha.xml') });
      res = await u.put(`/api/feeds/${a.id}`, { title: 'only read-only fields' });
      expect(res.json()).toMatchObject({ title: 'Renamed' });
      res = await u.put(`/api/feeds/${a.id}`, { custom_title: null });
      expect(res.json()).toMatchObject({ title: 'Alpha feed', custom_title: null });
      res = await u.put(`/api/feeds/${a.id}`, { custom_title: 12 });
      expect(res.statusCode).toBe(400);
      res = await u.put(`/api/feeds/${a.id}`, { custom_title: 'b'.repeat(201) });
      expect(res.json().code).toBe('CUSTOM_TITLE_TOO_LONG');
      res = await u.put('/api/feeds/abc', { custom_title: 'x' });
      expect(res.statusCode).toBe(400);
    });

    it('PUT /api/feeds/{id} switches "always load the original" for this subscriber only', async () => {
      const u = await user();
      const a = await u.add('/epsilon.xml');
      expect(a.always_load_original).toBe(false);
      const other = await user();
      await other.add('/epsilon.xml');
      let res = await u.put(`/api/feeds/${a.id}`, { always_load_original: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: a.id, always_load_original: true, title: 'Epsilon feed' });
      expect((await u.feeds())[0].always_load_original).toBe(true);
      expect((await other.feeds())[0].always_load_original).toBe(false);
      // Together with a title, and echoed back with the whole feed.
      res = await u.put(`/api/feeds/${a.id}`, { ...(await u.feeds())[0], custom_title: 'Both', always_load_original: false });
      expect(res.json()).toMatchObject({ custom_title: 'Both', always_load_original: false });
      // A bad title writes nothing at all.
      res = await u.put(`/api/feeds/${a.id}`, { custom_title: 'b'.repeat(201), always_load_original: true });
      expect(res.json()).toMatchObject({ code: 'CUSTOM_TITLE_TOO_LONG' });
      expect((await u.feeds())[0]).toMatchObject({ custom_title: 'Both', always_load_original: false });
      for (const bad of ['yes', 1, null, [true], 'true\u0000']) {
        res = await u.put(`/api/feeds/${a.id}`, { always_load_original: bad });
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
      const stranger = await user();
      res = await stranger.put(`/api/feeds/${a.id}`, { always_load_original: true });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'FEED_NOT_FOUND' });
      expect((await u.feeds())[0].always_load_original).toBe(false);
    });

    it("shows each feed's health and counts: last fetch, next check, consecutive errors, articles and unread", async () => {
      const u = await user();
      server.set(`/health-${dialect}.xml`, { body: rss('Health feed', [item(1), item(2), item(3)]) });
      const a = await u.add(`/health-${dialect}.xml`);
      await fetchArticles(a.id);
      let [feed] = await u.feeds();
      expect(feed).toMatchObject({ error_count: 0, last_error_code: null, article_count: 3, unread_count: 3 });
      expect(Date.parse(feed.next_check_at!)).toBeGreaterThan(Date.parse(feed.last_fetched_at!));
      const [first] = (await u.get(`/api/feeds/${a.id}/articles`)).json().articles as { id: number }[];
      await u.post(`/api/articles/${first.id}/read`);
      expect((await u.feeds())[0]).toMatchObject({ article_count: 3, unread_count: 2 });

      server.set(`/health-${dialect}.xml`, { status: 500, body: 'down' });
      for (const n of [1, 2]) {
        await t.refresh.refreshFeed(a.id);
        [feed] = await u.feeds();
        expect(feed).toMatchObject({ error_count: n, last_error_code: expect.any(String), article_count: 3, unread_count: 2 });
      }
      server.set(`/health-${dialect}.xml`, { body: rss('Health feed', [item(1), item(2), item(3), item(4)]) });
      await fetchArticles(a.id);
      expect((await u.feeds())[0]).toMatchObject({ error_count: 0, last_error_code: null, article_count: 4, unread_count: 3 });
    });

    it('sorts: named feeds first in the given order, the rest keep theirs; the order is kept', async () => {
      const u = await user();
      const [a, b, c, d] = [await u.add('/alpha.xml'), await u.add('/beta.xml'), await u.add('/gamma.xml'), await u.add('/delta.xml')];
      let res = await u.post('/api/feeds/sort', { feed_order: [c.id, a.id] });
      expect(res.statusCode).toBe(200);
      expect(res.json().map((f: Feed) => f.id)).toEqual([c.id, a.id, b.id, d.id]);
      const list = await u.feeds();
      expect(list.map((f) => [f.id, f.sort_order])).toEqual([
        [c.id, 0],
        [a.id, 1],
        [b.id, 2],
        [d.id, 3],
      ]);
      res = await u.post('/api/feeds/sort', { feed_order: [d.id, c.id, b.id, a.id] });
      expect((await u.feeds()).map((f) => f.id)).toEqual([d.id, c.id, b.id, a.id]);
      // A new subscription goes last.
      const e = await u.add('/epsilon.xml');
      expect((await u.feeds()).map((f) => f.id)).toEqual([d.id, c.id, b.id, a.id, e.id]);

      res = await u.post('/api/feeds/sort', { feed_order: [a.id, a.id] });
      expect([res.statusCode, res.json().code]).toEqual([400, 'DUPLICATE_FEED_ID']);
      // A feed id the user does not read (another user's, or none at all) is a 404, and nothing moves.
      const other = await user();
      const foreign = await other.add('/zeta.xml');
      for (const stranger of [foreign.id, 2_000_000]) {
        res = await u.post('/api/feeds/sort', { feed_order: [a.id, stranger] });
        expect([res.statusCode, res.json().code]).toEqual([404, 'FEED_NOT_FOUND']);
      }
      expect((await u.feeds()).map((f) => f.id)).toEqual([d.id, c.id, b.id, a.id, e.id]);
      for (const body of [{ feed_order: 'x' }, { feed_order: [0] }, { feed_order: ['1'] }, {}]) {
        res = await u.post('/api/feeds/sort', body);
        expect([res.statusCode, res.json().code]).toEqual([400, 'VALIDATION_ERROR']);
      }
      res = await u.post('/api/feeds/sort', { feed_order: [] });
      expect(res.statusCode).toBe(200);
      expect((await u.feeds()).map((f) => f.id)).toEqual([d.id, c.id, b.id, a.id, e.id]);
    });

    it('answers 422 PARSE_TIMEOUT when reading a found feed or page outlasts its time limit on the worker pool', async () => {
      // A 1 ms limit: every parse of discovery times out (the worker is ended and replaced each time).
      const strict = await createTestApp({ dialect, database: t.database, engine: { pool: new WorkerPoolProcessor(1, undefined, { feed: 1, page: 1 }) } });
      try {
        const u = await signedInUser(strict);
        for (const path of ['/alpha.xml', '/site/']) {
          for (const route of ['/api/feeds/search', '/api/feeds']) {
            const res = await u.call('POST', route, { url: server.url(path) });
            expect([path, route, res.statusCode, res.json().code]).toEqual([path, route, 422, 'PARSE_TIMEOUT']);
            expect(res.json().message).toMatch(/took longer than/);
          }
        }
        expect((await u.call('GET', '/api/feeds')).json()).toEqual([]);
      } finally {
        await strict.close();
      }
    });

    it('search lists every feed found, marking those the user reads already', async () => {
      const u = await user();
      await u.add('/gamma.xml');
      const res = await u.post('/api/feeds/search', { url: server.url('/site/') });
      expect(res.statusCode).toBe(200);
      const feeds: SearchFeedResult[] = res.json().feeds;
      expect(feeds).toEqual([
        { title: 'Beta by link', url: server.url('/beta.xml'), favicon_url: server.url('/favicon.ico'), subscribed: false },
        { title: 'Gamma by link', url: server.url('/gamma.xml'), favicon_url: server.url('/favicon.ico'), subscribed: true },
      ]);
      const direct = await u.post('/api/feeds/search', { url: server.url('/alpha.xml') });
      expect(direct.json().feeds).toMatchObject([{ title: 'Alpha feed', url: server.url('/alpha.xml'), subscribed: false }]);
      for (const [payload, status, code] of [
        [{ url: ' ' }, 400, 'URL_REQUIRED'],
        [{ url: 'hello' }, 400, 'INVALID_URL'],
        [{ url: server.url('/empty-site/') }, 404, 'FEED_NOT_FOUND'],
        [{ url: 7 }, 400, 'VALIDATION_ERROR'],
      ] as const) {
        const bad = await u.post('/api/feeds/search', payload);
        expect([bad.statusCode, bad.json().code]).toEqual([status, code]);
      }
    });

    it('unread counts: per feed and total, from one read of the subscriptions', async () => {
      const seed = await user();
      const a = await seed.add('/alpha.xml');
      const b = await seed.add('/beta.xml');
      await fetchArticles(a.id);
      await fetchArticles(b.id);
      const u = await user();
      await u.add('/alpha.xml');
      await u.add('/beta.xml');
      expect(await u.counts()).toEqual({ counts: { [a.id]: 3, [b.id]: 3 }, total: 6 });
    });

    it('unread counts as deltas: since a version, only the buckets that changed; a bad token gets the whole answer', async () => {
      const seed = await user();
      const a = await seed.add('/alpha.xml');
      const b = await seed.add('/beta.xml');
      await fetchArticles(a.id);
      await fetchArticles(b.id);
      const u = await user();
      await u.add('/alpha.xml');
      await u.add('/beta.xml');
      const get = async (since?: string) => {
        const res = await u.call('GET', `/api/feeds/unread_counts${since === undefined ? '' : `?since=${encodeURIComponent(since)}`}`);
        expect(res.statusCode, res.body).toBe(200);
        return res.json<UnreadCounts>();
      };
      const full = await get();
      expect(full.delta).toBeUndefined();
      // Nothing changed: no counts, the same version, the total as ever.
      const same = await get(full.version);
      expect(same).toEqual({ counts: {}, total: 6, version: full.version, delta: { buckets: 1, changed: [] } });
      // Another device marks one article read: the changed bucket comes whole (here the only one).
      const first = (await u.call('GET', '/api/articles')).json<{ articles: { id: number; feed_id: number }[] }>().articles.find((x) => x.feed_id === a.id)!;
      expect((await u.call('POST', `/api/articles/${first.id}/read`)).statusCode).toBeLessThan(300);
      const after = await get(full.version);
      expect(after).toMatchObject({ counts: { [a.id]: 2, [b.id]: 3 }, total: 5, delta: { buckets: 1, changed: [0] } });
      expect(after.version).not.toBe(full.version);
      // A muted feed leaves its bucket: the bucket comes without it.
      expect((await u.call('POST', `/api/feeds/${b.id}/mute`, { permanently: true })).statusCode).toBe(200);
      expect(await get(after.version)).toMatchObject({ counts: { [a.id]: 2 }, total: 2, delta: { changed: [0] } });
      // A token that is not one is answered in full; an oversized one is refused.
      expect(await get('garbage')).toEqual({ counts: { [a.id]: 2 }, total: 2, version: expect.any(String) });
      const long = await u.call('GET', `/api/feeds/unread_counts?since=${'x'.repeat(2000)}`);
      expect(long.statusCode).toBe(400);
    });

    it('mutes for each allowed duration; a timed mute ends by itself; muted feeds leave the unread counts', async () => {
      const seed = await user();
      const a = await seed.add('/alpha.xml');
      const b = await seed.add('/beta.xml');
      await fetchArticles(a.id);
      await fetchArticles(b.id);
      const u = await user();
      await u.add('/alpha.xml');
      await u.add('/beta.xml');

      const start = t.clock.now().getTime();
      const res = await u.post(`/api/feeds/${a.id}/mute`, { duration: 1, permanently: false });
      expect(res.statusCode).toBe(200);
      const muted: Feed = res.json();
      expect(muted).toMatchObject({ id: a.id, is_muted: true, muted_permanently: false });
      const until = Date.parse(muted.muted_until!);
      expect(muted.muted_until).toMatch(/Z$/);
      expect(until - start).toBeGreaterThanOrEqual(HOUR - 1000);
      expect(until - start).toBeLessThanOrEqual(HOUR + 5000);
      expect(await u.counts()).toEqual({ counts: { [b.id]: 3 }, total: 3 });
      // Still listed, greyed by the sidebar.
      expect((await u.feeds()).find((f) => f.id === a.id)).toMatchObject({ is_muted: true });

      t.clock.advance(HOUR + 60_000);
      await u.renew();
      expect((await u.feeds()).find((f) => f.id === a.id)).toMatchObject({ is_muted: false, muted_until: null });
      expect((await u.counts()).total).toBe(6);

      for (const hours of MUTE_HOURS) {
        const r = await u.post(`/api/feeds/${b.id}/mute`, { duration: hours, permanently: false });
        expect(r.statusCode).toBe(200);
        expect(Date.parse(r.json().muted_until) - t.clock.now().getTime()).toBeGreaterThan(hours * HOUR - 5000);
      }
      t.clock.advance(167 * HOUR);
      await u.renew();
      expect((await u.counts()).counts).not.toHaveProperty(String(b.id));
      t.clock.advance(2 * HOUR);
      await u.renew();
      expect((await u.counts()).counts).toHaveProperty(String(b.id), 3);

      // The duration may be left out when muting for good.
      const forever = await u.post(`/api/feeds/${a.id}/mute`, { permanently: true });
      expect(forever.json()).toMatchObject({ is_muted: true, muted_permanently: true, muted_until: null });
      t.clock.advance(10_000 * HOUR);
      await u.renew();
      expect(await u.counts()).toEqual({ counts: { [b.id]: 3 }, total: 3 });
      await u.post(`/api/feeds/${a.id}/mute`, { duration: null, permanently: true });

      const unmuted = await u.post(`/api/feeds/${a.id}/unmute`);
      expect(unmuted.statusCode).toBe(200);
      expect(unmuted.json()).toMatchObject({ id: a.id, is_muted: false, muted_permanently: false, muted_until: null });
      expect((await u.counts()).total).toBe(6);

      // Unmute with a JSON content type and no body, as fetch() wrappers send it.
      const bare = await t.app.inject({ method: 'POST', url: `/api/feeds/${a.id}/unmute`, headers: { ...u.headers, 'content-type': 'application/json' } });
      expect(bare.statusCode).toBe(200);
    });

    it('refuses any other mute request', async () => {
      const u = await user();
      const a = await u.add('/alpha.xml');
      for (const [body, code] of [
        [{ duration: 2, permanently: false }, 'INVALID_MUTE_DURATION'],
        [{ duration: 0 }, 'INVALID_MUTE_DURATION'],
        [{ duration: 1.5 }, 'INVALID_MUTE_DURATION'],
        [{ duration: -1 }, 'INVALID_MUTE_DURATION'],
        [{ duration: null, permanently: false }, 'INVALID_MUTE_DURATION'],
        [{}, 'INVALID_MUTE_DURATION'],
        [{ duration: 3, permanently: true }, 'INVALID_MUTE_DURATION'],
        [{ duration: '1' }, 'VALIDATION_ERROR'],
        [{ duration: 1, permanently: 'yes' }, 'VALIDATION_ERROR'],
      ] as const) {
        const res = await u.post(`/api/feeds/${a.id}/mute`, body);
        expect([JSON.stringify(body), res.statusCode, res.json().code]).toEqual([JSON.stringify(body), 400, code]);
      }
      const empty = await u.post(`/api/feeds/${a.id}/mute`);
      expect(empty.statusCode).toBe(400);
      expect((await u.feeds())[0].is_muted).toBe(false);
    });

    it('refresh now queues the feed at the front and answers 202', async () => {
      const u = await user();
      const a = await u.add('/alpha.xml');
      const enqueue = vi.spyOn(t.refresh, 'enqueue');
      const res = await u.post(`/api/feeds/${a.id}/refresh`);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ queued: true });
      expect(enqueue).toHaveBeenCalledWith([a.id]);
    });

    it('a refresh that cannot be queued makes the feed due instead', async () => {
      const u = await user();
      const a = await u.add('/alpha.xml');
      await t.database.db.updateTable('feeds').set({ next_check_at: '2999-01-01T00:00:00.000Z' }).where('id', '=', a.id).execute();
      // The queue refuses (Redis away): the engine makes the feed due in the database instead.
      vi.spyOn(t.refresh.queue, 'enqueue').mockRejectedValue(new Error('queue down'));
      const res = await u.post(`/api/feeds/${a.id}/refresh`);
      expect(res.statusCode).toBe(202);
      const row = await t.database.db.selectFrom('feeds').select('next_check_at').where('id', '=', a.id).executeTakeFirstOrThrow();
      expect(row.next_check_at < '2999').toBe(true);
    });

    it('deletes a feed with its filters and the user’s articles of it (favourites too); others keep theirs', async () => {
      const seed = await user();
      const a = await seed.add('/alpha.xml');
      await fetchArticles(a.id);
      const u = await user();
      const other = await user();
      await u.add('/alpha.xml');
      const b = await u.add('/beta.xml');
      const c = await u.add('/gamma.xml');
      await other.add('/alpha.xml');
      await u.post(`/api/feeds/${a.id}/filters`, { filter_text: 'item' });
      const uId = (await u.get('/auth/me')).json().user.id;
      await t.database.db.updateTable('user_articles').set({ is_favorite: 1 }).where('user_id', '=', uId).where('feed_id', '=', a.id).execute();

      const res = await u.del(`/api/feeds/${a.id}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const list = await u.feeds();
      expect(list.map((f) => [f.id, f.sort_order])).toEqual([
        [b.id, 0],
        [c.id, 1],
      ]);
      expect((await u.counts()).counts).not.toHaveProperty(String(a.id));
      const left = await t.database.db.selectFrom('user_articles').select('article_id').where('user_id', '=', uId).where('feed_id', '=', a.id).execute();
      expect(left).toEqual([]);
      const filters = await t.database.db.selectFrom('feed_filters').select('id').where('user_id', '=', uId).execute();
      expect(filters).toEqual([]);
      expect(await other.counts()).toEqual({ counts: { [a.id]: 3 }, total: 3 });
      // Subscribing again starts afresh: all articles unread, no filters.
      await u.add('/alpha.xml');
      expect((await u.counts()).counts[a.id]).toBe(3);
      expect((await u.get(`/api/feeds/${a.id}/filters`)).json()).toEqual({ filters: [] });

      expect((await u.del(`/api/feeds/${c.id}`)).statusCode).toBe(204);
      const again = await u.del(`/api/feeds/${c.id}`);
      expect([again.statusCode, again.json().code]).toEqual([404, 'FEED_NOT_FOUND']);
    });

    it('deletes all feeds of the user, and only theirs', async () => {
      const u = await user();
      const other = await user();
      await u.add('/alpha.xml');
      await u.add('/beta.xml');
      const o = await other.add('/alpha.xml');
      const res = await u.del('/api/feeds/all');
      expect(res.statusCode).toBe(204);
      expect(await u.feeds()).toEqual([]);
      expect(await u.counts()).toEqual({ counts: {}, total: 0 });
      expect((await other.feeds()).map((f) => f.id)).toEqual([o.id]);
      // Nothing to delete is fine too.
      expect((await u.del('/api/feeds/all')).statusCode).toBe(204);
      const added = await u.add('/gamma.xml');
      expect(added.sort_order).toBe(0);
    });

    it('another user’s feed, or an unknown one, is a 404 everywhere', async () => {
      const owner = await user();
      const a = await owner.add('/alpha.xml');
      const stranger = await user();
      const calls = [
        stranger.put(`/api/feeds/${a.id}`, { custom_title: 'x' }),
        stranger.post('/api/feeds/set_custom_title', { feed_id: a.id, custom_title: 'x' }),
        stranger.post(`/api/feeds/${a.id}/mute`, { duration: 1, permanently: false }),
        stranger.post(`/api/feeds/${a.id}/unmute`),
        stranger.post(`/api/feeds/${a.id}/refresh`),
        stranger.del(`/api/feeds/${a.id}`),
        stranger.post('/api/feeds/sort', { feed_order: [a.id] }),
        stranger.get(`/api/feeds/${a.id}/filters`),
        stranger.post(`/api/feeds/${a.id}/filters`, { filter_text: 'x' }),
        owner.post('/api/feeds/999999/mute', { permanently: true }),
        owner.del('/api/feeds/2147483647'),
      ];
      for (const res of await Promise.all(calls)) {
        expect([res.statusCode, res.json().code]).toEqual([404, 'FEED_NOT_FOUND']);
      }
      expect((await owner.feeds())[0]).toMatchObject({ id: a.id, title: 'Alpha feed', is_muted: false });
      const tooBig = await owner.del('/api/feeds/99999999999');
      expect(tooBig.statusCode).toBe(400);
    });
  });
}
