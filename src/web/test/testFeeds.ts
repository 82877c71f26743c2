import type { Feed, FeedFilter } from '../../common/api.js';

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
