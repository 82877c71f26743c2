import { useTranslation } from 'react-i18next';
import type { ReadingList } from '../../../../common/api.js';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.js';
import { unescapeAngles, useDeleteReadingList } from '../api.js';

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
  const deleteReadingList = useDeleteReadingList();
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={t('readingLists.delete.title')}
      cancelLabel={t('readingLists.delete.cancel')}
      confirmLabel={t('readingLists.delete.confirm')}
      pendingLabel={t('readingLists.delete.deleting')}
      onConfirm={async () => {
        await deleteReadingList.mutateAsync(list.id);
        onDeleted?.();
      }}
      errorMessage={() => t('readingLists.errors.delete')}
    >
      <p className="text-sm leading-relaxed text-text">
        {t('readingLists.delete.text', { name: unescapeAngles(list.name) })} <strong className="font-semibold">{t('readingLists.delete.irreversible')}</strong>
      </p>
    </ConfirmDialog>
  );
}
