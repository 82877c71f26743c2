import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Plus, Rss, Search } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Feed } from '../../../common/api.js';
import { SUCCESS_BANNER_MS } from '../../../common/constants.js';
import { Alert } from '../../components/ui/Alert.js';
import { Button } from '../../components/ui/Button.js';
import { Card } from '../../components/ui/Card.js';
import { Skeleton } from '../../components/ui/Skeleton.js';
import { usePageTitle } from '../../lib/pageTitle.js';
import { useTimedMessage } from '../../lib/useTimedMessage.js';
import { feedSummariesKey, feedsKey, feedTitle, reorderFeedSummaries, useFeeds, useSortFeeds } from './api.js';
import { AddFeedDialog } from './components/AddFeedDialog.js';
import { DeleteFeedDialog } from './components/DeleteFeedDialog.js';
import { FeedFiltersDialog } from './components/FeedFiltersDialog.js';
import { FeedRow } from './components/FeedRow.js';
import { MuteDialog } from './components/MuteDialog.js';
import { filterFeeds, isBroken, type ManagedFeed } from './health.js';

/**
 * Rows rendered at first and added each time the end of the list comes near: a long list (2,000 feeds) would
 * otherwise mount thousands of rows, each with its menus and switches, and freeze the page
 * (docs/decisions.md "Feed health in feed management").
 */
export const FEED_ROWS_STEP = 50;

/** The open dialog; it stays mounted (closed) afterwards, so the browser returns focus to the control that opened it. */
type Dialog = { kind: 'add' } | { kind: 'mute' | 'delete'; feed: Feed } | { kind: 'filters'; feedId: number };

/**
 * /dashboard/feeds, feed management (dashboard.md §2 "Feed management screen", §4, §5 "Reordering", §8):
 * the user's feeds in sidebar order with reorder arrows, the add-feed dialog, and per feed mute, filters,
 * inline rename, refresh now and delete. Reordering is applied at once and rolled back when the server refuses.
 * Each feed shows its health; a search (title or address) and a "broken feeds" filter narrow the list, and rows are
 * rendered FEED_ROWS_STEP at a time as the reader scrolls.
 */
export default function FeedsPage() {
  const { t } = useTranslation();
  usePageTitle(t('feeds.page.title'));
  const client = useQueryClient();
  const feeds = useFeeds();
  const sortFeeds = useSortFeeds();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'add' });
  const [dialogOpen, setDialogOpen] = useState(false);
  const [notice, showNotice] = useTimedMessage(SUCCESS_BANNER_MS);
  const [sortError, setSortError] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState('');
  const [brokenOnly, setBrokenOnly] = useState(false);
  const [limit, setLimit] = useState(FEED_ROWS_STEP);
  const all = useMemo(() => (feeds.data ?? []) as ManagedFeed[], [feeds.data]);
  const brokenCount = useMemo(() => all.filter(isBroken).length, [all]);
  const filtering = query.trim() !== '' || brokenOnly;
  const shown = useMemo(() => (filtering ? filterFeeds(all, { query, brokenOnly }, (f) => feedTitle(f, t)) : all), [all, query, brokenOnly, filtering, t]);
  const rows = shown.slice(0, limit);
  const sentinelRef = useRef<HTMLDivElement>(null);

  // A new search or filter starts at the top of its results again.
  useEffect(() => setLimit(FEED_ROWS_STEP), [query, brokenOnly]);
  // More rows once the end of the rendered ones comes within a screen of the viewport.
  const more = shown.length > rows.length;
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!more || !sentinel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setLimit((n) => n + FEED_ROWS_STEP);
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [more, limit]);
  // Sort requests go out one after another, so a fast series of moves reaches the server in order.
  const sortQueue = useRef<Promise<void>>(Promise.resolve());

  const openDialog = useCallback((next: Dialog) => {
    setDialog(next);
    setDialogOpen(true);
  }, []);
  // The same handlers for every row, so rows already rendered (memoised) do not render again as the list grows.
  const onMute = useCallback((feed: Feed) => openDialog({ kind: 'mute', feed }), [openDialog]);
  const onFilters = useCallback((feed: Feed) => openDialog({ kind: 'filters', feedId: feed.id }), [openDialog]);
  const onDelete = useCallback((feed: Feed) => openDialog({ kind: 'delete', feed }), [openDialog]);
  const closeDialog = () => setDialogOpen(false);

  const move = async (feedId: number, delta: -1 | 1) => {
    const list = client.getQueryData<Feed[]>(feedsKey);
    if (!list) return;
    const from = list.findIndex((f) => f.id === feedId);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= list.length) return;
    setSortError(null);
    const next = [...list];
    [next[from], next[to]] = [next[to], next[from]];
    await client.cancelQueries({ queryKey: feedsKey });
    client.setQueryData<Feed[]>(
      feedsKey,
      next.map((f, i) => ({ ...f, sort_order: i })),
    );
    const ids = next.map((f) => f.id);
    // The sidebar shows the new order at once too.
    const summaries = reorderFeedSummaries(client, ids);
    // A row moved past the last rendered one stays in view, so its arrow keeps the focus.
    setLimit((n) => Math.max(n, to + 1));
    keepFocus(feedId, delta, to === 0 || to === next.length - 1);

    sortQueue.current = sortQueue.current.then(async () => {
      try {
        await sortFeeds.mutateAsync(ids);
      } catch (err) {
        console.error('Saving the feed order failed', err);
        client.setQueryData<Feed[]>(feedsKey, list);
        if (summaries) client.setQueryData(feedSummariesKey, summaries);
        setSortError(t('feeds.page.sortError'));
        void client.invalidateQueries({ queryKey: feedsKey });
      }
    });
  };

  const moveRef = useRef(move);
  moveRef.current = move;
  const onMove = useCallback((feed: Feed, delta: -1 | 1) => void moveRef.current(feed.id, delta), []);

  /** The moved row's arrow keeps the focus (the other arrow when this one just became disabled at an end). */
  const keepFocus = (feedId: number, delta: -1 | 1, atEnd: boolean) => {
    requestAnimationFrame(() => {
      const row = listRef.current?.querySelector<HTMLElement>(`[data-feed-id="${feedId}"]`);
      const direction = delta < 0 ? (atEnd ? 'down' : 'up') : atEnd ? 'up' : 'down';
      row?.querySelector<HTMLButtonElement>(`[data-move="${direction}"]`)?.focus();
    });
  };

  const addButton = (
    <Button onClick={() => openDialog({ kind: 'add' })} className="w-full sm:w-auto">
      <Plus aria-hidden className="size-4" />
      {t('feeds.page.add')}
    </Button>
  );

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <p className="min-w-0 max-w-prose text-muted">{t('feeds.page.intro')}</p>
        {feeds.data && feeds.data.length > 0 && <div className="shrink-0">{addButton}</div>}
      </div>

      <div aria-live="polite" className="empty:hidden">
        {notice && <Alert tone="success">{notice}</Alert>}
      </div>
      {sortError && <Alert tone="error">{sortError}</Alert>}

      {feeds.isPending ? (
        <Card role="status" aria-label={t('feeds.page.loading')} className="divide-y divide-border">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="flex items-center gap-3 px-4 py-4">
              <Skeleton className="size-8 shrink-0 rounded-lg" />
              <div className="flex flex-1 flex-col gap-2">
                <Skeleton className="h-4 w-2/5" />
                <Skeleton className="h-3 w-3/5" />
              </div>
            </div>
          ))}
        </Card>
      ) : feeds.isError ? (
        <Alert tone="error">
          <p>{t('feeds.page.loadError')}</p>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void feeds.refetch()}>
            {t('feeds.page.retry')}
          </Button>
        </Alert>
      ) : feeds.data.length === 0 ? (
        <Card className="flex flex-col items-center px-6 py-12 text-center">
          <div aria-hidden className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
            <Rss className="size-7" />
          </div>
          <h3 className="text-lg font-semibold tracking-tight">{t('feeds.page.noFeeds')}</h3>
          <p className="mt-1 max-w-sm text-muted">{t('feeds.page.clickAddFeed')}</p>
          <div className="mt-6">{addButton}</div>
        </Card>
      ) : (
        <>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <label className="relative min-w-0 flex-1">
              <span className="sr-only">{t('feeds.page.searchLabel')}</span>
              <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" />
              <input
                type="search"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                placeholder={t('feeds.page.searchPlaceholder')}
                className="min-h-11 w-full rounded-lg border border-border-strong bg-surface py-2 pr-3 pl-9 text-sm text-text placeholder:text-muted focus:border-accent focus:ring-2 focus:ring-accent/40 focus:outline-none"
              />
            </label>
            <button
              type="button"
              aria-pressed={brokenOnly}
              onClick={() => setBrokenOnly((b) => !b)}
              className={`inline-flex min-h-11 shrink-0 items-center justify-center gap-2 rounded-lg border px-3.5 text-sm font-medium transition-colors ${
                brokenOnly ? 'border-warning/50 bg-warning-soft text-text' : 'border-border-strong bg-surface text-muted hover:bg-surface-2 hover:text-text'
              }`}
            >
              <AlertTriangle aria-hidden className={`size-4 ${brokenCount > 0 ? 'text-warning' : ''}`} />
              {t('feeds.page.brokenOnly', { count: brokenCount })}
            </button>
          </div>
          {filtering && (
            <div className="-mt-3 flex flex-col gap-1 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
              <p role="status">{t('feeds.page.shownCount', { shown: shown.length, total: all.length })}</p>
              <p>{t('feeds.page.filteredNoMove')}</p>
            </div>
          )}
          {shown.length === 0 ? (
            <Card className="flex flex-col items-center gap-3 px-6 py-10 text-center">
              <p className="text-muted">{brokenOnly && !query.trim() ? t('feeds.page.noBroken') : t('feeds.page.noMatches')}</p>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  setQuery('');
                  setBrokenOnly(false);
                }}
              >
                {t('feeds.page.clearFilter')}
              </Button>
            </Card>
          ) : (
            <Card>
              <ul ref={listRef} aria-label={t('feeds.page.listLabel')} className="divide-y divide-border">
                {rows.map((feed, index) => (
                  <FeedRow
                    key={feed.id}
                    feed={feed}
                    isFirst={index === 0}
                    isLast={index === all.length - 1}
                    movable={!filtering}
                    onMove={onMove}
                    onMute={onMute}
                    onFilters={onFilters}
                    onDelete={onDelete}
                  />
                ))}
              </ul>
              {more && (
                <div ref={sentinelRef} className="border-t border-border p-3 text-center">
                  <Button variant="ghost" size="sm" onClick={() => setLimit((n) => n + FEED_ROWS_STEP)}>
                    {t('feeds.page.showMore', { count: shown.length - rows.length })}
                  </Button>
                </div>
              )}
            </Card>
          )}
        </>
      )}

      <AddFeedDialog
        open={dialogOpen && dialog.kind === 'add'}
        onClose={closeDialog}
        onSubscribed={(feed) => showNotice(t('feeds.page.subscribed', { title: feedTitle(feed, t) }))}
      />
      {dialog.kind === 'mute' && <MuteDialog open={dialogOpen} feed={dialog.feed} onClose={closeDialog} />}
      {dialog.kind === 'filters' && <FeedFiltersDialog open={dialogOpen} feedId={dialog.feedId} onClose={closeDialog} />}
      {dialog.kind === 'delete' && (
        <DeleteFeedDialog open={dialogOpen} feed={dialog.feed} onClose={closeDialog} onDeleted={(title) => showNotice(t('feeds.page.deleted', { title }))} />
      )}
    </div>
  );
}
