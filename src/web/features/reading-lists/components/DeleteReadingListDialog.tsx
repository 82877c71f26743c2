import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReadingList } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { deleteReadingList, unescapeAngles } from '../api.js';

export interface DeleteReadingListDialogProps {
  list: Pick<ReadingList, 'id' | 'name'>;
  open: boolean;
  onClose(): void;
  onDeleted?(): void;
}

/**
 * The reading-list deletion confirm (dashboard.md §2 "Sidebar" dialogs, §8 "Reading-list management": the text
 * adds "Diese Aktion kann nicht rückgängig gemacht werden."; a failure shows its own message in the dialog).
 */
export function DeleteReadingListDialog({ list, open, onClose, onDeleted }: DeleteReadingListDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('readingLists.delete.title')} className="sm:w-[min(100vw-2rem,28rem)]">
      <DeleteBody list={list} onClose={onClose} onDeleted={onDeleted} />
    </Modal>
  );
}

function DeleteBody({ list, onClose, onDeleted }: Omit<DeleteReadingListDialogProps, 'open'>) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteReadingList(list.id);
      onClose();
      onDeleted?.();
    } catch (err) {
      console.error('Deleting the reading list failed', err);
      setError(t('readingLists.errors.delete'));
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-5 px-5 pb-5 pt-1">
      <p className="text-sm leading-relaxed text-text">
        {t('readingLists.delete.text', { name: unescapeAngles(list.name) })}{' '}
        <strong className="font-semibold">{t('readingLists.delete.irreversible')}</strong>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
          {t('readingLists.delete.cancel')}
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          <Trash2 aria-hidden className="size-4" />
          {busy ? t('readingLists.delete.deleting') : t('readingLists.delete.confirm')}
        </Button>
      </div>
    </div>
  );
}
