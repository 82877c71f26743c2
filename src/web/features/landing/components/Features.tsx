import { BellOff, Funnel, Rss, Smartphone, Sparkles, Star, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SectionHeading } from './SectionHeading.js';

/** The six features of public-area-and-api.md §1, in its order. */
const FEATURES: { id: string; Icon: LucideIcon }[] = [
  { id: 'allFeeds', Icon: Rss },
  { id: 'favorites', Icon: Star },
  { id: 'readingLists', Icon: Sparkles },
  { id: 'filters', Icon: Funnel },
  { id: 'mobile', Icon: Smartphone },
  { id: 'muting', Icon: BellOff },
];

export function Features() {
  const { t } = useTranslation();
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 border-t border-border bg-surface/50 px-4 py-20 sm:px-6 sm:py-28">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="features-title" eyebrow={t('landing.features.eyebrow')} title={t('landing.features.title')} intro={t('landing.features.intro')} />
        <ul className="mt-14 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 lg:gap-5">
          {FEATURES.map(({ id, Icon }) => (
            <li key={id} className="rounded-2xl border border-border bg-surface p-6 shadow-card">
              <span aria-hidden className="inline-flex size-10 items-center justify-center rounded-xl bg-accent-soft text-accent">
                <Icon className="size-5" />
              </span>
              <h3 className="mt-5 text-lg font-semibold tracking-tight">{t(`landing.features.items.${id}.title`)}</h3>
              <p className="mt-2 leading-relaxed text-muted">{t(`landing.features.items.${id}.text`)}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
