import type { CatalogCategory, CatalogFeed, CatalogLanguage } from '../../../../../common/api.js';

/**
 * The catalog's filtering rules (dashboard.md §5 "Catalog filtering"), kept apart from the components so they can be
 * tested on their own:
 * - a language matches when the choice is ALL, when the entry has no language, or when the two are equal;
 * - the search is a case-insensitive substring match on the title or the feed address;
 * - a category with no matching feed under the chosen language is disabled.
 */

/** §9 "Language filter options": ALL, DE, EN. */
export const CATALOG_LANGUAGE_OPTIONS = ['ALL', 'DE', 'EN'] as const;
export type CatalogLanguageFilter = (typeof CATALOG_LANGUAGE_OPTIONS)[number];

export function languageMatches(feed: Pick<CatalogFeed, 'language'>, filter: CatalogLanguageFilter | CatalogLanguage): boolean {
  return filter === 'ALL' || !feed.language || feed.language === filter;
}

export function queryMatches(feed: Pick<CatalogFeed, 'title' | 'xmlUrl'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return feed.title.toLowerCase().includes(q) || feed.xmlUrl.toLowerCase().includes(q);
}

/** The category's feeds under the language (and, when given, the search text). */
export function filterFeeds(feeds: readonly CatalogFeed[], language: CatalogLanguageFilter, query = ''): CatalogFeed[] {
  return feeds.filter((f) => languageMatches(f, language) && queryMatches(f, query));
}

/** Matching feeds per category id: the counts on the tiles; a category with 0 is disabled. */
export function categoryCounts(categories: readonly CatalogCategory[], language: CatalogLanguageFilter): Record<string, number> {
  return Object.fromEntries(categories.map((c) => [c.id, filterFeeds(c.feeds, language).length]));
}

export interface CatalogHit {
  feed: CatalogFeed;
  category: CatalogCategory;
}

/** The search across all categories (a feed listed in two categories shows once, under the first). */
export function searchCatalog(categories: readonly CatalogCategory[], language: CatalogLanguageFilter, query: string): CatalogHit[] {
  if (!query.trim()) return [];
  const seen = new Set<string>();
  const hits: CatalogHit[] = [];
  for (const category of categories) {
    for (const feed of filterFeeds(category.feeds, language, query)) {
      if (seen.has(feed.xmlUrl)) continue;
      seen.add(feed.xmlUrl);
      hits.push({ feed, category });
    }
  }
  return hits;
}
