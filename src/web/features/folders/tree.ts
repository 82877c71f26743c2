import type { Feed, Folder } from '../../../common/api.js';

/**
 * The sidebar's feed tree as plain data (dashboard.md §2 "Sidebar", §4 "Folders"): the folders in their order, each
 * with its feeds, then the feeds outside any folder ("the root"). A feed's place comes from Feed.folder_id; the order
 * inside every group is the user's one feed order (GET /api/feeds and /api/feeds/summaries answer in it), as the
 * server keeps it (docs/decisions.md "Folders"). Kept free of React so the moves of drag and drop can be tested on their own.
 */

/** Where a feed sits: a folder id, or the root. */
export type Group = number | 'root';

/** What the tree needs of a feed: a Feed or a feed summary (features/feeds FeedSummary). */
type PlacedFeed = Pick<Feed, 'id' | 'folder_id' | 'sort_order'>;

export interface Layout {
  folders: { id: number; feeds: number[] }[];
  root: number[];
}

export function sortedFolders(folders: readonly Folder[]): Folder[] {
  return [...folders].sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
}

/** Builds the tree from the feed list (in its order) and the folders; a feed naming an unknown folder shows at the root. */
export function buildLayout(feeds: readonly Pick<Feed, 'id' | 'folder_id'>[], folders: readonly Folder[]): Layout {
  const ordered = sortedFolders(folders);
  const byFolder = new Map<number, number[]>(ordered.map((f) => [f.id, []]));
  const root: number[] = [];
  for (const feed of feeds) {
    const group = feed.folder_id === null ? undefined : byFolder.get(feed.folder_id);
    (group ?? root).push(feed.id);
  }
  return { folders: ordered.map((f) => ({ id: f.id, feeds: byFolder.get(f.id)! })), root };
}

export function groupOf(layout: Layout, feedId: number): Group | undefined {
  if (layout.root.includes(feedId)) return 'root';
  return layout.folders.find((f) => f.feeds.includes(feedId))?.id;
}

export function feedsOf(layout: Layout, group: Group): number[] {
  return group === 'root' ? layout.root : (layout.folders.find((f) => f.id === group)?.feeds ?? []);
}

function withGroup(layout: Layout, group: Group, feeds: number[]): Layout {
  return group === 'root' ? { ...layout, root: feeds } : { ...layout, folders: layout.folders.map((f) => (f.id === group ? { ...f, feeds } : f)) };
}

/** Moves a feed to `index` of `to` (the end when index is past it), from wherever it is. */
export function moveFeed(layout: Layout, feedId: number, to: Group, index = Number.POSITIVE_INFINITY): Layout {
  const from = groupOf(layout, feedId);
  if (from === undefined) return layout;
  let next = withGroup(
    layout,
    from,
    feedsOf(layout, from).filter((id) => id !== feedId),
  );
  const target = [...feedsOf(next, to)];
  target.splice(Math.max(0, Math.min(index, target.length)), 0, feedId);
  next = withGroup(next, to, target);
  return next;
}

/** Moves a folder from one position to another. */
export function moveFolder(layout: Layout, from: number, to: number): Layout {
  const folders = [...layout.folders];
  const [moved] = folders.splice(from, 1);
  if (!moved) return layout;
  folders.splice(to, 0, moved);
  return { ...layout, folders };
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** What one drop changed, and so which calls it needs (§7 "Folders", "Feeds"). */
export type Change =
  | { kind: 'none' }
  | { kind: 'folders'; order: number[] }
  /** The feed stayed in its group but took another place in it. */
  | { kind: 'order'; feedId: number; group: Group; order: number[] }
  /** The feed went into another folder or back to the root; `order` is its new group in the new order. */
  | { kind: 'move'; feedId: number; from: Group; to: Group; order: number[] };

export function diffLayouts(before: Layout, after: Layout, feedId?: number): Change {
  const beforeFolders = before.folders.map((f) => f.id);
  const afterFolders = after.folders.map((f) => f.id);
  if (!same(beforeFolders, afterFolders)) return { kind: 'folders', order: afterFolders };
  if (feedId === undefined) return { kind: 'none' };
  const from = groupOf(before, feedId);
  const to = groupOf(after, feedId);
  if (from === undefined || to === undefined) return { kind: 'none' };
  if (from !== to) return { kind: 'move', feedId, from, to, order: feedsOf(after, to) };
  const order = feedsOf(after, to);
  return same(feedsOf(before, from), order) ? { kind: 'none' } : { kind: 'order', feedId, group: to, order };
}

/**
 * The feed list after POST /api/feeds/sort with `named` (the server's rule, docs/decisions.md "Folders"): the named
 * feeds take the first places in the given order, all others keep their relative order after them.
 */
export function applyFeedOrder<T extends PlacedFeed>(feeds: readonly T[], named: readonly number[]): T[] {
  const byId = new Map(feeds.map((f) => [f.id, f]));
  const first = named.map((id) => byId.get(id)).filter((f): f is T => f !== undefined);
  const set = new Set(named);
  return [...first, ...feeds.filter((f) => !set.has(f.id))].map((f, i) => (f.sort_order === i ? f : { ...f, sort_order: i }));
}

/** The feed list as the layout has it: each feed's folder_id from its group, and the order of the changed group. */
export function feedsForLayout<T extends PlacedFeed>(feeds: readonly T[], layout: Layout, change: Change): T[] {
  const folderOf = new Map<number, number | null>();
  for (const f of layout.folders) for (const id of f.feeds) folderOf.set(id, f.id);
  for (const id of layout.root) folderOf.set(id, null);
  const placed = feeds.map((f) => {
    const folderId = folderOf.has(f.id) ? folderOf.get(f.id)! : f.folder_id;
    return folderId === f.folder_id ? f : { ...f, folder_id: folderId };
  });
  return change.kind === 'order' || change.kind === 'move' ? applyFeedOrder(placed, change.order) : placed;
}

/** The folder list as the layout has it: its order and each folder's feeds. */
export function foldersForLayout(folders: readonly Folder[], layout: Layout): Folder[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  return layout.folders.flatMap((entry, i) => {
    const folder = byId.get(entry.id);
    return folder ? [{ ...folder, sort_order: i, feeds: entry.feeds }] : [];
  });
}

/**
 * One line of the sidebar's feed tree as it is drawn (the tree is windowed: only the lines in view are in the
 * document, docs/decisions.md "Sidebar at scale"): a folder's header, a feed (in a folder or at the root), the note
 * of an empty folder, or the drop hint of the root area while a feed is dragged out of its folder.
 */
export type Row =
  | { kind: 'folder'; key: string; id: number; feedCount: number }
  | { kind: 'feed'; key: string; id: number; group: Group }
  | { kind: 'empty'; key: string; folder: number }
  | { kind: 'hint'; key: string };

/**
 * The lines of the tree in their order: each folder's header, then (when expanded) its feeds or its "empty" note,
 * then the root feeds and, while `hint`, the root's drop hint.
 */
export function flattenLayout(layout: Layout, isExpanded: (folderId: number) => boolean, hint = false): Row[] {
  const rows: Row[] = [];
  for (const folder of layout.folders) {
    rows.push({ kind: 'folder', key: `folder-${folder.id}`, id: folder.id, feedCount: folder.feeds.length });
    if (!isExpanded(folder.id)) continue;
    if (folder.feeds.length === 0) rows.push({ kind: 'empty', key: `empty-${folder.id}`, folder: folder.id });
    for (const id of folder.feeds) rows.push({ kind: 'feed', key: `feed-${id}`, id, group: folder.id });
  }
  for (const id of layout.root) rows.push({ kind: 'feed', key: `feed-${id}`, id, group: 'root' });
  if (hint) rows.push({ kind: 'hint', key: 'hint' });
  return rows;
}

/**
 * The rows to draw for a scroll window of `first` … `last` (indices, inclusive-exclusive), plus the `pinned` keys
 * wherever they are (the dragged row, the focused row), in tree order.
 */
export function visibleRows(rows: readonly Row[], first: number, last: number, pinned: ReadonlySet<string>): { row: Row; index: number }[] {
  const out: { row: Row; index: number }[] = [];
  const lo = Math.max(0, first);
  const hi = Math.min(rows.length, last);
  if (pinned.size) {
    for (let i = 0; i < lo; i++) if (pinned.has(rows[i].key)) out.push({ row: rows[i], index: i });
  }
  for (let i = lo; i < hi; i++) out.push({ row: rows[i], index: i });
  if (pinned.size) {
    for (let i = hi; i < rows.length; i++) if (pinned.has(rows[i].key)) out.push({ row: rows[i], index: i });
  }
  return out;
}
