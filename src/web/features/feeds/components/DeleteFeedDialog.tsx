import { useTranslation } from 'react-i18next';
import type { Feed } from '../../../../common/api.js';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.js';
import { feedTitle, useDeleteFeed } from '../api.js';

export interface DeleteFeedDialogProps {
  feed: Pick<Feed, 'id' | 'title' | 'custom_title' | 'original_title'>;
  open: boolean;
  onClose(): void;
  onDeleted?(title: string): void;
}

/** The delete confirmation (dashboard.md §4 "Delete feed"): confirm, then deleted, or the error in the dialog (§8). */
export function DeleteFeedDialog({ feed, open, onClose, onDeleted }: DeleteFeedDialogProps) {
  const { t } = useTranslation();
  const title = feedTitle(feed, t);
  const deleteFeed = useDeleteFeed();
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={t('feeds.delete.title')}
      cancelLabel={t('feeds.delete.cancel')}
      confirmLabel={t('feeds.delete.confirm')}
      pendingLabel={t('feeds.delete.deleting')}
      onConfirm={async () => {
        await deleteFeed.mutateAsync(feed.id);
        onDeleted?.(title);
      }}
      errorMessage={() => t('feeds.delete.error')}
    >
      <p className="text-sm leading-relaxed text-text">{t('feeds.delete.text', { title })}</p>
    </ConfirmDialog>
  );
}
