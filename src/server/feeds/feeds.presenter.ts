import type { Feed, FeedFilter } from '../../common/api.js';
import type { UserFeedRow } from './subscriptions.repository.js';
import type { FilterRow } from './filters.repository.js';
import { presentIcon } from './icons.js';
import { isMuted } from './mute.js';

/**
 * The wire shapes of src/common/api.ts from repository rows. `now` decides the mute state: a timed mute ends by
 * itself, so a muted_until in the past is presented as not muted (and muted_until null).
 */
/** What the user calls a feed: their own title for it, else the feed's (the web app shows "Unbenannter Feed" for ''). */
export const shownFeedTitle = (customTitle: string | null, ownTitle: string | null) => customTitle || ownTitle || '';

export function presentFeed(row: UserFeedRow, now: string): Feed {
  const muted = isMuted(row, now);
  return {
    id: row.feed_id,
    // The web app shows "Unbenannter Feed" for an empty title (dashboard.md §4 "Feed edit").
    title: shownFeedTitle(row.custom_title, row.title),
    original_title: row.title,
    custom_title: row.custom_title,
    url: row.url,
    site_url: row.site_url,
    description: row.description,
    ...(({ base64, type, url }) => ({ favicon_base64: base64, favicon_type: type, favicon_url: url }))(presentIcon(row)),
    is_muted: muted,
    muted_permanently: row.muted_permanently === 1,
    muted_until: muted && row.muted_permanently !== 1 ? row.muted_until : null,
    sort_order: row.sort_order,
    folder_id: row.folder_id,
    last_error_code: row.last_error_code,
    last_fetched_at: row.last_fetched_at,
    next_check_at: row.next_check_at,
    error_count: row.error_count,
    article_count: Number(row.article_count),
    unread_count: Number(row.unread_count),
    always_load_original: row.always_load_original === 1,
    created_at: row.created_at,
  };
}

export function presentFilter(row: FilterRow): FeedFilter {
  return {
    id: row.id,
    filter_type: row.filter_type,
    filter_scope: row.filter_scope,
    filter_text: row.filter_text,
    feed_id: row.feed_id,
    user_feed_id: row.subscription_id,
    created_at: row.created_at,
  };
}
