import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Feed } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { deleteFeed, feedTitle } from '../api.js';

export interface DeleteFeedDialogProps {
  feed: Pick<Feed, 'id' | 'title' | 'custom_title' | 'original_title'>;
  open: boolean;
  onClose(): void;
  onDeleted?(title: string): void;
}

/** The delete confirmation (dashboard.md §4 "Delete feed"): confirm, then deleted, or the error in the dialog (§8). */
export function DeleteFeedDialog({ feed, open, onClose, onDeleted }: DeleteFeedDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('feeds.delete.title')} className="sm:w-[min(100vw-2rem,28rem)]">
      <DeleteBody feed={feed} onClose={onClose} onDeleted={onDeleted} />
    </Modal>
  );
}

function DeleteBody({ feed, onClose, onDeleted }: Omit<DeleteFeedDialogProps, 'open'>) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const title = feedTitle(feed, t);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteFeed(feed.id);
      onDeleted?.(title);
      onClose();
    } catch (err) {
      console.error('Deleting the feed failed', err);
      setError(t('feeds.delete.error'));
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-5 px-5 pb-5 pt-1">
      <p className="text-sm leading-relaxed text-text">{t('feeds.delete.text', { title })}</p>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
          {t('feeds.delete.cancel')}
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          <Trash2 aria-hidden className="size-4" />
          {busy ? t('feeds.delete.deleting') : t('feeds.delete.confirm')}
        </Button>
      </div>
    </div>
  );
}
