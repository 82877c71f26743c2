import { DndContext, DragOverlay } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Folder as FolderIcon } from 'lucide-react';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Feed, Folder, UnreadCounts } from '../../../../common/api.js';
import { FeedIcon, feedTitle } from '../../feeds/index.js';
import { useCollapsedFolders } from '../useCollapsedFolders.js';
import { DeleteFolderDialog } from './DeleteFolderDialog.js';
import { FolderDialog } from './FolderDialog.js';
import { folderDndId, feedDndId, folderSortingStrategy } from './treeDrag.js';
import { FeedItem, FolderItem, RootArea } from './TreeRows.js';
import { useTreeDrag } from './useTreeDrag.js';

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
  const { collapsed, toggle } = useCollapsedFolders();
  const isExpanded = (id: number) => !collapsed.has(id);
  const { layout, active, feedById, folderById, treeRef, clickGuard, dndProps, draggedFromFolder } = useTreeDrag(feeds, folders, isExpanded);
  const [dialog, setDialog] = useState<{ kind: 'rename' | 'delete'; folder: Folder } | null>(null);

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
    >
      <DndContext {...dndProps}>
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
        <DeleteFolderDialog open folder={dialog.folder} feedCount={feeds.filter((f) => f.folder_id === dialog.folder.id).length} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
