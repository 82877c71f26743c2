import { ChevronDown, Cookie } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STORAGE_KEYS } from '../../common/constants.js';
import { storage } from '../lib/storage.js';
import { Button } from './ui/Button.js';

/** The stored keys the details list (public-area-and-api.md §2), each with what it is for. */
const KEYS: { id: string; keys: string[] }[] = [
  { id: 'cookiesAccepted', keys: [STORAGE_KEYS.cookiesAccepted] },
  { id: 'tokens', keys: [STORAGE_KEYS.token, STORAGE_KEYS.refreshToken] },
  { id: 'user', keys: [STORAGE_KEYS.user] },
  { id: 'theme', keys: [STORAGE_KEYS.theme] },
  { id: 'language', keys: [STORAGE_KEYS.language] },
];

export const isCookiesAccepted = () => storage.get(STORAGE_KEYS.cookiesAccepted) === 'true';

/**
 * Notice about browser storage, fixed at the bottom until accepted (public-area-and-api.md §2, §4). Feeder
 * stores only what it needs to work, so there is nothing to refuse: one button acknowledges, a toggle shows
 * the details. Compact on phones; once accepted it never shows again in this browser.
 */
export function CookieBanner() {
  const { t } = useTranslation();
  const [accepted, setAccepted] = useState(isCookiesAccepted);
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const titleId = useId();

  if (accepted) return null;

  const accept = () => {
    storage.set(STORAGE_KEYS.cookiesAccepted, 'true');
    setAccepted(true);
  };

  return (
    <section
      aria-labelledby={titleId}
      className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-2xl rounded-2xl border border-border bg-surface shadow-[0_12px_40px_-8px_rgb(0_0_0/0.25)] mb-[env(safe-area-inset-bottom)] sm:inset-x-6 sm:bottom-6"
    >
      <div className="flex max-h-[70dvh] flex-col gap-3 overflow-y-auto p-4 sm:p-5">
        <div className="flex gap-3">
          <Cookie aria-hidden className="mt-0.5 hidden size-5 shrink-0 text-accent sm:block" />
          <div className="min-w-0">
            <h2 id={titleId} className="text-[0.9375rem] font-semibold">
              {t('cookies.title')}
            </h2>
            <p className="mt-1 text-sm leading-relaxed text-muted">{t('cookies.text')}</p>
          </div>
        </div>
        {open && (
          <div id={detailsId} className="rounded-xl bg-surface-2 p-3 text-sm sm:ml-8">
            <dl className="flex flex-col gap-2.5">
              {KEYS.map(({ id, keys }) => (
                <div key={id} className="grid gap-0.5 sm:grid-cols-[10.5rem_1fr] sm:gap-3">
                  <dt className="font-mono text-[0.8125rem] text-text">{keys.join(', ')}</dt>
                  <dd className="text-muted">{t(`cookies.keys.${id}`)}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 text-muted">
              {t('cookies.more')}{' '}
              <Link to="/privacy" className="font-medium text-accent underline underline-offset-2">
                {t('cookies.privacyLink')}
              </Link>
              .
            </p>
          </div>
        )}
        <div className="flex flex-wrap items-center justify-end gap-2 sm:ml-8">
          <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={open ? detailsId : undefined} onClick={() => setOpen((o) => !o)} className="min-h-10">
            {open ? t('cookies.hideDetails') : t('cookies.showDetails')}
            <ChevronDown aria-hidden className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
          </Button>
          <Button size="sm" onClick={accept} className="min-h-10 px-5">
            {t('cookies.accept')}
          </Button>
        </div>
      </div>
    </section>
  );
}
