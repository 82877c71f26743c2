import { CheckCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';

/**
 * The phone's "mark all read" asks first (docs/decisions.md "Reading flow"): its header has only the icon, which a
 * thumb hits by mistake. Cancel has the focus; the mark itself still offers its undo afterwards.
 */
export function MarkAllConfirm({ open, onClose, onConfirm }: { open: boolean; onClose(): void; onConfirm(): Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Modal open={open} onClose={onClose} title={t('articles.confirmMarkAll.title')} className="sm:w-[min(100vw-2rem,28rem)]">
      <div className="flex flex-col gap-5 px-5 pb-5 pt-1">
        <p className="text-[0.9375rem] text-muted">{t('articles.confirmMarkAll.text')}</p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={async () => {
              setBusy(true);
              try {
                onClose();
                await onConfirm();
              } finally {
                setBusy(false);
              }
            }}
            disabled={busy}
          >
            <CheckCheck aria-hidden className="size-4" />
            {busy ? t('articles.confirmMarkAll.pending') : t('articles.confirmMarkAll.confirm')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
