import { useTranslation } from 'react-i18next';
import type { Folder } from '../../../../common/api.js';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.js';
import { toast } from '../../../components/ui/Toast.js';
import { folderErrorMessage, useDeleteFolder } from '../api.js';

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
  const deleteFolder = useDeleteFolder();
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={t('folders.delete.title')}
      cancelLabel={t('common.cancel')}
      confirmLabel={t('folders.delete.confirm')}
      pendingLabel={t('folders.delete.deleting')}
      onConfirm={async () => {
        await deleteFolder.mutateAsync(folder.id);
        toast(t('folders.toasts.deleted', { name: folder.name }));
      }}
      errorMessage={(err) => folderErrorMessage(err, 'delete', t)}
    >
      <p className="text-sm leading-relaxed text-text">{t('folders.delete.text', { name: folder.name })}</p>
      <p className="text-sm leading-relaxed text-muted">{t('folders.delete.feedsStay', { count: feedCount })}</p>
    </ConfirmDialog>
  );
}
