import type { ActiveFilter, Article } from '../../../common/api.js';

/** The state of a loaded article list and its order. */

export type ListStatus = 'loading' | 'ready' | 'error';

export interface ArticleListState {
  articles: Article[];
  total: number;
  activeFilters: ActiveFilter[];
  status: ListStatus;
  loadingMore: boolean;
  /** A failed load (first page or next page), once it persisted for 500 ms; null otherwise. */
  error: unknown;
  hasMore: boolean;
}

/** Newest first: published_at descending, then id descending (the server's order). */
export function before(a: Article, b: Article): boolean {
  if (a.published_at !== b.published_at) return a.published_at > b.published_at;
  return a.id > b.id;
}

export function insertSorted(list: Article[], article: Article): Article[] {
  const i = list.findIndex((x) => before(article, x));
  return i === -1 ? [...list, article] : [...list.slice(0, i), article, ...list.slice(i)];
}
