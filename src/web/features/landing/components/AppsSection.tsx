import { Smartphone, TabletSmartphone } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SectionHeading } from './SectionHeading.js';

/** Third-party readers that speak the Fever or Google Reader API (public-area-and-api.md §1: three iOS, two Android). */
const PLATFORMS = [
  { id: 'ios', Icon: TabletSmartphone, apps: ['Reeder', 'Unread', 'Fiery Feeds'] },
  { id: 'android', Icon: Smartphone, apps: ['Read You', 'FeedMe'] },
] as const;

export function AppsSection() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="apps-title" className="border-t border-border bg-surface/50 px-4 py-20 sm:px-6 sm:py-28">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="apps-title" eyebrow={t('landing.apps.eyebrow')} title={t('landing.apps.title')} intro={t('landing.apps.intro')} />
        <div className="mx-auto mt-14 grid max-w-4xl gap-4 md:grid-cols-2 lg:gap-5">
          {PLATFORMS.map(({ id, Icon, apps }) => (
            <div key={id} className="rounded-2xl border border-border bg-surface p-6 shadow-card">
              <h3 className="flex items-center gap-2.5 text-sm font-semibold tracking-wide text-muted uppercase">
                <Icon aria-hidden className="size-4" />
                {t(`landing.apps.platforms.${id}`)}
              </h3>
              <ul className="mt-4 divide-y divide-border">
                {apps.map((app) => (
                  <li key={app} className="flex items-center gap-3 py-3 first:pt-1 last:pb-0">
                    <span aria-hidden className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-surface-2 text-sm font-semibold text-text">
                      {app.charAt(0)}
                    </span>
                    <span className="text-lg font-medium">{app}</span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <p className="mx-auto mt-8 max-w-2xl text-center text-sm text-muted">{t('landing.apps.note')}</p>
      </div>
    </section>
  );
}
