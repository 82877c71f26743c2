import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ActiveFilter, Article } from '../../../common/api.js';
import { on, type MembershipChange, type ReadStatusChange } from '../../lib/events.js';
import { announce } from '../../lib/mutations.js';
import {
  clearUnreadCounts,
  fetchArticlePage,
  markAllRead as markAllReadCall,
  PER_PAGE,
  setFavorite,
  setRead,
  shiftUnreadCounts,
  viewKey,
  type ArticleView,
} from './api.js';

/** §9: the visible list is polled every 30 s and new articles are added silently. */
export const POLL_MS = 30_000;
/** §9: a load error is shown only after it has persisted for 500 ms. */
export const ERROR_DELAY_MS = 500;
/** Events that ask for the list again arrive in bursts (feeds-updated + force-article-update): one reload. */
const RELOAD_COALESCE_MS = 50;

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
function before(a: Article, b: Article): boolean {
  if (a.published_at !== b.published_at) return a.published_at > b.published_at;
  return a.id > b.id;
}

function insertSorted(list: Article[], article: Article): Article[] {
  const i = list.findIndex((x) => before(article, x));
  return i === -1 ? [...list, article] : [...list.slice(0, i), article, ...list.slice(i)];
}

/** The loaded list of one view, with paging, polling and optimistic read/favourite changes (dashboard.md §4). */
export function useArticleList(view: ArticleView, showRead: boolean, options: { onError?(message: unknown): void; poll?: boolean } = {}) {
  const client = useQueryClient();
  const source = useId();
  const key = viewKey(view);
  const [state, setState] = useState<ArticleListState>({
    articles: [],
    total: 0,
    activeFilters: [],
    status: 'loading',
    loadingMore: false,
    error: null,
    hasMore: false,
  });
  const stateRef = useRef(state);
  stateRef.current = state;
  const viewRef = useRef(view);
  viewRef.current = view;
  const showReadRef = useRef(showRead);
  showReadRef.current = showRead;
  /** Bumped by every reset; answers to older requests are dropped. */
  const generation = useRef(0);
  const errorTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Articles taken out of the list by a read mark (read hidden), so marking them unread can bring them back. */
  const removed = useRef(new Map<number, Article>());
  const onErrorRef = useRef(options.onError);
  onErrorRef.current = options.onError;

  /** Read articles leave the list when only unread ones are shown; favourites always show read ones (§2). */
  const hidesRead = useCallback(() => viewRef.current.kind !== 'favorites' && !showReadRef.current, []);

  const failLater = useCallback((gen: number, err: unknown) => {
    clearTimeout(errorTimer.current);
    errorTimer.current = setTimeout(() => {
      if (gen !== generation.current) return;
      setState((s) => ({ ...s, error: err, status: s.articles.length ? 'ready' : 'error', loadingMore: false }));
    }, ERROR_DELAY_MS);
  }, []);

  const loadFirst = useCallback(
    async (opts: { keepList?: boolean } = {}) => {
      const gen = ++generation.current;
      clearTimeout(errorTimer.current);
      removed.current.clear();
      setState((s) =>
        opts.keepList
          ? { ...s, error: null }
          : { articles: [], total: 0, activeFilters: [], status: 'loading', loadingMore: false, error: null, hasMore: false },
      );
      try {
        const page = await fetchArticlePage(viewRef.current, 1, showReadRef.current);
        if (gen !== generation.current) return;
        clearTimeout(errorTimer.current);
        setState({
          articles: page.articles,
          total: page.total,
          activeFilters: page.active_filters,
          status: 'ready',
          loadingMore: false,
          error: null,
          hasMore: page.current_page < page.pages && page.articles.length < page.total,
        });
      } catch (err) {
        if (gen !== generation.current || (err as Error)?.name === 'AbortError') return;
        // The skeletons stay until the error has persisted (§4 "Infinite scroll").
        failLater(gen, err);
      }
    },
    [failLater],
  );

  /**
   * The next page. Its number follows from how many articles are loaded, not from a counter: read marks take
   * articles out of the server's list and the poll adds new ones, so a counter would skip or repeat articles.
   * Articles already on screen are dropped from the answer.
   */
  const loadMore = useCallback(async () => {
    const s = stateRef.current;
    if (s.loadingMore || !s.hasMore || s.status !== 'ready') return;
    const gen = generation.current;
    const nextPage = Math.floor(s.articles.length / PER_PAGE) + 1;
    setState((x) => ({ ...x, loadingMore: true, error: null }));
    try {
      const page = await fetchArticlePage(viewRef.current, nextPage, showReadRef.current);
      if (gen !== generation.current) return;
      clearTimeout(errorTimer.current);
      setState((x) => {
        const ids = new Set(x.articles.map((a) => a.id));
        const fresh = page.articles.filter((a) => !ids.has(a.id));
        const articles = [...x.articles, ...fresh];
        return {
          ...x,
          articles,
          total: page.total,
          activeFilters: page.active_filters,
          loadingMore: false,
          error: null,
          hasMore: page.current_page < page.pages && articles.length < page.total && fresh.length > 0,
        };
      });
    } catch (err) {
      if (gen !== generation.current) return;
      failLater(gen, err);
    }
  }, [failLater]);

  /** §4 "Background poll": page 1 again; articles not on screen yet join at their place, silently. */
  const poll = useCallback(async () => {
    const s = stateRef.current;
    if (s.status !== 'ready') return;
    const gen = generation.current;
    try {
      const page = await fetchArticlePage(viewRef.current, 1, showReadRef.current);
      if (gen !== generation.current) return;
      // New articles arrived since the list was loaded: the sidebar's unread badges are as old as that, so they are
      // fetched again too (otherwise they lag behind the list until their own staleness runs out).
      const known = new Set(stateRef.current.articles.map((a) => a.id));
      if (page.total !== stateRef.current.total || page.articles.some((a) => !known.has(a.id) && !removed.current.has(a.id))) {
        announce(['counts-soon']);
      }
      setState((x) => {
        const ids = new Set(x.articles.map((a) => a.id));
        const last = x.articles[x.articles.length - 1];
        let articles = x.articles;
        for (const a of page.articles) {
          if (ids.has(a.id) || removed.current.has(a.id)) continue;
          // Beyond the loaded part it arrives with its page anyway.
          if (last && x.hasMore && !before(a, last)) continue;
          articles = insertSorted(articles, a);
        }
        if (articles === x.articles && page.total === x.total) return x;
        return { ...x, articles, total: Math.max(page.total, articles.length), activeFilters: page.active_filters };
      });
    } catch {
      // A failed poll is not worth a message; the next one tries again.
    }
  }, []);

  // A new view (or show_read) starts again at page 1.
  useEffect(() => {
    void loadFirst();
  }, [key, showRead, loadFirst]);

  useEffect(() => () => clearTimeout(errorTimer.current), []);

  useEffect(() => {
    if (options.poll === false) return;
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => clearInterval(timer);
  }, [poll, options.poll, key]);

  // Other parts of the app changed feeds, filters or articles (§7): fetch the list again.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reload = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void loadFirst({ keepList: true }), RELOAD_COALESCE_MS);
    };
    const offs = [on('force-article-update', reload), on('filters-updated', reload), on('feeds-updated', reload)];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [loadFirst]);

  // Reading-list membership changed (§4): a card shows its new "in a list" flag, and the list in view (a reading
  // list whose members changed, or any list after rules changed) is fetched again.
  useEffect(
    () =>
      on<MembershipChange | undefined>('reading-list-updated', (change) => {
        if (change?.article_id !== undefined && change.in_reading_list !== undefined) {
          setState((x) => ({
            ...x,
            articles: x.articles.map((a) => (a.id === change.article_id ? { ...a, in_reading_list: change.in_reading_list! } : a)),
          }));
        }
        const v = viewRef.current;
        if (v.kind === 'reading-list' && (change?.list_id === undefined || change.list_id === v.listId)) void loadFirst({ keepList: true });
      }),
    [loadFirst],
  );

  /** Applies a read change to the loaded list: flags, removal when read ones are hidden, return when unread. */
  const applyRead = useCallback(
    (matches: (a: Article) => boolean, isRead: boolean, ids?: number[]) => {
      setState((x) => {
        let articles = x.articles.map((a) => (matches(a) ? { ...a, is_read: isRead } : a));
        let total = x.total;
        if (isRead && hidesRead()) {
          const kept = articles.filter((a) => !matches(a));
          for (const a of articles) if (matches(a)) removed.current.set(a.id, a);
          total -= articles.length - kept.length;
          articles = kept;
        } else if (!isRead && ids) {
          for (const id of ids) {
            const back = removed.current.get(id);
            if (!back || articles.some((a) => a.id === id)) continue;
            removed.current.delete(id);
            articles = insertSorted(articles, { ...back, is_read: false });
            total += 1;
          }
        }
        return { ...x, articles, total: Math.max(0, total) };
      });
    },
    [hidesRead],
  );

  // Read marks made elsewhere (another list, the reading list, a shortcut in another tab of the app).
  useEffect(
    () =>
      on<ReadStatusChange>('article-read-status-changed', (change) => {
        if (!change || change.source === source) return;
        const ids = change.ids ? new Set(change.ids) : null;
        const matches = (a: Article) => (ids ? ids.has(a.id) : change.all || a.feed_id === change.feed_id);
        applyRead(matches, change.is_read, change.ids);
      }),
    [applyRead, source],
  );

  const toggleRead = useCallback(
    async (article: Article, read: boolean = !article.is_read) => {
      if (article.is_read === read) return;
      const only = (a: Article) => a.id === article.id;
      applyRead(only, read, [article.id]);
      shiftUnreadCounts(client, new Map([[article.feed_id, read ? -1 : 1]]));
      try {
        await setRead(article.id, read);
        announce([{ readStatus: { ids: [article.id], is_read: read, source } }]);
      } catch (err) {
        applyRead(only, !read, [article.id]);
        shiftUnreadCounts(client, new Map([[article.feed_id, read ? 1 : -1]]));
        onErrorRef.current?.(err);
      } finally {
        announce(['counts-soon']);
      }
    },
    [applyRead, client, source],
  );

  const toggleFavorite = useCallback(
    async (article: Article) => {
      const favorite = !article.is_favorite;
      const removeFromFavorites = !favorite && viewRef.current.kind === 'favorites';
      const snapshot = stateRef.current;
      setState((x) =>
        removeFromFavorites
          ? { ...x, articles: x.articles.filter((a) => a.id !== article.id), total: Math.max(0, x.total - 1) }
          : { ...x, articles: x.articles.map((a) => (a.id === article.id ? { ...a, is_favorite: favorite } : a)) },
      );
      try {
        await setFavorite(article.id, favorite);
      } catch (err) {
        setState((x) =>
          removeFromFavorites
            ? { ...x, articles: insertSorted(x.articles, article), total: snapshot.total }
            : { ...x, articles: x.articles.map((a) => (a.id === article.id ? { ...a, is_favorite: !favorite } : a)) },
        );
        onErrorRef.current?.(err);
      }
    },
    [],
  );

  /**
   * §2 "mark all read" on the current view: a feed by its id, all feeds with an empty body, a search (and the
   * favourites) by the ids of the loaded articles.
   */
  const markAllRead = useCallback(async () => {
    const v = viewRef.current;
    const loaded = stateRef.current.articles;
    const unread = loaded.filter((a) => !a.is_read);
    try {
      if (v.kind === 'feed') {
        await markAllReadCall({ feed_id: v.feedId });
        clearUnreadCounts(client, v.feedId);
        applyRead((a) => a.feed_id === v.feedId, true);
        announce([{ readStatus: { feed_id: v.feedId, is_read: true, source } }]);
      } else if (v.kind === 'all') {
        await markAllReadCall({});
        clearUnreadCounts(client);
        applyRead(() => true, true);
        announce([{ readStatus: { all: true, is_read: true, source } }]);
      } else if (v.kind === 'reading-list') {
        // The whole list, not only the loaded pages (the server marks its visible unread members in one go).
        await markAllReadCall({ reading_list_id: v.listId });
        const deltas = new Map<number, number>();
        for (const a of unread) deltas.set(a.feed_id, (deltas.get(a.feed_id) ?? 0) - 1);
        shiftUnreadCounts(client, deltas);
        const idSet = new Set(loaded.map((a) => a.id));
        applyRead((a) => idSet.has(a.id), true);
        announce([{ readStatus: { ids: [...idSet], is_read: true, source } }]);
        // Members beyond the loaded pages changed too: every count is asked for again.
        announce(['counts']);
      } else {
        const ids = loaded.map((a) => a.id);
        if (!ids.length) return;
        await markAllReadCall({ article_ids: ids });
        const deltas = new Map<number, number>();
        for (const a of unread) deltas.set(a.feed_id, (deltas.get(a.feed_id) ?? 0) - 1);
        shiftUnreadCounts(client, deltas);
        const idSet = new Set(ids);
        applyRead((a) => idSet.has(a.id), true);
        announce([{ readStatus: { ids, is_read: true, source } }]);
      }
      // With read ones hidden everything left the screen; more pages may hold unread ones of this view.
      if (hidesRead() && v.kind !== 'search') void loadFirst({ keepList: true });
    } catch (err) {
      onErrorRef.current?.(err);
    } finally {
      announce(['counts-soon']);
    }
  }, [applyRead, client, hidesRead, loadFirst, source]);

  const reload = useCallback(() => loadFirst({ keepList: true }), [loadFirst]);

  return useMemo(
    () => ({ ...state, loadMore, reload, poll, toggleRead, toggleFavorite, markAllRead }),
    [state, loadMore, reload, poll, toggleRead, toggleFavorite, markAllRead],
  );
}
