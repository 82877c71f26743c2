import type { Feed } from '../../../common/api.js';

/**
 * The feed fields feed management shows beside the spec's (a feed's health and its "always load the original"
 * setting). Optional here so the screen works with servers that do not send them yet; `?? default` reads them.
 */
export type ManagedFeed = Feed &
  Partial<{
    always_load_original: boolean;
    next_check_at: string | null;
    /** Consecutive failed refreshes; 0 when healthy. */
    error_count: number;
    article_count: number;
    unread_count: number;
  }>;

/** A broken feed: its last refresh failed (dashboard.md §2 "Feed management screen"; the sidebar marks the same). */
export function isBroken(feed: Pick<Feed, 'last_error_code'>): boolean {
  return feed.last_error_code !== null && feed.last_error_code !== '';
}

export interface FeedListFilter {
  /** Matched case-insensitively against the shown title, the feed's own title and the URL. */
  query: string;
  brokenOnly: boolean;
}

/** The feeds a search and the broken-feeds filter leave, in their order. `title` is what the user sees. */
export function filterFeeds<F extends Feed>(feeds: readonly F[], filter: FeedListFilter, title: (feed: F) => string): F[] {
  const needle = filter.query.trim().toLocaleLowerCase();
  return feeds.filter((feed) => {
    if (filter.brokenOnly && !isBroken(feed)) return false;
    if (!needle) return true;
    return [title(feed), feed.original_title, feed.url].some((text) => text.toLocaleLowerCase().includes(needle));
  });
}
