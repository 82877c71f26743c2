import type { QueryClient } from '@tanstack/react-query';
import { prefetchArticlePage, type ArticleView } from '../articles/index.js';
import { feedSummariesKey, fetchUnreadCounts, listFeedSummaries, UNREAD_COUNTS_STALE_MS, unreadCountsKey } from '../feeds/index.js';
import { foldersKey, listFolders } from '../folders/index.js';
import { fetchReadingListUnread, listReadingLists, readingListsKey, readingListUnreadKey } from '../reading-lists/index.js';

/**
 * The dashboard's first requests, started as soon as its code has loaded for a stored session, in parallel with
 * the confirmation by /auth/me (public-area-and-api.md §4 "Session start"): the sidebar's feed summaries, folders,
 * reading lists and counts under the query keys its hooks read, and the first article page of the address being opened.
 * The hooks then find their data in the cache (or on its way) instead of asking once they have mounted.
 */
export function prefetchDashboard(client: QueryClient, location: { pathname: string; search: string }): void {
  void client.prefetchQuery({ queryKey: feedSummariesKey, queryFn: listFeedSummaries });
  void client.prefetchQuery({ queryKey: foldersKey, queryFn: listFolders });
  void client.prefetchQuery({ queryKey: readingListsKey, queryFn: listReadingLists });
  void client.prefetchQuery({ queryKey: unreadCountsKey, queryFn: () => fetchUnreadCounts(client), staleTime: UNREAD_COUNTS_STALE_MS });
  void client.prefetchQuery({ queryKey: readingListUnreadKey, queryFn: fetchReadingListUnread, staleTime: UNREAD_COUNTS_STALE_MS });
  const first = firstView(location.pathname, new URLSearchParams(location.search));
  if (first) prefetchArticlePage(first.view, first.showRead);
}

/**
 * The article view an address opens (as ArticlesPage and ReadingListPage read it), or null when it opens none
 * (settings, feed management) or one not worth guessing (a search). Lists start with read articles hidden, a
 * reading list with them shown (see the articles feature's readingState).
 */
export function firstView(pathname: string, params: URLSearchParams): { view: ArticleView; showRead: boolean } | null {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/dashboard') {
    if (params.get('q')) return null;
    const id = /^[1-9]\d{0,15}$/;
    const feed = params.get('feed');
    const folder = params.get('folder');
    if (feed !== null) return id.test(feed) ? { view: { kind: 'feed', feedId: Number(feed) }, showRead: false } : null;
    if (folder !== null) return id.test(folder) ? { view: { kind: 'folder', folderId: Number(folder) }, showRead: false } : null;
    return { view: { kind: 'all' }, showRead: false };
  }
  if (path === '/dashboard/favorites') return { view: { kind: 'favorites' }, showRead: false };
  const list = /^\/dashboard\/reading-list\/([1-9]\d{0,15})$/.exec(path);
  if (list) return { view: { kind: 'reading-list', listId: Number(list[1]) }, showRead: true };
  return null;
}
