import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogCategory, CatalogSubscribedResponse } from '../../common/api.js';
import { CatalogSubscribedReply } from '../../common/schemas/catalog.js';
import { normalizeFeedUrl } from '../feeds/feed-url.js';
import type { Fetcher } from '../reader/fetch/index.js';
import { DIALECTS } from '../test/dialects.js';
import { item, rss } from '../test/feed-server.js';
import { signedInUser, subscribeTo, type SignedInUser } from '../test/feed-user.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { CATALOG } from './catalog.js';

/**
 * The catalog data (dashboard.md §3 "Catalog category", decisions.md), GET /api/catalog, and GET
 * /api/catalog/subscribed (docs/decisions.md "The catalog's subscribed entries").
 */

/** Hosts that serve their feeds over plain http only (checked by hand; everything else must be https). */
const HTTP_ONLY_HOSTS = new Set(['rss.cnn.com']);

const all = CATALOG.flatMap((c) => c.feeds.map((f) => ({ ...f, category: c.id })));

describe('catalog data', () => {
  it("has the spec's eight categories with German and English names", () => {
    expect(CATALOG.map((c) => [c.name, c.nameEn])).toEqual([
      ['Internationale Nachrichten', 'International News'],
      ['Wirtschaft & Finanzen', 'Business & Finance'],
      ['Technologie', 'Technology'],
      ['Wissenschaft', 'Science'],
      ['Kultur & Medien', 'Culture & Media'],
      ['Politik & Gesellschaft', 'Politics & Society'],
      ['Umwelt & Nachhaltigkeit', 'Environment & Sustainability'],
      ['Sport', 'Sport'],
    ]);
    expect(new Set(CATALOG.map((c) => c.id)).size).toBe(8);
  });

  it('holds several hundred feeds, at least 20 per category, in EN, DE, ES, KO and AF', () => {
    expect(all.length).toBeGreaterThanOrEqual(300);
    for (const c of CATALOG) expect(c.feeds.length, c.nameEn).toBeGreaterThanOrEqual(20);
    expect(new Set(all.map((f) => f.language))).toEqual(new Set(['EN', 'DE', 'ES', 'KO', 'AF', null]));
    // German and English, the two languages of the filter, have something in every category.
    for (const c of CATALOG) {
      expect(
        c.feeds.some((f) => f.language === 'DE'),
        c.nameEn,
      ).toBe(true);
      expect(
        c.feeds.some((f) => f.language === 'EN'),
        c.nameEn,
      ).toBe(true);
    }
  });

  it('lists no address twice, and every address is a valid absolute URL in normal form', () => {
    const seen = new Map<string, string>();
    for (const f of all) {
      const url = new URL(f.xmlUrl);
      expect(['https:', 'http:']).toContain(url.protocol);
      expect(url.hostname).toMatch(/^[a-z0-9.-]+\.[a-z]{2,}$/);
      expect(normalizeFeedUrl(f.xmlUrl), f.xmlUrl).toBe(f.xmlUrl);
      const key = f.xmlUrl.toLowerCase().replace(/^http:/, 'https:');
      expect(seen.get(key), `${f.title} repeats ${seen.get(key)}`).toBeUndefined();
      seen.set(key, f.title);
    }
  });

  it('uses https wherever the site serves it', () => {
    const plain = all.filter((f) => f.xmlUrl.startsWith('http:'));
    expect(plain.every((f) => HTTP_ONLY_HOSTS.has(new URL(f.xmlUrl).hostname))).toBe(true);
  });

  it('has a title for every feed, without stray whitespace, unique within its category', () => {
    for (const c of CATALOG) {
      const titles = c.feeds.map((f) => f.title);
      expect(titles.every((title) => title.length > 0 && title === title.trim())).toBe(true);
      expect(new Set(titles).size, c.nameEn).toBe(titles.length);
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`GET /api/catalog (${dialect})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ dialect });
    });
    afterAll(() => t.close());

    it('needs a signed-in user', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/catalog' })).statusCode).toBe(401);
    });

    it('answers the catalog, cacheable and revalidated by its ETag', async () => {
      const { access_token } = await t.signUp();
      const headers = t.bearer(access_token);
      const res = await t.app.inject({ method: 'GET', url: '/api/catalog', headers });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ categories: CatalogCategory[] }>();
      expect(body.categories).toEqual(JSON.parse(JSON.stringify(CATALOG)));
      expect(res.headers['cache-control']).toBe('private, max-age=86400');
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await t.app.inject({ method: 'GET', url: '/api/catalog', headers: { ...headers, 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });
  });
}

/** Every address answers a small feed: subscribing to catalog entries through POST /api/feeds needs no network. */
const anyFeed: Fetcher = {
  fetch: async (url) => ({
    status: 'ok',
    url,
    permanentUrl: null,
    body: Buffer.from(rss(`Feed at ${url}`, [item(1)])),
    contentType: 'application/rss+xml',
    etag: null,
    lastModified: null,
  }),
  close: async () => {},
};

const BBC = 'https://feeds.bbci.co.uk/news/rss.xml';
const TAGESSCHAU = 'https://www.tagesschau.de/index~rss2.xml';
const HEISE = 'https://www.heise.de/rss/heise-atom.xml';

for (const dialect of DIALECTS) {
  describe(`GET /api/catalog/subscribed (${dialect})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ dialect, engine: { fetcher: anyFeed } });
    });
    afterAll(() => t.close());

    async function subscribed(u: SignedInUser): Promise<string[]> {
      const res = await u.get('/api/catalog/subscribed');
      expect(res.statusCode, res.body).toBe(200);
      expect([...Value.Errors(CatalogSubscribedReply, res.json())]).toEqual([]);
      return res.json<CatalogSubscribedResponse>().subscribed;
    }
    const feedId = async (url: string) => (await t.database.db.selectFrom('feeds').select('id').where('url', '=', url).executeTakeFirstOrThrow()).id;

    it('needs a signed-in user', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/catalog/subscribed' });
      expect([res.statusCode, res.json().code]).toEqual([401, 'UNAUTHORIZED']);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('is empty for a user without feeds, and for one whose feeds are not in the catalog', async () => {
      const u = await signedInUser(t);
      expect(await subscribed(u)).toEqual([]);
      await subscribeTo(t, u.id, 'https://blog.example/feed.xml');
      expect(await subscribed(u)).toEqual([]);
    });

    it('marks what the user subscribes to, in catalog order, from subscribing until unsubscribing', async () => {
      const u = await signedInUser(t);
      // Typed as the catalog lists them, and as comparableUrl allows: scheme and host case, the default port, a fragment.
      expect((await u.post('/api/feeds', { url: TAGESSCHAU })).statusCode).toBe(201);
      expect(await subscribed(u)).toEqual([TAGESSCHAU]);
      expect((await u.post('/api/feeds', { url: ' HTTPS://Feeds.BBCI.co.uk:443/news/rss.xml#top ' })).statusCode).toBe(201);
      // The catalog's own address, in the catalog's order (BBC comes first), whatever order they were added in.
      expect(await subscribed(u)).toEqual([BBC, TAGESSCHAU]);
      // Subscribing refuses the same feed under either spelling: the marker and the duplicate check agree.
      expect((await u.post('/api/feeds', { url: BBC })).statusCode).toBe(409);

      // The path and the query keep their case (feed-url.ts): another address, not the catalog's entry.
      await subscribeTo(t, u.id, 'https://www.heise.de/RSS/heise-atom.xml');
      await subscribeTo(t, u.id, 'https://www.heise.de/rss/heise-atom.xml?utm=1');
      expect(await subscribed(u)).toEqual([BBC, TAGESSCHAU]);

      expect((await u.del(`/api/feeds/${await feedId(BBC)}`)).statusCode).toBe(204);
      expect(await subscribed(u)).toEqual([TAGESSCHAU]);
      expect((await u.del('/api/feeds/all')).statusCode).toBe(204);
      expect(await subscribed(u)).toEqual([]);
    });

    it("shows a user only their own subscriptions, never another user's", async () => {
      const owner = await signedInUser(t);
      const other = await signedInUser(t);
      expect((await owner.post('/api/feeds', { url: HEISE })).statusCode).toBe(201);
      expect((await other.post('/api/feeds', { url: TAGESSCHAU })).statusCode).toBe(201);
      expect(await subscribed(owner)).toEqual([HEISE]);
      expect(await subscribed(other)).toEqual([TAGESSCHAU]);
      // The feed row stays for its other subscribers; the one who left no longer sees it marked.
      expect((await other.post('/api/feeds', { url: HEISE })).statusCode).toBe(201);
      expect((await owner.del(`/api/feeds/${await feedId(HEISE)}`)).statusCode).toBe(204);
      expect(await subscribed(owner)).toEqual([]);
      expect(await subscribed(other)).toEqual([TAGESSCHAU, HEISE]);
      expect(await subscribed(await signedInUser(t))).toEqual([]);
    });

    it('is private, revalidated by its entity tag: the same list is a 304 without a body, a changed one a new tag', async () => {
      const u = await signedInUser(t);
      const first = await u.get('/api/catalog/subscribed');
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const ask = (tag: string) => t.app.inject({ method: 'GET', url: '/api/catalog/subscribed', headers: { ...u.headers, 'if-none-match': tag } });
      for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await ask(tag);
        expect([again.statusCode, again.body], tag).toEqual([304, '']);
        expect(again.headers.etag).toBe(etag);
        expect(again.headers['cache-control']).toBe('private, no-cache');
      }
      expect((await ask('"other"')).statusCode).toBe(200);

      expect((await u.post('/api/feeds', { url: HEISE })).statusCode).toBe(201);
      const changed = await ask(etag);
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toEqual({ subscribed: [HEISE] });
      expect(changed.headers.etag).not.toBe(etag);
    });
  });
}
