import type { Feed, FeedFilter, FeedSummariesResponse } from '../../common/api.js';

/** A feed as GET /api/feeds answers it, for the web tests. */
export function makeFeed(overrides: Partial<Feed> & Pick<Feed, 'id'>): Feed {
  const title = overrides.title ?? `Feed ${overrides.id}`;
  return {
    title,
    original_title: title,
    custom_title: null,
    url: `https://example.org/${overrides.id}/feed.xml`,
    site_url: `https://example.org/${overrides.id}/`,
    description: null,
    favicon_base64: null,
    favicon_type: null,
    favicon_url: null,
    is_muted: false,
    muted_permanently: false,
    muted_until: null,
    sort_order: overrides.id,
    folder_id: null,
    last_error_code: null,
    last_fetched_at: '2026-11-22T07:00:00.000Z',
    next_check_at: '2026-11-22T08:00:00.000Z',
    error_count: 0,
    article_count: 0,
    unread_count: 0,
    always_load_original: false,
    created_at: '2026-11-01T07:00:00.000Z',
    ...overrides,
  };
}

/**
 * The same feeds as GET /api/feeds/summaries answers them (in the given order): what a test serves beside the full
 * list so that both views of its feeds agree.
 */
export function summariesOf(
  feeds: readonly (Pick<Feed, 'id' | 'title' | 'folder_id' | 'favicon_url' | 'last_error_code' | 'is_muted' | 'muted_permanently' | 'muted_until' | 'last_fetched_at'> &
    Partial<Pick<Feed, 'always_load_original'>>)[],
): FeedSummariesResponse {
  const muted: FeedSummariesResponse['muted'] = {};
  for (const f of feeds) if (f.is_muted) muted[String(f.id)] = f.muted_permanently ? null : f.muted_until;
  return {
    ids: feeds.map((f) => f.id),
    titles: feeds.map((f) => f.title),
    folders: feeds.map((f) => f.folder_id),
    icons: feeds.map((f) => f.favicon_url?.replace('/api/icons/', '') ?? null),
    errors: feeds.map((f) => f.last_error_code),
    muted,
    unfetched: feeds.filter((f) => !f.last_fetched_at).map((f) => f.id),
    always_load_original: feeds.filter((f) => f.always_load_original).map((f) => f.id),
  };
}

export function makeFilter(overrides: Partial<FeedFilter> & Pick<FeedFilter, 'id' | 'filter_text'>): FeedFilter {
  return {
    filter_type: 'include',
    filter_scope: 'both',
    feed_id: 1,
    user_feed_id: 11,
    created_at: '2026-11-22T07:00:00.000Z',
    ...overrides,
  };
}
