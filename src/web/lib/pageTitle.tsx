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

/*
 * The browser tab's title is the page's name and, while the dashboard shows, the total unread count in front of it
 * ("(12) All articles · Feeder", as mail and feed readers do), so a reader sees new articles from another tab.
 */
let pageName = '';
let unread = 0;
function applyTitle(): void {
  if (typeof document === 'undefined') return;
  document.title = unread > 0 ? `(${unread > 9999 ? '9999+' : unread}) ${pageName}` : pageName;
}

/** Sets the page's part of the browser tab's title (the unread count stays in front of it). */
export function setDocumentTitle(name: string): void {
  pageName = name;
  applyTitle();
}

/** The unread count shown in front of the tab's title; 0 shows none. */
export function setTitleUnread(count: number): void {
  unread = Math.max(0, count);
  applyTitle();
}

export function usePageTitle(title: string, short?: string): void {
  const setTitle = useContext(PageTitleContext);
  const { t } = useTranslation();
  const appName = t('common.appName');
  useEffect(() => {
    setTitle({ title, short: short && short !== title ? short : undefined });
    setDocumentTitle(title ? `${title} · ${appName}` : appName);
  }, [title, short, appName, setTitle]);
}
