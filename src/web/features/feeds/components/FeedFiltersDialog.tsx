import { useQueryClient } from '@tanstack/react-query';
import { Filter, Plus, Trash2 } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedFilter, FilterScopeName, FilterTypeName } from '../../../../common/api.js';
import { MAX_FILTER_TEXT_LENGTH } from '../../../../common/limits.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { Skeleton } from '../../../components/ui/Skeleton.js';
import { TextField } from '../../../components/ui/TextField.js';
import { ApiError } from '../../../lib/api.js';
import { announce } from '../../../lib/mutations.js';
import { feedTitle, filtersKey, useAddFilter, useDeleteFilter, useFeedFilters, useFeedSummaries } from '../api.js';
import { ChoiceGroup, filterScopeChoices } from './ChoiceGroup.js';

export interface FeedFiltersDialogProps {
  feedId: number;
  open: boolean;
  onClose(): void;
}

/**
 * "Manage filters" for one feed (dashboard.md §2, §3 "Feed filter", §4 "Filters dialog", §5, §8 "Filters"):
 * the feed's filters with a delete button each, and a form for a new one (defaults include and both; the text
 * must not be blank; a duplicate is 409 "filter already exists", anything else "error adding filter").
 * Filters apply at once on the server; closing the dialog tells the rest of the app (filters-updated, and a
 * forced refresh of the unread counts and the article list).
 */
export function FeedFiltersDialog({ feedId, open, onClose }: FeedFiltersDialogProps) {
  const { t } = useTranslation();
  // The title only: the summaries the dashboard holds anyway (the dialog opens from an article view too).
  const feeds = useFeedSummaries();
  const feed = feeds.data?.find((f) => f.id === feedId);
  const title = feed ? t('feeds.filters.titleFor', { title: feedTitle(feed, t) }) : t('feeds.filters.title');

  const close = () => {
    announce([{ filters: { feedId } }, 'counts', 'articles']);
    onClose();
  };

  return (
    <Modal open={open} onClose={close} title={title}>
      <FiltersBody feedId={feedId} onDone={close} />
    </Modal>
  );
}

function FiltersBody({ feedId, onDone }: { feedId: number; onDone(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const filters = useFeedFilters(feedId);
  const addFilter = useAddFilter();
  const deleteFilter = useDeleteFilter();
  const [type, setType] = useState<FilterTypeName>('include');
  const [scope, setScope] = useState<FilterScopeName>('both');
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<number | null>(null);
  const textRef = useRef<HTMLInputElement>(null);

  const setList = (update: (list: FeedFilter[]) => FeedFilter[]) => client.setQueryData<FeedFilter[]>(filtersKey(feedId), (list) => update(list ?? []));

  const typeLabel = (value: FilterTypeName) => (value === 'include' ? t('feeds.filters.include') : t('feeds.filters.exclude'));
  const scopeLabel = (value: FilterScopeName) =>
    value === 'title' ? t('feeds.filters.scopeTitle') : value === 'content' ? t('feeds.filters.scopeContent') : t('feeds.filters.scopeBoth');

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!text.trim()) {
      setFieldError(t('feeds.filters.textRequired'));
      textRef.current?.focus();
      return;
    }
    setAdding(true);
    try {
      const created = await addFilter.mutateAsync({ feedId, filter: { filter_type: type, filter_scope: scope, filter_text: text } });
      setList((list) => [...list.filter((f) => f.id !== created.id), created]);
      setText('');
      textRef.current?.focus();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setError(t('feeds.filters.exists'));
      else setError(t('feeds.filters.addError'));
    } finally {
      setAdding(false);
    }
  };

  const onDelete = async (filter: FeedFilter) => {
    setError(null);
    setDeleting(filter.id);
    try {
      await deleteFilter.mutateAsync(filter.id);
      setList((list) => list.filter((f) => f.id !== filter.id));
    } catch (err) {
      // Already gone on the server: the list just catches up.
      if (err instanceof ApiError && err.status === 404) setList((list) => list.filter((f) => f.id !== filter.id));
      else setError(t('feeds.filters.deleteError'));
    } finally {
      setDeleting(null);
    }
  };

  return (
    <div className="flex flex-col gap-5 px-5 pb-5 pt-1">
      <p className="text-sm leading-relaxed text-muted">{t('feeds.filters.intro')}</p>

      <section aria-label={t('feeds.filters.listLabel')}>
        {filters.isPending ? (
          <div role="status" aria-label={t('feeds.filters.loading')} className="flex flex-col gap-2">
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : filters.isError ? (
          <Alert tone="error">{t('feeds.filters.loadError')}</Alert>
        ) : filters.data.length === 0 ? (
          <p className="flex items-center gap-2 rounded-lg border border-dashed border-border-strong px-3.5 py-3 text-sm text-muted">
            <Filter aria-hidden className="size-4 shrink-0" />
            {t('feeds.filters.none')}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {filters.data.map((filter) => (
              <li key={filter.id} className="flex items-center gap-3 py-1.5 pl-3.5 pr-1.5">
                <span
                  className={`shrink-0 rounded-md px-2 py-0.5 text-xs font-semibold ${
                    filter.filter_type === 'include' ? 'bg-success-soft text-success' : 'bg-danger-soft text-danger'
                  }`}
                >
                  {typeLabel(filter.filter_type)}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-text">{filter.filter_text}</span>
                  <span className="block text-xs text-muted">{scopeLabel(filter.filter_scope)}</span>
                </span>
                <button
                  type="button"
                  onClick={() => void onDelete(filter)}
                  disabled={deleting === filter.id}
                  aria-label={t('feeds.filters.delete', { text: filter.filter_text })}
                  className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-danger-soft hover:text-danger disabled:opacity-50"
                >
                  <Trash2 aria-hidden className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4 rounded-xl bg-surface-2/60 p-4" aria-label={t('feeds.filters.newFilter')}>
        <div className="flex flex-col gap-4 sm:flex-row sm:gap-6">
          <ChoiceGroup<FilterTypeName>
            legend={t('feeds.filters.type')}
            value={type}
            onChange={setType}
            options={[
              { value: 'include', label: t('feeds.filters.include') },
              { value: 'exclude', label: t('feeds.filters.exclude') },
            ]}
          />
          <ChoiceGroup<FilterScopeName> legend={t('feeds.filters.scope')} value={scope} onChange={setScope} options={filterScopeChoices(t)} />
        </div>
        <TextField
          ref={textRef}
          label={t('feeds.filters.text')}
          placeholder={t('feeds.filters.textPlaceholder')}
          value={text}
          maxLength={MAX_FILTER_TEXT_LENGTH}
          error={fieldError}
          onChange={(e) => {
            setText(e.target.value);
            setFieldError(null);
          }}
        />
        {error && <Alert tone="error">{error}</Alert>}
        <div className="flex sm:justify-end">
          <Button type="submit" disabled={adding} className="w-full sm:w-auto">
            <Plus aria-hidden className="size-4" />
            {adding ? t('feeds.filters.adding') : t('feeds.filters.add')}
          </Button>
        </div>
      </form>

      <div className="flex sm:justify-end">
        <Button variant="secondary" onClick={onDone} className="w-full sm:w-auto">
          {t('feeds.filters.done')}
        </Button>
      </div>
    </div>
  );
}
