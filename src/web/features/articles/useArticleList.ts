import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Article } from '../../../common/api.js';
import { on, type MembershipChange } from '../../lib/events.js';
import { announce } from '../../lib/mutations.js';
import { fetchArticlePage, PER_PAGE, viewKey, type ArticleView } from './api.js';
import { before, insertSorted, type ArticleListState } from './articleListState.js';
import { useReadMarks, type ListSnapshot } from './useReadMarks.js';

/** §9: the visible list is polled every 30 s and new articles are added silently. */
export const POLL_MS = 30_000;
/** §9: a load error is shown only after it has persisted for 500 ms. */
export const ERROR_DELAY_MS = 500;
/** Events that ask for the list again arrive in bursts (feeds-updated + force-article-update): one reload. */
const RELOAD_COALESCE_MS = 50;

/** The loaded list of one view, with paging, polling and optimistic read/favourite changes (dashboard.md §4). */
export function useArticleList(view: ArticleView, showRead: boolean, options: { onError?(message: unknown): void; poll?: boolean } = {}) {
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
  /** Articles read by reading that stay on screen although the server's unread list has dropped them. */
  const readInPlace = useRef(new Set<number>());
  /** How many of the loaded articles the server's list still holds (paging and "more to load" count these). */
  const serverCount = useCallback((articles: Article[]) => articles.filter((a) => !readInPlace.current.has(a.id)).length, []);
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
      readInPlace.current.clear();
      setState((s) =>
        opts.keepList ? { ...s, error: null } : { articles: [], total: 0, activeFilters: [], status: 'loading', loadingMore: false, error: null, hasMore: false },
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
    const nextPage = Math.floor(serverCount(s.articles) / PER_PAGE) + 1;
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
          hasMore: page.current_page < page.pages && serverCount(articles) < page.total && fresh.length > 0,
        };
      });
    } catch (err) {
      if (gen !== generation.current) return;
      failLater(gen, err);
    }
  }, [failLater, serverCount]);

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
        return { ...x, articles, total: Math.max(page.total, serverCount(articles)), activeFilters: page.active_filters };
      });
    } catch {
      // A failed poll is not worth a message; the next one tries again.
    }
  }, [serverCount]);

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

  /** An undo puts the list back as it was: answers to requests made since are dropped. */
  const restore = useCallback((snapshot: ListSnapshot) => {
    generation.current++;
    clearTimeout(errorTimer.current);
    removed.current = new Map(snapshot.removed);
    readInPlace.current = new Set(snapshot.readInPlace);
    setState({ ...snapshot.state, loadingMore: false, error: null });
  }, []);

  const { toggleRead, markReadInPlace, toggleFavorite, markAllRead, markAbove } = useReadMarks({
    source,
    setState,
    stateRef,
    viewRef,
    hidesRead,
    removed,
    readInPlace,
    restore,
    loadFirst,
    onErrorRef,
  });

  const reload = useCallback(() => loadFirst({ keepList: true }), [loadFirst]);

  return useMemo(
    () => ({ ...state, loadMore, reload, poll, toggleRead, markReadInPlace, toggleFavorite, markAllRead, markAbove }),
    [state, loadMore, reload, poll, toggleRead, markReadInPlace, toggleFavorite, markAllRead, markAbove],
  );
}
