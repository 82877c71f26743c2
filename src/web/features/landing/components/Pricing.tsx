import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/Button.js';
import { SectionHeading } from './SectionHeading.js';

/** Two plans, both 0 €, premium per month; both lead to registration (public-area-and-api.md §1, §9). */
const PLANS = [
  { id: 'free', highlighted: false, points: ['feeds', 'lists', 'filters', 'devices'] },
  { id: 'premium', highlighted: true, points: ['everything', 'apps', 'api', 'opml'] },
] as const;

export function Pricing() {
  const { t } = useTranslation();
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 border-t border-border px-4 py-20 sm:px-6 sm:py-28">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="pricing-title" eyebrow={t('landing.pricing.eyebrow')} title={t('landing.pricing.title')} intro={t('landing.pricing.intro')} />
        <div className="mx-auto mt-14 grid max-w-4xl gap-5 md:grid-cols-2">
          {PLANS.map(({ id, highlighted, points }) => (
            <article
              key={id}
              aria-labelledby={`plan-${id}`}
              className={`relative flex flex-col rounded-2xl border bg-surface p-7 shadow-card sm:p-8 ${highlighted ? 'border-accent ring-1 ring-accent' : 'border-border'}`}
            >
              <div className="flex items-center justify-between gap-3">
                <h3 id={`plan-${id}`} className="text-lg font-semibold">
                  {t(`landing.pricing.plans.${id}.name`)}
                </h3>
                {highlighted && <span className="rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-semibold text-accent">{t('landing.pricing.badge')}</span>}
              </div>
              <p className="mt-1 text-sm text-muted">{t(`landing.pricing.plans.${id}.description`)}</p>
              <p className="mt-6 flex items-baseline gap-1.5">
                <span className="text-5xl font-semibold tracking-tight">{t('landing.pricing.price')}</span>
                <span className="text-muted">{id === 'premium' ? t('landing.pricing.perMonth') : t('landing.pricing.forever')}</span>
              </p>
              <ul className="mt-7 flex flex-1 flex-col gap-3 text-[0.9375rem]">
                {points.map((p) => (
                  <li key={p} className="flex gap-3">
                    <Check aria-hidden className="mt-0.5 size-5 shrink-0 text-accent" />
                    <span>{t(`landing.pricing.plans.${id}.points.${p}`)}</span>
                  </li>
                ))}
              </ul>
              <ButtonLink to="/register" size="lg" variant={highlighted ? 'primary' : 'secondary'} className="mt-8 w-full">
                {t(`landing.pricing.plans.${id}.cta`)}
              </ButtonLink>
            </article>
          ))}
        </div>
        <p className="mx-auto mt-8 max-w-2xl text-center text-sm text-muted">{t('landing.pricing.note')}</p>
      </div>
    </section>
  );
}
