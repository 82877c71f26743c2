import { DndContext, DragOverlay } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Folder as FolderIcon } from 'lucide-react';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Folder } from '../../../../common/api.js';
import { FeedIcon, feedTitle, type FeedSummary } from '../../feeds/index.js';
import { flattenLayout, visibleRows, type Group, type Row } from '../tree.js';
import { useCollapsedFolders } from '../useCollapsedFolders.js';
import { useRowWindow } from '../useRowWindow.js';
import { DeleteFolderDialog } from './DeleteFolderDialog.js';
import { FolderDialog } from './FolderDialog.js';
import { feedDndId, folderDndId, folderSortingStrategy } from './treeDrag.js';
import { EmptyFolderRow, FeedItem, FolderItem, ROW_HEIGHT, RootArea } from './TreeRows.js';
import { useTreeDrag } from './useTreeDrag.js';

export interface SidebarFeedTreeProps {
  /** The feed summaries (GET /api/feeds/summaries) in the user's order. */
  feeds: FeedSummary[];
  folders: Folder[];
  /** The feed whose view is open (from the query), for aria-current. */
  activeFeed: string | null;
  /** The folder whose stream is open (from the query). */
  activeFolder?: string | null;
}

/**
 * The sidebar's feeds (dashboard.md §2 "Sidebar", §4 "Folders"): the folders (expandable by their chevron,
 * remembered per browser; the name opens the folder's stream; each with the sum of its feeds' unread counts and a
 * menu to rename or delete it), then the feeds outside any folder. Drag and drop (@dnd-kit) reorders the root
 * feeds, the folders and the feeds inside a folder, drops a feed into a folder (onto its header, or between its
 * feeds) and takes it out again (into the root area below the folders), also from one folder into another. Mouse:
 * drag a row after a few pixels; touch: hold 300 ms (§9); keyboard: the drag handle that appears on focus, with
 * spoken instructions and announcements in the UI language.
 *
 * The tree is windowed (docs/decisions.md "Sidebar at scale"): it is drawn as one list of equal rows, of which only
 * those near the view are in the document, plus the dragged row and the focused one wherever they are. While a
 * folder is dragged the folders show closed, so that every place it can go is near.
 */
export function SidebarFeedTree({ feeds, folders, activeFeed, activeFolder = null }: SidebarFeedTreeProps) {
  const { t } = useTranslation();
  const { collapsed, toggle } = useCollapsedFolders();
  const isExpanded = useCallback((id: number) => !collapsed.has(id), [collapsed]);
  const { layout, active, feedById, folderById, treeRef, clickGuard, dndProps, draggedFromFolder } = useTreeDrag(feeds, folders, isExpanded);
  const [dialog, setDialog] = useState<{ kind: 'rename' | 'delete'; folder: Folder } | null>(null);
  const onRename = useCallback((folder: Folder) => setDialog({ kind: 'rename', folder }), []);
  const onDelete = useCallback((folder: Folder) => setDialog({ kind: 'delete', folder }), []);

  const activeFeedId = active.type === 'feed' ? active.id : -1;
  const showHint = draggedFromFolder && layout.root.every((id) => id === activeFeedId);
  const draggingFolder = active.type === 'folder';
  const rows = useMemo(() => flattenLayout(layout, draggingFolder ? () => false : isExpanded, showHint), [layout, draggingFolder, isExpanded, showHint]);
  const rootFirst = rows.length - layout.root.length - (showHint ? 1 : 0);

  // The focused row stays drawn (a keyboard user's place), and so does the dragged one (dnd-kit follows its node).
  const [focused, setFocused] = useState<string | null>(null);
  const pinned = useMemo(() => {
    const keys = new Set<string>();
    if (focused) keys.add(focused);
    if (active.type === 'feed') keys.add(feedDndId(active.id));
    if (active.type === 'folder') keys.add(folderDndId(active.id));
    return keys;
  }, [focused, active.type, active.type === 'none' || active.type === 'root' ? 0 : active.id]); // eslint-disable-line react-hooks/exhaustive-deps

  const listRef = useRef<HTMLDivElement>(null);
  const { first, last } = useRowWindow(listRef, rows.length, ROW_HEIGHT);
  const shown = visibleRows(rows, first, last, pinned);

  // Each group's rows go into its sortable context; rows of one group come one after another.
  const runs: { group: Group; items: { row: Row; index: number }[] }[] = [];
  for (const entry of shown) {
    const group: Group = entry.row.kind === 'feed' ? entry.row.group : entry.row.kind === 'empty' ? entry.row.folder : 'root';
    const previous = runs.at(-1);
    if (entry.row.kind !== 'feed' || !previous || previous.group !== group || previous.items[0].row.kind !== 'feed') runs.push({ group, items: [entry] });
    else previous.items.push(entry);
  }
  const groupIds = useMemo(() => {
    const map = new Map<Group, string[]>([['root', layout.root.map(feedDndId)]]);
    for (const f of layout.folders) map.set(f.id, f.feeds.map(feedDndId));
    return map;
  }, [layout]);
  const folderFeeds = useMemo(() => new Map(layout.folders.map((f) => [f.id, f.feeds])), [layout]);

  const renderRow = ({ row, index }: { row: Row; index: number }): ReactNode => {
    if (row.kind === 'folder') {
      const folder = folderById.get(row.id);
      return folder ? (
        <FolderItem
          key={row.key}
          folder={folder}
          feeds={folderFeeds.get(row.id) ?? []}
          expanded={isExpanded(row.id)}
          active={activeFolder === String(row.id)}
          index={index}
          onToggle={toggle}
          onRename={onRename}
          onDelete={onDelete}
        />
      ) : null;
    }
    if (row.kind === 'empty') return <EmptyFolderRow key={row.key} index={index} />;
    if (row.kind === 'hint') return null;
    const feed = feedById.get(row.id);
    return feed ? <FeedItem key={row.key} feed={feed} group={row.group} active={activeFeed === String(row.id)} index={index} /> : null;
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

  return (
    <div
      ref={treeRef}
      onClickCapture={(e) => {
        if (!clickGuard.dragging.current) return;
        e.preventDefault();
        e.stopPropagation();
      }}
      onFocus={(e) => {
        const row = (e.target as HTMLElement).closest<HTMLElement>('[data-row-key]');
        setFocused(row?.dataset.rowKey ?? null);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setFocused(null);
      }}
    >
      <DndContext {...dndProps}>
        <SortableContext items={layout.folders.map((f) => folderDndId(f.id))} strategy={folderSortingStrategy}>
          <div ref={listRef} className="relative" style={{ height: Math.max(rows.length * ROW_HEIGHT, 8) }} data-testid="sidebar-feed-tree" data-rows={rows.length}>
            <RootArea first={rootFirst} rows={rows.length - rootFirst} hasFeeds={layout.root.some((id) => id !== activeFeedId)} hint={showHint} />
            <ul className="absolute inset-0">
              {runs.map((run) =>
                run.items[0].row.kind === 'feed' ? (
                  <SortableContext key={`group-${String(run.group)}`} items={groupIds.get(run.group) ?? []} strategy={verticalListSortingStrategy}>
                    {run.items.map(renderRow)}
                  </SortableContext>
                ) : (
                  renderRow(run.items[0])
                ),
              )}
            </ul>
          </div>
        </SortableContext>
        {/* No drop animation: dnd-kit scrolls the dragged row's node into view before it, and in the windowed tree
            that node may be far from where the row lands (the page would jump). */}
        {typeof document !== 'undefined' && createPortal(<DragOverlay dropAnimation={null}>{overlay}</DragOverlay>, document.body)}
      </DndContext>

      <FolderDialog open={dialog?.kind === 'rename'} folder={dialog?.folder} onClose={() => setDialog(null)} />
      {dialog?.kind === 'delete' && (
        <DeleteFolderDialog open folder={dialog.folder} feedCount={feeds.filter((f) => f.folder_id === dialog.folder.id).length} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
