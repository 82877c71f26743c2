import { Plus, Rss } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth.js';
import { Button } from '../../../components/ui/Button.js';

/**
 * What /dashboard shows a user without feeds (dashboard.md §2 "Empty states": welcome with an "add feed" button,
 * which opens the add-feed dialog; ArticlesPage holds the dialog, so it stays open once the first feed is in).
 */
export function WelcomeEmptyState({ onAdd }: { onAdd(): void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const name = user?.name?.trim();
  return (
    <section aria-labelledby="welcome-title" className="mx-auto flex max-w-xl flex-col items-center py-10 text-center sm:py-16">
      <div aria-hidden className="mb-6 flex size-16 items-center justify-center rounded-2xl bg-accent-soft text-accent">
        <Rss className="size-8" strokeWidth={2.2} />
      </div>
      <h2 id="welcome-title" className="text-2xl font-semibold tracking-tight text-balance sm:text-3xl">
        {name ? t('dashboard.welcome.title', { name }) : t('dashboard.welcome.titleNoName')}
      </h2>
      <p className="mt-3 max-w-prose text-base leading-relaxed text-muted text-pretty">{t('dashboard.welcome.text')}</p>
      <p className="mt-2 max-w-prose text-base leading-relaxed text-muted text-pretty">{t('dashboard.welcome.next')}</p>
      <Button size="lg" className="mt-8" onClick={onAdd}>
        <Plus aria-hidden className="size-5" />
        {t('dashboard.welcome.addFeed')}
      </Button>
    </section>
  );
}
