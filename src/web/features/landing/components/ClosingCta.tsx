import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/Button.js';

export function ClosingCta() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6 sm:pb-28">
      <div className="mx-auto max-w-4xl rounded-3xl border border-border bg-accent-soft px-6 py-14 text-center sm:px-12 sm:py-16">
        <h2 id="cta-title" className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          {t('landing.cta.title')}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg leading-relaxed text-muted text-pretty">{t('landing.cta.text')}</p>
        <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <ButtonLink to="/register" size="lg">
            {t('landing.cta.register')}
          </ButtonLink>
          <ButtonLink to="/login" size="lg" variant="secondary">
            {t('landing.cta.login')}
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
