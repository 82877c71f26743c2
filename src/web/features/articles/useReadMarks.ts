import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { Article } from '../../../common/api.js';
import { on, type ReadStatusChange } from '../../lib/events.js';
import { announce } from '../../lib/mutations.js';
import { clearUnreadCounts, markAllRead as markAllReadCall, setFavorite, setRead, shiftUnreadCounts, type ArticleView } from './api.js';
import { insertSorted, type ArticleListState } from './articleListState.js';

/** What useArticleList shares with its read marks: the list's state and the refs its callbacks read. */
export interface ReadMarksContext {
  /** The list's id in article-read-status-changed, so it skips its own announcements. */
  source: string;
  setState: Dispatch<SetStateAction<ArticleListState>>;
  stateRef: RefObject<ArticleListState>;
  viewRef: RefObject<ArticleView>;
  /** Whether read articles leave the list (unread only, and not the favourites). */
  hidesRead(): boolean;
  /** Articles taken out of the list by a read mark, so marking them unread can bring them back. */
  removed: RefObject<Map<number, Article>>;
  loadFirst(opts?: { keepList?: boolean }): Promise<void>;
  onErrorRef: RefObject<((message: unknown) => void) | undefined>;
}

/**
 * The loaded list's read and favourite marks (dashboard.md §4): applied at once, sent, rolled back on failure, and
 * announced (lib/mutations) so the counts and the other lists follow; read marks made elsewhere are applied here.
 */
export function useReadMarks({ source, setState, stateRef, viewRef, hidesRead, removed, loadFirst, onErrorRef }: ReadMarksContext) {
  const client = useQueryClient();

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
    [hidesRead, removed, setState],
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
    [applyRead, client, onErrorRef, source],
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
    [onErrorRef, setState, stateRef, viewRef],
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
  }, [applyRead, client, hidesRead, loadFirst, onErrorRef, source, stateRef, viewRef]);

  return { toggleRead, toggleFavorite, markAllRead };
}
