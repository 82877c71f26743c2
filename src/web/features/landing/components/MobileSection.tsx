import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useScreenshot } from '../screenshots.js';
import { SectionHeading } from './SectionHeading.js';

const POINTS = ['browser', 'touch', 'sync'] as const;

export function MobileSection() {
  const { t } = useTranslation();
  // Produced by `npm run screenshots` at 390 × 844, in the page's language and theme.
  const shot = useScreenshot('phone');
  return (
    <section aria-labelledby="mobile-title" className="overflow-hidden border-t border-border px-4 py-20 sm:px-6 sm:py-28">
      <div className="mx-auto grid max-w-6xl items-center gap-14 lg:grid-cols-2 lg:gap-20">
        <div>
          <SectionHeading id="mobile-title" align="left" eyebrow={t('landing.mobile.eyebrow')} title={t('landing.mobile.title')} intro={t('landing.mobile.intro')} />
          <ul className="mt-8 flex flex-col gap-3">
            {POINTS.map((p) => (
              <li key={p} className="flex gap-3">
                <Check aria-hidden className="mt-1 size-5 shrink-0 text-accent" />
                <span>{t(`landing.mobile.points.${p}`)}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="flex justify-center">
          <div className="w-[16.5rem] rounded-[2.75rem] bg-neutral-900 p-2.5 shadow-[0_30px_70px_-25px_rgb(0_0_0/0.45)] ring-1 ring-black/10 sm:w-[18.5rem] dark:bg-neutral-800 dark:ring-white/10">
            <img
              src={shot.src}
              width={shot.width}
              height={shot.height}
              alt={t('landing.mobile.alt')}
              loading="lazy"
              decoding="async"
              className="block h-auto w-full rounded-[2.2rem] bg-surface-2"
            />
          </div>
        </div>
      </div>
    </section>
  );
}
