import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ChevronRight, Folder as FolderIcon, FolderOpen, GripVertical, Pencil, Trash2 } from 'lucide-react';
import { useId, type KeyboardEventHandler, type PointerEventHandler, type ReactNode, type TouchEventHandler } from 'react';
import { useTranslation } from 'react-i18next';
import type { Feed, Folder } from '../../../../common/api.js';
import { Badge } from '../../../components/sidebar/SidebarItems.js';
import { FeedActionsMenu, FeedLink, feedTitle } from '../../feeds/index.js';
import type { Group } from '../tree.js';
import { feedDndId, folderDndId, parse, ROOT } from './treeDrag.js';

/** The rows of the sidebar's folder tree: a feed, a folder with its feeds, and the root area, each draggable. */

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

export function FeedItem({ feed, group, active, count }: { feed: Feed; group: Group; active: boolean; count?: number }) {
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
      <DragHandle
        dragId={feedDndId(feed.id)}
        label={t('folders.dnd.moveFeed', { title: feedTitle(feed, t) })}
        setRef={setActivatorNodeRef}
        attributes={attributes}
        onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined}
        visible={isDragging}
      />
    </li>
  );
}

export function FolderItem({
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
      {line && (
        <div
          aria-hidden
          className={`absolute inset-x-1 z-10 h-0.5 rounded-full bg-accent ${line === 'before' ? '-top-px' : '-bottom-px'}`}
          data-testid="folder-drop-line"
        />
      )}
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
        <DragHandle
          dragId={folderDndId(folder.id)}
          label={t('folders.dnd.moveFolder', { name: folder.name })}
          setRef={setActivatorNodeRef}
          attributes={attributes}
          onKeyDown={listeners?.onKeyDown as KeyboardEventHandler | undefined}
          visible={isDragging}
        />
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
export function RootArea({ ids, showHint, children }: { ids: number[]; showHint: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: ROOT, data: { type: 'root' } });
  return (
    <SortableContext items={ids.map(feedDndId)} strategy={verticalListSortingStrategy}>
      <ul ref={setNodeRef} className={`mt-0.5 flex min-h-2 flex-col gap-0.5 rounded-lg ${showHint ? 'min-h-12' : ''}`} data-testid="sidebar-root-feeds">
        {children}
        {showHint && (
          <li
            className={`flex min-h-10 items-center rounded-lg border border-dashed px-3 text-xs ${isOver ? 'border-accent text-text' : 'border-border-strong text-muted'}`}
          >
            {t('folders.dropToRoot')}
          </li>
        )}
      </ul>
    </SortableContext>
  );
}
