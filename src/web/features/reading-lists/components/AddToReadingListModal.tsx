import { BookmarkCheck, Check, Minus, Plus, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Article, ReadingList } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { ApiError } from '../../../lib/api.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { unescapeAngles, useArticleReadingLists, useEditMembership, useReadingLists } from '../api.js';
import { ReadingListDialog } from './ReadingListDialog.js';

/** §8 "Reading list add" / §9: the modal's messages clear after 3 s. */
export const MESSAGE_MS = 3000;

export interface AddToReadingListModalProps {
  article: Pick<Article, 'id' | 'title'>;
  open: boolean;
  onClose(): void;
}

/**
 * "Add to reading list" for one article (dashboard.md §2 "Modals", §4 "Reading-list membership", §8): the
 * user's simple lists, each with "add", or "already added" (disabled) and "remove from list" when the article
 * is in it. Smart lists are listed apart and cannot be chosen: they fill through their rules, and each says
 * whether the article matches. A new list can be made here; a new simple list gets the article at once.
 */
export function AddToReadingListModal({ article, open, onClose }: AddToReadingListModalProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('readingLists.add.title')} className="sm:w-[min(100vw-2rem,36rem)]">
      <ModalBody article={article} onClose={onClose} />
    </Modal>
  );
}

type Message = { tone: 'success' | 'error' | 'info'; text: string };

function ModalBody({ article, onClose }: Omit<AddToReadingListModalProps, 'open'>) {
  const { t } = useTranslation();
  const lists = useReadingLists();
  const memberships = useArticleReadingLists(article.id);
  const [shown, show] = useTimedMessage<Message>(MESSAGE_MS);
  const [busy, setBusy] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const member = new Set((memberships.data ?? []).map((m) => m.id));

  // After each change, success or not, the mutation asks for the memberships again and announces them.
  const membership = useEditMembership();

  const add = async (list: Pick<ReadingList, 'id' | 'name'>) => {
    setBusy(list.id);
    try {
      await membership.mutateAsync({ listId: list.id, articleId: article.id, action: 'add' });
      show({ tone: 'success', text: t('readingLists.add.added', { name: unescapeAngles(list.name) }) });
    } catch (err) {
      // §8: 409 "already in list"; anything else "error adding".
      if (err instanceof ApiError && err.status === 409) show({ tone: 'info', text: t('readingLists.add.alreadyInList') });
      else {
        console.error('Adding to the reading list failed', err);
        show({ tone: 'error', text: t('readingLists.add.errorAdding') });
      }
    } finally {
      setBusy(null);
    }
  };

  const remove = async (list: ReadingList) => {
    setBusy(list.id);
    try {
      await membership.mutateAsync({ listId: list.id, articleId: article.id, action: 'remove' });
      show({ tone: 'success', text: t('readingLists.add.removed', { name: unescapeAngles(list.name) }) });
    } catch (err) {
      console.error('Removing from the reading list failed', err);
      show({ tone: 'error', text: t('readingLists.add.errorRemoving') });
    } finally {
      setBusy(null);
    }
  };

  const all = lists.data ?? [];
  const simple = all.filter((l) => !l.is_smart);
  const smart = all.filter((l) => l.is_smart);
  const loading = lists.isPending || memberships.isPending;
  const failed = lists.isError || memberships.isError;

  return (
    <div className="flex flex-col gap-4 px-5 pb-5 pt-1">
      <p className="text-sm text-muted">
        <span className="sr-only">{t('readingLists.add.articleLabel')}: </span>
        <span className="line-clamp-2 font-medium text-text">{article.title?.trim() || t('articles.card.untitled')}</span>
      </p>

      {loading ? (
        <div aria-hidden className="flex flex-col gap-2">
          {[0, 1].map((i) => (
            <div key={i} className="h-12 animate-pulse rounded-xl bg-surface-2" />
          ))}
        </div>
      ) : failed ? (
        <Alert tone="error">{t('readingLists.add.errorLoading')}</Alert>
      ) : all.length === 0 ? (
        <p className="text-sm text-muted">{t('readingLists.add.noLists')}</p>
      ) : (
        <>
          {simple.length > 0 && (
            <ul className="flex flex-col divide-y divide-border rounded-xl border border-border" aria-label={t('readingLists.section.title')}>
              {simple.map((list) => {
                const name = unescapeAngles(list.name);
                const isIn = member.has(list.id);
                return (
                  <li key={list.id} className="flex flex-wrap items-center gap-2 px-3 py-2" data-testid="add-list-row">
                    <BookmarkCheck aria-hidden className={`size-4 shrink-0 ${isIn ? 'text-accent' : 'text-muted'}`} />
                    <span className="min-w-24 flex-1 truncate text-sm font-medium">{name}</span>
                    {isIn ? (
                      <span className="ml-auto flex flex-wrap items-center justify-end gap-1">
                        <Button variant="ghost" size="sm" disabled className="min-h-10 px-2 text-success disabled:opacity-100">
                          <Check aria-hidden className="size-4" />
                          {t('readingLists.add.alreadyAdded')}
                        </Button>
                        <Button
                          variant="secondary"
                          size="sm"
                          className="min-h-10"
                          disabled={busy !== null}
                          onClick={() => void remove(list)}
                          aria-label={t('readingLists.add.removeFrom', { name })}
                        >
                          <Minus aria-hidden className="size-4" />
                          {t('readingLists.add.remove')}
                        </Button>
                      </span>
                    ) : (
                      <Button
                        size="sm"
                        className="ml-auto min-h-10"
                        disabled={busy !== null}
                        onClick={() => void add(list)}
                        aria-label={t('readingLists.add.addTo', { name })}
                      >
                        <Plus aria-hidden className="size-4" />
                        {t('readingLists.add.add')}
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {smart.length > 0 && (
            <div className="flex flex-col gap-2">
              <p className="text-xs text-muted">{t('readingLists.add.smartHint')}</p>
              <ul className="flex flex-col divide-y divide-border rounded-xl border border-dashed border-border" aria-label={t('readingLists.dialog.smart')}>
                {smart.map((list) => (
                  <li key={list.id} className="flex min-h-12 items-center gap-2 px-3 py-2 text-muted" data-testid="add-list-row">
                    <Sparkles aria-hidden className="size-4 shrink-0" />
                    <span className="min-w-0 flex-1 truncate text-sm">{unescapeAngles(list.name)}</span>
                    <span className={`shrink-0 text-xs font-medium ${member.has(list.id) ? 'text-success' : ''}`}>
                      {member.has(list.id) ? t('readingLists.add.smartMember') : t('readingLists.add.smartNotMember')}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}

      <div aria-live="polite" className="empty:hidden">
        {shown && <Alert tone={shown.tone}>{shown.text}</Alert>}
      </div>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="secondary" onClick={() => setCreating(true)}>
          <Plus aria-hidden className="size-4" />
          {t('readingLists.add.newList')}
        </Button>
        <Button variant="ghost" onClick={onClose}>
          {t('readingLists.add.done')}
        </Button>
      </div>

      <ReadingListDialog
        open={creating}
        onClose={() => setCreating(false)}
        onSaved={(saved, created) => {
          if (created && !saved.is_smart) void add(saved);
        }}
      />
    </div>
  );
}
