/**
 * App-wide events (dashboard.md §7 "Browser events", plus logout from public-area-and-api.md §4).
 * A thin typed layer over window CustomEvents so that unrelated parts of the app stay in step. Changes to data are
 * announced through lib/mutations (a mutation names what it changed); only the session (logout) and toasts emit here.
 */
export type AppEvent =
  | 'logout'
  | 'feeds-updated'
  | 'folders-updated'
  | 'reading-lists-updated'
  | 'reading-list-updated'
  | 'unread-counts-updated'
  | 'force-unread-update'
  | 'force-article-update'
  | 'article-read-status-changed'
  | 'filters-updated'
  | 'toast';

/** What reading-list-updated carries: the list whose members changed and, for a single article, its new flag. */
export interface MembershipChange {
  list_id?: number;
  article_id?: number;
  /** Whether the article is in any reading list after the change (the card's filled button, §2). */
  in_reading_list?: boolean;
}

/** What the app-wide article-read-status-changed event carries (§7). `source` lets a list skip its own events. */
export interface ReadStatusChange {
  is_read: boolean;
  ids?: number[];
  feed_id?: number;
  all?: boolean;
  source?: string;
}

export function emit<T = unknown>(name: AppEvent, detail?: T): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Subscribes and returns the unsubscribe function (fits useEffect's cleanup). */
export function on<T = unknown>(name: AppEvent, handler: (detail: T) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<T>).detail);
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}
