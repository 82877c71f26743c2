import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { Article, UnreadCounts } from '../../../common/api.js';
import { on, type ReadStatusChange } from '../../lib/events.js';
import { announce } from '../../lib/mutations.js';
import { feedSummariesKey, unreadCountsKey, type FeedSummary } from '../feeds/index.js';
import { clearUnreadCounts, markAllRead as markAllReadCall, setFavorite, setRead, shiftUnreadCounts, undoMarkRead, type ArticleView, type MarkAllScope } from './api.js';
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
  /**
   * Articles read by reading (opened or scrolled past) while read ones are hidden: they stay on screen until the
   * view reloads (docs/decisions.md "Reading flow"), but the server's unread list no longer has them.
   */
  readInPlace: RefObject<Set<number>>;
  /** Puts a saved state back (an undo), dropping answers to requests made since. */
  restore(snapshot: ListSnapshot): void;
  loadFirst(opts?: { keepList?: boolean }): Promise<void>;
  onErrorRef: RefObject<((message: unknown) => void) | undefined>;
}

/** The list as it was before a bulk mark, for its undo. */
export interface ListSnapshot {
  state: ArticleListState;
  removed: Map<number, Article>;
  readInPlace: Set<number>;
}

/** What a bulk mark did: how many articles it marked, and the undo when the server offers one. */
export interface BulkResult {
  marked: number;
  undo: (() => Promise<void>) | null;
}

/**
 * The loaded list's read and favourite marks (dashboard.md §4): applied at once, sent, rolled back on failure, and
 * announced (lib/mutations) so the counts and the other lists follow; read marks made elsewhere are applied here.
 * A mark by reading (`inPlace`) keeps the article where it is; an explicit mark follows §4 (it leaves the list when
 * read ones are hidden). Bulk marks return their undo (docs/decisions.md "Reading flow").
 */
export function useReadMarks({ source, setState, stateRef, viewRef, hidesRead, removed, readInPlace, restore, loadFirst, onErrorRef }: ReadMarksContext) {
  const client = useQueryClient();

  /** Applies a read change to the loaded list: flags, removal when read ones are hidden, return when unread. */
  const applyRead = useCallback(
    (matches: (a: Article) => boolean, isRead: boolean, ids?: number[], inPlace = false) => {
      setState((x) => {
        const hiding = hidesRead();
        let total = x.total;
        let articles = x.articles.map((a) => {
          if (!matches(a)) return a;
          if (hiding && a.is_read !== isRead) {
            if (isRead && inPlace) {
              readInPlace.current.add(a.id);
              total -= 1;
            } else if (!isRead && readInPlace.current.delete(a.id)) {
              total += 1;
            }
          }
          return a.is_read === isRead ? a : { ...a, is_read: isRead };
        });
        if (isRead && hiding && !inPlace) {
          const kept = articles.filter((a) => !matches(a));
          for (const a of articles) {
            if (!matches(a)) continue;
            removed.current.set(a.id, a);
            // One read by reading was counted out already.
            if (!readInPlace.current.delete(a.id)) total -= 1;
          }
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
    [hidesRead, readInPlace, removed, setState],
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

  /** Read or unread by hand (the button, `m`); `inPlace` for a mark by reading (opening, scrolling past). */
  const toggleRead = useCallback(
    async (article: Article, read: boolean = !article.is_read, inPlace = false) => {
      const current = stateRef.current.articles.find((a) => a.id === article.id) ?? article;
      if (current.is_read === read) return;
      const only = (a: Article) => a.id === article.id;
      applyRead(only, read, [article.id], inPlace);
      shiftUnreadCounts(client, new Map([[article.feed_id, read ? -1 : 1]]));
      try {
        await setRead(article.id, read);
        announce([{ readStatus: { ids: [article.id], is_read: read, source } }]);
      } catch (err) {
        applyRead(only, !read, [article.id], inPlace);
        shiftUnreadCounts(client, new Map([[article.feed_id, read ? 1 : -1]]));
        onErrorRef.current?.(err);
      } finally {
        announce(['counts-soon']);
      }
    },
    [applyRead, client, onErrorRef, source, stateRef],
  );

  /** Marked read by reading: it stays where it is (no jump under the reader). */
  const markReadInPlace = useCallback((article: Article) => toggleRead(article, true, true), [toggleRead]);

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

  /** The undo of one bulk mark: the list and the counts as they were, then the server's articles unread again. */
  const undoFor = useCallback(
    (token: string | null, snapshot: ListSnapshot, counts: UnreadCounts | undefined, ids: number[] | null) => {
      if (!token) return null;
      return async () => {
        restore(snapshot);
        if (counts) client.setQueryData<UnreadCounts>(unreadCountsKey, counts);
        try {
          await undoMarkRead(token);
          announce([{ readStatus: ids ? { ids, is_read: false, source } : { all: true, is_read: false, source } }]);
        } catch (err) {
          onErrorRef.current?.(err);
          void loadFirst({ keepList: true });
        } finally {
          announce(['counts']);
        }
      };
    },
    [client, loadFirst, onErrorRef, restore, source],
  );

  const snapshotNow = useCallback(
    (): ListSnapshot => ({ state: stateRef.current, removed: new Map(removed.current), readInPlace: new Set(readInPlace.current) }),
    [readInPlace, removed, stateRef],
  );

  /** Marks the given loaded articles read in one call (a search, the favourites, "mark above as read"). */
  const markIds = useCallback(
    async (targets: Article[]): Promise<BulkResult> => {
      const ids = targets.map((a) => a.id);
      if (!ids.length) return { marked: 0, undo: null };
      const snapshot = snapshotNow();
      const counts = client.getQueryData<UnreadCounts>(unreadCountsKey);
      const { marked, undoToken } = await markAllReadCall({ article_ids: ids });
      const deltas = new Map<number, number>();
      for (const a of targets) if (!a.is_read) deltas.set(a.feed_id, (deltas.get(a.feed_id) ?? 0) - 1);
      shiftUnreadCounts(client, deltas);
      const idSet = new Set(ids);
      applyRead((a) => idSet.has(a.id), true);
      announce([{ readStatus: { ids, is_read: true, source } }]);
      return { marked, undo: undoFor(undoToken, snapshot, counts, ids) };
    },
    [applyRead, client, snapshotNow, source, undoFor],
  );

  /**
   * §2 "mark all read" on the current view: a feed or a folder by its id, all feeds with an empty body, a reading
   * list by its id, a search (and the favourites) by the ids of the loaded articles.
   */
  const markAllRead = useCallback(async (): Promise<BulkResult> => {
    const v = viewRef.current;
    const loaded = stateRef.current.articles;
    const unread = loaded.filter((a) => !a.is_read);
    const snapshot = snapshotNow();
    const counts = client.getQueryData<UnreadCounts>(unreadCountsKey);
    let result: BulkResult = { marked: 0, undo: null };
    try {
      const bulk = async (scope: MarkAllScope, ids: number[] | null) => {
        const { marked, undoToken } = await markAllReadCall(scope);
        result = { marked, undo: undoFor(undoToken, snapshot, counts, ids) };
      };
      if (v.kind === 'feed') {
        await bulk({ feed_id: v.feedId }, null);
        clearUnreadCounts(client, v.feedId);
        applyRead((a) => a.feed_id === v.feedId, true);
        announce([{ readStatus: { feed_id: v.feedId, is_read: true, source } }]);
      } else if (v.kind === 'folder') {
        await bulk({ folder_id: v.folderId }, null);
        const inFolder = (client.getQueryData<FeedSummary[]>(feedSummariesKey) ?? []).filter((f) => f.folder_id === v.folderId);
        for (const f of inFolder) clearUnreadCounts(client, f.id);
        applyRead(() => true, true);
        announce([{ readStatus: { ids: loaded.map((a) => a.id), is_read: true, source } }, 'counts']);
      } else if (v.kind === 'all') {
        await bulk({}, null);
        clearUnreadCounts(client);
        applyRead(() => true, true);
        announce([{ readStatus: { all: true, is_read: true, source } }]);
      } else if (v.kind === 'reading-list') {
        // The whole list, not only the loaded pages (the server marks its visible unread members in one go).
        await bulk({ reading_list_id: v.listId }, null);
        const deltas = new Map<number, number>();
        for (const a of unread) deltas.set(a.feed_id, (deltas.get(a.feed_id) ?? 0) - 1);
        shiftUnreadCounts(client, deltas);
        const idSet = new Set(loaded.map((a) => a.id));
        applyRead((a) => idSet.has(a.id), true);
        announce([{ readStatus: { ids: [...idSet], is_read: true, source } }]);
        // Members beyond the loaded pages changed too: every count is asked for again.
        announce(['counts']);
      } else {
        result = await markIds(loaded);
      }
      // With read ones hidden everything left the screen; more pages may hold unread ones of this view.
      if (hidesRead() && v.kind !== 'search') void loadFirst({ keepList: true });
    } catch (err) {
      onErrorRef.current?.(err);
    } finally {
      announce(['counts-soon']);
    }
    return result;
  }, [applyRead, client, hidesRead, loadFirst, markIds, onErrorRef, snapshotNow, source, stateRef, undoFor, viewRef]);

  /** "Mark above as read": every loaded article above this one (an explicit mark, with its undo). */
  const markAbove = useCallback(
    async (article: Article): Promise<BulkResult> => {
      const loaded = stateRef.current.articles;
      const index = loaded.findIndex((a) => a.id === article.id);
      const above = loaded.slice(0, Math.max(0, index)).filter((a) => !a.is_read);
      try {
        return await markIds(above);
      } catch (err) {
        onErrorRef.current?.(err);
        return { marked: 0, undo: null };
      } finally {
        announce(['counts-soon']);
      }
    },
    [markIds, onErrorRef, stateRef],
  );

  return { toggleRead, markReadInPlace, toggleFavorite, markAllRead, markAbove };
}
