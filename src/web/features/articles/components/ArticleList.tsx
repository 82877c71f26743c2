import { CheckCircle2, Inbox, Loader2, RotateCw, SearchX, Star } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Article } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { toast } from '../../../components/ui/Toast.js';
import { ApiError } from '../../../lib/api.js';
import { useAuth } from '../../../lib/auth.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { useFeedSummaries, useUnreadCounts } from '../../feeds/index.js';
import { buildLayout, useFolders } from '../../folders/index.js';
import { fetchErrorKey, markReadOn, type ArticleView } from '../api.js';
import { adjacentUnreadFeed, sidebarFeedOrder, type Position } from '../feedOrder.js';
import { useReadingState } from '../readingState.js';
import { useArticleList } from '../useArticleList.js';
import { useArticleShortcuts } from '../useArticleShortcuts.js';
import { useWindowedList } from '../useWindowedList.js';
import type { BulkResult } from '../useReadMarks.js';
import { MarkAllConfirm } from './MarkAllConfirm.js';
import { ArticleCard } from './ArticleCard.js';
import { ArticleCardSkeleton } from '../../../components/ui/Skeleton.js';
import { EmptyState } from './EmptyState.js';
import { ListHeader } from './ListHeader.js';
import { ShortcutsDialog } from './ShortcutsDialog.js';
import { AddToReadingListModal } from '../../reading-lists/index.js';

/** §9: the next page loads when the end of the list comes within 300 px of the viewport. */
export const SCROLL_ROOT_MARGIN = '300px';
/** §4: a lazy load shows five placeholder articles. */
export const PLACEHOLDERS = 5;
/** How long a failed read/favourite change stays on screen. */
const ACTION_ERROR_MS = 5000;
/** How long a bulk mark's "Undo" stays offered (the server keeps the undo for at least 10 minutes). */
export const UNDO_MS = 8000;
/**
 * In "scrolled past" mode a card counts as read when its bottom passes this far below the window's top: the
 * sticky top bar and list header cover that band, so a card under them is out of sight.
 */
const SCROLLED_PAST_MARGIN_PX = 112;
/** Below the sm breakpoint the list header's "mark all read" is an icon only, and it asks first. */
const PHONE_QUERY = '(max-width: 639.98px)';

export interface ArticleListProps {
  view: ArticleView;
  /** Opens the filters dialog of the feed in view (single-feed view). */
  onManageFilters?(): void;
  /** Opens the mute dialog of the feed in view (single-feed view). */
  onMute?(): void;
  /** Shown above the sticky header (a reading list's description and actions). */
  intro?: ReactNode;
  /** Replaces the built-in empty state (a reading list knows whether it is empty or all read). */
  emptyState?: ReactNode;
  /** The view's feeds have not been fetched yet: the empty list says so instead of "All read!". */
  fetching?: boolean;
  /** An unread badge in the header (a folder stream). */
  unread?: number;
}

/**
 * The article list of one view (dashboard.md §2 "Article list view", §4, §8 "Article fetch"): sticky header,
 * cards, infinite scroll with placeholders, background poll, empty states and keyboard shortcuts.
 */
export function ArticleList({ view, onManageFilters, onMute, intro, emptyState, fetching = false, unread }: ArticleListProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const readOn = markReadOn(user);
  const { showRead, toggleShowRead, focusSearch } = useReadingState();
  const navigate = useNavigate();
  const feeds = useFeedSummaries();
  const folders = useFolders();
  const counts = useUnreadCounts();
  const [actionError, setActionError] = useTimedMessage(ACTION_ERROR_MS);
  const list = useArticleList(view, showRead, {
    onError: (err) => setActionError(err instanceof ApiError && err.code === 'FEED_MUTED' ? 'articles.errors.feedMuted' : 'articles.errors.action'),
  });
  // The callbacks on their own: the effect and callback below depend on them, not on every change of the list.
  const { articles, loadMore, markReadInPlace, markAbove } = list;
  const articlesRef = useRef(articles);
  articlesRef.current = articles;
  const [extended, setExtended] = useState<ReadonlySet<number>>(() => new Set());
  const extendedRef = useRef(extended);
  extendedRef.current = extended;
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [activeId, setActiveId] = useState<number | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [marking, setMarking] = useState(false);
  /** The article whose "add to reading list" modal is open (§2 "Modals"). */
  const [listsFor, setListsFor] = useState<Article | null>(null);
  const cardRefs = useRef(new Map<number, HTMLElement>());
  const lastActiveIndex = useRef(0);
  const sentinel = useRef<HTMLDivElement>(null);

  // A new view starts without a selection and in compact mode.
  const key = JSON.stringify(view);
  useEffect(() => {
    setActiveId(null);
    setExtended(new Set());
    lastActiveIndex.current = 0;
  }, [key]);

  // When the selected article leaves the list (read while read ones are hidden), the one after it takes its place.
  const activeIndex = activeId === null ? -1 : articles.findIndex((a) => a.id === activeId);
  useEffect(() => {
    if (activeId === null) return;
    if (activeIndex >= 0) {
      lastActiveIndex.current = activeIndex;
      return;
    }
    const next = articles[Math.min(lastActiveIndex.current, articles.length - 1)];
    setActiveId(next ? next.id : null);
  }, [activeId, activeIndex, articles]);

  // Infinite scroll: observed again after every change, so a sentinel that is still in view loads the next page.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !list.hasMore || list.loadingMore || list.error || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), {
      rootMargin: SCROLL_ROOT_MARGIN,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [list.hasMore, list.loadingMore, list.error, loadMore, articles.length]);

  // New articles from the poll join above (and removed ones leave): the first card in view stays where it is
  // (no jump). The anchor is taken after every scroll and after every change of the list, so it is always fresh.
  const listRef = useRef<HTMLDivElement>(null);
  const windowing = useWindowedList(articles, listRef, cardRefs, activeId);
  const anchor = useRef<{ id: string; top: number } | null>(null);
  const captureAnchor = useCallback(() => {
    anchor.current = null;
    if (window.scrollY <= 0) return;
    for (const el of Array.from(listRef.current?.querySelectorAll<HTMLElement>('[data-article-id]') ?? [])) {
      const rect = el.getBoundingClientRect();
      if (rect.bottom > 120) {
        anchor.current = { id: el.dataset.articleId!, top: rect.top };
        return;
      }
    }
  }, []);
  useLayoutEffect(() => {
    const a = anchor.current;
    const el = a && listRef.current?.querySelector<HTMLElement>(`[data-article-id="${a.id}"]`);
    if (a && el) {
      const delta = el.getBoundingClientRect().top - a.top;
      if (Math.abs(delta) >= 1) window.scrollBy(0, delta);
    }
    captureAnchor();
  }, [articles, captureAnchor]);
  useEffect(() => {
    window.addEventListener('scroll', captureAnchor, { passive: true });
    return () => window.removeEventListener('scroll', captureAnchor);
  }, [captureAnchor]);

  /**
   * Opening an article (expanding it, `v`, its title link, `o`) reads it when the user's setting says "on open"
   * (the default); it stays where it is in the list (docs/decisions.md "Reading flow").
   */
  const opened = useCallback((article: Article) => void (readOn === 'open' && markReadInPlace(article)), [markReadInPlace, readOn]);

  const toggleExtended = useCallback(
    (article: Article) => {
      const opening = !extendedRef.current.has(article.id);
      setExtended((s) => {
        const next = new Set(s);
        if (opening) next.add(article.id);
        else next.delete(article.id);
        return next;
      });
      if (opening) opened(article);
    },
    [opened],
  );

  // "Scrolled past" mode: a card whose bottom leaves the top of the window (under the sticky bars) is read, once it
  // has been seen in the window; it stays in the list.
  const seen = useRef(new Set<number>());
  useEffect(() => {
    if (readOn !== 'scroll' || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = Number((entry.target as HTMLElement).dataset.articleId);
          if (entry.isIntersecting) {
            seen.current.add(id);
            continue;
          }
          const top = entry.rootBounds?.top ?? SCROLLED_PAST_MARGIN_PX;
          if (!seen.current.has(id) || entry.boundingClientRect.bottom > top + 1) continue;
          seen.current.delete(id);
          const article = articlesRef.current.find((a) => a.id === id);
          if (article && !article.is_read) void markReadInPlace(article);
        }
      },
      { rootMargin: `-${SCROLLED_PAST_MARGIN_PX}px 0px 0px 0px` },
    );
    for (const el of cardRefs.current.values()) observer.observe(el);
    return () => observer.disconnect();
    // Re-observed when the window of rendered cards moves (useWindowedList), so newly rendered cards are watched too.
  }, [readOn, articles, markReadInPlace, windowing.isRendered]);
  useEffect(() => seen.current.clear(), [key]);

  /** A bulk mark's toast, with its "Undo" while the server offers one. */
  const offerUndo = useCallback(
    (result: BulkResult) => {
      if (result.marked <= 0 || !result.undo) return;
      const undo = result.undo;
      toast(t('articles.undo.marked', { count: result.marked }), 'success', {
        action: { label: t('articles.undo.action'), run: () => void undo() },
        durationMs: UNDO_MS,
      });
    },
    [t],
  );

  const markAboveWithUndo = useCallback(async (article: Article) => offerUndo(await markAbove(article)), [markAbove, offerUndo]);

  /** `n` / `p`: the next or previous feed with unread articles, in the sidebar's order. */
  const goToFeed = (dir: 1 | -1) => {
    if (!feeds.data || !counts.data) return;
    const order = sidebarFeedOrder(buildLayout(feeds.data, folders.data ?? []));
    const position: Position =
      view.kind === 'feed'
        ? { feedId: view.feedId }
        : view.kind === 'folder'
          ? { folderFeeds: feeds.data.filter((f) => f.folder_id === view.folderId).map((f) => f.id) }
          : null;
    const id = adjacentUnreadFeed(order, counts.data.counts, position, dir);
    if (id !== null) void navigate(`/dashboard?feed=${id}`);
  };
  const activate = useCallback((article: Article) => setActiveId(article.id), []);
  const openReadingLists = useCallback((article: Article) => setListsFor(article), []);

  const select = (index: number) => {
    const article = articles[index];
    if (!article) return;
    setActiveId(article.id);
    const el = cardRefs.current.get(article.id);
    if (!el) return;
    el.focus({ preventScroll: true });
    const rect = el.getBoundingClientRect();
    if (rect.top < 120 || rect.bottom > window.innerHeight) el.scrollIntoView?.({ block: 'start' });
  };
  const active = activeIndex >= 0 ? articles[activeIndex] : undefined;

  useArticleShortcuts({
    next: () => {
      select(activeIndex + 1);
      if (activeIndex + 1 >= articles.length - 2 && list.hasMore) void list.loadMore();
    },
    previous: () => select(Math.max(0, activeIndex - 1)),
    toggleRead: () => active && void list.toggleRead(active),
    favorite: () => active && void list.toggleFavorite(active),
    open: () => {
      if (!active?.url) return;
      window.open(active.url, '_blank', 'noopener,noreferrer');
      opened(active);
    },
    extended: () => active && toggleExtended(active),
    refresh: () => {
      window.scrollTo(0, 0);
      void list.reload();
    },
    search: focusSearch,
    help: () => setHelpOpen(true),
    nextFeed: () => goToFeed(1),
    previousFeed: () => goToFeed(-1),
  });

  const markAll = async () => {
    setMarking(true);
    try {
      offerUndo(await list.markAllRead());
    } finally {
      setMarking(false);
    }
  };
  // On a phone the header's icon is easy to hit by mistake: it asks first.
  const requestMarkAll = () => {
    if (globalThis.matchMedia?.(PHONE_QUERY).matches) setConfirmOpen(true);
    else void markAll();
  };

  const showError = Boolean(list.error) && (view.kind !== 'all' || articles.length === 0);
  const errorText = list.error
    ? (() => {
        const { key: k, values } = fetchErrorKey(list.error, view);
        return t(k, values);
      })()
    : '';

  const header = (
    <ListHeader
      view={view}
      total={list.total}
      showRead={showRead}
      onToggleShowRead={toggleShowRead}
      activeFilters={list.activeFilters}
      onManageFilters={onManageFilters}
      onMute={onMute}
      onMarkAllRead={requestMarkAll}
      markAllDisabled={
        articles.length === 0 ||
        (view.kind !== 'all' && view.kind !== 'feed' && view.kind !== 'folder' && view.kind !== 'reading-list' && !articles.some((a) => !a.is_read))
      }
      marking={marking}
      unread={unread}
    />
  );

  let body;
  if (list.status === 'loading') {
    body = (
      <div className="divide-y divide-border overflow-hidden rounded-2xl border border-border bg-surface" aria-busy="true" aria-label={t('articles.list.loading')}>
        {Array.from({ length: PLACEHOLDERS }, (_, i) => (
          <ArticleCardSkeleton key={i} testId="article-skeleton" />
        ))}
      </div>
    );
  } else if (list.status === 'error' || (showError && articles.length === 0)) {
    body =
      view.kind === 'all' ? (
        <EmptyState icon={RotateCw} title={t('articles.errors.allViewTitle')} text={t('articles.errors.tryAgainLater')}>
          <Button variant="secondary" onClick={() => void list.reload()}>
            {t('articles.list.retry')}
          </Button>
        </EmptyState>
      ) : (
        <Alert tone="error">
          <p>
            {errorText} {t('articles.errors.tryAgainLater')}
          </p>
          <button type="button" className="mt-1 min-h-10 font-medium text-accent underline" onClick={() => void list.reload()}>
            {t('articles.list.retry')}
          </button>
        </Alert>
      );
  } else if (articles.length === 0) {
    body = fetching ? (
      <EmptyState icon={Loader2} title={t('articles.empty.fetchingTitle')} text={t('articles.empty.fetchingText')} />
    ) : (
      (emptyState ?? <ListEmpty view={view} showRead={showRead} onShowAll={toggleShowRead} />)
    );
  } else {
    body = (
      <>
        <div
          ref={listRef}
          className="divide-y divide-border overflow-hidden rounded-2xl border border-border bg-surface shadow-card [overflow-anchor:none]"
          role="feed"
          aria-busy={list.loadingMore}
          aria-label={t('articles.list.label')}
        >
          {articles.map((article, index) =>
            !windowing.isRendered(index, article.id) ? (
              // Far off screen in a long list: a spacer of the card's height (it keeps its place for the anchor).
              <div key={article.id} aria-hidden data-article-id={article.id} data-testid="article-spacer" style={{ height: windowing.heightOf(article.id) }} />
            ) : (
              <ArticleCard
                key={article.id}
                ref={(el: HTMLElement | null) => {
                  if (el) cardRefs.current.set(article.id, el);
                  else cardRefs.current.delete(article.id);
                }}
                article={article}
                extended={extended.has(article.id)}
                active={article.id === activeId}
                onToggleExtended={toggleExtended}
                onToggleRead={list.toggleRead}
                onToggleFavorite={list.toggleFavorite}
                onOpened={opened}
                onActivate={activate}
                onReadingLists={openReadingLists}
                onMarkAbove={index > 0 ? markAboveWithUndo : undefined}
              />
            ),
          )}
          {list.loadingMore && !list.error && Array.from({ length: PLACEHOLDERS }, (_, i) => <ArticleCardSkeleton key={`s${i}`} testId="article-skeleton" />)}
        </div>
        {list.error && view.kind !== 'all' && (
          <Alert tone="error" className="mt-4">
            <p>
              {errorText} {t('articles.errors.tryAgainLater')}
            </p>
            <button type="button" className="mt-1 min-h-10 font-medium text-accent underline" onClick={() => void list.loadMore()}>
              {t('articles.list.retry')}
            </button>
          </Alert>
        )}
        <div ref={sentinel} aria-hidden className="h-px" data-testid="scroll-sentinel" />
        {!list.hasMore && articles.length > PLACEHOLDERS && <p className="py-8 text-center text-sm text-muted">{t('articles.list.end')}</p>}
      </>
    );
  }

  return (
    <div className="mx-auto max-w-3xl">
      {intro}
      {header}
      {actionError && (
        <Alert tone="error" className="mb-3">
          {t(actionError)}
        </Alert>
      )}
      {body}
      <p className="sr-only" aria-live="polite">
        {list.loadingMore ? t('articles.list.loadingMore') : ''}
      </p>
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <MarkAllConfirm open={confirmOpen} onClose={() => setConfirmOpen(false)} onConfirm={markAll} />
      {listsFor && <AddToReadingListModal article={listsFor} open onClose={() => setListsFor(null)} />}
    </div>
  );
}

function ListEmpty({ view, showRead, onShowAll }: { view: ArticleView; showRead: boolean; onShowAll(): void }) {
  const { t } = useTranslation();
  switch (view.kind) {
    case 'search':
      return <EmptyState icon={SearchX} title={t('articles.empty.searchTitle', { q: view.q })} text={t('articles.empty.searchText')} />;
    case 'favorites':
      return <EmptyState icon={Star} title={t('articles.empty.favoritesTitle')} text={t('articles.empty.favoritesText')} />;
    case 'all':
      return showRead ? (
        <EmptyState icon={Inbox} title={t('articles.empty.noArticlesTitle')} text={t('articles.empty.noArticlesText')} />
      ) : (
        <EmptyState icon={CheckCircle2} title={t('articles.empty.allReadTitle')} text={t('articles.empty.allReadText')}>
          <Button variant="secondary" onClick={onShowAll}>
            {t('articles.empty.showAll')}
          </Button>
        </EmptyState>
      );
    case 'reading-list':
      return <EmptyState icon={Inbox} title={t('readingLists.page.emptyTitle')} text={t('readingLists.page.emptyText')} />;
    case 'folder':
      return showRead ? (
        <EmptyState icon={Inbox} title={t('articles.empty.folderEmptyTitle')} text={t('articles.empty.folderEmptyText')} />
      ) : (
        <EmptyState icon={CheckCircle2} title={t('articles.empty.folderReadTitle')} text={t('articles.empty.folderReadText')}>
          <Button variant="secondary" onClick={onShowAll}>
            {t('articles.empty.showAll')}
          </Button>
        </EmptyState>
      );
    case 'feed':
      return showRead ? (
        <EmptyState icon={Inbox} title={t('articles.empty.feedEmptyTitle')} text={t('articles.empty.feedEmptyText')} />
      ) : (
        <EmptyState icon={CheckCircle2} title={t('articles.empty.feedReadTitle')} text={t('articles.empty.feedReadText')}>
          <Button variant="secondary" onClick={onShowAll}>
            {t('articles.empty.showAll')}
          </Button>
        </EmptyState>
      );
  }
}
