import { closestCorners, pointerWithin, type CollisionDetection, type KeyboardCoordinateGetter, type UniqueIdentifier } from '@dnd-kit/core';
import { sortableKeyboardCoordinates, type SortingStrategy } from '@dnd-kit/sortable';
import type { RefObject } from 'react';
import type { Group } from '../tree.js';

/** The drag-and-drop rules of the sidebar's folder tree (@dnd-kit): the drag ids, the keyboard's places and the collisions. */

/* Drag ids: "feed-3", "folder-2" and the root area. */
export const ROOT = 'root';
export const feedDndId = (id: number) => `feed-${id}`;
export const folderDndId = (id: number) => `folder-${id}`;
type Parsed = { type: 'feed'; id: number } | { type: 'folder'; id: number } | { type: 'root' } | { type: 'none' };
export function parse(id: UniqueIdentifier | null | undefined): Parsed {
  if (id === ROOT) return { type: 'root' };
  const match = /^(feed|folder)-(\d+)$/.exec(String(id ?? ''));
  return match ? { type: match[1] as 'feed' | 'folder', id: Number(match[2]) } : { type: 'none' };
}

/**
 * Keyboard moves go from one drop place to the next (sortableKeyboardCoordinates), among the places the dragged
 * thing may go: a folder only among folders; a feed among feeds, folder headers and the root area when it is empty.
 */
export const keyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { context } = args;
  const active = parse(context.active?.id);
  const enabled = context.droppableContainers.getEnabled();
  // (The root area knows whether it holds feeds: in the windowed tree its rows need not be drawn.)
  const rootHasFeeds = enabled.some(
    (c) =>
      (c.id === ROOT && (c.data.current as { hasFeeds?: boolean } | undefined)?.hasFeeds === true) ||
      (c.id !== context.active?.id && (c.data.current as { group?: Group } | undefined)?.group === 'root'),
  );
  const allowed = (id: UniqueIdentifier) => {
    const target = parse(id);
    if (active.type === 'folder') return target.type === 'folder';
    // The root area holds the root feeds: aiming at it only makes sense when it has none.
    return target.type === 'root' ? !rootHasFeeds : true;
  };
  // sortableKeyboardCoordinates asks the map for getEnabled() and get(id): a copy that knows only the allowed places.
  const filtered = new Map(context.droppableContainers) as unknown as typeof context.droppableContainers;
  filtered.getEnabled = () => enabled.filter((c) => allowed(c.id));
  return sortableKeyboardCoordinates(event, { ...args, context: { ...context, droppableContainers: filtered } });
};

/**
 * Folders do not make room while one is dragged (a folder is a block of varying height, which the list strategies,
 * measuring by the headers, would shift by the wrong amounts): a line shows where the dragged folder will go.
 */
export const folderSortingStrategy: SortingStrategy = () => null;

/**
 * Where a drag is over. `justMoved` is set while a feed has just joined another group during a pointer drag (the
 * move can put a new item under the pointer; for one frame the previous target, `lastOver`, stays).
 */
export function treeCollisionDetection(justMoved: RefObject<boolean>, lastOver: RefObject<UniqueIdentifier | null>): CollisionDetection {
  return (args) => {
    const dragged = parse(args.active.id);
    if (dragged.type === 'folder') {
      // Among the folder headers, the one whose top is nearest the dragged folder's top or whose bottom is nearest
      // its bottom (the dragged block can be tall with its feeds, so its centre says little; the keyboard's next
      // place puts one of the two edges exactly on the target).
      const { top, bottom } = args.collisionRect;
      const distance = (rect: { top: number; bottom: number }) => Math.min(Math.abs(rect.top - top), Math.abs(rect.bottom - bottom));
      return args.droppableContainers
        .filter((c) => parse(c.id).type === 'folder' && args.droppableRects.get(c.id))
        .map((c) => ({ id: c.id, data: { droppableContainer: c, value: distance(args.droppableRects.get(c.id)!) } }))
        .sort((a, b) => a.data.value - b.data.value);
    }
    if (justMoved.current && lastOver.current !== null) return [{ id: lastOver.current }];
    // Under the pointer: a feed or a folder header before the root area that holds the root feeds.
    const hits = pointerWithin(args);
    if (hits.length) {
      const rank = (id: UniqueIdentifier) => (parse(id).type === 'root' ? 1 : 0);
      return [...hits].sort((a, b) => rank(a.id) - rank(b.id));
    }
    // Keyboard (no pointer) and the gaps between rows: the nearest place.
    return closestCorners(args);
  };
}
