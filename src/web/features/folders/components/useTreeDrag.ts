import {
  AutoScrollActivator,
  MeasuringStrategy,
  type Announcements,
  type DndContextProps,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Folder } from '../../../../common/api.js';
import { useDragEndClickGuard, useSidebarDragSensors } from '../../../components/sidebar/sidebarDrag.js';
import { feedTitle, type FeedSummary } from '../../feeds/index.js';
import { buildLayout, feedsOf, groupOf, moveFeed, moveFolder, sortedFolders, type Group, type Layout } from '../tree.js';
import { useLayoutCommit } from '../useLayoutCommit.js';
import { keyboardCoordinates, parse, treeCollisionDetection } from './treeDrag.js';

/**
 * The drag state of the sidebar's folder tree: the layout shown while a drag is under way (the server's otherwise),
 * the spoken announcements, the handlers of the DndContext and the commit on drop (useLayoutCommit).
 * `isExpanded` says whether a folder shows its feeds (a collapsed one takes a feed only on drop).
 */
export function useTreeDrag(feeds: FeedSummary[], folders: Folder[], isExpanded: (folderId: number) => boolean) {
  const { t } = useTranslation();
  const commit = useLayoutCommit();
  const serverLayout = useMemo(() => buildLayout(feeds, folders), [feeds, folders]);
  const [dragLayout, setDragLayout] = useState<Layout | null>(null);
  const layout = dragLayout ?? serverLayout;
  const [activeId, setActiveId] = useState<UniqueIdentifier | null>(null);
  const before = useRef<Layout | null>(null);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;

  const feedById = useMemo(() => new Map(feeds.map((f) => [f.id, f])), [feeds]);
  const folderById = useMemo(() => new Map(sortedFolders(folders).map((f) => [f.id, f])), [folders]);
  const active = parse(activeId);

  /* The move to another group during a drag can put a new item under the pointer; for one frame the previous target stays. */
  const justMoved = useRef(false);
  const lastOver = useRef<UniqueIdentifier | null>(null);
  useEffect(() => {
    requestAnimationFrame(() => (justMoved.current = false));
  }, [dragLayout]);

  // A click that ends a drag must not also open the feed or toggle the folder under the pointer.
  const clickGuard = useDragEndClickGuard();

  const sensors = useSidebarDragSensors(keyboardCoordinates);

  const collisionDetection = useMemo(() => treeCollisionDetection(justMoved, lastOver), []);

  const name = (id: UniqueIdentifier | null | undefined): string => {
    const p = parse(id);
    if (p.type === 'feed') {
      const feed = feedById.get(p.id);
      return feed ? feedTitle(feed, t) : '';
    }
    if (p.type === 'folder') return folderById.get(p.id)?.name ?? '';
    return t('folders.root');
  };
  const groupName = (group: Group | undefined) =>
    group === undefined || group === 'root' ? t('folders.dnd.inRoot') : t('folders.dnd.inFolder', { name: folderById.get(group)?.name ?? '' });

  /** Where the dragged thing would land, in words (the announcements of a keyboard drag, de/en). */
  const position = (activeDrag: UniqueIdentifier, over: UniqueIdentifier | null | undefined): string => {
    const dragged = parse(activeDrag);
    const target = parse(over);
    const current = layoutRef.current;
    if (dragged.type === 'folder') {
      const index = current.folders.findIndex((f) => f.id === (target.type === 'folder' ? target.id : dragged.id));
      return t('folders.dnd.folderPosition', { name: name(activeDrag), position: index + 1, count: current.folders.length });
    }
    if (dragged.type !== 'feed') return '';
    const from = groupOf(current, dragged.id);
    if (target.type === 'folder' && (!isExpanded(target.id) || from !== target.id)) {
      return t('folders.dnd.overFolder', { title: name(activeDrag), folder: name(over) });
    }
    // Over a feed it takes that feed's place (in its own group the others make room; in another group it goes before it).
    const group = target.type === 'feed' ? groupOf(current, target.id) : target.type === 'root' ? 'root' : from;
    if (group === undefined) return '';
    const list = feedsOf(current, group);
    const joins = group !== from;
    const index = target.type === 'feed' ? list.indexOf(target.id) : joins ? list.length : list.indexOf(dragged.id);
    return t('folders.dnd.feedPosition', { title: name(activeDrag), position: index + 1, count: list.length + (joins ? 1 : 0), group: groupName(group) });
  };

  const announcements: Announcements = {
    onDragStart: ({ active: a }) => t(parse(a.id).type === 'folder' ? 'folders.dnd.pickedUpFolder' : 'folders.dnd.pickedUpFeed', { name: name(a.id), title: name(a.id) }),
    onDragOver: ({ active: a, over }) => (over ? position(a.id, over.id) : t('folders.dnd.nowhere', { name: name(a.id) })),
    onDragEnd: ({ active: a, over }) =>
      over ? `${t('folders.dnd.dropped', { name: name(a.id) })} ${position(a.id, over.id)}` : t('folders.dnd.cancelled', { name: name(a.id) }),
    onDragCancel: ({ active: a }) => t('folders.dnd.cancelled', { name: name(a.id) }),
  };

  /*
   * A keyboard drag leaves the groups as they are until the drop: its moves go from one drop place to the next, and
   * a list that changed under it would send the next arrow press somewhere unexpected. Pointer drags move the feed
   * into the group under the pointer at once, so that group makes room for it.
   */
  const keyboardDrag = useRef(false);

  // After a keyboard drop the handle keeps the focus, also when its row now lives in another list (a new element).
  const treeRef = useRef<HTMLDivElement>(null);
  const [refocus, setRefocus] = useState<{ id: UniqueIdentifier; group?: Group } | null>(null);
  useEffect(() => {
    if (refocus === null) return;
    // Wait for the lists to show the drop (the cache is set with it); a failed drop gives up after a moment.
    const dragged = parse(refocus.id);
    const placed = dragged.type !== 'feed' || groupOf(layout, dragged.id) === refocus.group;
    const handle = treeRef.current?.querySelector<HTMLElement>(`[data-drag-handle="${String(refocus.id)}"]`);
    if (placed && handle) {
      if (document.activeElement !== handle) handle.focus();
      setRefocus(null);
      return;
    }
    const timer = setTimeout(() => setRefocus(null), 2000);
    return () => clearTimeout(timer);
  }, [refocus, layout]);

  const onDragStart = ({ active: a, activatorEvent }: DragStartEvent) => {
    keyboardDrag.current = typeof KeyboardEvent !== 'undefined' && activatorEvent instanceof KeyboardEvent;
    before.current = serverLayout;
    setDragLayout(serverLayout);
    setActiveId(a.id);
    lastOver.current = null;
    clickGuard.started();
  };

  /** A feed dragged over another group joins it at once, so its feeds make room where it would land. */
  const onDragOver = ({ active: a, over }: DragOverEvent) => {
    const dragged = parse(a.id);
    if (dragged.type !== 'feed' || !over) return;
    lastOver.current = over.id;
    if (keyboardDrag.current) return;
    const current = layoutRef.current;
    const from = groupOf(current, dragged.id);
    const target = parse(over.id);
    let to: Group;
    let index = Number.POSITIVE_INFINITY;
    if (target.type === 'feed') {
      const group = groupOf(current, target.id);
      if (group === undefined || group === from) return;
      to = group;
      const list = feedsOf(current, group);
      const translated = a.rect.current.translated;
      const below = translated ? translated.top + translated.height / 2 > over.rect.top + over.rect.height / 2 : false;
      index = list.indexOf(target.id) + (below ? 1 : 0);
    } else if (target.type === 'folder') {
      // Over a collapsed folder the feed is only shown as going there (the header lights up); it moves on drop.
      if (!isExpanded(target.id) || from === target.id) return;
      to = target.id;
    } else if (target.type === 'root') {
      if (from === 'root') return;
      to = 'root';
    } else return;
    justMoved.current = true;
    setDragLayout(moveFeed(current, dragged.id, to, index));
  };

  const finish = (result?: Layout) => {
    if (keyboardDrag.current && activeId !== null) {
      const dragged = parse(activeId);
      const group = dragged.type === 'feed' ? groupOf(result ?? before.current ?? serverLayout, dragged.id) : undefined;
      setRefocus({ id: activeId, group });
    }
    setActiveId(null);
    setDragLayout(null);
    before.current = null;
    clickGuard.finished();
  };

  const onDragEnd = ({ active: a, over }: DragEndEvent) => {
    const start = before.current;
    let next = layoutRef.current;
    const dragged = parse(a.id);
    const target = parse(over?.id);
    if (!start || !over) return finish();
    let droppedOnFolder: number | undefined;
    if (dragged.type === 'folder' && target.type === 'folder') {
      const from = next.folders.findIndex((f) => f.id === dragged.id);
      const to = next.folders.findIndex((f) => f.id === target.id);
      next = moveFolder(next, from, to);
    } else if (dragged.type === 'feed') {
      const group = groupOf(next, dragged.id);
      const targetGroup = target.type === 'feed' ? groupOf(next, target.id) : undefined;
      if (target.type === 'feed' && group !== undefined && targetGroup === group) {
        const list = feedsOf(next, group);
        const from = list.indexOf(dragged.id);
        const to = list.indexOf(target.id);
        if (from !== to) next = moveFeed(next, dragged.id, group, to);
      } else if (target.type === 'feed' && targetGroup !== undefined) {
        // A keyboard drop on a feed of another group: the dragged feed takes its place there.
        next = moveFeed(next, dragged.id, targetGroup, feedsOf(next, targetGroup).indexOf(target.id));
      } else if (target.type === 'folder') {
        droppedOnFolder = target.id;
        if (group !== target.id) next = moveFeed(next, dragged.id, target.id);
      } else if (target.type === 'root' && group !== 'root') {
        next = moveFeed(next, dragged.id, 'root');
      }
    }
    finish(next);
    void commit(start, next, { feedId: dragged.type === 'feed' ? dragged.id : undefined, droppedOnFolder });
  };

  const draggedFromFolder = active.type === 'feed' && before.current !== null && groupOf(before.current, active.id) !== 'root';

  const dndProps: DndContextProps = {
    sensors,
    collisionDetection,
    measuring: { droppable: { strategy: MeasuringStrategy.Always } },
    /*
     * Near the sidebar's edges the drag scrolls the sidebar (the tree is long; its rows appear as they come into
     * view), never the page behind it. By the pointer, not the dragged row's box: that box is the size of a row
     * but follows the overlay, and near the top it would keep asking to go up.
     */
    autoScroll: {
      activator: AutoScrollActivator.Pointer,
      canScroll: (element) => element !== document.scrollingElement && element !== document.body,
      threshold: { x: 0, y: 0.15 },
      acceleration: 20,
    },
    onDragStart,
    onDragOver,
    onDragEnd,
    onDragCancel: () => finish(),
    accessibility: { announcements, screenReaderInstructions: { draggable: t('folders.dnd.instructions') } },
  };

  return { layout, active, feedById, folderById, treeRef, clickGuard, dndProps, draggedFromFolder };
}
