import { BellOff, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge, itemClass, mutedItemClass } from '../../../components/sidebar/SidebarItems.js';
import { feedTitle, type FeedSummary } from '../api.js';
import { FeedIcon } from './FeedIcon.js';

/** A feed in the sidebar: icon or letter tile, title, unread badge; muted: greyed, a mute icon, no badge. */
export function FeedLink({
  feed,
  active,
  count,
}: {
  feed: Pick<FeedSummary, 'id' | 'title' | 'favicon_url' | 'last_error_code' | 'is_muted'>;
  active: boolean;
  count?: number;
}) {
  const { t } = useTranslation();
  const title = feedTitle(feed, t);
  // A feed whose last fetch failed is marked (its error in words as the tooltip), so a broken source is noticed.
  const error = feed.last_error_code ? t(`feedErrors.${feed.last_error_code}`, { defaultValue: t('dashboard.sidebar.feedBroken') }) : null;
  return (
    <Link
      to={`/dashboard?feed=${feed.id}`}
      aria-current={active ? 'page' : undefined}
      className={feed.is_muted ? mutedItemClass : itemClass(active)}
      data-muted={feed.is_muted || undefined}
      // The row is dragged by dnd-kit (folders/components/SidebarFeedTree), not as a native link drag.
      draggable={false}
      // The full name (and the error) as a tooltip: long names are cut short in the row (dashboard.md §9).
      title={error ? `${title} – ${error}` : title}
    >
      <FeedIcon feed={feed} size="sm" className={feed.is_muted ? 'grayscale' : ''} />
      <span className="min-w-0 flex-1 truncate">{title}</span>
      {error && (
        <span className="inline-flex shrink-0 text-warning" data-testid="feed-error-marker">
          <TriangleAlert aria-hidden className="size-3.5" />
          <span className="sr-only">{error}</span>
        </span>
      )}
      {feed.is_muted ? (
        <>
          <BellOff aria-hidden className="size-3.5 shrink-0 text-muted" />
          <span className="sr-only">{t('dashboard.sidebar.muted')}</span>
        </>
      ) : (
        <Badge count={count} />
      )}
    </Link>
  );
}
