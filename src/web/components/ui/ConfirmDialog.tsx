import { Trash2, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Alert } from './Alert.js';
import { Button } from './Button.js';
import { Modal } from './Modal.js';

export interface ConfirmDialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  /** The question and what follows from it (one or more paragraphs). */
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  /** The confirm button's text while onConfirm runs. */
  pendingLabel: string;
  /**
   * Does the work and what follows success (a toast, a navigation); the dialog closes once it resolves. When it
   * throws, the dialog stays open with errorMessage(err) inside it (dashboard.md §8).
   */
  onConfirm(): Promise<void>;
  errorMessage(err: unknown): string;
  /** The confirm button's icon; a bin unless the act is not a deletion (e.g. replacing a password). */
  confirmIcon?: LucideIcon;
}

/**
 * The confirm before a deletion (dashboard.md §2 "Dialogs"; folders, reading lists and feeds use it): cancel has the
 * focus, the danger button says what it deletes and that it is deleting while it runs, both are disabled meanwhile,
 * and a failure shows in the dialog instead of closing it.
 */
export function ConfirmDialog({ open, onClose, title, ...body }: ConfirmDialogProps) {
  return (
    <Modal open={open} onClose={onClose} title={title} className="sm:w-[min(100vw-2rem,28rem)]">
      {/* Mounted only while open, so a reopened dialog starts without the last error. */}
      {open && <ConfirmBody title={title} onClose={onClose} {...body} />}
    </Modal>
  );
}

function ConfirmBody({
  title,
  onClose,
  children,
  cancelLabel,
  confirmLabel,
  pendingLabel,
  onConfirm,
  errorMessage,
  confirmIcon: Icon = Trash2,
}: Omit<ConfirmDialogProps, 'open'>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      console.error(`"${confirmLabel}" in "${title}" failed`, err);
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-5 px-5 pb-5 pt-1">
      {children}
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
          {cancelLabel}
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={busy}>
          <Icon aria-hidden className="size-4" />
          {busy ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </div>
  );
}
