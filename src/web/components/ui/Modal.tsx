import { X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ModalProps {
  open: boolean;
  onClose(): void;
  /** Accessible name of the dialog; shown as heading unless hideTitle. */
  title: ReactNode;
  hideTitle?: boolean;
  children: ReactNode;
  className?: string;
}

/**
 * A modal on the native <dialog> (showModal): the page behind is inert, so focus stays inside; Escape,
 * a click on the backdrop and the close button all close it (docs/decisions.md "Look and feel (web)"), and focus returns to the opener.
 */
export function Modal({ open, onClose, title, hideTitle, children, className = '' }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-label={typeof title === 'string' ? title : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the dialog element itself (not its content) is a click on the backdrop.
        if (e.target === ref.current) onClose();
      }}
      className={`m-auto max-h-[calc(100dvh-2rem)] w-[min(100vw-2rem,40rem)] overflow-visible rounded-2xl border border-border bg-surface p-0 text-text shadow-2xl backdrop:bg-black/60 backdrop:backdrop-blur-sm ${className}`}
    >
      {open && (
        <div className="relative flex max-h-[calc(100dvh-2rem)] flex-col">
          <div className={`flex items-center justify-between gap-4 px-5 pt-4 ${hideTitle ? 'absolute right-0 top-0 z-10' : 'pb-2'}`}>
            {!hideTitle && <h2 className="text-lg font-semibold">{title}</h2>}
            <button
              type="button"
              onClick={onClose}
              aria-label={t('common.close')}
              className="inline-flex size-10 items-center justify-center rounded-full bg-surface/90 text-muted hover:bg-surface-2 hover:text-text"
            >
              <X aria-hidden className="size-5" />
            </button>
          </div>
          <div className="overflow-auto">{children}</div>
        </div>
      )}
    </dialog>
  );
}
