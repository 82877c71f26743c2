import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/Modal.js';

/** The keys of the article list (see useArticleShortcuts), in the order the help lists them. */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ['j'], action: 'next' },
  { keys: ['k'], action: 'previous' },
  { keys: ['m'], action: 'toggleRead' },
  { keys: ['s', 'f'], action: 'favorite' },
  { keys: ['o', 'Enter'], action: 'open' },
  { keys: ['v'], action: 'extended' },
  { keys: ['n'], action: 'nextFeed' },
  { keys: ['p'], action: 'previousFeed' },
  { keys: ['r'], action: 'refresh' },
  { keys: ['/'], action: 'search' },
  { keys: ['?'], action: 'help' },
];

/** The "?" help: every shortcut of the article list with what it does. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('articles.shortcuts.title')} className="sm:w-[min(100vw-2rem,28rem)]">
      <div className="px-5 pb-5">
        <p className="mb-3 text-sm text-muted">{t('articles.shortcuts.intro')}</p>
        <dl className="divide-y divide-border">
          {SHORTCUTS.map((s) => (
            <div key={s.action} className="flex items-center justify-between gap-4 py-2">
              <dt className="text-sm text-text">{t(`articles.shortcuts.${s.action}`)}</dt>
              <dd className="flex shrink-0 items-center gap-1.5">
                {s.keys.map((k, i) => (
                  <span key={k} className="flex items-center gap-1.5">
                    {i > 0 && <span className="text-xs text-muted">{t('articles.shortcuts.or')}</span>}
                    <kbd className="min-w-7 rounded-md border border-border-strong bg-surface-2 px-1.5 py-0.5 text-center font-mono text-xs text-text shadow-[0_1px_0_var(--border-strong)]">
                      {k}
                    </kbd>
                  </span>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </Modal>
  );
}
