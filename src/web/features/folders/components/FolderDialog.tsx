import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Folder } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { TextField } from '../../../components/ui/TextField.js';
import { toast } from '../../../components/ui/Toast.js';
import { folderErrorMessage, MAX_FOLDER_NAME_LENGTH, useCreateFolder, useRenameFolder } from '../api.js';

export interface FolderDialogProps {
  open: boolean;
  onClose(): void;
  /** The folder to rename; without it the dialog creates a new one. */
  folder?: Pick<Folder, 'id' | 'name'>;
  onSaved?(folder: Folder): void;
}

/**
 * The folder dialog (dashboard.md §2 "Dialogs": modal): a name, required after trimming (§5) and at most 100
 * characters, for a new folder or a renamed one. Server errors (§8 "Folders": a taken name, invalid input, no
 * answer, authentication) show in the dialog, which stays open; success closes it with a toast.
 */
export function FolderDialog({ open, onClose, folder, onSaved }: FolderDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={folder ? t('folders.dialog.renameTitle') : t('folders.dialog.createTitle')} className="sm:w-[min(100vw-2rem,28rem)]">
      {/* Mounted only while open, so every opening starts from the folder's name (or empty). */}
      {open && <FolderForm folder={folder} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function FolderForm({ folder, onClose, onSaved }: Omit<FolderDialogProps, 'open'>) {
  const { t } = useTranslation();
  const [name, setName] = useState(folder?.name ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const createFolder = useCreateFolder();
  const renameFolder = useRenameFolder();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setFieldError(t('folders.errors.nameRequired'));
    if ([...trimmed].length > MAX_FOLDER_NAME_LENGTH) return setFieldError(t('folders.errors.nameTooLong', { max: MAX_FOLDER_NAME_LENGTH }));
    if (folder && trimmed === folder.name) return onClose();
    setBusy(true);
    setError(null);
    try {
      const saved = folder ? await renameFolder.mutateAsync({ id: folder.id, name: trimmed }) : await createFolder.mutateAsync(trimmed);
      toast(folder ? t('folders.toasts.renamed', { name: saved.name }) : t('folders.toasts.created', { name: saved.name }));
      onSaved?.(saved);
      onClose();
    } catch (err) {
      console.error(folder ? 'Renaming the folder failed' : 'Creating the folder failed', err);
      setError(folderErrorMessage(err, folder ? 'update' : 'create', t));
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-5 px-5 pb-5 pt-1">
      <TextField
        label={t('folders.dialog.nameLabel')}
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setFieldError(null);
        }}
        error={fieldError}
        required
        autoFocus
        autoComplete="off"
        maxLength={MAX_FOLDER_NAME_LENGTH}
        placeholder={t('folders.dialog.namePlaceholder')}
      />
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t('folders.dialog.saving') : folder ? t('common.save') : t('folders.dialog.create')}
        </Button>
      </div>
    </form>
  );
}
