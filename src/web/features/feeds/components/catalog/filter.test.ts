import { describe, expect, it } from 'vitest';
import type { CatalogCategory } from '../../../../../common/api.js';
import { categoryCounts, filterFeeds, languageMatches, queryMatches, searchCatalog } from './filter.js';

/** dashboard.md §5 "Catalog filtering", on a small catalog. */
const catalog: CatalogCategory[] = [
  {
    id: 'news',
    name: 'Internationale Nachrichten',
    nameEn: 'International News',
    feeds: [
      { title: 'BBC News – World', xmlUrl: 'https://feeds.bbci.co.uk/news/world/rss.xml', language: 'EN' },
      { title: 'tagesschau.de', xmlUrl: 'https://www.tagesschau.de/index~rss2.xml', language: 'DE' },
      { title: '연합뉴스', xmlUrl: 'https://www.yna.co.kr/rss/news.xml', language: 'KO' },
    ],
  },
  {
    id: 'science',
    name: 'Wissenschaft',
    nameEn: 'Science',
    feeds: [
      { title: 'ESA – Space Science', xmlUrl: 'https://www.esa.int/rssfeed/Our_Activities/Space_Science', language: null },
      { title: 'Nature', xmlUrl: 'https://www.nature.com/nature.rss', language: 'EN' },
    ],
  },
  { id: 'sport', name: 'Sport', nameEn: 'Sport', feeds: [{ title: 'MARCA', xmlUrl: 'https://e00-marca.uecdn.es/rss/portada.xml', language: 'ES' }] },
];

describe('catalog filtering (dashboard.md §5)', () => {
  it('a language matches when ALL, when the entry has none, or when equal', () => {
    expect(languageMatches({ language: 'KO' }, 'ALL')).toBe(true);
    expect(languageMatches({ language: null }, 'DE')).toBe(true);
    expect(languageMatches({ language: 'DE' }, 'DE')).toBe(true);
    expect(languageMatches({ language: 'EN' }, 'DE')).toBe(false);
    expect(languageMatches({ language: 'AF' }, 'EN')).toBe(false);
  });

  it('search is a case-insensitive substring of the title or the feed address', () => {
    const bbc = catalog[0].feeds[0];
    expect(queryMatches(bbc, 'bbc news')).toBe(true);
    expect(queryMatches(bbc, 'WORLD')).toBe(true);
    expect(queryMatches(bbc, 'bbci.co.uk')).toBe(true);
    expect(queryMatches(bbc, '  ')).toBe(true);
    expect(queryMatches(bbc, 'tagesschau')).toBe(false);
  });

  it('counts per category follow the language; a category without a match counts 0 (disabled)', () => {
    expect(categoryCounts(catalog, 'ALL')).toEqual({ news: 3, science: 2, sport: 1 });
    // ESA has no language: it counts under every language.
    expect(categoryCounts(catalog, 'DE')).toEqual({ news: 1, science: 1, sport: 0 });
    expect(categoryCounts(catalog, 'EN')).toEqual({ news: 1, science: 2, sport: 0 });
    expect(filterFeeds(catalog[1].feeds, 'DE').map((f) => f.title)).toEqual(['ESA – Space Science']);
  });

  it('searches across all categories under the language, each hit with its category', () => {
    expect(searchCatalog(catalog, 'ALL', 'ScIeNcE').map((h) => [h.category.id, h.feed.title])).toEqual([['science', 'ESA – Space Science']]);
    expect(searchCatalog(catalog, 'ALL', 'UECDN.es').map((h) => h.feed.title)).toEqual(['MARCA']);
    expect(searchCatalog(catalog, 'EN', 'rss').map((h) => h.feed.title)).toEqual(['BBC News – World', 'ESA – Space Science', 'Nature']);
    expect(searchCatalog(catalog, 'DE', 'marca')).toEqual([]);
    expect(searchCatalog(catalog, 'ALL', '   ')).toEqual([]);
  });
});
