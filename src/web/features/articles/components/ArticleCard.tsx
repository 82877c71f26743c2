import { ArrowUpToLine, Bookmark, BookOpen, Check, CircleDot, ListCollapse, Star } from 'lucide-react';
import { forwardRef, memo, useCallback, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Article } from '../../../../common/api.js';
import { FeedIcon } from '../../feeds/index.js';
import { formatPublished } from '../../../lib/dates.js';
import { firstSentences } from '../text.js';
import { SWIPE_ACT_PX, useSwipe, type SwipeDirection } from '../useSwipe.js';
import { ArticleContent } from './ArticleContent.js';

export interface ArticleCardProps {
  article: Article;
  extended: boolean;
  /** The article the keyboard shortcuts act on. */
  active: boolean;
  onToggleExtended(article: Article): void;
  onToggleRead(article: Article): void;
  onToggleFavorite(article: Article): void;
  /** The original was opened (link click or shortcut): it counts as read. */
  onOpened(article: Article): void;
  onActivate(article: Article): void;
  /** Opens the "add to reading list" modal (§2 "Modals"); without it the card has no reading-list button. */
  onReadingLists?(article: Article): void;
  /** "Mark above as read" (not on the first card): every loaded article above this one. */
  onMarkAbove?(article: Article): void;
}

/**
 * One article (dashboard.md §2 "Article card"). Compact: feed icon and title, the title linking to the original in
 * a new tab, the first three sentences of the summary clamped to three lines, the date in the user's language,
 * and the buttons favourite, add to reading list (filled when the article is in a list), mark read/unread and the
 * mode toggle. Extended: the full content and the author.
 * Read articles carry a read badge. On a touch screen a sideways swipe marks read/unread (to the right) or toggles
 * the favourite (to the left), with a hint behind the card while the finger moves (docs/decisions.md "Reading flow").
 */
export const ArticleCard = memo(
  forwardRef<HTMLElement, ArticleCardProps>(function ArticleCard(
    { article, extended, active, onToggleExtended, onToggleRead, onToggleFavorite, onOpened, onActivate, onReadingLists, onMarkAbove },
    ref,
  ) {
    const { t, i18n } = useTranslation();
    const swiped = useCallback(
      (direction: SwipeDirection) => (direction === 'right' ? onToggleRead(article) : onToggleFavorite(article)),
      [article, onToggleFavorite, onToggleRead],
    );
    const swipe = useSwipe(swiped);
    const titleId = useId();
    const date = formatPublished(article.published_at, i18n.language);
    const summary = firstSentences(article.summary ?? '', 3, i18n.language);
    const feed = {
      title: article.feed_title,
      favicon_base64: article.feed_favicon_base64,
      favicon_type: article.feed_favicon_type,
      favicon_url: article.feed_favicon,
    };
    const title = article.title?.trim() || t('articles.card.untitled');

    return (
      <article
        ref={ref}
        tabIndex={-1}
        aria-labelledby={titleId}
        data-article-id={article.id}
        data-active={active || undefined}
        onFocus={() => onActivate(article)}
        {...swipe.handlers}
        className="relative touch-pan-y overflow-hidden outline-none scroll-mt-32"
      >
        {swipe.offset !== 0 && <SwipeHint offset={swipe.offset} article={article} />}
        <div
          className="relative bg-surface px-4 py-4 sm:px-6 sm:py-5"
          style={swipe.offset !== 0 ? { transform: `translateX(${swipe.offset}px)` } : undefined}
          data-swiping={swipe.offset !== 0 || undefined}
        >
          {active && <span aria-hidden className="absolute inset-y-3 left-0 w-[3px] rounded-r bg-accent" />}
          <div className="flex min-w-0 items-center gap-2 text-[0.8125rem] text-muted">
            <FeedIcon feed={feed} size="sm" />
            <span className="min-w-0 truncate font-medium">{article.feed_title}</span>
            {date.text && (
              <>
                <span aria-hidden>·</span>
                <time dateTime={date.iso} title={date.full} className="shrink-0 whitespace-nowrap">
                  {date.text}
                </time>
              </>
            )}
            {article.is_read && (
              <span className="ml-auto shrink-0 rounded-full bg-surface-2 px-2 py-0.5 text-[0.6875rem] font-semibold uppercase tracking-wide text-muted ring-1 ring-border">
                {t('articles.card.readBadge')}
              </span>
            )}
          </div>

          <h2 id={titleId} className="mt-1.5 text-[1.0625rem] leading-snug tracking-tight text-balance sm:text-lg">
            {article.url ? (
              <a
                href={article.url}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => onOpened(article)}
                onAuxClick={(e) => e.button === 1 && onOpened(article)}
                className={`rounded-sm decoration-accent/60 underline-offset-4 hover:underline ${article.is_read ? 'font-medium text-muted' : 'font-semibold text-text'}`}
              >
                {title}
                <span className="sr-only"> {t('articles.card.opensInNewTab')}</span>
              </a>
            ) : (
              <span className={article.is_read ? 'font-medium text-muted' : 'font-semibold text-text'}>{title}</span>
            )}
          </h2>

          {extended ? (
            <ArticleContent article={article} />
          ) : (
            summary && <p className="mt-1.5 line-clamp-3 max-w-[68ch] text-[0.9375rem] leading-relaxed text-muted">{summary}</p>
          )}

          <div className="-mb-2 -ml-2.5 mt-2 flex items-center gap-0.5">
            <CardButton
              label={article.is_favorite ? t('articles.card.unfavorite') : t('articles.card.favorite')}
              pressed={article.is_favorite}
              onClick={() => onToggleFavorite(article)}
            >
              <Star aria-hidden className={`size-[1.125rem] ${article.is_favorite ? 'fill-accent text-accent' : ''}`} />
            </CardButton>
            {onReadingLists && (
              <CardButton
                label={article.in_reading_list ? t('readingLists.add.buttonInList') : t('readingLists.add.button')}
                onClick={() => onReadingLists(article)}
                hasPopup
              >
                <Bookmark aria-hidden className={`size-[1.125rem] ${article.in_reading_list ? 'fill-accent text-accent' : ''}`} />
              </CardButton>
            )}
            <CardButton label={article.is_read ? t('articles.card.markUnread') : t('articles.card.markRead')} onClick={() => onToggleRead(article)}>
              {article.is_read ? <CircleDot aria-hidden className="size-[1.125rem]" /> : <Check aria-hidden className="size-[1.125rem]" />}
            </CardButton>
            {onMarkAbove && (
              <CardButton label={t('articles.card.markAbove')} onClick={() => onMarkAbove(article)}>
                <ArrowUpToLine aria-hidden className="size-[1.125rem]" />
              </CardButton>
            )}
            <button
              type="button"
              aria-expanded={extended}
              onClick={() => onToggleExtended(article)}
              className="ml-auto inline-flex min-h-10 items-center gap-2 rounded-lg px-3 text-sm font-medium text-muted transition-colors hover:bg-surface-2 hover:text-text"
            >
              {extended ? <ListCollapse aria-hidden className="size-4" /> : <BookOpen aria-hidden className="size-4" />}
              {extended ? t('articles.card.showCompact') : t('articles.card.showExtended')}
            </button>
          </div>
        </div>
      </article>
    );
  }),
);

/** What releasing the swipe will do, shown in the space the card leaves behind. */
function SwipeHint({ offset, article }: { offset: number; article: Article }) {
  const { t } = useTranslation();
  const right = offset > 0;
  const ready = Math.abs(offset) >= SWIPE_ACT_PX;
  const label = right
    ? article.is_read
      ? t('articles.card.swipeUnread')
      : t('articles.card.swipeRead')
    : article.is_favorite
      ? t('articles.card.swipeUnfavorite')
      : t('articles.card.swipeFavorite');
  const Icon = right ? (article.is_read ? CircleDot : Check) : Star;
  return (
    <div
      aria-hidden
      data-testid="swipe-hint"
      className={`absolute inset-0 flex ${right ? 'justify-start' : 'justify-end'} ${ready ? 'bg-accent text-accent-fg' : 'bg-surface-2 text-muted'}`}
    >
      {/* The hint fills exactly the strip the card uncovers, so its words are never under the card. */}
      <span className="flex flex-col items-center justify-center gap-1 overflow-hidden text-xs font-semibold" style={{ width: Math.abs(offset) }}>
        <Icon className="size-5 shrink-0" />
        <span className="whitespace-nowrap">{label}</span>
      </span>
    </div>
  );
}

function CardButton({ label, pressed, hasPopup, onClick, children }: { label: string; pressed?: boolean; hasPopup?: boolean; onClick(): void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-haspopup={hasPopup ? 'dialog' : undefined}
      onClick={onClick}
      className="inline-flex size-10 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-text"
    >
      {children}
    </button>
  );
}
