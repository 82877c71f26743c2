import type { ReadingList } from '../../common/api.js';

/** A reading list as the server answers it, for the web tests. */
export function makeList(overrides: Partial<ReadingList> & Pick<ReadingList, 'id'>): ReadingList {
  return {
    name: `List ${overrides.id}`,
    description: '',
    is_smart: false,
    rules: [],
    article_count: 0,
    unread_article_count: 0,
    sort_order: overrides.id,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The body of POST/PUT /api/reading-lists as the web app sends it (`toInput` in features/reading-lists/api.ts fills every field). */
export type SentReadingList = Pick<ReadingList, 'name' | 'description' | 'is_smart' | 'rules'>;
