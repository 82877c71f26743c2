import { expect } from 'vitest';
import type { Feed, FeedSummariesResponse } from '../../common/api.js';

/** The feed summaries of a user without feeds. */
export const EMPTY_SUMMARIES: FeedSummariesResponse = { ids: [], titles: [], folders: [], icons: [], errors: [], muted: {}, unfetched: [], always_load_original: [] };

/** The summaries' arrays read as one [id, title, folder_id, icon, last_error_code] row per feed, in their order. */
export function summaryRows(s: FeedSummariesResponse): [number, string, number | null, string | null, string | null][] {
  // Every array has one entry per feed: a shorter or longer one is a broken answer.
  for (const field of [s.titles, s.folders, s.icons, s.errors]) expect(field).toHaveLength(s.ids.length);
  return s.ids.map((id, i) => [id, s.titles[i], s.folders[i], s.icons[i], s.errors[i]]);
}

/**
 * What GET /api/feeds/summaries must answer, worked out from the full list (GET /api/feeds, which reads the feeds
 * themselves): the summaries read copies of the feeds' columns, and this is what they are checked against.
 */
export function summariesFromFullList(feeds: readonly Feed[]): FeedSummariesResponse {
  const muted: FeedSummariesResponse['muted'] = {};
  for (const f of feeds) if (f.is_muted) muted[String(f.id)] = f.muted_permanently ? null : f.muted_until;
  return {
    ids: feeds.map((f) => f.id),
    titles: feeds.map((f) => f.title),
    folders: feeds.map((f) => f.folder_id),
    icons: feeds.map((f) => (f.favicon_url === null ? null : f.favicon_url.replace('/api/icons/', ''))),
    errors: feeds.map((f) => f.last_error_code),
    muted,
    unfetched: feeds.filter((f) => f.last_fetched_at === null).map((f) => f.id),
    always_load_original: feeds.filter((f) => f.always_load_original).map((f) => f.id),
  };
}
