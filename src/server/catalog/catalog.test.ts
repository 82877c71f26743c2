import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogCategory } from '../../common/api.js';
import { normalizeFeedUrl } from '../feeds/feed-url.js';
import { DIALECTS } from '../test/dialects.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { CATALOG } from './catalog.js';

/** The catalog data (dashboard.md §3 "Catalog category", decisions.md) and GET /api/catalog. */

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
