import { BookmarkPlus, CheckCircle2, Pencil, SearchCheck, Sparkles, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { ReadingList } from '../../../common/api.js';
import { Alert } from '../../components/ui/Alert.js';
import { Button } from '../../components/ui/Button.js';
import { Skeleton } from '../../components/ui/Skeleton.js';
import { ApiError } from '../../lib/api.js';
import type { ArticleView } from './api.js';
import { ArticleList } from './components/ArticleList.js';
import { EmptyState } from './components/EmptyState.js';
import { ReadingStateProvider, useReadingState } from './readingState.js';
import { NotFound } from '../../components/NotFound.js';
import { usePageTitle } from '../../lib/pageTitle.js';
import { DeleteReadingListDialog, ReadingListDialog, unescapeAngles, useReadingList } from '../reading-lists/index.js';

/**
 * /dashboard/reading-list/{id} (dashboard.md §2): the list's articles in the shared article list (count, the
 * show-read note, mark all read, infinite scroll, polling), with the list's name as the page title, its
 * description, and edit and delete. A non-numeric or unknown id is the not-found page.
 */
export function ReadingListPage() {
  const { id } = useParams();
  if (!id || !/^[1-9]\d{0,15}$/.test(id)) return <NotFound />;
  // A reading list holds articles the user chose to keep, and most were read before they were kept: the list
  // opens with read articles shown (its own show-read state, per visit; the header note still switches it).
  return (
    <ReadingStateProvider key={id} initialShowRead>
      <ListView listId={Number(id)} />
    </ReadingStateProvider>
  );
}

function ListView({ listId }: { listId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useReadingList(listId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const view = useMemo<ArticleView>(() => ({ kind: 'reading-list', listId }), [listId]);
  const name = list.data ? unescapeAngles(list.data.name) : '';
  // The spec leaves the list view's title empty; the list's name is what a reader expects there (docs/decisions.md).
  usePageTitle(name || t('readingLists.section.title'));

  if (list.isPending) {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-3" aria-hidden>
        <Skeleton className="h-6 w-2/3" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-64 w-full rounded-2xl" />
      </div>
    );
  }
  if (list.isError) {
    // Someone else's or a deleted list is an address that does not exist, like any unknown path (§2).
    if (list.error instanceof ApiError && list.error.status === 404) return <NotFound />;
    return (
      <div className="mx-auto max-w-3xl">
        <Alert tone="error">{t('readingLists.errors.load')}</Alert>
      </div>
    );
  }

  const data = list.data;
  return (
    <>
      <ArticleList
        view={view}
        intro={<Intro list={data} onEdit={() => setEditing(true)} onDelete={() => setDeleting(true)} />}
        emptyState={<ListEmpty list={data} onEdit={() => setEditing(true)} />}
      />
      <ReadingListDialog open={editing} list={data} onClose={() => setEditing(false)} />
      <DeleteReadingListDialog list={data} open={deleting} onClose={() => setDeleting(false)} onDeleted={() => navigate('/dashboard')} />
    </>
  );
}

/** The list's description, its kind, and edit and delete, above the sticky count header. */
function Intro({ list, onEdit, onDelete }: { list: ReadingList; onEdit(): void; onDelete(): void }) {
  const { t } = useTranslation();
  const description = unescapeAngles(list.description ?? '').trim();
  return (
    <div className="mb-1 flex flex-wrap items-start gap-x-4 gap-y-2" data-testid="reading-list-intro">
      <div className="min-w-0 flex-1 basis-64">
        {list.is_smart && (
          <p className="mb-1 inline-flex items-center gap-1.5 rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">
            <Sparkles aria-hidden className="size-3.5" />
            {t('readingLists.page.smartBadge')}
          </p>
        )}
        {description && <p className="max-w-[68ch] text-[0.9375rem] leading-relaxed text-muted text-pretty">{description}</p>}
      </div>
      <div className="-mr-2 flex shrink-0 items-center gap-1">
        <Button variant="ghost" size="sm" onClick={onEdit} className="min-h-10">
          <Pencil aria-hidden className="size-4 text-muted" />
          {list.is_smart ? t('readingLists.page.editRules') : t('readingLists.page.edit')}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDelete} className="min-h-10">
          <Trash2 aria-hidden className="size-4 text-muted" />
          {t('readingLists.page.delete')}
        </Button>
      </div>
    </div>
  );
}

/**
 * §2 "empty reading list": how to fill it (a simple list: the card's bookmark button; a smart list: nothing
 * matches the rules yet). A list that has articles but none unread while read ones are hidden is "all read".
 */
function ListEmpty({ list, onEdit }: { list: ReadingList; onEdit(): void }) {
  const { t } = useTranslation();
  const { showRead, toggleShowRead } = useReadingState();
  if (!showRead && list.article_count > 0) {
    return (
      <EmptyState icon={CheckCircle2} title={t('readingLists.page.allReadTitle')} text={t('readingLists.page.allReadText')}>
        <Button variant="secondary" onClick={toggleShowRead}>
          {t('readingLists.page.showAll')}
        </Button>
      </EmptyState>
    );
  }
  if (list.is_smart) {
    return (
      <EmptyState icon={SearchCheck} title={t('readingLists.page.emptyTitle')} text={t('readingLists.page.emptySmartText')}>
        <Button variant="secondary" onClick={onEdit}>
          <Pencil aria-hidden className="size-4" />
          {t('readingLists.page.editRules')}
        </Button>
      </EmptyState>
    );
  }
  return <EmptyState icon={BookmarkPlus} title={t('readingLists.page.emptyTitle')} text={t('readingLists.page.emptyText')} />;
}
