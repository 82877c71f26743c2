import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Folder } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { toast } from '../../../components/ui/Toast.js';
import { deleteFolder, folderErrorMessage } from '../api.js';

export interface DeleteFolderDialogProps {
  folder: Pick<Folder, 'id' | 'name'>;
  /** How many feeds the folder holds, for the text. */
  feedCount: number;
  open: boolean;
  onClose(): void;
}

/**
 * The folder deletion confirm (dashboard.md §2 "Dialogs"): says that the folder's feeds go back to the feed list
 * and are not deleted; a failure shows in the dialog (§8 "Folders"), success closes it with a toast.
 */
export function DeleteFolderDialog({ folder, feedCount, open, onClose }: DeleteFolderDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('folders.delete.title')} className="sm:w-[min(100vw-2rem,28rem)]">
      {open && <DeleteBody folder={folder} feedCount={feedCount} onClose={onClose} />}
    </Modal>
  );
}

function DeleteBody({ folder, feedCount, onClose }: Omit<DeleteFolderDialogProps, 'open'>) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteFolder(folder.id);
      toast(t('folders.toasts.deleted', { name: folder.name }));
      onClose();
    } catch (err) {
      console.error('Deleting the folder failed', err);
      setError(folderErrorMessage(err, 'delete', t));
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-5 px-5 pb-5 pt-1">
      <p className="text-sm leading-relaxed text-text">{t('folders.delete.text', { name: folder.name })}</p>
      <p className="text-sm leading-relaxed text-muted">{t('folders.delete.feedsStay', { count: feedCount })}</p>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
          {t('common.cancel')}
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          <Trash2 aria-hidden className="size-4" />
          {busy ? t('folders.delete.deleting') : t('folders.delete.confirm')}
        </Button>
      </div>
    </div>
  );
}
