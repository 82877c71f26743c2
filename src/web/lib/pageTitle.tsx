import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Each dashboard page names itself; the shell shows the name in the top bar and the browser tab.
 * A context (rather than a table in the shell) lets later pages use data for their title, e.g. the feed's
 * title on a single-feed view or "search results for …" (dashboard.md §2 "Article list view").
 * `short` is what a phone's top bar shows instead (e.g. just the feed's title for "Articles from …"); the full
 * title stays the heading's text for screen readers, its tooltip, and the browser tab.
 */
export interface PageTitle {
  title: string;
  short?: string;
}

export const PageTitleContext = createContext<(title: PageTitle) => void>(() => {});

export function usePageTitle(title: string, short?: string): void {
  const setTitle = useContext(PageTitleContext);
  const { t } = useTranslation();
  const appName = t('common.appName');
  useEffect(() => {
    setTitle({ title, short: short && short !== title ? short : undefined });
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, short, appName, setTitle]);
}
