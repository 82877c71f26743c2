import { Menu } from 'lucide-react';
import { forwardRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UserMenu } from '../../../components/UserMenu.js';
import { ThemeToggle } from '../../../components/ThemeToggle.js';

export interface TopBarProps {
  title: string;
  /**
   * What a phone shows in place of `title` (below sm), where the bar has room for a few words only, e.g. the
   * feed's name instead of "Articles from …". The heading's accessible name and its tooltip stay `title`.
   */
  shortTitle?: string;
  /** Whether the mobile sidebar is open (for the menu button's aria-expanded). */
  sidebarOpen: boolean;
  sidebarId: string;
  onOpenSidebar(): void;
  /**
   * Page tools between the title and the global controls: on /dashboard the article search and the read/unread
   * toggle (dashboard.md §2: only on that path).
   */
  tools?: ReactNode;
}

/** The dashboard's top bar: menu button (below lg), page title, page tools, theme toggle, user menu. */
export const TopBar = forwardRef<HTMLButtonElement, TopBarProps>(function TopBar({ title, shortTitle, sidebarOpen, sidebarId, onOpenSidebar, tools }, menuRef) {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b border-border bg-bg/90 px-3 backdrop-blur supports-[backdrop-filter]:bg-bg/75 sm:px-5">
      <button
        ref={menuRef}
        type="button"
        onClick={onOpenSidebar}
        aria-label={t('dashboard.sidebar.open')}
        aria-expanded={sidebarOpen}
        aria-controls={sidebarId}
        className="-ml-1 inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text lg:hidden"
      >
        <Menu aria-hidden className="size-5" />
      </button>
      <h1 title={shortTitle ? title : undefined} className="min-w-0 flex-1 truncate text-base font-semibold tracking-tight text-text sm:text-lg">
        {shortTitle ? (
          <>
            <span aria-hidden className="sm:hidden">
              {shortTitle}
            </span>
            <span className="sr-only sm:not-sr-only">{title}</span>
          </>
        ) : (
          title
        )}
      </h1>
      {tools && <div className="flex min-w-0 items-center gap-2">{tools}</div>}
      <div className="flex shrink-0 items-center gap-1.5">
        <ThemeToggle />
        <UserMenu />
      </div>
    </header>
  );
});
