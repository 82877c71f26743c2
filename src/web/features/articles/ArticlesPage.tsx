import { BellOff, FolderX, Rss } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button.js';
import { Skeleton } from '../../components/ui/Skeleton.js';
import { NotFound } from '../../components/NotFound.js';
import { WelcomeEmptyState } from './components/WelcomeEmptyState.js';
import { usePageTitle } from '../../lib/pageTitle.js';
import {
  AddFeedDialog,
  FeedFiltersDialog,
  feedTitle,
  formatDateTime,
  MuteDialog,
  useFeedSummaries,
  useUnmuteFeed,
  useUnreadCounts,
  type FeedSummary,
} from '../feeds/index.js';
import { useFolders } from '../folders/index.js';
import type { ArticleView } from './api.js';
import { ArticleList } from './components/ArticleList.js';
import { EmptyState } from './components/EmptyState.js';

/**
 * The article views (dashboard.md §2). /dashboard shows all articles; `?feed=<id>` one feed; `?folder=<id>` one
 * folder's feeds as one stream (docs/decisions.md "Reading flow"); `?q=<text>` a search (within the feed or folder
 * when `?feed=` or `?folder=` is given too). /dashboard/favorites shows the favourites. Query parameters keep every
 * view linkable while the top bar's search and read toggle stay on the one path the spec gives them.
 */
export function ArticlesPage({ favorites = false }: { favorites?: boolean }) {
  const [params] = useSearchParams();
  const feedParam = favorites ? null : params.get('feed');
  const folderParam = favorites || feedParam !== null ? null : params.get('folder');
  // Ids are positive integers; anything else is an address that does not exist.
  const isId = (v: string | null) => v === null || /^[1-9]\d{0,15}$/.test(v);
  if (!isId(feedParam) || !isId(folderParam)) return <NotFound />;
  return (
    <ArticleViewPage
      favorites={favorites}
      feedId={feedParam === null ? undefined : Number(feedParam)}
      folderId={folderParam === null ? undefined : Number(folderParam)}
      q={favorites ? '' : (params.get('q') ?? '').trim()}
    />
  );
}

function ArticleViewPage({ favorites, feedId, folderId, q }: { favorites: boolean; feedId?: number; folderId?: number; q: string }) {
  const { t } = useTranslation();
  const feeds = useFeedSummaries();
  const folders = useFolders();
  const counts = useUnreadCounts();
  const feed = feedId !== undefined ? feeds.data?.find((f) => f.id === feedId) : undefined;
  const folder = folderId !== undefined ? folders.data?.find((f) => f.id === folderId) : undefined;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [muteOpen, setMuteOpen] = useState(false);
  // The welcome screen's add-feed dialog lives here, not in the welcome screen: the first subscription replaces the
  // welcome with the list, and the dialog must stay open to subscribe to more of the feeds it found.
  const [addOpen, setAddOpen] = useState(false);

  const view = useMemo<ArticleView>(() => {
    if (favorites) return { kind: 'favorites' };
    if (q) {
      if (feedId !== undefined) return { kind: 'search', q, feedId };
      if (folderId !== undefined) return { kind: 'search', q, folderId };
      return { kind: 'search', q };
    }
    if (feedId !== undefined) return { kind: 'feed', feedId };
    if (folderId !== undefined) return { kind: 'folder', folderId };
    return { kind: 'all' };
  }, [favorites, q, feedId, folderId]);

  const name = feed ? feedTitle(feed, t) : '';
  const title =
    view.kind === 'favorites'
      ? t('articles.titles.favorites')
      : view.kind === 'search'
        ? t('articles.titles.search', { q })
        : view.kind === 'feed'
          ? name
            ? t('articles.titles.feed', { title: name })
            : ''
          : view.kind === 'folder'
            ? folder
              ? t('articles.titles.folder', { name: folder.name })
              : ''
            : t('articles.titles.all');
  // On a phone the top bar shows just the feed's or folder's name; the full title stays for screen readers and as a
  // tooltip.
  const short = view.kind === 'feed' && name ? name : view.kind === 'folder' && folder ? folder.name : undefined;
  usePageTitle(title || t('articles.titles.all'), short);

  // The folder's unread badge: the sum of its feeds' counts (muted feeds have none).
  const folderFeeds = folderId !== undefined ? (feeds.data ?? []).filter((f) => f.folder_id === folderId) : [];
  const folderUnread = folderId !== undefined && counts.data ? folderFeeds.reduce((sum, f) => sum + (counts.data.counts[String(f.id)] ?? 0), 0) : undefined;

  // Nothing fetched yet (a first subscription): "fetching…" rather than "All read!" (docs/decisions.md "Reading flow").
  const inView = view.kind === 'feed' ? (feed ? [feed] : []) : view.kind === 'folder' ? folderFeeds : view.kind === 'all' ? (feeds.data ?? []) : [];
  const fetching = inView.length > 0 && inView.every((f) => !f.fetched && !f.last_error_code);

  return (
    <>
      {content()}
      <AddFeedDialog open={addOpen} onClose={() => setAddOpen(false)} />
    </>
  );

  function content() {
    // A user without feeds is welcomed instead of shown an empty list (§2 "Empty states").
    if (view.kind === 'all' && feeds.data?.length === 0) return <WelcomeEmptyState onAdd={() => setAddOpen(true)} />;

    if (folderId !== undefined && feedId === undefined) {
      if (folders.isPending) return <ListPlaceholder />;
      if (folders.data && !folder) {
        return <EmptyState icon={FolderX} title={t('articles.empty.folderUnknownTitle')} text={t('articles.empty.folderUnknownText')} />;
      }
    }

    if (feedId !== undefined) {
      if (feeds.isPending) return <ListPlaceholder />;
      if (feeds.data && !feed) {
        return <EmptyState icon={Rss} title={t('articles.empty.feedUnknownTitle')} text={t('articles.empty.feedUnknownText')} />;
      }
      if (feed?.is_muted) return <MutedFeed feed={feed} />;
    }

    return (
      <>
        <ArticleList
          view={view}
          fetching={fetching}
          unread={view.kind === 'folder' ? folderUnread : undefined}
          onManageFilters={view.kind === 'feed' ? () => setFiltersOpen(true) : undefined}
          onMute={view.kind === 'feed' && feed ? () => setMuteOpen(true) : undefined}
        />
        {feedId !== undefined && <FeedFiltersDialog feedId={feedId} open={filtersOpen} onClose={() => setFiltersOpen(false)} />}
        {feed && <MuteDialog feed={feed} open={muteOpen} onClose={() => setMuteOpen(false)} />}
      </>
    );
  }
}

function ListPlaceholder() {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-3" aria-hidden>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-64 w-full rounded-2xl" />
    </div>
  );
}

/** §2 "feed muted (permanently, or until a time)": the list is empty by design, and one click ends the mute. */
function MutedFeed({ feed }: { feed: FeedSummary }) {
  const { t, i18n } = useTranslation();
  const unmute = useUnmuteFeed();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const text =
    feed.muted_permanently || !feed.muted_until
      ? t('articles.empty.mutedPermanently')
      : t('articles.empty.mutedUntil', { time: formatDateTime(feed.muted_until, i18n.language) });
  return (
    <EmptyState icon={BellOff} title={t('articles.empty.mutedTitle')} text={text}>
      <Button
        variant="secondary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setFailed(false);
          try {
            await unmute.mutateAsync(feed.id);
          } catch {
            setFailed(true);
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('articles.empty.unmute')}
      </Button>
      {failed && (
        <p role="alert" className="w-full text-sm text-danger">
          {t('articles.errors.unmute')}
        </p>
      )}
    </EmptyState>
  );
}
