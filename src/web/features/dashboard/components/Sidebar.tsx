import { LogOut, Newspaper, Settings, X, type LucideIcon } from 'lucide-react';
import { forwardRef, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { useAuth } from '../../../app/auth.js';
import { Logo } from '../../../components/ui/Logo.js';

/**
 * The dashboard sidebar (dashboard.md §2 "Sidebar"), built from small parts so later issues can add their
 * entries without reshaping it:
 * - the primary list (SidebarLink): All articles now; Favorites joins it with /dashboard/favorites;
 * - sections (SidebarSection): Feeds now (folders, feeds and the "+" menu go into its body and `action`
 *   slot); the collapsible reading-lists section becomes a second SidebarSection above it;
 * - the footer: feed management (with /dashboard/feeds), account settings and logout.
 * Only entries whose routes exist are shown, so nothing leads nowhere.
 */
export interface SidebarProps {
  /** Total unread count for "All articles"; no badge while it is unknown or zero (e.g. without feeds). */
  unreadTotal?: number;
  /** Closes the mobile drawer; the close button is only shown below the lg breakpoint. */
  onClose(): void;
}

export const Sidebar = forwardRef<HTMLButtonElement, SidebarProps>(function Sidebar({ unreadTotal, onClose }, closeRef) {
  const { t } = useTranslation();
  const { signOut } = useAuth();

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-14 shrink-0 items-center justify-between gap-2 pl-5 pr-3">
        <Link to="/dashboard" className="rounded-lg" aria-label={t('dashboard.sidebar.home')}>
          <Logo />
        </Link>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          aria-label={t('dashboard.sidebar.close')}
          className="inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text lg:hidden"
        >
          <X aria-hidden className="size-5" />
        </button>
      </div>

      <nav aria-label={t('dashboard.sidebar.label')} className="flex min-h-0 flex-1 flex-col overflow-y-auto px-3 pb-3 pt-2">
        <ul className="flex flex-col gap-0.5">
          <li>
            <SidebarLink to="/dashboard" end icon={Newspaper} label={t('dashboard.sidebar.allArticles')} badge={unreadTotal} />
          </li>
          {/* Favorites (/dashboard/favorites) is added here together with its route. */}
        </ul>

        {/* Reading lists (collapsible, with "+") go here as their own SidebarSection. */}

        <SidebarSection title={t('dashboard.sidebar.feeds')} className="mt-6">
          {/* Folders and feeds replace this note; the "+" menu (add feed, add folder) uses the `action` slot. */}
          <p className="px-3 py-1 text-sm text-muted">{t('dashboard.sidebar.noFeeds')}</p>
        </SidebarSection>
      </nav>

      <div className="shrink-0 border-t border-border px-3 py-3">
        <ul className="flex flex-col gap-0.5">
          {/* Feed management (/dashboard/feeds) is added here together with its route. */}
          <li>
            <SidebarLink to="/dashboard/settings" icon={Settings} label={t('dashboard.sidebar.settings')} />
          </li>
          <li>
            <button type="button" onClick={() => void signOut()} className={itemClass(false)}>
              <LogOut aria-hidden className="size-4.5 shrink-0 text-muted" />
              <span className="truncate">{t('dashboard.sidebar.logout')}</span>
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
});

function itemClass(active: boolean): string {
  return `group flex min-h-10 w-full items-center gap-3 rounded-lg px-3 text-left text-sm transition-colors ${
    active ? 'bg-surface-2 font-semibold text-text' : 'font-medium text-muted hover:bg-surface-2 hover:text-text'
  }`;
}

/** One navigation entry with icon, label and an optional unread badge. */
export function SidebarLink({
  to,
  end,
  icon: Icon,
  label,
  badge,
}: {
  to: string;
  end?: boolean;
  icon: LucideIcon;
  label: string;
  badge?: number;
}) {
  const { t } = useTranslation();
  return (
    <NavLink to={to} end={end} className={({ isActive }) => itemClass(isActive)}>
      {({ isActive }) => (
        <>
          <Icon aria-hidden className={`size-4.5 shrink-0 ${isActive ? 'text-accent' : 'text-muted group-hover:text-text'}`} />
          <span className="min-w-0 flex-1 truncate">{label}</span>
          {badge !== undefined && badge > 0 && (
            <span className="rounded-full bg-surface px-2 py-0.5 text-xs font-semibold tabular-nums text-muted ring-1 ring-border">
              <span aria-hidden>{badge > 999 ? '999+' : badge}</span>
              <span className="sr-only">{t('dashboard.sidebar.unread', { count: badge })}</span>
            </span>
          )}
        </>
      )}
    </NavLink>
  );
}

/** A titled group in the sidebar; `action` holds a control beside the title (e.g. the "+" menu). */
export function SidebarSection({
  title,
  action,
  children,
  className = '',
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={className}>
      <div className="mb-1 flex min-h-8 items-center justify-between gap-2 px-3">
        <h2 id={headingId} className="text-xs font-semibold uppercase tracking-wider text-muted">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}
