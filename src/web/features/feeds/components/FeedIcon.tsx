import { useEffect, useState } from 'react';
import type { Feed } from '../../../../common/api.js';

export interface FeedIconProps {
  /** A Feed, a feed summary (icon by URL only) or an article's feed fields. */
  feed: Pick<Feed, 'title'> & Partial<Pick<Feed, 'favicon_base64' | 'favicon_type' | 'favicon_url'>>;
  /** sm: 16 px (lists, cards), md: 32 px (feed management). */
  size?: 'sm' | 'md';
  className?: string;
}

const sizes = {
  sm: { box: 'size-4 rounded-[4px] text-[10px]', px: 16 },
  md: { box: 'size-8 rounded-lg text-sm', px: 32 },
} as const;

/** The icon's media type: the stored one, else guessed from the data (base64 of "<svg" / "<?xml" is SVG). */
function mediaType(base64: string, stored: string | null): string {
  if (stored && /^image\/[\w.+-]+$/.test(stored)) return stored;
  return /^(PHN2|PD94)/.test(base64) ? 'image/svg+xml' : 'image/png';
}

/** The first letter of the title (or "?"), for the letter tile (dashboard.md §3 "Feed"). */
export function feedInitial(title: string | null | undefined): string {
  const first = Array.from((title ?? '').trim())[0];
  return first ? first.toLocaleUpperCase() : '?';
}

/**
 * A feed's icon: the stored image (icons are stored, never hot-linked), or a letter tile when the
 * feed has none or the image does not load (§8 "Favicon load failure"). Decorative: the feed's title stands
 * beside it wherever it is used.
 */
export function FeedIcon({ feed, size = 'sm', className = '' }: FeedIconProps) {
  const [failed, setFailed] = useState(false);
  const data = feed.favicon_base64;
  // Small icons come inline; larger ones by their cached, content-addressed URL (server feeds/icons.ts).
  const src = data ? `data:${mediaType(data, feed.favicon_type ?? null)};base64,${data}` : (feed.favicon_url ?? null);
  useEffect(() => setFailed(false), [src]);
  const { box, px } = sizes[size];

  if (src && !failed) {
    return <img src={src} alt="" aria-hidden width={px} height={px} onError={() => setFailed(true)} className={`${box} shrink-0 object-contain ${className}`} />;
  }
  return (
    <span
      aria-hidden
      data-testid="feed-letter-tile"
      className={`${box} inline-flex shrink-0 select-none items-center justify-center bg-accent-soft font-semibold leading-none text-accent ${className}`}
    >
      {feedInitial(feed.title)}
    </span>
  );
}
