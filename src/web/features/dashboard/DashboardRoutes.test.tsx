import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderAt, signedIn, setUpDashboardTestEnv } from '../../test/dashboardHarness.js';
import { summariesOf } from '../../test/testFeeds.js';
import DashboardRoutes from './DashboardRoutes.js';

const noFeeds = {
  'GET /api/feeds': () => [200, []] as [number, unknown],
  'GET /api/feeds/summaries': () => [200, summariesOf([])] as [number, unknown],
  'GET /api/feeds/unread_counts': () => [200, { counts: {}, total: 0 }] as [number, unknown],
};

setUpDashboardTestEnv();
beforeEach(() => void fakeServer(noFeeds));

describe('dashboard routes (dashboard.md §2)', () => {
  it('greets a user without feeds on /dashboard', async () => {
    await renderAt('/dashboard', <DashboardRoutes />);
    expect(screen.getByRole('heading', { level: 1, name: 'All articles' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Welcome, Dana Beispiel!' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'All articles' }).getAttribute('aria-current')).toBe('page');
    expect(await within(nav).findByText('No feeds yet')).toBeTruthy();
    // The welcome offers the add-feed dialog.
    fireEvent.click(within(screen.getByRole('main')).getByRole('button', { name: 'Add feed' }));
    expect(screen.getByRole('dialog', { name: 'Add feed' })).toBeTruthy();
    // Only links to views that exist (no reading lists yet: the sidebar offers none).
    const hrefs = new Set(screen.getAllByRole('link').map((a) => a.getAttribute('href')));
    expect([...hrefs].sort()).toEqual(['/dashboard', '/dashboard/favorites', '/dashboard/feeds', '/dashboard/settings']);
  });

  it('shows the settings page on /dashboard/settings', async () => {
    await renderAt('/dashboard/settings', <DashboardRoutes />);
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Account' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Change password' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Appearance' })).toBeTruthy();
  });

  it.each(['/dashboard/nope', '/dashboard/reading-list/abc', '/dashboard/reading-list/12', '/dashboard/favorites/x', '/dashboard?feed=abc'])(
    'shows the not-found page on %s with a link back to /dashboard',
    async (path) => {
      await renderAt(path, <DashboardRoutes />);
      expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
      expect(screen.getByRole('heading', { level: 2, name: 'Not found' })).toBeTruthy();
      expect(screen.getByText('This page does not exist.')).toBeTruthy();
      fireEvent.click(screen.getByRole('link', { name: 'Go to all articles' }));
      expect(screen.getByTestId('location').textContent).toBe('/dashboard');
      expect(await screen.findByRole('heading', { name: 'Welcome, Dana Beispiel!' })).toBeTruthy();
    },
  );
});

describe('mobile sidebar', () => {
  it('opens from the menu button with focus on "Sidebar schließen" and closes on Escape, backdrop and navigation', async () => {
    await signedIn(undefined, 'de');
    await renderAt('/dashboard', <DashboardRoutes />);
    const menuButton = screen.getByRole('button', { name: 'Sidebar öffnen' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(menuButton);
    const drawer = screen.getByRole('dialog', { name: 'Hauptnavigation' });
    const close = within(drawer).getByRole('button', { name: 'Sidebar schließen' });
    expect(document.activeElement).toBe(close);
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(menuButton);

    fireEvent.click(menuButton);
    fireEvent.click(screen.getByTestId('sidebar-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(menuButton);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('link', { name: 'Kontoeinstellungen' }));
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/settings');
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(menuButton);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sidebar schließen' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a new feed’s first articles', () => {
  it('asks for the feed list every 2 s while a feed waits for its first fetch, then reloads the articles', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let fetched = false;
    const feed = {
      id: 1,
      title: 'Fresh Feed',
      original_title: 'Fresh Feed',
      custom_title: null,
      url: 'https://example.org/feed.xml',
      site_url: null,
      description: null,
      favicon_base64: null,
      favicon_type: null,
      favicon_url: null,
      is_muted: false,
      muted_permanently: false,
      muted_until: null,
      sort_order: 0,
      folder_id: null,
      last_error_code: null,
      created_at: '2026-11-22T07:00:00.000Z',
    };
    const article = {
      id: 5,
      url: 'https://example.org/5',
      title: 'First article',
      summary: 'Hello.',
      content: null,
      author: null,
      image_url: null,
      published_at: '2026-11-22T07:00:00.000Z',
      feed_id: 1,
      feed_title: 'Fresh Feed',
      feed_favicon: null,
      feed_favicon_base64: null,
      feed_favicon_type: null,
      is_read: false,
      is_favorite: false,
      in_reading_list: false,
    };
    const listPage = (articles: unknown[]) => ({
      articles,
      total: articles.length,
      current_page: 1,
      pages: 1,
      per_page: 20,
      active_filters: [],
      has_active_filters: false,
    });
    const calls = fakeServer({
      'GET /api/feeds': () => [200, [{ ...feed, last_fetched_at: fetched ? '2026-11-22T07:01:00.000Z' : null }]],
      'GET /api/feeds/summaries': () => [200, summariesOf([{ ...feed, last_fetched_at: fetched ? '2026-11-22T07:01:00.000Z' : null }])],
      'GET /api/feeds/unread_counts': () => [200, { counts: { '1': fetched ? 1 : 0 }, total: fetched ? 1 : 0 }],
      'GET /api/articles?page=1&per_page=20&show_read=false': () => [200, listPage(fetched ? [article] : [])],
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    // Not fetched yet: "fetching…", not "All read!" (docs/decisions.md "Reading flow").
    expect(await screen.findByRole('heading', { name: 'Fetching your feed…' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'All read!' })).toBeNull();
    fetched = true;
    await act(() => vi.advanceTimersByTimeAsync(2100));
    expect(await screen.findByRole('heading', { level: 2, name: /First article/ })).toBeTruthy();
    expect(calls.filter((c) => c.key === 'GET /api/feeds/summaries').length).toBeGreaterThanOrEqual(2);
    // The dashboard never loads the full list for this.
    expect(calls.some((c) => c.key === 'GET /api/feeds')).toBe(false);
  });
});
