import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../pageTitle.js';
import { WelcomeEmptyState } from './WelcomeEmptyState.js';

/**
 * /dashboard. The article list of the active view comes with feeds; a user without feeds sees the welcome
 * empty state (dashboard.md §2 "Empty states").
 */
export function DashboardHome() {
  const { t } = useTranslation();
  usePageTitle(t('dashboard.titles.allArticles'));
  return <WelcomeEmptyState />;
}
