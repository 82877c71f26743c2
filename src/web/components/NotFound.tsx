import { Compass } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from './ui/Button.js';
import { usePageTitle } from '../lib/pageTitle.js';

/** Any unknown /dashboard path (dashboard.md §2): "not found", "page does not exist", a link to /dashboard. */
export function NotFound() {
  const { t } = useTranslation();
  usePageTitle(t('dashboard.notFound.pageTitle'));
  return (
    <section aria-labelledby="not-found-title" className="mx-auto flex max-w-md flex-col items-center py-12 text-center sm:py-20">
      <div aria-hidden className="mb-6 flex size-14 items-center justify-center rounded-2xl bg-surface-2 text-muted">
        <Compass className="size-7" />
      </div>
      <h2 id="not-found-title" className="text-2xl font-semibold tracking-tight">
        {t('dashboard.notFound.title')}
      </h2>
      <p className="mt-2 text-muted">{t('dashboard.notFound.text')}</p>
      <ButtonLink to="/dashboard" variant="secondary" className="mt-6">
        {t('dashboard.notFound.back')}
      </ButtonLink>
    </section>
  );
}
