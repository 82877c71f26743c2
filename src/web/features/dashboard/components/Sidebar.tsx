import { BellOff, LayoutList, LogOut, Newspaper, Plus, Settings, Star, X, type LucideIcon } from 'lucide-react';
import { forwardRef, useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import type { Feed, UnreadCounts } from '../../../../common/api.js';
import { useAuth } from '../../../app/auth.js';
import { Logo } from '../../../components/ui/Logo.js';
import { feedTitle, useFeeds, useUnreadCounts } from '../../feeds/api.js';
import { AddFeedDialog } from '../../feeds/components/AddFeedDialog.js';
import { FeedIcon } from '../../feeds/components/FeedIcon.js';

/** §9: the sidebar's badges follow the unread counts 400 ms after they settle (a burst of marks is one change). */
export const BADGE_DEBOUNCE_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    // The first known value shows at once; later changes wait for quiet.
    if (current === undefined) return setCurrent(value);
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, ms]);
  return current;
}

/**
 * The dashboard sidebar (dashboard.md §2 "Sidebar"): All articles with the total unread badge, Favorites, the
 * Feeds section (icon or letter tile, title, unread badge; a muted feed greyed with a mute icon and no badge) with
 * its "+" for adding a feed, and the footer with feed management, account settings and logout.
 * Folders, the add-folder entry and the reading-lists section come with issue 5; the "+" then becomes a menu.
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
  const feeds = useFeeds();
  const unread = useDebounced<UnreadCounts | undefined>(useUnreadCounts().data, BADGE_DEBOUNCE_MS);
  const [addOpen, setAddOpen] = useState(false);
  const onDashboard = location.pathname === '/dashboard' || location.pathname === '/dashboard/';
  const activeFeed = onDashboard ? new URLSearchParams(location.search).get('feed') : null;

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
              active={onDashboard && activeFeed === null}
              icon={Newspaper}
              label={t('dashboard.sidebar.allArticles')}
              badge={unread?.total}
            />
          </li>
          <li>
            <SidebarLink to="/dashboard/favorites" end icon={Star} label={t('dashboard.sidebar.favorites')} />
          </li>
        </ul>

        <SidebarSection
          title={t('dashboard.sidebar.feeds')}
          className="mt-6"
          action={
            <button
              type="button"
              onClick={() => setAddOpen(true)}
              aria-label={t('dashboard.sidebar.addFeed')}
              title={t('dashboard.sidebar.addFeed')}
              className="-mr-2 inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text lg:size-8"
            >
              <Plus aria-hidden className="size-4.5" />
            </button>
          }
        >
          {feeds.isPending ? (
            <div aria-hidden className="flex flex-col gap-2 px-3 py-1">
              {[70, 55, 80].map((w) => (
                <div key={w} className="flex items-center gap-3">
                  <div className="size-4 animate-pulse rounded bg-surface-2" />
                  <div className="h-3.5 animate-pulse rounded bg-surface-2" style={{ width: `${w}%` }} />
                </div>
              ))}
            </div>
          ) : feeds.data && feeds.data.length > 0 ? (
            <ul className="flex flex-col gap-0.5">
              {feeds.data.map((feed) => (
                <li key={feed.id}>
                  <FeedLink feed={feed} active={activeFeed === String(feed.id)} count={unread?.counts[String(feed.id)]} />
                </li>
              ))}
            </ul>
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
      <AddFeedDialog open={addOpen} onClose={() => setAddOpen(false)} />
    </div>
  );
});

/** A feed in the sidebar: icon or letter tile, title, unread badge; muted: greyed, a mute icon, no badge. */
function FeedLink({ feed, active, count }: { feed: Feed; active: boolean; count?: number }) {
  const { t } = useTranslation();
  const title = feedTitle(feed, t);
  return (
    <Link
      to={`/dashboard?feed=${feed.id}`}
      aria-current={active ? 'page' : undefined}
      className={feed.is_muted ? mutedItemClass : itemClass(active)}
      data-muted={feed.is_muted || undefined}
    >
      <FeedIcon feed={feed} size="sm" className={feed.is_muted ? 'grayscale' : ''} />
      <span className="min-w-0 flex-1 truncate">{title}</span>
      {feed.is_muted ? (
        <>
          <BellOff aria-hidden className="size-3.5 shrink-0 text-muted" />
          <span className="sr-only">{t('dashboard.sidebar.muted')}</span>
        </>
      ) : (
        <Badge count={count} />
      )}
    </Link>
  );
}

function Badge({ count }: { count?: number }) {
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
const mutedItemClass =
  'group flex min-h-10 w-full items-center gap-3 rounded-lg px-3 text-left text-sm font-normal text-subtle transition-colors hover:bg-surface-2 aria-[current=page]:bg-surface-2';

function itemClass(active: boolean): string {
  return `group flex min-h-10 w-full items-center gap-3 rounded-lg px-3 text-left text-sm transition-colors ${
    active ? 'bg-surface-2 font-semibold text-text' : 'font-medium text-muted hover:bg-surface-2 hover:text-text'
  }`;
}

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
}: {
  to: string;
  end?: boolean;
  active?: boolean;
  icon: LucideIcon;
  label: string;
  badge?: number;
}) {
  const content = (isActive: boolean) => (
    <>
      <Icon aria-hidden className={`size-4.5 shrink-0 ${isActive ? 'text-accent' : 'text-muted group-hover:text-text'}`} />
      <span className="min-w-0 flex-1 truncate">{label}</span>
      <Badge count={badge} />
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
