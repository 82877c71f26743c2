import { describe, expect, it } from 'vitest';
import type { Folder } from '../../../common/api.js';
import { makeFeed } from '../../test/testFeeds.js';
import { applyFeedOrder, buildLayout, diffLayouts, feedsForLayout, flattenLayout, foldersForLayout, moveFeed, moveFolder, visibleRows } from './tree.js';

const folder = (id: number, sort_order: number, name = `Folder ${id}`): Folder => ({ id, name, feeds: [], sort_order, created_at: '2026-11-22T07:00:00.000Z' });

describe('the sidebar tree (dashboard.md §2 "Sidebar", §4 "Folders")', () => {
  const feeds = [
    makeFeed({ id: 1, folder_id: 20 }),
    makeFeed({ id: 2 }),
    makeFeed({ id: 3, folder_id: 10 }),
    makeFeed({ id: 4, folder_id: 20 }),
    makeFeed({ id: 5, folder_id: 99 }),
  ];
  const folders = [folder(20, 1), folder(10, 0), folder(30, 2)];

  it('puts folders in their order, each with its feeds in feed order, and the rest at the root (an unknown folder too)', () => {
    expect(buildLayout(feeds, folders)).toEqual({
      folders: [
        { id: 10, feeds: [3] },
        { id: 20, feeds: [1, 4] },
        { id: 30, feeds: [] },
      ],
      root: [2, 5],
    });
  });

  it('moves a feed into a folder at a place, out to the root, and between folders', () => {
    const layout = buildLayout(feeds, folders);
    expect(moveFeed(layout, 2, 20, 1).folders[1]).toEqual({ id: 20, feeds: [1, 2, 4] });
    expect(moveFeed(layout, 2, 20, 1).root).toEqual([5]);
    expect(moveFeed(layout, 4, 'root').root).toEqual([2, 5, 4]);
    expect(moveFeed(layout, 3, 30).folders.map((f) => f.feeds)).toEqual([[], [1, 4], [3]]);
    expect(moveFolder(layout, 2, 0).folders.map((f) => f.id)).toEqual([30, 10, 20]);
  });

  it('tells which calls a drop needs', () => {
    const layout = buildLayout(feeds, folders);
    expect(diffLayouts(layout, layout, 2)).toEqual({ kind: 'none' });
    expect(diffLayouts(layout, moveFolder(layout, 0, 1))).toEqual({ kind: 'folders', order: [20, 10, 30] });
    expect(diffLayouts(layout, moveFeed(layout, 4, 20, 0), 4)).toEqual({ kind: 'order', feedId: 4, group: 20, order: [4, 1] });
    expect(diffLayouts(layout, moveFeed(layout, 1, 'root', 0), 1)).toEqual({ kind: 'move', feedId: 1, from: 20, to: 'root', order: [1, 2, 5] });
  });

  it('applies a group sort the way the server does: named feeds first, the others keep their order after them', () => {
    expect(applyFeedOrder(feeds, [4, 1]).map((f) => [f.id, f.sort_order])).toEqual([
      [4, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [5, 4],
    ]);
  });

  it('writes a layout back into the feed and folder lists (the optimistic cache)', () => {
    const layout = buildLayout(feeds, folders);
    const moved = moveFeed(layout, 2, 10, 0);
    const change = diffLayouts(layout, moved, 2);
    const nextFeeds = feedsForLayout(feeds, moved, change);
    expect(nextFeeds.find((f) => f.id === 2)!.folder_id).toBe(10);
    expect(nextFeeds.map((f) => f.id)).toEqual([2, 3, 1, 4, 5]);
    expect(buildLayout(nextFeeds, foldersForLayout(folders, moved))).toEqual(moved);
    expect(foldersForLayout(folders, moved).map((f) => [f.id, f.sort_order, f.feeds])).toEqual([
      [10, 0, [2, 3]],
      [20, 1, [1, 4]],
      [30, 2, []],
    ]);
  });
});

describe('the drawn rows of the tree (docs/decisions.md "Sidebar at scale")', () => {
  const feedsFor = (entries: [number, number | null][]) => entries.map(([id, folder_id]) => makeFeed({ id, folder_id }));
  const folderList = [folder(10, 0), folder(11, 1)];
  const layout = buildLayout(
    feedsFor([
      [1, 10],
      [2, 10],
      [3, null],
      [4, null],
    ]),
    folderList,
  );

  it('lists each folder, its feeds (or its empty note) when open, then the root feeds and the drop hint', () => {
    expect(flattenLayout(layout, () => true).map((r) => r.key)).toEqual(['folder-10', 'feed-1', 'feed-2', 'folder-11', 'empty-11', 'feed-3', 'feed-4']);
    expect(flattenLayout(layout, (id) => id !== 10, true).map((r) => r.key)).toEqual(['folder-10', 'folder-11', 'empty-11', 'feed-3', 'feed-4', 'hint']);
  });

  it('draws the window and the pinned rows wherever they are, in tree order', () => {
    const rows = flattenLayout(layout, () => true);
    expect(visibleRows(rows, 2, 4, new Set()).map((r) => [r.row.key, r.index])).toEqual([
      ['feed-2', 2],
      ['folder-11', 3],
    ]);
    expect(visibleRows(rows, 2, 4, new Set(['folder-10', 'feed-4'])).map((r) => r.index)).toEqual([0, 2, 3, 6]);
    expect(visibleRows(rows, -5, 99, new Set()).length).toBe(rows.length);
  });
});
