import { useCallback, useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Toaster } from '../../../components/ui/Toast.js';
import { ArticleTools, ReadingStateProvider } from '../../articles/index.js';
import { PageTitleContext, setDocumentTitle, setTitleUnread, type PageTitle } from '../../../lib/pageTitle.js';
import { useTotalUnread } from '../../feeds/index.js';
import { useNewFeedArrivals } from '../useNewFeedArrivals.js';
import { Sidebar } from './Sidebar.js';
import { SidebarResizer, storedSidebarWidth } from './SidebarResizer.js';
import { TopBar } from './TopBar.js';

/** The lg breakpoint: from here on the sidebar is always visible (dashboard.md §2, mobile < 1024 px). */
const DESKTOP_QUERY = '(min-width: 1024px)';

/**
 * The dashboard shell (dashboard.md §2 "Dashboard shell"): sidebar, top bar, main area.
 * On wide screens the sidebar is a fixed column. Below 1024 px it is a drawer that slides in from the left
 * through the top bar's menu button: it then acts as a modal dialog (the rest of the page is inert), focus
 * moves to its close button, and Escape, a click on the backdrop or a navigation close it again.
 */
export function DashboardShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState<PageTitle>({ title: '' });
  const [open, setOpen] = useState(false);
  const sidebarId = useId();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  const columnRef = useRef<HTMLElement>(null);
  const [initialWidth] = useState(storedSidebarWidth);
  const location = useLocation();

  const close = useCallback(() => setOpen(false), []);
  useNewFeedArrivals();

  // Leaving the dashboard (e.g. logout) gives the browser tab its plain name back.
  const appName = t('common.appName');
  useEffect(() => () => setDocumentTitle(appName), [appName]);

  // Any navigation closes the drawer: to another page, and to a feed, folder or list on the same page (its query).
  useEffect(() => {
    setOpen(false);
  }, [location.pathname, location.search]);

  // Focus goes into the drawer when it opens and back to the menu button when it closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) closeButtonRef.current?.focus();
    else if (wasOpen.current) menuButtonRef.current?.focus({ preventScroll: true });
    wasOpen.current = open;
  }, [open]);

  // Escape closes the drawer.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  // Growing past the breakpoint turns the drawer into the fixed column: drop the modal state.
  useEffect(() => {
    const mq = globalThis.matchMedia?.(DESKTOP_QUERY);
    if (!mq) return;
    const onChange = () => {
      if (mq.matches) setOpen(false);
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  // The search box and the read/unread toggle belong to /dashboard only (dashboard.md §2).
  const articleTools = location.pathname === '/dashboard' || location.pathname === '/dashboard/';

  return (
    <PageTitleContext.Provider value={setTitle}>
      <ReadingStateProvider>
        <div className="min-h-screen bg-bg text-text lg:flex">
          {/* Backdrop of the mobile drawer. */}
          <div
            aria-hidden
            onClick={close}
            className={`fixed inset-0 z-30 bg-black/45 backdrop-blur-[1px] transition-opacity duration-200 lg:hidden ${
              open ? 'opacity-100' : 'pointer-events-none opacity-0'
            }`}
            data-testid="sidebar-backdrop"
          />

          <aside
            ref={columnRef}
            id={sidebarId}
            style={{ '--sidebar-w': `${initialWidth}px` } as CSSProperties}
            role={open ? 'dialog' : undefined}
            aria-modal={open || undefined}
            aria-label={open ? t('dashboard.sidebar.label') : undefined}
            className={`fixed inset-y-0 left-0 z-40 w-72 max-w-[85vw] border-r border-border bg-surface shadow-2xl lg:visible lg:static lg:z-auto lg:w-[var(--sidebar-w)] lg:max-w-none lg:shrink-0 lg:translate-x-0 lg:shadow-none ${
              // Visibility flips at once on opening (so focus can move in right away) and only after the slide-out
              // on closing (so the drawer stays visible while it leaves).
              open
                ? 'visible translate-x-0 [transition:transform_200ms_ease-out,visibility_0s]'
                : 'invisible -translate-x-full [transition:transform_200ms_ease-out,visibility_0s_linear_200ms]'
            }`}
          >
            {/* On wide screens the column runs the page's full height while its content stays in view. */}
            <div className="h-full lg:sticky lg:top-0 lg:h-screen">
              <Sidebar ref={closeButtonRef} onClose={close} />
              <SidebarResizer columnRef={columnRef} />
            </div>
          </aside>

          <div className="flex min-h-screen min-w-0 flex-1 flex-col" inert={open || undefined}>
            <TopBar
              ref={menuButtonRef}
              title={title.title}
              shortTitle={title.short}
              sidebarOpen={open}
              sidebarId={sidebarId}
              onOpenSidebar={() => setOpen(true)}
              tools={articleTools ? <ArticleTools /> : undefined}
            />
            <main className="flex-1 px-4 py-6 sm:px-6 sm:py-8 lg:px-10">{children}</main>
          </div>
          {/* Short confirmations and errors of the whole dashboard (dashboard.md §7 "toast" event, §8). */}
          <Toaster />
          <UnreadInTitle />
        </div>
      </ReadingStateProvider>
    </PageTitleContext.Provider>
  );
}

/** The total unread count in front of the browser tab's title while the dashboard shows (a component of its own, so
 * a count change re-renders nothing else). */
function UnreadInTitle() {
  const total = useTotalUnread() ?? 0;
  useEffect(() => setTitleUnread(total), [total]);
  useEffect(() => () => setTitleUnread(0), []);
  return null;
}
