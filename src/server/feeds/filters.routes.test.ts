import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedFilter, UnreadCounts } from '../../common/api.js';
import { DIALECTS } from '../test/dialects.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { signedInUser } from '../test/feed-user.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { MAX_FILTERS_PER_FEED } from '../../common/limits.js';

/**
 * Feed filters through HTTP (dashboard.md §5, §7 "Filters", §8; decisions.md "Feeds and articles"): what they hide
 * shows in the unread counts at once, on both dialects.
 */

const ARTICLES = [
  item(1, { title: 'Rust 2.0 released', description: '<p>The <b>compiler</b> is faster</p>' }),
  item(2, { title: 'Go generics', description: '<p>Also about RUST interop</p>' }),
  item(3, { title: 'Python tips', description: '<p>Nothing &amp; more</p>' }),
];

for (const dialect of DIALECTS) {
  describe(`feed filters API (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;
    let feedId: number;

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      server = await startTestFeedServer();
      server.set('/news.xml', { body: rss('News', ARTICLES) });
      server.set('/other.xml', { body: rss('Other', [item(1)]) });
      // A first reader brings the articles in; every test's user subscribes afterwards and gets them all unread.
      const seed = await user();
      feedId = (await seed.post('/api/feeds', { url: server.url('/news.xml') })).json().id;
      expect((await t.refresh.refreshFeed(feedId)).status).toBe('ok');
    });
    afterAll(async () => {
      await server.close();
      await t.close();
    });

    async function user() {
      const u = await signedInUser(t);
      const { call } = u;
      return {
        ...u,
        async addFilter(filter: Partial<FeedFilter>): Promise<FeedFilter> {
          const res = await call('POST', `/api/feeds/${feedId}/filters`, filter);
          expect(res.statusCode, res.body).toBe(201);
          return res.json();
        },
        async unread(): Promise<number | undefined> {
          return (await call('GET', '/api/feeds/unread_counts')).json<UnreadCounts>().counts[feedId];
        },
      };
    }

    async function reader() {
      const u = await user();
      const res = await u.post('/api/feeds', { url: server.url('/news.xml') });
      expect(res.statusCode).toBe(201);
      expect(await u.unread()).toBe(3);
      return u;
    }

    it('adds a filter with the defaults include and both, lists it, and counts only what it lets through', async () => {
      const u = await reader();
      expect((await u.get(`/api/feeds/${feedId}/filters`)).json()).toEqual({ filters: [] });
      const filter = await u.addFilter({ filter_text: '  Rust ' });
      const sub = await t.database.db.selectFrom('subscriptions').select('id').where('user_id', '=', u.id).where('feed_id', '=', feedId).executeTakeFirstOrThrow();
      expect(filter).toEqual({
        id: expect.any(Number),
        filter_type: 'include',
        filter_scope: 'both',
        filter_text: 'Rust',
        feed_id: feedId,
        user_feed_id: sub.id,
        created_at: expect.stringMatching(/Z$/),
      });
      expect((await u.get(`/api/feeds/${feedId}/filters`)).json()).toEqual({ filters: [filter] });
      // "Rust 2.0 released" by its title, "Go generics" by its content ("RUST interop"): case does not matter.
      expect(await u.unread()).toBe(2);
    });

    it('include filters: an article shows when it matches any of them', async () => {
      const u = await reader();
      await u.addFilter({ filter_type: 'include', filter_scope: 'title', filter_text: 'python' });
      expect(await u.unread()).toBe(1);
      await u.addFilter({ filter_type: 'include', filter_scope: 'title', filter_text: 'GO ' });
      expect(await u.unread()).toBe(2);
    });

    it('exclude filters hide what they match, also against an include', async () => {
      const u = await reader();
      const ex = await u.addFilter({ filter_type: 'exclude', filter_text: 'rust' });
      expect(await u.unread()).toBe(1);
      await u.addFilter({ filter_type: 'include', filter_scope: 'title', filter_text: 'go' });
      // Only "Go generics" is included, and the exclude hides it too (its content mentions Rust).
      expect(await u.unread()).toBe(0);
      expect((await u.del(`/api/feeds/filters/${ex.id}`)).statusCode).toBe(204);
      expect(await u.unread()).toBe(1);
    });

    it('scopes: title, content (the text of the HTML, entities decoded) or both', async () => {
      const u = await reader();
      const title = await u.addFilter({ filter_type: 'exclude', filter_scope: 'title', filter_text: 'compiler is' });
      expect(await u.unread()).toBe(3);
      await u.del(`/api/feeds/filters/${title.id}`);
      const content = await u.addFilter({ filter_type: 'exclude', filter_scope: 'content', filter_text: 'compiler is' });
      expect(await u.unread()).toBe(2);
      await u.del(`/api/feeds/filters/${content.id}`);
      await u.addFilter({ filter_type: 'exclude', filter_scope: 'content', filter_text: 'nothing & more' });
      expect(await u.unread()).toBe(2);
      await u.addFilter({ filter_type: 'exclude', filter_scope: 'content', filter_text: 'python' });
      expect(await u.unread()).toBe(2);
      await u.addFilter({ filter_type: 'exclude', filter_scope: 'both', filter_text: 'GENERICS' });
      expect(await u.unread()).toBe(1);
    });

    it('deleting the last filter shows every article again', async () => {
      const u = await reader();
      const a = await u.addFilter({ filter_text: 'python' });
      const b = await u.addFilter({ filter_type: 'exclude', filter_text: 'tips' });
      expect(await u.unread()).toBe(0);
      await u.del(`/api/feeds/filters/${a.id}`);
      expect(await u.unread()).toBe(2);
      await u.del(`/api/feeds/filters/${b.id}`);
      expect(await u.unread()).toBe(3);
      expect((await u.get(`/api/feeds/${feedId}/filters`)).json()).toEqual({ filters: [] });
    });

    it('a duplicate (same type and scope, any case) is a 409; another type or scope is a new filter', async () => {
      const u = await reader();
      await u.addFilter({ filter_text: 'Rust' });
      const dup = await u.post(`/api/feeds/${feedId}/filters`, { filter_type: 'include', filter_scope: 'both', filter_text: ' rUST ' });
      expect([dup.statusCode, dup.json().code]).toEqual([409, 'FILTER_EXISTS']);
      await u.addFilter({ filter_type: 'exclude', filter_text: 'rust' });
      await u.addFilter({ filter_scope: 'title', filter_text: 'rust' });
      expect((await u.get(`/api/feeds/${feedId}/filters`)).json().filters).toHaveLength(3);
      // Another user may have the same filter.
      const other = await reader();
      await other.addFilter({ filter_text: 'Rust' });
    });

    it('refuses bad filters with their codes', async () => {
      const u = await reader();
      const cases: [unknown, string][] = [
        [{ filter_text: '' }, 'FILTER_TEXT_REQUIRED'],
        [{ filter_text: '   ' }, 'FILTER_TEXT_REQUIRED'],
        [{ filter_text: null }, 'FILTER_TEXT_REQUIRED'],
        [{}, 'FILTER_TEXT_REQUIRED'],
        [{ filter_text: 'x'.repeat(501) }, 'FILTER_TEXT_TOO_LONG'],
        [{ filter_text: 'x', filter_type: 'maybe' }, 'INVALID_FILTER_TYPE'],
        [{ filter_text: 'x', filter_type: 'INCLUDE' }, 'INVALID_FILTER_TYPE'],
        [{ filter_text: 'x', filter_scope: 'body' }, 'INVALID_FILTER_SCOPE'],
        [{ filter_text: 5 }, 'VALIDATION_ERROR'],
        [{ filter_text: 'x', filter_type: 1 }, 'VALIDATION_ERROR'],
        [[], 'VALIDATION_ERROR'],
      ];
      for (const [body, code] of cases) {
        const res = await u.post(`/api/feeds/${feedId}/filters`, body);
        expect([JSON.stringify(body), res.statusCode, res.json().code]).toEqual([JSON.stringify(body), 400, code]);
      }
      expect((await u.post(`/api/feeds/${feedId}/filters`)).statusCode).toBe(400);
      const ok = await u.addFilter({ filter_text: ` ${'y'.repeat(500)} ` });
      expect(ok.filter_text).toHaveLength(500);
      expect((await u.get(`/api/feeds/${feedId}/filters`)).json().filters).toHaveLength(1);
      const malformed = await t.app.inject({
        method: 'POST',
        url: `/api/feeds/${feedId}/filters`,
        headers: { ...t.bearer((await t.signUp()).access_token), 'content-type': 'application/json' },
        payload: '{"filter_text": "x"',
      });
      expect([malformed.statusCode, malformed.json().code]).toEqual([400, 'INVALID_JSON']);
    });

    it(`allows at most ${MAX_FILTERS_PER_FEED} filters per feed`, async () => {
      const u = await reader();
      for (let i = 0; i < MAX_FILTERS_PER_FEED; i++) await u.addFilter({ filter_type: 'exclude', filter_text: `word${i}` });
      const res = await u.post(`/api/feeds/${feedId}/filters`, { filter_text: 'one more' });
      expect([res.statusCode, res.json().code]).toEqual([400, 'TOO_MANY_FILTERS']);
      expect(await u.unread()).toBe(3);
    });

    it('filters are the user’s own: another user’s counts stay, and their ids are 404s', async () => {
      const owner = await reader();
      const other = await reader();
      const filter = await owner.addFilter({ filter_type: 'exclude', filter_text: 'rust' });
      expect(await owner.unread()).toBe(1);
      expect(await other.unread()).toBe(3);
      expect((await other.get(`/api/feeds/${feedId}/filters`)).json()).toEqual({ filters: [] });

      const del = await other.del(`/api/feeds/filters/${filter.id}`);
      expect([del.statusCode, del.json().code]).toEqual([404, 'FILTER_NOT_FOUND']);
      expect(await owner.unread()).toBe(1);

      // A feed the user does not read: listing and adding are 404s.
      const stranger = await user();
      for (const res of [
        await stranger.get(`/api/feeds/${feedId}/filters`),
        await stranger.post(`/api/feeds/${feedId}/filters`, { filter_text: 'x' }),
        await owner.get('/api/feeds/999999/filters'),
      ]) {
        expect([res.statusCode, res.json().code]).toEqual([404, 'FEED_NOT_FOUND']);
      }
      expect((await owner.del('/api/feeds/filters/999999')).statusCode).toBe(404);
      expect((await owner.del('/api/feeds/filters/abc')).statusCode).toBe(400);
      expect((await owner.del(`/api/feeds/filters/${filter.id}`)).statusCode).toBe(204);
      expect((await owner.del(`/api/feeds/filters/${filter.id}`)).statusCode).toBe(404);
    });

    it('filters of one feed leave the user’s other feeds alone', async () => {
      const u = await reader();
      const other = (await u.post('/api/feeds', { url: server.url('/other.xml') })).json().id as number;
      expect((await t.refresh.refreshFeed(other)).status).toBe('ok');
      await u.addFilter({ filter_text: 'no article says this' });
      expect(await u.unread()).toBe(0);
      const rows = await t.database.db.selectFrom('user_articles').select('is_hidden').where('user_id', '=', u.id).where('feed_id', '=', other).execute();
      expect(rows.map((r) => r.is_hidden)).toEqual([0]);
    });
  });
}
