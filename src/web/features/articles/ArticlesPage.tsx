import { BellOff, Rss } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Feed } from '../../../common/api.js';
import { Button } from '../../components/ui/Button.js';
import { Skeleton } from '../../components/ui/Skeleton.js';
import { NotFound } from '../../components/NotFound.js';
import { WelcomeEmptyState } from './components/WelcomeEmptyState.js';
import { usePageTitle } from '../../lib/pageTitle.js';
import { FeedFiltersDialog, feedTitle, formatDateTime, MuteDialog, useFeeds, useUnmuteFeed } from '../feeds/index.js';
import type { ArticleView } from './api.js';
import { ArticleList } from './components/ArticleList.js';
import { EmptyState } from './components/EmptyState.js';

/**
 * The article views (dashboard.md §2). /dashboard shows all articles; `?feed=<id>` one feed; `?q=<text>` a search
 * (within the feed when `?feed=` is given too). /dashboard/favorites shows the favourites. Query parameters keep
 * every view linkable while the top bar's search and read toggle stay on the one path the spec gives them.
 */
export function ArticlesPage({ favorites = false }: { favorites?: boolean }) {
  const [params] = useSearchParams();
  const feedParam = favorites ? null : params.get('feed');
  // Feed ids are positive integers; anything else is an address that does not exist.
  if (feedParam !== null && !/^[1-9]\d{0,15}$/.test(feedParam)) return <NotFound />;
  return <ArticleViewPage favorites={favorites} feedId={feedParam === null ? undefined : Number(feedParam)} q={favorites ? '' : (params.get('q') ?? '').trim()} />;
}

function ArticleViewPage({ favorites, feedId, q }: { favorites: boolean; feedId?: number; q: string }) {
  const { t } = useTranslation();
  const feeds = useFeeds();
  const feed = feedId !== undefined ? feeds.data?.find((f) => f.id === feedId) : undefined;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [muteOpen, setMuteOpen] = useState(false);

  const view = useMemo<ArticleView>(() => {
    if (favorites) return { kind: 'favorites' };
    if (q) return feedId !== undefined ? { kind: 'search', q, feedId } : { kind: 'search', q };
    if (feedId !== undefined) return { kind: 'feed', feedId };
    return { kind: 'all' };
  }, [favorites, q, feedId]);

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
          : t('articles.titles.all');
  // On a phone the top bar shows just the feed's name; the full title stays for screen readers and as a tooltip.
  usePageTitle(title || t('articles.titles.all'), view.kind === 'feed' && name ? name : undefined);

  // A user without feeds is welcomed instead of shown an empty list (§2 "Empty states").
  if (view.kind === 'all' && feeds.data?.length === 0) return <WelcomeEmptyState />;

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
        onManageFilters={view.kind === 'feed' ? () => setFiltersOpen(true) : undefined}
        onMute={view.kind === 'feed' && feed ? () => setMuteOpen(true) : undefined}
      />
      {feedId !== undefined && <FeedFiltersDialog feedId={feedId} open={filtersOpen} onClose={() => setFiltersOpen(false)} />}
      {feed && <MuteDialog feed={feed} open={muteOpen} onClose={() => setMuteOpen(false)} />}
    </>
  );
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
function MutedFeed({ feed }: { feed: Feed }) {
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
