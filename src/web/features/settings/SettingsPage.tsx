import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/pageTitle.js';
import { AccountSection } from './components/AccountSection.js';
import { AppearanceSection } from './components/AppearanceSection.js';
import { FeedManagementSection } from './components/FeedManagementSection.js';
import { FeverSection } from './components/FeverSection.js';
import { PasswordSection } from './components/PasswordSection.js';

/**
 * /dashboard/settings (dashboard.md §2 "Account settings"): one readable column of cards, in the spec's
 * order: account, password, feed management (OPML import/export, delete all feeds), Fever API, appearance.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  usePageTitle(t('settings.title'));
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <p className="text-muted">{t('settings.intro')}</p>
      <AccountSection />
      <PasswordSection />
      <FeedManagementSection />
      <FeverSection />
      <AppearanceSection />
    </div>
  );
}
