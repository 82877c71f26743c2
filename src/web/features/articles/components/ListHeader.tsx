import { BellOff, CheckCheck, ChevronDown, Filter } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActiveFilter } from '../../../../common/api.js';
import type { ArticleView } from '../api.js';

export interface ListHeaderProps {
  view: ArticleView;
  total: number;
  showRead: boolean;
  onToggleShowRead(): void;
  activeFilters: ActiveFilter[];
  /** Opens the filters dialog of the feed in view (single-feed views only). */
  onManageFilters?(): void;
  /** Opens the mute dialog of the feed in view (single-feed views only). */
  onMute?(): void;
  onMarkAllRead(): void;
  markAllDisabled: boolean;
  marking: boolean;
  /** The view's unread count as a badge (a folder stream). */
  unread?: number;
}

/**
 * The sticky list header (dashboard.md §2 "Article list view"): the total (singular or plural), the note
 * "showing all articles" / "showing unread only" that switches show_read when clicked (favourites always show
 * read articles, so they have no note), the "active filters applied (n)" toggle with the list of filters, the
 * "no filters" link on a single-feed view, and "mark all read" for the current view.
 */
export function ListHeader({
  view,
  total,
  showRead,
  onToggleShowRead,
  activeFilters,
  onManageFilters,
  onMute,
  onMarkAllRead,
  markAllDisabled,
  marking,
  unread,
}: ListHeaderProps) {
  const { t } = useTranslation();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const count = activeFilters.length;

  return (
    <div className="sticky top-14 z-10 mb-3 bg-bg/95 py-1.5 backdrop-blur supports-[backdrop-filter]:bg-bg/85">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 text-sm text-muted">
          <span className="font-semibold tabular-nums text-text" data-testid="article-total">
            {t('articles.header.total', { count: total })}
          </span>
          {view.kind !== 'favorites' && (
            <span className="inline-flex items-center gap-x-2 whitespace-nowrap">
              <span aria-hidden>·</span>
              <button
                type="button"
                onClick={onToggleShowRead}
                aria-pressed={showRead}
                className="min-h-10 rounded-md underline decoration-dotted decoration-1 underline-offset-4 hover:text-text"
              >
                {showRead ? t('articles.header.showingAll') : t('articles.header.showingUnread')}
              </button>
            </span>
          )}
          {unread !== undefined && unread > 0 && (
            <span className="rounded-full bg-accent/15 px-2 py-0.5 text-xs font-semibold tabular-nums text-accent" data-testid="view-unread-badge">
              {t('articles.header.unread', { count: unread })}
            </span>
          )}
        </p>
        <button
          type="button"
          onClick={onMarkAllRead}
          disabled={markAllDisabled || marking}
          aria-label={t('articles.header.markAllRead')}
          title={t('articles.header.markAllRead')}
          className="-mr-2 inline-flex min-h-10 min-w-10 items-center justify-center gap-2 rounded-lg px-2 text-sm font-medium text-text transition-colors hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-50 sm:mr-0 sm:px-3"
        >
          <CheckCheck aria-hidden className="size-[1.125rem] text-accent" />
          {/* The phone's header has room for the icon only; the name stays on the button. */}
          <span aria-hidden className="hidden sm:inline">
            {t('articles.header.markAllRead')}
          </span>
        </button>
      </div>

      {(count > 0 || (view.kind === 'feed' && onManageFilters)) && (
        <div>
          <div className="flex flex-wrap items-center justify-between gap-x-3">
            {count > 0 ? (
              <button
                type="button"
                aria-expanded={filtersOpen}
                aria-controls={filtersId}
                onClick={() => setFiltersOpen((o) => !o)}
                className="-ml-1 inline-flex min-h-10 items-center gap-1.5 rounded-md px-1 text-sm text-muted hover:text-text"
              >
                <Filter aria-hidden className="size-3.5 text-accent" />
                {t('articles.header.activeFilters', { count })}
                <ChevronDown aria-hidden className={`size-4 transition-transform ${filtersOpen ? 'rotate-180' : ''}`} />
              </button>
            ) : (
              <button
                type="button"
                onClick={onManageFilters}
                className="-ml-1 inline-flex min-h-10 items-center gap-1.5 rounded-md px-1 text-sm text-muted underline decoration-dotted underline-offset-4 hover:text-text"
              >
                <Filter aria-hidden className="size-3.5" />
                {t('articles.header.noFilters')}
              </button>
            )}
            {onMute && (
              <button type="button" onClick={onMute} className="inline-flex min-h-10 items-center gap-1.5 rounded-md px-1 text-sm text-muted hover:text-text">
                <BellOff aria-hidden className="size-3.5" />
                {t('articles.header.mute')}
              </button>
            )}
          </div>
          {count > 0 && filtersOpen && (
            <div id={filtersId} className="pb-2">
              <ul className="flex flex-col gap-1 text-sm">
                {activeFilters.map((f) => (
                  <li key={f.id} className="flex flex-wrap items-baseline gap-x-1.5">
                    <span className="font-medium text-text">{f.feed_title}:</span>
                    <span className="text-muted">
                      {t(`articles.filters.${f.filter_type}`)} · {t(`articles.filters.scope.${f.filter_scope}`)}
                    </span>
                    <span className="rounded bg-surface-2 px-1.5 font-mono text-[0.8125rem] text-text">{f.filter_text}</span>
                  </li>
                ))}
              </ul>
              {view.kind === 'feed' && onManageFilters && (
                <button type="button" onClick={onManageFilters} className="mt-1 min-h-10 text-sm font-medium text-accent underline-offset-4 hover:underline">
                  {t('articles.header.manageFilters')}
                </button>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
