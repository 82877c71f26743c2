import { useDroppable } from '@dnd-kit/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ChevronRight, Folder as FolderIcon, FolderOpen, GripVertical, Pencil, Trash2 } from 'lucide-react';
import { memo, type CSSProperties, type KeyboardEventHandler, type PointerEventHandler, type TouchEventHandler } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Folder } from '../../../../common/api.js';
import { Badge } from '../../../components/sidebar/SidebarItems.js';
import { FeedActionsMenu, FeedLink, feedTitle, useFeedUnread, useUnreadSum, type FeedSummary } from '../../feeds/index.js';
import type { Group } from '../tree.js';
import { feedDndId, folderDndId, parse, ROOT } from './treeDrag.js';

/**
 * The rows of the sidebar's folder tree: a folder's header, a feed, an empty folder's note, the root's drop hint
 * and the root area. The tree is windowed (docs/decisions.md "Sidebar at scale"): every row has the same height
 * and is placed at its index, so rows out of view need not exist. Rows are memoised and each badge subscribes to
 * its own count, so a count change re-renders one badge, not the rows.
 */

/** Every row's pitch: a 40 px row (the touch target) and the 2 px gap below it. */
export const ROW_HEIGHT = 42;

const place = (index: number): CSSProperties => ({ position: 'absolute', top: index * ROW_HEIGHT, left: 0, right: 0, height: ROW_HEIGHT - 2 });

/**
 * The keyboard's way to drag (docs/decisions.md "Look and feel (web)"): a button with the item's name that shows when focused; Space or Enter
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

/** The line that ties a folder's feeds (and its empty note) to the folder. */
function FolderLine() {
  return <span aria-hidden className="pointer-events-none absolute -bottom-0.5 left-[1.1rem] top-0 w-px bg-border" />;
}

export const FeedItem = memo(function FeedItem({ feed, group, active, index }: { feed: FeedSummary; group: Group; active: boolean; index: number }) {
  const { t } = useTranslation();
  const count = useFeedUnread(feed.id);
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, transform, transition, isDragging } = useSortable({
    id: feedDndId(feed.id),
    data: { type: 'feed', group },
    attributes: { roleDescription: t('folders.dnd.roleDescription') },
  });
  const inFolder = group !== 'root';
  return (
    <li
      ref={setNodeRef}
      style={{ ...place(index), transform: CSS.Translate.toString(transform), transition }}
      className={`touch-manipulation select-none [-webkit-touch-callout:none] ${inFolder ? 'pl-7' : ''} ${isDragging ? 'opacity-40' : ''}`}
      {...rowListeners(listeners)}
      data-feed-id={feed.id}
      data-group={group}
      data-row-key={feedDndId(feed.id)}
    >
      {inFolder && <FolderLine />}
      <div className="relative">
        <FeedLink feed={feed} active={active} count={count} />
        <DragHandle
          dragId={feedDndId(feed.id)}
          label={t('folders.dnd.moveFeed', { title: feedTitle(feed, t) })}
          setRef={setActivatorNodeRef}
          attributes={attributes}
          onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined}
          visible={isDragging}
        />
      </div>
    </li>
  );
});

export const FolderItem = memo(function FolderItem({
  folder,
  feeds,
  expanded,
  active,
  index,
  onToggle,
  onRename,
  onDelete,
}: {
  folder: Folder;
  /** The folder's feeds (for its badge, the sum of their counts). */
  feeds: readonly number[];
  expanded: boolean;
  /** The folder's stream is the open view. */
  active: boolean;
  index: number;
  onToggle(id: number): void;
  onRename(folder: Folder): void;
  onDelete(folder: Folder): void;
}) {
  const { t } = useTranslation();
  const unread = useUnreadSum(feeds);
  const {
    setNodeRef,
    setActivatorNodeRef,
    listeners,
    attributes,
    isDragging,
    isOver,
    active: dragged,
    activeIndex,
    index: sortIndex,
  } = useSortable({
    id: folderDndId(folder.id),
    data: { type: 'folder' },
    attributes: { roleDescription: t('folders.dnd.roleDescription') },
  });
  // A feed held over the folder's header: the folder lights up as the place it goes.
  const highlight = isOver && parse(dragged?.id).type === 'feed';
  // A folder held over this one goes before it (coming from below) or after it (coming from above).
  const folderOver = isOver && !isDragging && parse(dragged?.id).type === 'folder';
  const line = folderOver ? (activeIndex > sortIndex ? 'before' : 'after') : null;
  const Icon = expanded ? FolderOpen : FolderIcon;
  return (
    <li style={place(index)} className={isDragging ? 'opacity-40' : ''} data-folder-id={folder.id} data-row-key={folderDndId(folder.id)}>
      {line && (
        <div
          aria-hidden
          className={`absolute inset-x-1 z-10 h-0.5 rounded-full bg-accent ${line === 'before' ? '-top-px' : '-bottom-px'}`}
          data-testid="folder-drop-line"
        />
      )}
      <div
        ref={setNodeRef}
        className={`group relative flex h-full items-center rounded-lg touch-manipulation select-none [-webkit-touch-callout:none] ${
          highlight ? 'bg-accent-soft ring-2 ring-accent' : ''
        }`}
        data-folder-header={folder.id}
        {...rowListeners(listeners)}
      >
        {/* The chevron opens and closes the folder; the name opens its stream (dashboard.md §4 "Folders"). */}
        <button
          type="button"
          onClick={() => onToggle(folder.id)}
          aria-expanded={expanded}
          aria-label={t(expanded ? 'folders.collapse' : 'folders.expand', { name: folder.name })}
          className="inline-flex h-10 w-8 shrink-0 items-center justify-center rounded-md text-muted hover:bg-surface-2 hover:text-text"
        >
          <ChevronRight aria-hidden className={`size-4 transition-transform ${expanded ? 'rotate-90' : ''}`} />
        </button>
        <Link
          to={`/dashboard?folder=${folder.id}`}
          aria-current={active ? 'page' : undefined}
          title={folder.name}
          draggable={false}
          className={`flex min-h-10 min-w-0 flex-1 items-center gap-2 rounded-lg pl-1 pr-2 text-left text-sm transition-colors hover:bg-surface-2 ${
            active ? 'bg-surface-2 font-semibold text-text' : 'font-medium text-text'
          }`}
        >
          <Icon aria-hidden className="size-4.5 shrink-0 text-muted" />
          <span className="min-w-0 flex-1 truncate">{folder.name}</span>
          <Badge count={unread} />
        </Link>
        {/* Where a pointer can hover, the menu button appears over the badge on hover or focus (the name keeps its
            room); on touch screens it stays in view beside the badge. */}
        <div className="shrink-0 [@media(hover:hover)]:absolute [@media(hover:hover)]:inset-y-0 [@media(hover:hover)]:right-0 [@media(hover:hover)]:flex [@media(hover:hover)]:items-center [@media(hover:hover)]:rounded-lg [@media(hover:hover)]:bg-surface-2 [@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 [@media(hover:hover)]:group-focus-within:opacity-100">
          <FeedActionsMenu
            label={t('folders.actions', { name: folder.name })}
            actions={[
              { label: t('folders.rename'), icon: Pencil, onSelect: () => onRename(folder) },
              { label: t('folders.delete.action'), icon: Trash2, onSelect: () => onDelete(folder), danger: true },
            ]}
          />
        </div>
        <DragHandle
          dragId={folderDndId(folder.id)}
          label={t('folders.dnd.moveFolder', { name: folder.name })}
          setRef={setActivatorNodeRef}
          attributes={attributes}
          onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined}
          visible={isDragging}
        />
      </div>
    </li>
  );
});

/** An expanded folder without feeds says how to fill it. */
export function EmptyFolderRow({ index }: { index: number }) {
  const { t } = useTranslation();
  return (
    <li style={place(index)} className="flex items-center pl-7">
      <FolderLine />
      <span className="px-3 text-xs text-muted">{t('folders.empty')}</span>
    </li>
  );
}

/**
 * The place of the feeds outside any folder (below the folders): dropping a feed here takes it out of its folder.
 * It is one element spanning the root's rows, so it exists however few of them are drawn. `hint` (its last row)
 * says where to drop while a feed is dragged out of its folder and the root holds no other feed.
 */
export function RootArea({ first, rows, hasFeeds, hint }: { first: number; rows: number; hasFeeds: boolean; hint: boolean }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: ROOT, data: { type: 'root', hasFeeds } });
  return (
    <div
      ref={setNodeRef}
      style={{ position: 'absolute', left: 0, right: 0, top: first * ROW_HEIGHT, height: Math.max(rows * ROW_HEIGHT, 8) }}
      data-testid="sidebar-root-area"
    >
      {hint && (
        <div
          className={`absolute inset-x-0 bottom-0.5 flex h-10 items-center rounded-lg border border-dashed px-3 text-xs ${
            isOver ? 'border-accent text-text' : 'border-border-strong text-muted'
          }`}
        >
          {t('folders.dropToRoot')}
        </div>
      )}
    </div>
  );
}
