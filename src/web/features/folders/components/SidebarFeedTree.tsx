import {
  closestCorners,
  DndContext,
  DragOverlay,
  MeasuringStrategy,
  pointerWithin,
  useDroppable,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy, type SortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ChevronRight, Folder as FolderIcon, FolderOpen, GripVertical, Pencil, Trash2 } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEventHandler,
  type PointerEventHandler,
  type ReactNode,
  type TouchEventHandler,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Feed, Folder, UnreadCounts } from '../../../../common/api.js';
import { FeedActionsMenu, FeedIcon, FeedLink, feedTitle } from '../../feeds/index.js';
import { Badge } from '../../../components/sidebar/SidebarItems.js';
import { useDragEndClickGuard, useSidebarDragSensors } from '../../../components/sidebar/sidebarDrag.js';
import { buildLayout, feedsOf, groupOf, moveFeed, moveFolder, sortedFolders, type Group, type Layout } from '../tree.js';
import { useCollapsedFolders } from '../useCollapsedFolders.js';
import { useLayoutCommit } from '../useLayoutCommit.js';
import { DeleteFolderDialog } from './DeleteFolderDialog.js';
import { FolderDialog } from './FolderDialog.js';

/* Drag ids: "feed-3", "folder-2" and the root area. */
const ROOT = 'root';
const feedDndId = (id: number) => `feed-${id}`;
const folderDndId = (id: number) => `folder-${id}`;
type Parsed = { type: 'feed'; id: number } | { type: 'folder'; id: number } | { type: 'root' } | { type: 'none' };
function parse(id: UniqueIdentifier | null | undefined): Parsed {
  if (id === ROOT) return { type: 'root' };
  const match = /^(feed|folder)-(\d+)$/.exec(String(id ?? ''));
  return match ? { type: match[1] as 'feed' | 'folder', id: Number(match[2]) } : { type: 'none' };
}

/**
 * Keyboard moves go from one drop place to the next (sortableKeyboardCoordinates), among the places the dragged
 * thing may go: a folder only among folders; a feed among feeds, folder headers and the root area when it is empty.
 */
const keyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { context } = args;
  const active = parse(context.active?.id);
  const enabled = context.droppableContainers.getEnabled();
  const rootHasFeeds = enabled.some((c) => c.id !== context.active?.id && (c.data.current as { group?: Group } | undefined)?.group === 'root');
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

export interface SidebarFeedTreeProps {
  feeds: Feed[];
  folders: Folder[];
  /** The feed whose view is open (from the query), for aria-current. */
  activeFeed: string | null;
  counts?: UnreadCounts['counts'];
}

/**
 * The sidebar's feeds (dashboard.md §2 "Sidebar", §4 "Folders"): the folders (expandable, remembered per browser;
 * each with the sum of its feeds' unread counts and a menu to rename or delete it), then the feeds outside any
 * folder. Drag and drop (@dnd-kit) reorders the root feeds, the folders and the feeds inside a folder, drops a feed
 * into a folder (onto its header, or between its feeds) and takes it out again (into the root area below the
 * folders), also from one folder into another. Mouse: drag a row after a few pixels; touch: hold 300 ms (§9);
 * keyboard: the drag handle that appears on focus, with spoken instructions and announcements in the UI language.
 */
export function SidebarFeedTree({ feeds, folders, activeFeed, counts }: SidebarFeedTreeProps) {
  const { t } = useTranslation();
  const serverLayout = useMemo(() => buildLayout(feeds, folders), [feeds, folders]);
  const [dragLayout, setDragLayout] = useState<Layout | null>(null);
  const layout = dragLayout ?? serverLayout;
  const [activeId, setActiveId] = useState<UniqueIdentifier | null>(null);
  const before = useRef<Layout | null>(null);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const { collapsed, toggle } = useCollapsedFolders();
  const commit = useLayoutCommit();
  const [dialog, setDialog] = useState<{ kind: 'rename' | 'delete'; folder: Folder } | null>(null);

  const feedById = useMemo(() => new Map(feeds.map((f) => [f.id, f])), [feeds]);
  const folderById = useMemo(() => new Map(sortedFolders(folders).map((f) => [f.id, f])), [folders]);
  const active = parse(activeId);
  const isExpanded = (id: number) => !collapsed.has(id);

  /* The move to another group during a drag can put a new item under the pointer; for one frame the previous target stays. */
  const justMoved = useRef(false);
  const lastOver = useRef<UniqueIdentifier | null>(null);
  useEffect(() => {
    requestAnimationFrame(() => (justMoved.current = false));
  }, [dragLayout]);

  // A click that ends a drag must not also open the feed or toggle the folder under the pointer.
  const clickGuard = useDragEndClickGuard();

  const sensors = useSidebarDragSensors(keyboardCoordinates);

  const collisionDetection: CollisionDetection = useCallback((args) => {
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
  }, []);

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
    onDragEnd: ({ active: a, over }) => (over ? `${t('folders.dnd.dropped', { name: name(a.id) })} ${position(a.id, over.id)}` : t('folders.dnd.cancelled', { name: name(a.id) })),
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

  const overlay = (() => {
    if (active.type === 'feed') {
      const feed = feedById.get(active.id);
      return feed ? (
        <div className="flex min-h-10 w-64 max-w-[80vw] items-center gap-3 rounded-lg bg-surface px-3 text-sm font-medium text-text shadow-card ring-1 ring-border">
          <FeedIcon feed={feed} size="sm" />
          <span className="truncate">{feedTitle(feed, t)}</span>
        </div>
      ) : null;
    }
    if (active.type === 'folder') {
      const folder = folderById.get(active.id);
      return folder ? (
        <div className="flex min-h-10 w-64 max-w-[80vw] items-center gap-2 rounded-lg bg-surface px-3 text-sm font-semibold text-text shadow-card ring-1 ring-border">
          <FolderIcon aria-hidden className="size-4.5 shrink-0 text-muted" />
          <span className="truncate">{folder.name}</span>
        </div>
      ) : null;
    }
    return null;
  })();

  const draggedFromFolder = active.type === 'feed' && before.current !== null && groupOf(before.current, active.id) !== 'root';

  return (
    <div
      ref={treeRef}
      onClickCapture={(e) => {
        if (!clickGuard.dragging.current) return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      <DndContext
        sensors={sensors}
        collisionDetection={collisionDetection}
        measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={() => finish()}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('folders.dnd.instructions') } }}
      >
        {layout.folders.length > 0 && (
          <SortableContext items={layout.folders.map((f) => folderDndId(f.id))} strategy={folderSortingStrategy}>
            <ul className="flex flex-col gap-0.5" data-testid="sidebar-folders">
              {layout.folders.map(({ id, feeds: ids }) => {
                const folder = folderById.get(id);
                if (!folder) return null;
                const unread = ids.reduce((sum, feedId) => sum + (counts?.[String(feedId)] ?? 0), 0);
                return (
                  <FolderItem
                    key={id}
                    folder={folder}
                    expanded={isExpanded(id)}
                    onToggle={() => toggle(id)}
                    unread={unread}
                    feedCount={ids.length}
                    onRename={() => setDialog({ kind: 'rename', folder })}
                    onDelete={() => setDialog({ kind: 'delete', folder })}
                  >
                    <SortableContext items={ids.map(feedDndId)} strategy={verticalListSortingStrategy}>
                      {ids.map((feedId) => {
                        const feed = feedById.get(feedId);
                        return feed ? <FeedItem key={feedId} feed={feed} group={id} active={activeFeed === String(feedId)} count={counts?.[String(feedId)]} /> : null;
                      })}
                    </SortableContext>
                  </FolderItem>
                );
              })}
            </ul>
          </SortableContext>
        )}
        <RootArea ids={layout.root} showHint={draggedFromFolder && layout.root.every((id) => id === (active.type === 'feed' ? active.id : -1))}>
          {layout.root.map((feedId) => {
            const feed = feedById.get(feedId);
            return feed ? <FeedItem key={feedId} feed={feed} group="root" active={activeFeed === String(feedId)} count={counts?.[String(feedId)]} /> : null;
          })}
        </RootArea>
        {typeof document !== 'undefined' && createPortal(<DragOverlay>{overlay}</DragOverlay>, document.body)}
      </DndContext>

      <FolderDialog open={dialog?.kind === 'rename'} folder={dialog?.folder} onClose={() => setDialog(null)} />
      {dialog?.kind === 'delete' && (
        <DeleteFolderDialog
          open
          folder={dialog.folder}
          feedCount={feeds.filter((f) => f.folder_id === dialog.folder.id).length}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

/**
 * Folders do not make room while one is dragged (a folder is a block of varying height, which the list strategies,
 * measuring by the headers, would shift by the wrong amounts): a line shows where the dragged folder will go.
 */
const folderSortingStrategy: SortingStrategy = () => null;

/**
 * The keyboard's way to drag (design.md §6): a button with the item's name that shows when focused; Space or Enter
 * picks the item up, the arrow keys move it, Space or Enter drops it, Escape puts it back.
 */
function DragHandle({
  dragId,
  label,
  setRef,
  attributes,
  onKeyDown,
  visible,
}: {
  dragId: string;
  label: string;
  setRef(el: HTMLElement | null): void;
  attributes: object;
  onKeyDown?: KeyboardEventHandler;
  visible: boolean;
}) {
  return (
    <button
      ref={setRef}
      type="button"
      {...attributes}
      data-drag-handle={dragId}
      onKeyDown={onKeyDown}
      aria-label={label}
      className={`absolute right-1 top-1/2 inline-flex size-8 -translate-y-1/2 items-center justify-center rounded-md bg-surface-2 text-muted ring-1 ring-border focus-visible:pointer-events-auto focus-visible:opacity-100 ${
        visible ? 'opacity-100' : 'pointer-events-none opacity-0'
      }`}
    >
      <GripVertical aria-hidden className="size-4" />
    </button>
  );
}

/**
 * A row is dragged by mouse or touch anywhere on it, by keyboard only from its handle (whose Enter and Space would
 * otherwise be taken from the link or the folder toggle): the sensors' start handlers are split accordingly.
 */
function rowListeners(listeners: ReturnType<typeof useSortable>['listeners']) {
  return {
    onPointerDown: listeners?.onPointerDown as PointerEventHandler | undefined,
    onTouchStart: listeners?.onTouchStart as TouchEventHandler | undefined,
  };
}

function FeedItem({ feed, group, active, count }: { feed: Feed; group: Group; active: boolean; count?: number }) {
  const { t } = useTranslation();
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, transform, transition, isDragging } = useSortable({
    id: feedDndId(feed.id),
    data: { type: 'feed', group },
    attributes: { roleDescription: t('folders.dnd.roleDescription') },
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`relative touch-manipulation select-none [-webkit-touch-callout:none] ${isDragging ? 'opacity-40' : ''}`}
      {...rowListeners(listeners)}
      data-feed-id={feed.id}
    >
      <FeedLink feed={feed} active={active} count={count} />
      <DragHandle dragId={feedDndId(feed.id)} label={t('folders.dnd.moveFeed', { title: feedTitle(feed, t) })} setRef={setActivatorNodeRef} attributes={attributes} onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined} visible={isDragging} />
    </li>
  );
}

function FolderItem({
  folder,
  expanded,
  onToggle,
  unread,
  feedCount,
  onRename,
  onDelete,
  children,
}: {
  folder: Folder;
  expanded: boolean;
  onToggle(): void;
  unread: number;
  feedCount: number;
  onRename(): void;
  onDelete(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const listId = useId();
  /*
   * The folder moves as a block (header and feeds: the draggable node), but it is a drop place by its header alone
   * (the droppable node), so that a feed over the folder's feeds lands among them and the keyboard can reach the header.
   */
  const { setDraggableNodeRef, setDroppableNodeRef, setActivatorNodeRef, listeners, attributes, isDragging, isOver, active, activeIndex, index } = useSortable({
    id: folderDndId(folder.id),
    data: { type: 'folder' },
    attributes: { roleDescription: t('folders.dnd.roleDescription') },
  });
  // A feed held over the folder's header: the folder lights up as the place it goes.
  const highlight = isOver && parse(active?.id).type === 'feed';
  // A folder held over this one goes before it (coming from below) or after it (coming from above).
  const folderOver = isOver && !isDragging && parse(active?.id).type === 'folder';
  const line = folderOver ? (activeIndex > index ? 'before' : 'after') : null;
  const Icon = expanded ? FolderOpen : FolderIcon;
  return (
    <li ref={setDraggableNodeRef} className={`relative ${isDragging ? 'opacity-40' : ''}`} data-folder-id={folder.id}>
      {line && <div aria-hidden className={`absolute inset-x-1 z-10 h-0.5 rounded-full bg-accent ${line === 'before' ? '-top-px' : '-bottom-px'}`} data-testid="folder-drop-line" />}
      <div
        ref={setDroppableNodeRef}
        className={`group relative flex items-center rounded-lg touch-manipulation select-none [-webkit-touch-callout:none] ${
          highlight ? 'bg-accent-soft ring-2 ring-accent' : ''
        }`}
        {...rowListeners(listeners)}
      >
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={expanded ? listId : undefined}
          className="flex min-h-10 min-w-0 flex-1 items-center gap-2 rounded-lg pl-2 pr-2 text-left text-sm font-medium text-text transition-colors hover:bg-surface-2"
        >
          <ChevronRight aria-hidden className={`size-4 shrink-0 text-muted transition-transform ${expanded ? 'rotate-90' : ''}`} />
          <Icon aria-hidden className="size-4.5 shrink-0 text-muted" />
          <span className="min-w-0 flex-1 truncate">{folder.name}</span>
          <Badge count={unread} />
        </button>
        {/* Where a pointer can hover, the menu button appears over the badge on hover or focus (the name keeps its
            room); on touch screens it stays in view beside the badge. */}
        <div className="shrink-0 [@media(hover:hover)]:absolute [@media(hover:hover)]:inset-y-0 [@media(hover:hover)]:right-0 [@media(hover:hover)]:flex [@media(hover:hover)]:items-center [@media(hover:hover)]:rounded-lg [@media(hover:hover)]:bg-surface-2 [@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:group-focus-within:opacity-100">
          <FeedActionsMenu
            label={t('folders.actions', { name: folder.name })}
            actions={[
              { label: t('folders.rename'), icon: Pencil, onSelect: onRename },
              { label: t('folders.delete.action'), icon: Trash2, onSelect: onDelete, danger: true },
            ]}
          />
        </div>
        <DragHandle dragId={folderDndId(folder.id)} label={t('folders.dnd.moveFolder', { name: folder.name })} setRef={setActivatorNodeRef} attributes={attributes} onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined} visible={isDragging} />
      </div>
      {expanded && (
        <ul id={listId} aria-label={folder.name} className="ml-[1.1rem] mt-0.5 flex flex-col gap-0.5 border-l border-border pl-1.5">
          {feedCount === 0 ? <li className="px-3 py-2 text-xs text-muted">{t('folders.empty')}</li> : children}
        </ul>
      )}
    </li>
  );
}

/** The feeds outside any folder; dropping a feed here (below the folders) takes it out of its folder. */
function RootArea({ ids, showHint, children }: { ids: number[]; showHint: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: ROOT, data: { type: 'root' } });
  return (
    <SortableContext items={ids.map(feedDndId)} strategy={verticalListSortingStrategy}>
      <ul ref={setNodeRef} className={`mt-0.5 flex min-h-2 flex-col gap-0.5 rounded-lg ${showHint ? 'min-h-12' : ''}`} data-testid="sidebar-root-feeds">
        {children}
        {showHint && (
          <li className={`flex min-h-10 items-center rounded-lg border border-dashed px-3 text-xs ${isOver ? 'border-accent text-text' : 'border-border-strong text-muted'}`}>
            {t('folders.dropToRoot')}
          </li>
        )}
      </ul>
    </SortableContext>
  );
}
