import { closestCenter, DndContext, type Announcements, type DragEndEvent, type Modifier, type UniqueIdentifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { BookmarkCheck, ChevronRight, GripVertical, Pencil, Plus, Sparkles, Trash2 } from 'lucide-react';
import { memo, useCallback, useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ReadingList } from '../../../../common/api.js';
import { storage } from '../../../lib/storage.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { Badge, itemClass } from '../../../components/sidebar/SidebarItems.js';
import { useDragEndClickGuard, useSidebarDragSensors } from '../../../components/sidebar/sidebarDrag.js';
import { FeedActionsMenu } from '../../feeds/index.js';
import { unescapeAngles, useReadingListUnread, useReadingListUnreadCounts, useReadingLists, useSortReadingLists } from '../api.js';
import { DeleteReadingListDialog } from './DeleteReadingListDialog.js';
import { ReadingListDialog } from './ReadingListDialog.js';

/** The section's open state is kept per browser (a UI preference like the theme). */
const EXPANDED_KEY = 'readingListsExpanded';
/** Lists move up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/** The list id of a /dashboard/reading-list/{id} path, or null. */
export function activeListId(pathname: string): number | null {
  const m = /^\/dashboard\/reading-list\/(\d+)\/?$/.exec(pathname);
  return m ? Number(m[1]) : null;
}

/**
 * The sidebar's reading-lists section (dashboard.md §2 "Sidebar", §4, §7): collapsible, each list with its
 * name, a smart icon for smart lists and its unread badge, a "+" for a new list; it opens by itself when a list
 * is the active view. Lists are reordered by drag and drop (mouse, a 300 ms touch hold, or the keyboard on the
 * grip), applied at once and rolled back when the server refuses. Each list has a menu with edit and delete.
 */
export function ReadingListsSection({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const lists = useReadingLists();
  // Keeps the lists' counts fetched and fresh; each row reads its own number (useReadingListUnread), so a count
  // change re-renders that row's badge and not the section.
  useReadingListUnreadCounts();
  const sort = useSortReadingLists();
  const [sortError, setSortError] = useTimedMessage(5000);
  const active = activeListId(location.pathname);
  const [expanded, setExpanded] = useState(() => storage.get(EXPANDED_KEY) !== '0');
  const [dialog, setDialog] = useState<{ mode: 'create' } | { mode: 'edit'; list: ReadingList } | null>(null);
  const [deleting, setDeleting] = useState<ReadingList | null>(null);
  const onEdit = useCallback((list: ReadingList) => setDialog({ mode: 'edit', list }), []);
  const headingId = useId();
  const listId = useId();

  // §2: the section expands by itself when a list is the active view.
  useEffect(() => {
    if (active !== null) setExpanded(true);
  }, [active]);

  const toggle = () => {
    setExpanded((e) => {
      storage.set(EXPANDED_KEY, e ? '0' : '1');
      return !e;
    });
  };

  // The same mouse, touch and keyboard input as the feed tree above it (§4 "Folders", §9).
  const sensors = useSidebarDragSensors();

  const items = lists.data ?? [];
  const nameOf = (id: UniqueIdentifier) => unescapeAngles(items.find((l) => l.id === id)?.name ?? '');
  const positionOf = (id: UniqueIdentifier | undefined) => items.findIndex((l) => l.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active: a }) => t('readingLists.section.dndPickedUp', { name: nameOf(a.id) }),
    onDragOver: ({ active: a, over }) =>
      over ? t('readingLists.section.dndOver', { name: nameOf(a.id), position: positionOf(over.id), count: items.length }) : undefined,
    onDragEnd: ({ active: a, over }) =>
      over ? t('readingLists.section.dndDropped', { name: nameOf(a.id), position: positionOf(over.id), count: items.length }) : undefined,
    onDragCancel: () => t('readingLists.section.dndCancelled'),
  };

  const clickGuard = useDragEndClickGuard();

  const onDragEnd = async ({ active: a, over }: DragEndEvent) => {
    clickGuard.finished();
    if (!over || a.id === over.id) return;
    const from = items.findIndex((l) => l.id === a.id);
    const to = items.findIndex((l) => l.id === over.id);
    if (from < 0 || to < 0) return;
    const ok = await sort(arrayMove(items, from, to).map((l) => l.id));
    if (!ok) setSortError(t('readingLists.section.sortError'));
  };

  return (
    <section aria-labelledby={headingId} className={className} data-testid="reading-lists-section">
      <div className="mb-1 flex min-h-8 items-center justify-between gap-2 pl-1 pr-3">
        <h2 id={headingId} className="min-w-0">
          <button
            type="button"
            onClick={toggle}
            aria-expanded={expanded}
            aria-controls={listId}
            className="inline-flex min-h-10 items-center gap-1 rounded-md px-2 text-xs font-semibold uppercase tracking-wider text-muted hover:text-text lg:min-h-8"
          >
            <ChevronRight aria-hidden className={`size-3.5 transition-transform ${expanded ? 'rotate-90' : ''}`} />
            {t('readingLists.section.title')}
          </button>
        </h2>
        <button
          type="button"
          onClick={() => setDialog({ mode: 'create' })}
          aria-label={t('readingLists.section.new')}
          title={t('readingLists.section.new')}
          className="-mr-2 inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text lg:size-8"
        >
          <Plus aria-hidden className="size-4.5" />
        </button>
      </div>

      <div id={listId} hidden={!expanded}>
        {lists.isPending ? (
          <div aria-hidden className="flex flex-col gap-2 px-3 py-1">
            {[60, 45].map((w) => (
              <div key={w} className="h-3.5 animate-pulse rounded bg-surface-2" style={{ width: `${w}%` }} />
            ))}
          </div>
        ) : items.length === 0 ? (
          <p className="px-3 py-1 text-sm text-muted">{lists.isError ? t('readingLists.section.loadError') : t('readingLists.section.empty')}</p>
        ) : (
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            modifiers={[verticalOnly]}
            onDragStart={clickGuard.started}
            onDragEnd={(e) => void onDragEnd(e)}
            onDragCancel={clickGuard.finished}
            accessibility={{ announcements, screenReaderInstructions: { draggable: t('readingLists.section.dndInstructions') } }}
          >
            <SortableContext items={items.map((l) => l.id)} strategy={verticalListSortingStrategy}>
              <ul className="flex flex-col gap-0.5">
                {items.map((list) => (
                  <SortableListItem key={list.id} list={list} active={active === list.id} onEdit={onEdit} onDelete={setDeleting} />
                ))}
              </ul>
            </SortableContext>
          </DndContext>
        )}
        {sortError && (
          <p role="alert" className="px-3 py-1 text-sm text-danger">
            {sortError}
          </p>
        )}
      </div>

      <ReadingListDialog
        open={dialog !== null}
        list={dialog?.mode === 'edit' ? dialog.list : undefined}
        onClose={() => setDialog(null)}
        onSaved={(saved, created) => created && navigate(`/dashboard/reading-list/${saved.id}`)}
      />
      {deleting && (
        <DeleteReadingListDialog
          list={deleting}
          open
          onClose={() => setDeleting(null)}
          // §7: after deleting the list in view the user goes to /dashboard.
          onDeleted={() => active === deleting.id && navigate('/dashboard')}
        />
      )}
    </section>
  );
}

/** A list's row; memoised, with its own badge subscription, so a count change re-renders only its badge's row. */
const SortableListItem = memo(function SortableListItem({
  list,
  active,
  onEdit,
  onDelete,
}: {
  list: ReadingList;
  active: boolean;
  onEdit(list: ReadingList): void;
  onDelete(list: ReadingList): void;
}) {
  const { t } = useTranslation();
  // Until the counts call answers, the count the list itself came with.
  const count = useReadingListUnread(list.id) ?? list.unread_article_count;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: list.id });
  const name = unescapeAngles(list.name);
  // Mouse and touch drag from anywhere on the row; the keyboard uses the grip (Enter on the link still opens it).
  const { onKeyDown, ...pointerListeners } = (listeners ?? {}) as { onKeyDown?: (e: KeyboardEvent) => void } & Record<string, unknown>;
  const Icon = list.is_smart ? Sparkles : BookmarkCheck;

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`group relative flex items-center rounded-lg ${isDragging ? 'z-10 bg-surface shadow-card ring-1 ring-border' : ''}`}
      data-testid="reading-list-item"
    >
      <Link
        to={`/dashboard/reading-list/${list.id}`}
        aria-current={active ? 'page' : undefined}
        {...pointerListeners}
        onContextMenu={(e) => isDragging && e.preventDefault()}
        className={`${itemClass(active)} min-w-0 flex-1 touch-manipulation select-none py-1 [-webkit-touch-callout:none]`}
      >
        <Icon aria-hidden className={`size-4.5 shrink-0 ${active ? 'text-accent' : 'text-muted group-hover:text-text'}`} />
        <span className="min-w-0 flex-1 truncate">{name}</span>
        {list.is_smart && <span className="sr-only">({t('readingLists.section.smart')})</span>}
        <Badge count={count} />
      </Link>
      {/* On a wide screen grip and menu appear over the badge on hover or focus; on a phone the menu stays visible. */}
      <div className="flex shrink-0 items-center lg:pointer-events-none lg:absolute lg:inset-y-0 lg:right-0 lg:rounded-r-lg lg:bg-surface-2 lg:pl-1 lg:opacity-0 lg:group-focus-within:pointer-events-auto lg:group-focus-within:opacity-100 lg:group-hover:pointer-events-auto lg:group-hover:opacity-100">
        <button
          ref={setActivatorNodeRef}
          type="button"
          {...attributes}
          onKeyDown={onKeyDown}
          aria-label={t('readingLists.section.dragHandle', { name })}
          title={t('readingLists.section.dragHandle', { name })}
          className="sr-only inline-flex size-10 cursor-grab items-center justify-center rounded-lg text-muted hover:bg-surface hover:text-text focus-visible:not-sr-only lg:not-sr-only"
        >
          <GripVertical aria-hidden className="size-4" />
        </button>
        <FeedActionsMenu
          label={t('readingLists.section.actions', { name })}
          actions={[
            { label: t('readingLists.section.edit'), icon: Pencil, onSelect: () => onEdit(list) },
            { label: t('readingLists.section.delete'), icon: Trash2, onSelect: () => onDelete(list), danger: true },
          ]}
        />
      </div>
    </li>
  );
});
