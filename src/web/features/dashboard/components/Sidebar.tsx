import { LayoutList, LogOut, Newspaper, Settings, Star, X, type LucideIcon } from 'lucide-react';
import { forwardRef, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { useAuth } from '../../../lib/auth.js';
import { Logo } from '../../../components/ui/Logo.js';
import { AddFeedDialog, useFeedSummaries, useTotalUnread, useUnreadCounts } from '../../feeds/index.js';
import { Skeleton } from '../../../components/ui/Skeleton.js';
import { AddMenu, FolderDialog, SidebarFeedTree, useFolders } from '../../folders/index.js';
import { ReadingListsSection } from '../../reading-lists/index.js';
import { Badge, itemClass } from '../../../components/sidebar/SidebarItems.js';

/**
 * The dashboard sidebar (dashboard.md §2 "Sidebar"): All articles with the total unread badge, Favorites, the
 * reading lists (reading-lists/components/ReadingListsSection), the
 * Feeds section (folders, then the feeds outside any folder, with drag and drop: folders/components/SidebarFeedTree;
 * each feed with its icon or letter tile, title and unread badge; a muted feed greyed with a mute icon and no badge)
 * with its "+" menu (add feed, add folder), and the footer with feed management, account settings and logout.
 * Feed views are /dashboard?feed=<id> (see ArticlesPage), so the active entry is found from the query too.
 */
export interface SidebarProps {
  /** Closes the mobile drawer; the close button is only shown below the lg breakpoint. */
  onClose(): void;
}

export const Sidebar = forwardRef<HTMLButtonElement, SidebarProps>(function Sidebar({ onClose }, closeRef) {
  const { t } = useTranslation();
  const { signOut } = useAuth();
  const location = useLocation();
  // The slim list (docs/decisions.md "Feed summaries"): the sidebar never needs a feed's URL or description.
  const feeds = useFeedSummaries();
  const folders = useFolders();
  // Keeps the counts fetched and fresh; the badges read them one by one (feeds/unreadBadges), so the sidebar itself
  // does not re-render when a count changes (its data is not read here).
  useUnreadCounts();
  const [addOpen, setAddOpen] = useState<'feed' | 'folder' | null>(null);
  const onDashboard = location.pathname === '/dashboard' || location.pathname === '/dashboard/';
  const query = new URLSearchParams(location.search);
  const activeFeed = onDashboard ? query.get('feed') : null;
  const activeFolder = onDashboard ? query.get('folder') : null;

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
            <SidebarLink
              to="/dashboard"
              active={onDashboard && activeFeed === null && activeFolder === null}
              icon={Newspaper}
              label={t('dashboard.sidebar.allArticles')}
              total
            />
          </li>
          <li>
            <SidebarLink to="/dashboard/favorites" end icon={Star} label={t('dashboard.sidebar.favorites')} />
          </li>
        </ul>

        <ReadingListsSection className="mt-6" />

        <SidebarSection
          title={t('dashboard.sidebar.feeds')}
          className="mt-6"
          action={<AddMenu onAddFeed={() => setAddOpen('feed')} onAddFolder={() => setAddOpen('folder')} />}
        >
          {feeds.isPending || (folders.isPending && !folders.isError) ? (
            <div aria-hidden className="flex flex-col gap-0.5" data-testid="sidebar-feeds-skeleton">
              {['w-3/4', 'w-1/2', 'w-4/5', 'w-3/5', 'w-2/3'].map((w) => (
                <div key={w} className="flex h-10 items-center gap-3 px-3">
                  <Skeleton className="size-4 shrink-0" />
                  <Skeleton className={`h-3.5 ${w}`} />
                </div>
              ))}
            </div>
          ) : feeds.data && (feeds.data.length > 0 || (folders.data?.length ?? 0) > 0) ? (
            <>
              {/* Without the folders (their call failed) every feed still shows, at the root. */}
              <SidebarFeedTree feeds={feeds.data} folders={folders.data ?? []} activeFeed={activeFeed} activeFolder={activeFolder} />
              {folders.isError && <p className="px-3 py-1 text-xs text-muted">{t('folders.errors.load')}</p>}
            </>
          ) : (
            <p className="px-3 py-1 text-sm text-muted">{feeds.isError ? t('dashboard.sidebar.feedsError') : t('dashboard.sidebar.noFeeds')}</p>
          )}
        </SidebarSection>
      </nav>

      <div className="shrink-0 border-t border-border px-3 py-3">
        <ul className="flex flex-col gap-0.5">
          <li>
            <SidebarLink to="/dashboard/feeds" icon={LayoutList} label={t('dashboard.sidebar.manageFeeds')} />
          </li>
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
      <AddFeedDialog open={addOpen === 'feed'} onClose={() => setAddOpen(null)} />
      <FolderDialog open={addOpen === 'folder'} onClose={() => setAddOpen(null)} />
    </div>
  );
});

/**
 * One navigation entry with icon, label and an optional unread badge. `active` overrides the router's own
 * match where the query decides (All articles is not active on a feed view of the same path).
 */
export function SidebarLink({
  to,
  end,
  active,
  icon: Icon,
  label,
  badge,
  total,
}: {
  to: string;
  end?: boolean;
  active?: boolean;
  icon: LucideIcon;
  label: string;
  badge?: number;
  /** Shows the total unread count (All articles), subscribed on its own. */
  total?: boolean;
}) {
  const content = (isActive: boolean) => (
    <>
      <Icon aria-hidden className={`size-4.5 shrink-0 ${isActive ? 'text-accent' : 'text-muted group-hover:text-text'}`} />
      <span className="min-w-0 flex-1 truncate">{label}</span>
      {total ? <TotalBadge /> : <Badge count={badge} />}
    </>
  );
  if (active !== undefined) {
    return (
      <Link to={to} aria-current={active ? 'page' : undefined} className={itemClass(active)}>
        {content(active)}
      </Link>
    );
  }
  return (
    <NavLink to={to} end={end} className={({ isActive }) => itemClass(isActive)}>
      {({ isActive }) => content(isActive)}
    </NavLink>
  );
}

/** A titled group in the sidebar; `action` holds a control beside the title (e.g. the "+" menu). */
export function SidebarSection({ title, action, children, className = '' }: { title: string; action?: ReactNode; children: ReactNode; className?: string }) {
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

/** The total unread count, re-rendered on its own when it changes. */
function TotalBadge() {
  return <Badge count={useTotalUnread()} />;
}
