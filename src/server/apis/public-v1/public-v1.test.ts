import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { revokeAllRefreshTokens } from '../../accounts/accounts.repository.js';
import { hashToken } from '../../accounts/tokens.js';
import { iconHash } from '../../feeds/icons.js';
import { DIALECTS } from '../../test/dialects.js';
import { ITEM_EPOCH_MS, item, rss, type TestFeedServer, type TestItem } from '../../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds } from '../../test/feed-user.js';
import type { TestApp } from '../../test/test-app.js';

/**
 * The public API v1 through HTTP (public-area-and-api.md §3, §5, §7–§9; docs/decisions.md "Public API v1"), on both
 * dialects, with real feeds fetched from a local feed server: first a client's whole session as a script would run
 * it, then every documented status.
 */

const DAY = 86_400_000;
const BASE = '/public-api/v1';
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const sitePage = (feedHref: string) =>
  `<!doctype html><html><head><title>A site</title><link rel="alternate" type="application/rss+xml" href="${feedHref}" title="Site feed"></head><body>Hi</body></html>`;

for (const dialect of DIALECTS) {
  describe(`public API v1 (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;
    let n = 0;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));
    afterEach(() => t.clock.reset());

    /** A verified account, its API token, and calls with it; `web` is the web app's session for muting and filters. */
    async function client() {
      const { email, password, user } = await t.createUser();
      const auth = await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email, password } });
      expect(auth.statusCode, auth.body).toBe(200);
      const token: string = auth.json().token;
      const headers = { authorization: `Bearer ${token}` };
      const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
        t.app.inject({ method, url: `${BASE}${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
      const web = await t.login(email, password);
      return {
        id: user.id,
        email,
        password,
        token,
        get: (url: string) => call('GET', url),
        post: (url: string, payload?: unknown) => call('POST', url, payload),
        webPost: (url: string, payload?: unknown) =>
          t.app.inject({ method: 'POST', url, headers: t.bearer(web.access_token), ...(payload === undefined ? {} : { payload: payload as object }) }),
        /** Serves a feed with these items, subscribes through the API, and fetches it as the engine would. */
        async feed(title: string, items: TestItem[]): Promise<number> {
          const path = `/pub-${dialect}-${++n}.xml`;
          server.set(path, { body: rss(title, items) });
          const res = await call('POST', '/feeds/subscribe', { url: server.url(path) });
          expect(res.statusCode, res.body).toBe(200);
          const id: number = res.json().feed.id;
          expect(['ok', 'not-modified']).toContain((await t.refresh.refreshFeed(id)).status);
          return id;
        },
      };
    }

    const ok = (res: LightMyRequestResponse) => {
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const error = (res: LightMyRequestResponse, status: number, code?: string) => {
      expect(res.statusCode, res.body).toBe(status);
      const body = res.json();
      expect(typeof body.message).toBe('string');
      if (code) expect(body.code).toBe(code);
      else expect(typeof body.code).toBe('string');
      return body;
    };

    it('serves a client’s whole session: authenticate, feeds, subscribe, page through articles, change state, read all', async () => {
      // authenticate
      const { email, password, user } = await t.createUser({ name: 'Script User' });
      const auth = ok(await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: ` ${email.toUpperCase()} `, password } }));
      expect(auth).toEqual({
        message: expect.any(String),
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expires_at: expect.any(String),
        user: { id: user.id, email, name: 'Script User' },
      });
      expect(Date.parse(auth.expires_at) - t.clock.now().getTime()).toBeGreaterThan(364 * DAY);
      expect(Date.parse(auth.expires_at) - t.clock.now().getTime()).toBeLessThanOrEqual(365 * DAY);
      // only the token's hash is stored
      const stored = await t.database.db.selectFrom('api_tokens').selectAll().where('user_id', '=', user.id).execute();
      expect(stored).toHaveLength(1);
      expect(stored[0].token_hash).toBe(hashToken(auth.token));
      const headers = { authorization: `Bearer ${auth.token}` };
      const get = (url: string) => t.app.inject({ method: 'GET', url: `${BASE}${url}`, headers });
      const post = (url: string, payload?: object) => t.app.inject({ method: 'POST', url: `${BASE}${url}`, headers, ...(payload ? { payload } : {}) });

      // no feeds yet
      expect(ok(await get('/feeds'))).toEqual({ feeds: [] });

      // find a feed behind a site's address, then subscribe to it
      const feedPath = `/flow-${dialect}.xml`;
      server.set(feedPath, {
        body: rss(
          'Flow feed',
          range(1, 25).map((i) => item(i)),
        ),
      });
      server.set(`/flow-site-${dialect}/`, { body: sitePage(feedPath), contentType: 'text/html' });
      const found = ok(await post('/feeds/search', { url: server.url(`/flow-site-${dialect}/`) }));
      expect(found.feeds).toEqual([{ title: 'Site feed', url: server.url(feedPath), favicon_url: server.url('/favicon.ico'), subscribed: false }]);
      const sub = ok(await post('/feeds/subscribe', { url: found.feeds[0].url }));
      expect(sub).toEqual({
        message: expect.any(String),
        feed: { id: expect.any(Number), title: expect.any(String), url: server.url(feedPath), description: null, favicon_url: null },
        is_new: true,
      });
      const feedId: number = sub.feed.id;
      // again, by the feed's address and by the site's: the existing subscription, not an error
      expect(ok(await post('/feeds/subscribe', { url: server.url(feedPath) }))).toMatchObject({ is_new: false, feed: { id: feedId } });
      expect(ok(await post('/feeds/subscribe', { url: server.url(`/flow-site-${dialect}/`) }))).toMatchObject({ is_new: false, feed: { id: feedId } });
      expect((await post('/feeds/search', { url: server.url(feedPath) })).json().feeds[0].subscribed).toBe(true);

      // the engine fetches it
      expect((await t.refresh.refreshFeed(feedId)).status).toBe('ok');
      const feeds = ok(await get('/feeds')).feeds;
      expect(feeds).toEqual([
        {
          id: feedId,
          url: server.url(feedPath),
          title: 'Flow feed',
          description: 'Test feed',
          last_updated: expect.any(String),
          favicon_url: null,
          unread_count: 25,
          has_active_filters: false,
          filters_count: 0,
        },
      ]);

      // page through the articles: 25, ten per page, newest first
      const p1 = ok(await get('/articles?per_page=10'));
      expect(p1.pagination).toEqual({ total_items: 25, total_pages: 3, current_page: 1, per_page: 10, has_next: true, has_prev: false, has_active_filters: false });
      expect(p1.articles.map((a: { title: string }) => a.title)).toEqual(
        range(16, 25)
          .reverse()
          .map((i) => `Item ${i}`),
      );
      expect(p1.articles[0]).toEqual({
        id: expect.any(Number),
        feed_id: feedId,
        title: 'Item 25',
        url: expect.stringContaining('item-25'),
        content: '<p>About Item 25</p>',
        summary: 'About Item 25',
        author: null,
        published_at: new Date(ITEM_EPOCH_MS + 25 * 3_600_000).toISOString(),
        is_read: false,
        is_favorite: false,
        feed_title: 'Flow feed',
        feed_favicon: null,
      });
      const p3 = ok(await get('/articles?per_page=10&page=3'));
      expect(p3.pagination).toMatchObject({ current_page: 3, has_next: false, has_prev: true });
      expect(p3.articles.map((a: { title: string }) => a.title)).toEqual(
        range(1, 5)
          .reverse()
          .map((i) => `Item ${i}`),
      );
      expect(ok(await get('/articles')).pagination).toMatchObject({ per_page: 20, current_page: 1, total_pages: 2 });
      expect(ok(await get('/articles?page=9')).articles).toEqual([]);

      // read, unread, favourite, unfavourite
      const newest = p1.articles[0].id;
      expect(ok(await post(`/articles/${newest}/read`))).toEqual({ message: 'Article marked as read.', id: newest, is_read: true, is_favorite: false });
      expect(ok(await post(`/articles/${newest}/read`))).toMatchObject({ is_read: true }); // idempotent
      expect(ok(await get('/articles?unread=true')).pagination.total_items).toBe(24);
      expect(ok(await get('/articles?unread=false')).pagination.total_items).toBe(25);
      expect(ok(await get('/feeds')).feeds[0].unread_count).toBe(24);
      expect(ok(await post(`/articles/${newest}/unread`))).toMatchObject({ is_read: false });
      expect(ok(await post(`/articles/${newest}/favorite`))).toEqual({ message: expect.any(String), id: newest, is_read: false, is_favorite: true });
      expect(ok(await get('/articles?per_page=1')).articles[0]).toMatchObject({ id: newest, is_favorite: true });
      expect(ok(await post(`/articles/${newest}/unfavorite`))).toMatchObject({ is_favorite: false });
      // a JSON content type with an empty body, as many HTTP libraries send it, is fine too
      const emptyJson = await t.app.inject({
        method: 'POST',
        url: `${BASE}/articles/${newest}/read`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '',
      });
      expect(emptyJson.statusCode, emptyJson.body).toBe(200);

      // read/all by ids: two of them (one already read), with unknown ids among them
      const [a, b] = p3.articles.map((x: { id: number }) => x.id);
      expect(ok(await post('/articles/read/all', { article_ids: [a, b, newest, 2_000_000_000] }))).toEqual({
        message: '2 articles marked as read.',
        count: 2,
        details: { existing_updated: 2, new_entries: 0 },
      });
      expect(ok(await get('/feeds')).feeds[0].unread_count).toBe(22);

      // read/all by feed: everything unread of the last 30 days
      expect(ok(await post('/articles/read/all', { feed_id: feedId }))).toEqual({
        message: '22 articles marked as read.',
        count: 22,
        details: { existing_updated: 22, new_entries: 0 },
      });
      expect(ok(await get('/feeds')).feeds[0].unread_count).toBe(0);
      expect(ok(await get('/articles?unread=true')).articles).toEqual([]);
      expect(ok(await get('/articles?unread=true')).pagination).toMatchObject({ total_items: 0, total_pages: 0, has_next: false, has_prev: false });
      expect(ok(await post('/articles/read/all', { feed_id: feedId })).count).toBe(0);

      // last_used_at is kept, at most about once a minute
      const used = await t.database.db.selectFrom('api_tokens').select('last_used_at').where('user_id', '=', user.id).executeTakeFirstOrThrow();
      expect(used.last_used_at).not.toBeNull();
    });

    it('read/all by feed marks only articles of the last 30 days', async () => {
      const u = await client();
      const old = (d: number) => ({ pubDate: new Date(t.clock.now().getTime() - d * DAY).toUTCString() });
      const feedId = await u.feed('Old and new', [item(1, old(45)), item(2, old(31)), item(3, old(29)), item(4, old(1))]);
      expect(ok(await u.post('/articles/read/all', { feed_id: feedId })).count).toBe(2);
      const left = ok(await u.get('/articles?unread=true')).articles.map((a: { title: string }) => a.title);
      expect(left).toEqual(['Item 2', 'Item 1']);
    });

    it('reads all by ids only among the caller’s own articles: another user’s ids are ignored', async () => {
      const owner = await client();
      const other = await client();
      const ownFeed = await owner.feed('Owner', [item(1), item(2)]);
      const otherFeed = await other.feed('Other', [item(1), item(2)]);
      const ownIds = ok(await owner.get('/articles')).articles.map((a: { id: number }) => a.id);
      const otherIds = ok(await other.get('/articles')).articles.map((a: { id: number }) => a.id);
      expect(ok(await owner.post('/articles/read/all', { article_ids: [...otherIds, ownIds[0]] })).count).toBe(1);
      expect(ok(await other.get('/feeds')).feeds.find((f: { id: number }) => f.id === otherFeed).unread_count).toBe(2);
      expect(ok(await owner.get('/feeds')).feeds.find((f: { id: number }) => f.id === ownFeed).unread_count).toBe(1);
      expect(ok(await owner.post('/articles/read/all', { article_ids: [] })).count).toBe(0);
    });

    it('sends icons as addresses, and inline as base64 only when asked', async () => {
      const u = await client();
      const feedId = await u.feed('With icon', [item(1)]);
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
      await t.database.db
        .updateTable('feeds')
        .set({ icon_data: png, icon_type: 'image/png', icon_hash: iconHash(png) })
        .where('id', '=', feedId)
        .execute();
      const iconUrl = `http://feeder.test/api/icons/${iconHash(png)}`;

      const plain = ok(await u.get('/feeds')).feeds[0];
      expect(plain.favicon_url).toBe(iconUrl);
      expect(plain).not.toHaveProperty('favicon_base64');
      expect(ok(await u.get('/feeds?include_favicons=false')).feeds[0]).not.toHaveProperty('favicon_base64');
      expect(ok(await u.get('/feeds?include_favicons=true')).feeds[0]).toMatchObject({ favicon_url: iconUrl, favicon_base64: png, favicon_type: 'image/png' });

      const article = ok(await u.get('/articles')).articles[0];
      expect(article.feed_favicon).toBe(iconUrl);
      expect(article).not.toHaveProperty('feed_favicon_base64');
      expect(ok(await u.get('/articles?include_base64_favicons=true')).articles[0]).toMatchObject({ feed_favicon_base64: png, feed_favicon_type: 'image/png' });

      // an icon too large to inline comes as an address only
      const big = 'A'.repeat(70_000);
      await t.database.db
        .updateTable('feeds')
        .set({ icon_data: big, icon_hash: iconHash(big) })
        .where('id', '=', feedId)
        .execute();
      expect(ok(await u.get('/feeds?include_favicons=true')).feeds[0]).toMatchObject({
        favicon_url: `http://feeder.test/api/icons/${iconHash(big)}`,
        favicon_base64: null,
      });
    });

    it('shows filters on feeds and pages, and custom titles', async () => {
      const u = await client();
      const feedId = await u.feed('Filtered', [item(1, { title: 'Sports news' }), item(2, { title: 'Town news' })]);
      expect((await u.webPost(`/api/feeds/${feedId}/filters`, { filter_type: 'exclude', filter_scope: 'title', filter_text: 'sports' })).statusCode).toBe(201);
      expect((await u.webPost('/api/feeds/set_custom_title', { feed_id: feedId, custom_title: 'My title' })).statusCode).toBe(200);
      expect(ok(await u.get('/feeds')).feeds[0]).toMatchObject({ title: 'My title', has_active_filters: true, filters_count: 1, unread_count: 1 });
      const list = ok(await u.get(`/articles?feed_id=${feedId}`));
      expect(list.articles.map((a: { title: string }) => a.title)).toEqual(['Town news']);
      expect(list.articles[0].feed_title).toBe('My title');
      expect(list.pagination).toMatchObject({ total_items: 1, has_active_filters: true });
    });

    it('lists the articles of one folder’s feeds with folder_id (404 for another user’s folder, 400 with feed_id)', async () => {
      const u = await client();
      const a = await u.feed('Folder feed A', [item(1, { title: 'In A' })]);
      const b = await u.feed('Folder feed B', [item(2, { title: 'In B' })]);
      const outside = await u.feed('Not in the folder', [item(3, { title: 'Outside' })]);
      const created = await u.webPost('/api/folders', { name: 'Public folder' });
      expect(created.statusCode, created.body).toBe(201);
      const folder: number = created.json().folder.id;
      for (const feedId of [a, b]) expect((await u.webPost(`/api/folders/${folder}/feeds`, { feed_id: feedId })).statusCode).toBe(200);
      const list = ok(await u.get(`/articles?folder_id=${folder}`));
      expect(list.articles.map((x: { title: string }) => x.title)).toEqual(['In B', 'In A']);
      expect(list.pagination).toMatchObject({ total_items: 2, total_pages: 1 });
      expect(ok(await u.get('/articles')).articles).toHaveLength(3);
      expect(outside).toBeGreaterThan(0);
      const other = await client();
      error(await other.get(`/articles?folder_id=${folder}`), 404, 'FOLDER_NOT_FOUND');
      error(await u.get('/articles?folder_id=abc'), 400, 'VALIDATION_ERROR');
      error(await u.get('/articles?folder_id=%00'), 400);
      error(await u.get(`/articles?folder_id=${folder}&feed_id=${a}`), 400, 'ARTICLE_SCOPE_AMBIGUOUS');
    });

    describe('statuses', () => {
      it('400: bad bodies, parameters and ids', async () => {
        const u = await client();
        const feedId = await u.feed('Four hundred', [item(1)]);
        for (const url of [
          '/articles?per_page=101',
          '/articles?per_page=0',
          '/articles?page=0',
          '/articles?page=x',
          '/articles?unread=maybe',
          '/articles?feed_id=abc',
          '/articles?feed_id=0',
          '/feeds?include_favicons=yes',
        ]) {
          error(await u.get(url), 400, 'VALIDATION_ERROR');
        }
        error(await u.post('/articles/read/all', {}), 400, 'READ_ALL_SCOPE_REQUIRED');
        error(await u.post('/articles/read/all'), 400, 'READ_ALL_SCOPE_REQUIRED');
        error(await u.post('/articles/read/all', { feed_id: feedId, article_ids: [1] }), 400, 'READ_ALL_SCOPE_REQUIRED');
        error(await u.post('/articles/read/all', { article_ids: 'all' }), 400, 'VALIDATION_ERROR');
        error(await u.post('/articles/read/all', { article_ids: range(1, 1001) }), 400, 'VALIDATION_ERROR');
        error(await u.post('/articles/read/all', { feed_id: '1' }), 400, 'VALIDATION_ERROR');
        error(await u.post('/feeds/subscribe', {}), 400, 'VALIDATION_ERROR');
        error(await u.post('/feeds/subscribe', { url: '' }), 400, 'URL_REQUIRED');
        error(await u.post('/feeds/subscribe', { url: 'not a url at all' }), 400);
        error(await u.post('/feeds/search', { url: 42 }), 400, 'VALIDATION_ERROR');
        error(await u.post('/articles/abc/read'), 400, 'VALIDATION_ERROR');
        const badJson = await t.app.inject({
          method: 'POST',
          url: `${BASE}/feeds/search`,
          headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
          payload: '{"url":',
        });
        error(badJson, 400, 'INVALID_JSON');
        error(await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: 'a@b.c' } }), 400, 'VALIDATION_ERROR');
        error(await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: 'a@b.c', password: 'x', extra: 1 } }), 400, 'VALIDATION_ERROR');
      });

      it('401: missing, malformed, unknown, expired and voided tokens; wrong passwords; 403 unconfirmed accounts', async () => {
        const u = await client();
        const at = (authorization?: string) => t.app.inject({ method: 'GET', url: `${BASE}/feeds`, headers: authorization === undefined ? {} : { authorization } });
        error(await at(), 401, 'UNAUTHORIZED');
        error(await at('Basic abc'), 401, 'UNAUTHORIZED');
        error(await at('Bearer short'), 401, 'TOKEN_INVALID');
        error(await at(`Bearer ${'x'.repeat(43)}`), 401, 'TOKEN_INVALID');
        // the web app's access token is no API token
        error(await at(`Bearer ${(await t.login(u.email, u.password)).access_token}`), 401, 'TOKEN_INVALID');
        ok(await at(`Bearer ${u.token}`));
        // 365 days: still valid a day before, not a day after
        t.clock.advance(364 * DAY);
        ok(await at(`Bearer ${u.token}`));
        t.clock.advance(2 * DAY);
        error(await at(`Bearer ${u.token}`), 401, 'TOKEN_INVALID');
        t.clock.reset();

        // a password change or reset ends every sign-in, API tokens included
        const v = await client();
        ok(await v.get('/feeds'));
        await revokeAllRefreshTokens(t.database.db, v.id, new Date().toISOString());
        error(await v.get('/feeds'), 401, 'TOKEN_INVALID');

        // authenticate: wrong password, unknown account, unconfirmed account
        const authenticate = (username: string, password: string) => t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username, password } });
        error(await authenticate(u.email, 'wrong password'), 401, 'AUTH_401_1');
        error(await authenticate('nobody@example.com', 'whatever it is'), 401, 'AUTH_401_1');
        const unconfirmed = await t.createUser({ verified: false });
        error(await authenticate(unconfirmed.email, unconfirmed.password), 403, 'AUTH_403_1');
        error(await authenticate(unconfirmed.email, 'wrong password'), 401, 'AUTH_401_1');
      });

      it('403: state changes on a muted feed’s articles; muted feeds are left out of lists', async () => {
        const u = await client();
        const loud = await u.feed('Loud', [item(1)]);
        const quiet = await u.feed('Quiet', [item(1), item(2)]);
        const quietArticle = ok(await u.get(`/articles?feed_id=${quiet}`)).articles[0].id;
        expect((await u.webPost(`/api/feeds/${quiet}/mute`, { permanently: true })).statusCode).toBe(200);
        for (const change of ['read', 'unread', 'favorite', 'unfavorite']) error(await u.post(`/articles/${quietArticle}/${change}`), 403, 'FEED_MUTED');
        error(await u.post('/articles/read/all', { feed_id: quiet }), 403, 'FEED_MUTED');
        // by ids, a muted feed's articles are ignored
        expect(ok(await u.post('/articles/read/all', { article_ids: [quietArticle] })).count).toBe(0);
        expect(ok(await u.get('/feeds')).feeds.map((f: { id: number }) => f.id)).toEqual([loud]);
        expect(ok(await u.get('/articles')).articles.map((a: { feed_id: number }) => a.feed_id)).toEqual([loud]);
        expect(ok(await u.get(`/articles?feed_id=${quiet}`))).toMatchObject({ articles: [], pagination: { total_items: 0 } });
        expect((await u.webPost(`/api/feeds/${quiet}/unmute`)).statusCode).toBe(200);
        ok(await u.post(`/articles/${quietArticle}/read`));
      });

      it('404: another user’s and unknown articles and feeds, unknown endpoints', async () => {
        const u = await client();
        const other = await client();
        const otherFeed = await other.feed('Someone else’s', [item(1)]);
        const otherArticle = ok(await other.get('/articles')).articles[0].id;
        for (const change of ['read', 'unread', 'favorite', 'unfavorite']) {
          error(await u.post(`/articles/${otherArticle}/${change}`), 404, 'ARTICLE_NOT_FOUND');
          error(await u.post(`/articles/2000000000/${change}`), 404, 'ARTICLE_NOT_FOUND');
        }
        error(await u.get(`/articles?feed_id=${otherFeed}`), 404, 'FEED_NOT_FOUND');
        error(await u.post('/articles/read/all', { feed_id: otherFeed }), 404, 'FEED_NOT_FOUND');
        error(await u.get('/nothing-here'), 404, 'NOT_FOUND');
        // the other user's article is untouched
        expect(ok(await other.get('/articles')).articles[0]).toMatchObject({ is_read: false, is_favorite: false });
      });

      it('404 and 502 from discovery: no feed at the address, or the site failing', async () => {
        const u = await client();
        server.set(`/no-feed-${dialect}/`, { body: '<!doctype html><title>x</title><p>nothing</p>', contentType: 'text/html' });
        error(await u.post('/feeds/search', { url: server.url(`/no-feed-${dialect}/`) }), 404, 'FEED_NOT_FOUND');
        error(await u.post('/feeds/subscribe', { url: server.url(`/no-feed-${dialect}/`) }), 404, 'FEED_NOT_FOUND');
        server.set(`/broken-${dialect}.xml`, { status: 500, body: 'oops' });
        error(await u.post('/feeds/subscribe', { url: server.url(`/broken-${dialect}.xml`) }), 502);
      });

      it('may be called from any origin in a browser (bearer tokens only, no cookies)', async () => {
        const u = await client();
        const preflight = await t.app.inject({
          method: 'OPTIONS',
          url: `${BASE}/articles/1/read`,
          headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
        });
        expect(preflight.statusCode).toBe(204);
        expect(preflight.headers['access-control-allow-origin']).toBe('*');
        expect(preflight.headers['access-control-allow-methods']).toContain('POST');
        expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
        for (const res of [await u.get('/feeds'), await t.app.inject({ method: 'GET', url: `${BASE}/feeds`, headers: { origin: 'https://client.example' } })]) {
          expect(res.headers['access-control-allow-origin']).toBe('*');
          expect(res.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
          expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        }
        // the web app's own API stays same-origin
        expect(
          (await t.app.inject({ method: 'GET', url: '/api/config', headers: { origin: 'https://client.example' } })).headers['access-control-allow-origin'],
        ).toBeUndefined();
      });

      it('every answer carries the rate-limit headers, errors included', async () => {
        const u = await client();
        for (const res of [
          await u.get('/feeds'),
          await u.get('/articles?per_page=500'),
          await u.post('/articles/2000000000/read'),
          await t.app.inject({ method: 'GET', url: `${BASE}/feeds` }),
        ]) {
          expect(res.headers['x-ratelimit-limit'], res.body).toMatch(/^\d+$/);
          expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
          expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
        }
        const res = await u.get('/feeds');
        expect(res.headers['x-ratelimit-limit']).toBe('100');
        const auth = await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: u.email, password: u.password } });
        expect(auth.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
      });
    });
  });
}
