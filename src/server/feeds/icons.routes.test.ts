import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article, ArticlePage, Feed } from '../../common/api.js';
import { nowIso } from '../db/database.js';
import { DIALECTS } from '../test/dialects.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { ensureFeed } from './feeds.repository.js';
import { subscribe } from './subscriptions.repository.js';
import { INLINE_ICON_MAX_CHARS, iconHash } from './icons.js';

/**
 * Feed icons on the wire (feeds/icons.ts): small ones inline and by URL, large ones by URL only; the URL serves the
 * stored bytes, content-addressed and cached for good, without sign-in.
 */
const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_HEADER, Buffer.alloc(size, 7)]).toString('base64');

for (const dialect of DIALECTS) {
  describe(`feed icons (${dialect})`, () => {
    let t: TestApp;
    let headers: { authorization: string };
    const small = png(100);
    const large = png(INLINE_ICON_MAX_CHARS);

    beforeAll(async () => {
      t = await createTestApp({ dialect });
      const { access_token, user } = await t.signUp();
      headers = t.bearer(access_token);
      const db = t.database.db;
      const now = nowIso();
      for (const [url, data] of [
        ['http://icons.test/small.xml', small],
        ['http://icons.test/large.xml', large],
        ['http://icons.test/none.xml', null],
      ] as const) {
        const { feed } = await ensureFeed(db, url, now);
        await db
          .updateTable('feeds')
          .set({ title: url, icon_data: data, icon_type: data ? 'image/png' : null, icon_hash: data ? iconHash(data) : null })
          .where('id', '=', feed.id)
          .execute();
        await subscribe(db, user.id, feed.id, now);
        await db
          .insertInto('articles')
          .values({
            feed_id: feed.id,
            guid_hash: `h-${feed.id}`,
            guid: `g-${feed.id}`,
            title: `Article of ${url}`,
            content_hash: 'x',
            published_at: now,
            created_at: now,
            last_seen_at: now,
          })
          .execute();
      }
      await db
        .insertInto('user_articles')
        .columns(['user_id', 'article_id', 'feed_id', 'published_at'])
        .expression((eb) => eb.selectFrom('articles').select([eb.val(user.id).as('user_id'), 'id', 'feed_id', 'published_at']))
        .execute();
    });
    afterAll(() => t.close());

    it('sends small icons inline and by URL, large ones by URL only, none as nulls', async () => {
      const feeds = (await t.app.inject({ method: 'GET', url: '/api/feeds', headers })).json<Feed[]>();
      const byUrl = new Map(feeds.map((f) => [f.url, f]));
      expect(byUrl.get('http://icons.test/small.xml')).toMatchObject({ favicon_base64: small, favicon_type: 'image/png', favicon_url: `/api/icons/${iconHash(small)}` });
      expect(byUrl.get('http://icons.test/large.xml')).toMatchObject({ favicon_base64: null, favicon_type: 'image/png', favicon_url: `/api/icons/${iconHash(large)}` });
      expect(byUrl.get('http://icons.test/none.xml')).toMatchObject({ favicon_base64: null, favicon_type: null, favicon_url: null });

      const page = (await t.app.inject({ method: 'GET', url: '/api/articles?show_read=true', headers })).json<ArticlePage>();
      const large_article = page.articles.find((a: Article) => a.title.includes('large'))!;
      expect(large_article).toMatchObject({ feed_favicon: `/api/icons/${iconHash(large)}`, feed_favicon_base64: null });
    });

    it('serves the stored bytes without sign-in, cached for good', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/icons/${iconHash(large)}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      // The icon's own policy, not the pages' (http/security-headers.ts): an SVG opened on its own runs nothing.
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
      expect(res.rawPayload.equals(Buffer.from(large, 'base64'))).toBe(true);
    });

    it('answers 404 for an unknown address and 400 for a malformed one', async () => {
      const unknown = await t.app.inject({ method: 'GET', url: `/api/icons/${'0'.repeat(32)}` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'ICON_NOT_FOUND' });
      const bad = await t.app.inject({ method: 'GET', url: '/api/icons/..%2f..%2fetc' });
      expect(bad.statusCode).toBe(400);
    });
  });
}
