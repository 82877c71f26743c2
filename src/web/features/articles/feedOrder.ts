import type { Feed, Folder } from '../../../common/api.js';

/**
 * The feeds in the sidebar's order (dashboard.md §2 "Sidebar"): the folders' feeds folder by folder, then the feeds
 * outside any folder, as the folders feature lays them out (`buildLayout`).
 */
export function sidebarFeedOrder(layout: { folders: { feeds: number[] }[]; root: number[] }): number[] {
  return [...layout.folders.flatMap((f) => f.feeds), ...layout.root];
}

/** Where the reader is in that order: one feed, the feeds of one folder, or before the first feed (any other view). */
export type Position = { feedId: number } | { folderFeeds: number[] } | null;

/**
 * The next (`dir` 1) or previous (-1) feed with unread articles from `position` (the `n` / `p` shortcuts,
 * docs/decisions.md "Reading flow"), going round at the ends; muted feeds have no count and are skipped. null when
 * no other feed has unread articles.
 */
export function adjacentUnreadFeed(order: number[], counts: Record<string, number>, position: Position, dir: 1 | -1): number | null {
  const n = order.length;
  if (!n) return null;
  const hasUnread = (id: number) => (counts[String(id)] ?? 0) > 0;
  let start: number;
  let skip = new Set<number>();
  if (position && 'feedId' in position) {
    start = order.indexOf(position.feedId);
    skip = new Set([position.feedId]);
  } else if (position && position.folderFeeds.length) {
    const indexes = position.folderFeeds.map((id) => order.indexOf(id)).filter((i) => i >= 0);
    start = indexes.length ? (dir === 1 ? Math.max(...indexes) : Math.min(...indexes)) : -1;
    skip = new Set(position.folderFeeds);
  } else {
    start = -1;
  }
  if (start === -1) start = dir === 1 ? -1 : n;
  for (let step = 1; step <= n; step++) {
    const id = order[(((start + dir * step) % n) + n) % n];
    if (!skip.has(id) && hasUnread(id)) return id;
  }
  return null;
}

/** The feed ids of a folder, in the sidebar's order. */
export function folderFeedIds(feeds: readonly Pick<Feed, 'id' | 'folder_id'>[], folder: Pick<Folder, 'id'>): number[] {
  return feeds.filter((f) => f.folder_id === folder.id).map((f) => f.id);
}
