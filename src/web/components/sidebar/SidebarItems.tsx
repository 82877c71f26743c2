import { useTranslation } from 'react-i18next';

/**
 * The entries the sidebar is made of (dashboard.md §2 "Sidebar"), shared by its links, the folder tree and the
 * reading lists; a feed's own row is the feeds feature's FeedLink.
 */

export function Badge({ count }: { count?: number }) {
  const { t } = useTranslation();
  if (count === undefined || count <= 0) return null;
  return (
    <span className="rounded-full bg-surface px-2 py-0.5 text-xs font-semibold tabular-nums text-muted ring-1 ring-border" data-testid="unread-badge">
      <span aria-hidden>{count > 999 ? '999+' : count}</span>
      <span className="sr-only">{t('dashboard.sidebar.unread', { count })}</span>
    </span>
  );
}

/**
 * A muted feed is greyed by a lighter text colour that still meets AA on the sidebar and on its hover/current
 * background (the former 60 % opacity did not: 2.7:1 light, 3.3:1 dark), a plain weight and a grey icon.
 */
export const mutedItemClass =
  'group flex min-h-10 w-full items-center gap-3 rounded-lg px-3 text-left text-sm font-normal text-subtle transition-colors hover:bg-surface-2 aria-[current=page]:bg-surface-2';

export function itemClass(active: boolean): string {
  return `group flex min-h-10 w-full items-center gap-3 rounded-lg px-3 text-left text-sm transition-colors ${
    active ? 'bg-surface-2 font-semibold text-text' : 'font-medium text-muted hover:bg-surface-2 hover:text-text'
  }`;
}
