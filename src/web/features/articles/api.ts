import type { QueryClient } from '@tanstack/react-query';
import type { Article, ArticlePage, ArticleStateResponse, ExtractContentResponse, Feed, MarkReadResponse, UnreadCounts, User } from '../../../common/api.js';
import { DEFAULT_PER_PAGE } from '../../../common/limits.js';
import { api, ApiError } from '../../lib/api.js';
import { storage } from '../../lib/storage.js';
import { unreadCountsKey } from '../feeds/index.js';

/**
 * The article calls of dashboard.md §7 "Articles" and the optimistic unread-count bookkeeping that goes with them.
 * Lists are newest first and paged by 20 (§9).
 */
export const PER_PAGE = DEFAULT_PER_PAGE;

/**
 * Which list is on screen (§2 "Article list view": all, favorites, feed-{id}, folder-{id}, or a search). A folder is
 * one stream of its feeds' articles (docs/decisions.md "Reading flow").
 */
export type ArticleView =
  | { kind: 'all' }
  | { kind: 'favorites' }
  | { kind: 'feed'; feedId: number }
  | { kind: 'folder'; folderId: number }
  | { kind: 'search'; q: string; feedId?: number; folderId?: number }
  | { kind: 'reading-list'; listId: number };

/** The view key of §2; switching to another key starts again at page 1. */
export function viewKey(view: ArticleView): string {
  switch (view.kind) {
    case 'all':
    case 'favorites':
      return view.kind;
    case 'feed':
      return `feed-${view.feedId}`;
    case 'folder':
      return `folder-${view.folderId}`;
    case 'search':
      return `search-${view.folderId !== undefined ? `folder${view.folderId}` : (view.feedId ?? 'all')}-${view.q}`;
    case 'reading-list':
      return `reading-list-${view.listId}`;
  }
}

/** The request path of one page of a view. Favourites always include read articles, so they take no show_read. */
export function listPath(view: ArticleView, page: number, showRead: boolean): string {
  const params = new URLSearchParams();
  if (view.kind === 'search') params.set('q', view.q);
  params.set('page', String(page));
  params.set('per_page', String(PER_PAGE));
  // The reading-list call takes show_read as 1 or 0 (§7 "Reading lists").
  if (view.kind === 'reading-list') params.set('show_read', showRead ? '1' : '0');
  else if (view.kind !== 'favorites') params.set('show_read', String(showRead));
  if (view.kind === 'search' && view.feedId !== undefined) params.set('feed_id', String(view.feedId));
  if (view.kind === 'search' && view.folderId !== undefined) params.set('folder_id', String(view.folderId));
  const base = {
    all: '/api/articles',
    favorites: '/api/articles/favorites',
    feed: `/api/feeds/${view.kind === 'feed' ? view.feedId : 0}/articles`,
    folder: `/api/folders/${view.kind === 'folder' ? view.folderId : 0}/articles`,
    search: '/api/articles/search',
    'reading-list': `/api/reading-lists/${view.kind === 'reading-list' ? view.listId : 0}/articles`,
  }[view.kind];
  return `${base}?${params}`;
}

/** Thrown before any request when the browser holds no session token (§8 "no token: login required"). */
export class NoTokenError extends Error {
  constructor() {
    super('No session token.');
    this.name = 'NoTokenError';
  }
}

/**
 * First pages asked for before the list is on screen (the session start, public-area-and-api.md §4 "Session start":
 * the request goes out while the dashboard's code loads): request path → the answer on its way. The list takes its
 * page from here once; an entry is used only with the token it was asked with and for PRIMED_MS.
 */
const primed = new Map<string, { token: string; at: number; page: Promise<ArticlePage> }>();
const PRIMED_MS = 15_000;

/** Starts the request for the first page of `view` now; the list's first load then takes this answer. */
export function prefetchArticlePage(view: ArticleView, showRead: boolean): void {
  const token = storage.getToken();
  if (!token) return;
  const page = fetchArticlePage(view, 1, showRead);
  // A failure is the list's to report when it asks itself (takePrimed falls back to a fresh request).
  page.catch(() => {});
  primed.set(listPath(view, 1, showRead), { token, at: Date.now(), page });
}

function takePrimed(path: string): Promise<ArticlePage> | null {
  const entry = primed.get(path);
  if (!entry) return null;
  primed.delete(path);
  return entry.token === storage.getToken() && Date.now() - entry.at < PRIMED_MS ? entry.page : null;
}

export async function fetchArticlePage(view: ArticleView, page: number, showRead: boolean, signal?: AbortSignal): Promise<ArticlePage> {
  if (!storage.getToken()) throw new NoTokenError();
  if (page === 1) {
    const pending = takePrimed(listPath(view, page, showRead));
    if (pending) {
      try {
        return await pending;
      } catch {
        // asked again below, so the error is this request's own
      }
    }
  }
  const res = await api<ArticlePage>(listPath(view, page, showRead), { signal });
  return {
    articles: res?.articles ?? [],
    total: res?.total ?? 0,
    current_page: res?.current_page ?? page,
    pages: res?.pages ?? 1,
    per_page: res?.per_page ?? PER_PAGE,
    active_filters: res?.active_filters ?? [],
    has_active_filters: res?.has_active_filters ?? false,
  };
}

/**
 * The translation key of a failed list load (§8 "Article fetch"; search and favourites have their own texts).
 * The list shows it together with "try again later".
 */
export function fetchErrorKey(err: unknown, view: ArticleView): { key: string; values?: Record<string, unknown> } {
  if (view.kind === 'search') return { key: 'articles.errors.search' };
  if (view.kind === 'favorites') return { key: 'articles.errors.favorites' };
  if (err instanceof NoTokenError) return { key: 'articles.errors.loginRequired' };
  if (err instanceof ApiError) {
    if (err.isNetwork) return { key: 'articles.errors.noResponse' };
    if (err.status === 404) {
      if (view.kind === 'reading-list') return { key: 'readingLists.page.notFoundText' };
      return { key: view.kind === 'folder' ? 'articles.errors.folderNotFound' : 'articles.errors.feedNotFound' };
    }
    if (err.status === 401) return { key: 'articles.errors.sessionExpired' };
    if (err.status === 500) return { key: 'articles.errors.server' };
    return { key: 'articles.errors.status', values: { status: err.status } };
  }
  return { key: 'articles.errors.request' };
}

export function setRead(id: number, read: boolean): Promise<ArticleStateResponse> {
  return api<ArticleStateResponse>(`/api/articles/${id}/${read ? 'read' : 'unread'}`, { method: 'POST' });
}

export function setFavorite(id: number, favorite: boolean): Promise<ArticleStateResponse> {
  return api<ArticleStateResponse>(`/api/articles/${id}/${favorite ? 'favorite' : 'unfavorite'}`, { method: 'POST' });
}

export type MarkAllScope = { feed_id: number } | { folder_id: number } | { reading_list_id: number } | { article_ids: number[] } | Record<string, never>;

/**
 * POST /api/articles/read/all: one feed, one folder, one reading list, the given articles, or (empty body)
 * everything. The answer's undo_token names exactly the articles this call marked (null when none changed, and
 * null from a server that has no undo yet).
 */
export async function markAllRead(scope: MarkAllScope): Promise<{ marked: number; undoToken: string | null }> {
  const res = await api<MarkReadResponse & { undo_token?: string | null }>('/api/articles/read/all', { method: 'POST', body: scope });
  return { marked: res?.marked ?? 0, undoToken: res?.undo_token ?? null };
}

/** POST /api/articles/read/undo: the articles a bulk mark changed become unread again. */
export async function undoMarkRead(undoToken: string): Promise<number> {
  const res = await api<{ restored?: number }>('/api/articles/read/undo', { method: 'POST', body: { undo_token: undoToken } });
  return res?.restored ?? 0;
}

/** When an article counts as read by reading (docs/decisions.md "Reading flow"); the user's setting, 'open' by default. */
export type MarkReadOn = 'open' | 'scroll' | 'manual';

export function markReadOn(user: User | null | undefined): MarkReadOn {
  const value = (user as { mark_read_on?: unknown } | null | undefined)?.mark_read_on;
  return value === 'scroll' || value === 'manual' ? value : 'open';
}

/** The feed's "always load the original" setting (off by default). */
export function alwaysLoadsOriginal(feed: Partial<Pick<Feed, 'always_load_original'>> | undefined): boolean {
  return feed?.always_load_original ?? false;
}

export function extractContent(article: Pick<Article, 'id' | 'url'>): Promise<ExtractContentResponse> {
  return api<ExtractContentResponse>('/api/extract-article-content', { method: 'POST', body: { url: article.url, articleId: article.id } });
}

/**
 * Moves the cached unread counts by `delta` per feed at once (the sidebar badges follow without waiting for the
 * server); the unread-counts-updated event that follows fetches the true numbers.
 */
export function shiftUnreadCounts(client: QueryClient, deltas: Map<number, number>): void {
  client.setQueryData<UnreadCounts>(unreadCountsKey, (old) => {
    if (!old) return old;
    const counts = { ...old.counts };
    let total = old.total;
    for (const [feedId, delta] of deltas) {
      const key = String(feedId);
      if (!(key in counts)) continue; // muted or unknown feeds are not counted
      const next = Math.max(0, counts[key] + delta);
      total += next - counts[key];
      counts[key] = next;
    }
    return { counts, total: Math.max(0, total) };
  });
}

/** Sets the cached unread count of one feed (or, without a feed, of every feed) to zero after "mark all read". */
export function clearUnreadCounts(client: QueryClient, feedId?: number): void {
  client.setQueryData<UnreadCounts>(unreadCountsKey, (old) => {
    if (!old) return old;
    if (feedId === undefined) return { counts: Object.fromEntries(Object.keys(old.counts).map((k) => [k, 0])), total: 0 };
    const before = old.counts[String(feedId)] ?? 0;
    return { counts: { ...old.counts, [String(feedId)]: 0 }, total: Math.max(0, old.total - before) };
  });
}
