import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Each dashboard page names itself; the shell shows the name in the top bar and the browser tab.
 * A context (rather than a table in the shell) lets later pages use data for their title, e.g. the feed's
 * title on a single-feed view or "search results for …" (dashboard.md §2 "Article list view").
 */
export const PageTitleContext = createContext<(title: string) => void>(() => {});

export function usePageTitle(title: string): void {
  const setTitle = useContext(PageTitleContext);
  const { t } = useTranslation();
  const appName = t('common.appName');
  useEffect(() => {
    setTitle(title);
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, appName, setTitle]);
}
