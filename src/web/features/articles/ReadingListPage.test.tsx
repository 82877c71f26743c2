import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Article, ReadingList } from '../../../common/api.js';
import { emit } from '../../lib/events.js';
import { renderAt, setUpDashboardTestEnv } from '../../test/dashboardHarness.js';
import { makeArticle, page, stubApi, stubIntersectionObserver, type Request } from '../../test/testArticles.js';
import { DashboardRoutes } from '../dashboard/index.js';
import { makeFeed, summariesOf } from '../../test/testFeeds.js';
import { makeList } from '../../test/testLists.js';

let lists: ReadingList[];
let members: Article[];

function serve(extra?: (req: Request) => [number, unknown?] | undefined): Request[] {
  return stubApi((req) => {
    const key = `${req.method} ${req.path}`;
    const own = extra?.(req);
    if (own) return own;
    if (key === 'GET /auth/me') return [200, { user: JSON.parse(localStorage.getItem('user')!) }];
    if (key === 'GET /api/feeds') return [200, [makeFeed({ id: 1, title: 'Feed 1' })]];
    if (key === 'GET /api/feeds/summaries') return [200, summariesOf([makeFeed({ id: 1, title: 'Feed 1' })])];
    if (key === 'GET /api/feeds/unread_counts') return [200, { counts: { '1': 3 }, total: 3 }];
    if (key === 'GET /api/reading-lists') return [200, { reading_lists: lists }];
    if (key === 'GET /api/reading-lists/unread_counts') return [200, { unread_counts: [] }];
    const one = /^GET \/api\/reading-lists\/(\d+)$/.exec(key);
    if (one) {
      const list = lists.find((l) => l.id === Number(one[1]));
      return list ? [200, { reading_list: list }] : [404, { message: 'Not found', code: 'NOT_FOUND' }];
    }
    if (key === 'GET /api/reading-lists/1/articles' || key === 'GET /api/reading-lists/2/articles') {
      const showRead = req.query.get('show_read') === '1';
      const shown = members.filter((a) => showRead || !a.is_read);
      return [200, page(shown)];
    }
    return undefined;
  });
}

setUpDashboardTestEnv();
beforeEach(() => {
  stubIntersectionObserver();
  lists = [
    makeList({ id: 1, name: 'Read &lt;later&gt;', description: 'Long reads for the weekend', article_count: 2 }),
    makeList({
      id: 2,
      name: 'AI',
      is_smart: true,
      rules: [{ rule_type: 'keyword', rule_scope: 'both', rule_value: 'AI', include_all_feeds: true, selected_feeds: [] }],
    }),
  ];
  members = [makeArticle({ id: 12, title: 'Newest', in_reading_list: true }), makeArticle({ id: 11, title: 'Older', in_reading_list: true })];
});

describe('reading-list page (dashboard.md §2 /dashboard/reading-list/{id})', () => {
  it('shows the name as title, the description, the count and the list’s articles, read ones too (show_read=1)', async () => {
    const requests = serve();
    await renderAt('/dashboard/reading-list/1', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Read <later>' })).toBeTruthy();
    expect(screen.getByText('Long reads for the weekend')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: /Newest/ })).toBeTruthy();
    expect(screen.getByTestId('article-total').textContent).toBe('2 articles');
    const call = requests.find((r) => r.path === '/api/reading-lists/1/articles')!;
    expect(Object.fromEntries(call.query)).toEqual({ page: '1', per_page: '20', show_read: '1' });
    // The card's reading-list button is filled (pressed look) for members.
    const card = screen.getAllByRole('article')[0];
    expect(within(card).getByRole('button', { name: 'In a reading list – manage reading lists' })).toBeTruthy();
    // The note switches to unread ones only (show_read=0).
    fireEvent.click(screen.getByRole('button', { name: 'Showing all articles' }));
    await waitFor(() => expect(requests.some((r) => r.path === '/api/reading-lists/1/articles' && r.query.get('show_read') === '0')).toBe(true));
  });

  it('shows the not-found page for a non-numeric or unknown id', async () => {
    serve();
    await renderAt('/dashboard/reading-list/abc', <DashboardRoutes />);
    expect(screen.getByRole('heading', { level: 2, name: 'Not found' })).toBeTruthy();
    cleanup();
    serve();
    await renderAt('/dashboard/reading-list/99', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Not found' })).toBeTruthy();
  });

  it('an empty simple list says how to add articles; an empty smart list says nothing matches yet', async () => {
    members = [];
    lists[0].article_count = 0;
    serve();
    await renderAt('/dashboard/reading-list/1', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { name: 'This list is empty' })).toBeTruthy();
    expect(screen.getByText('Add articles with the bookmark button under an article.')).toBeTruthy();
    cleanup();
    serve();
    await renderAt('/dashboard/reading-list/2', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { name: 'This list is empty' })).toBeTruthy();
    expect(screen.getByText(/No article matches the rules of this list yet/)).toBeTruthy();
    expect(screen.getByText('Smart list')).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('empty-state')).getByRole('button', { name: 'Edit rules' }));
    expect(screen.getByRole('dialog', { name: 'Edit reading list' })).toBeTruthy();
  });

  it('with unread only, a list whose articles are all read offers to show them', async () => {
    members = members.map((a) => ({ ...a, is_read: true }));
    serve();
    await renderAt('/dashboard/reading-list/1', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Newest/ });
    fireEvent.click(screen.getByRole('button', { name: 'Showing all articles' }));
    expect(await screen.findByRole('heading', { name: 'All read' })).toBeTruthy();
    fireEvent.click(within(screen.getByTestId('empty-state')).getByRole('button', { name: 'Show all' }));
    expect(await screen.findByRole('heading', { level: 2, name: /Newest/ })).toBeTruthy();
  });

  it('mark all read marks the whole list by its id (not only the loaded page)', async () => {
    let marked: unknown;
    const requests = serve((req) => {
      if (req.path === '/api/articles/read/all') {
        marked = req.body;
        members = members.map((a) => ({ ...a, is_read: true }));
        return [200, { marked: 2 }];
      }
      return undefined;
    });
    await renderAt('/dashboard/reading-list/1', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Newest/ });
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(marked).toEqual({ reading_list_id: 1 }));
    expect(requests.filter((r) => r.path === '/api/articles/read/all')).toHaveLength(1);
    // Read ones stay in view (read articles shown), now with their read mark.
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Mark as unread' })).toHaveLength(2));
  });

  it('reloads when its members change (reading-list-updated)', async () => {
    serve();
    await renderAt('/dashboard/reading-list/1', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Newest/ });
    members = [makeArticle({ id: 13, title: 'Just added', in_reading_list: true }), ...members];
    act(() => emit('reading-list-updated', { list_id: 1 }));
    expect(await screen.findByRole('heading', { level: 2, name: /Just added/ })).toBeTruthy();
  });

  it('deletes from the header after the confirm and goes to /dashboard', async () => {
    const requests = serve((req) => (req.method === 'DELETE' && req.path === '/api/reading-lists/1' ? [200] : undefined));
    await renderAt('/dashboard/reading-list/1', <DashboardRoutes />);
    const intro = await screen.findByTestId('reading-list-intro');
    fireEvent.click(within(intro).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete reading list' });
    expect(dialog.textContent).toContain('“Read <later>”');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/reading-lists/1')).toBe(true);
  });

  it('the card’s button opens the modal; removing the article takes it out of the list in view', async () => {
    let refs = [{ id: 1, name: 'Read &lt;later&gt;', is_smart: false }];
    serve((req) => {
      if (req.method === 'GET' && req.path === '/api/articles/12/reading-lists') return [200, { reading_lists: refs }];
      if (req.method === 'DELETE' && req.path === '/api/reading-lists/1/articles/12') {
        refs = [];
        members = members.filter((a) => a.id !== 12);
        return [200];
      }
      return undefined;
    });
    await renderAt('/dashboard/reading-list/1', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Newest/ });
    const card = screen.getAllByRole('article')[0];
    fireEvent.click(within(card).getByRole('button', { name: 'In a reading list – manage reading lists' }));
    const modal = screen.getByRole('dialog', { name: 'Add to reading list' });
    fireEvent.click(await within(modal).findByRole('button', { name: 'Remove from list “Read <later>”' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: /Newest/ })).toBeNull());
    expect(screen.getByRole('heading', { level: 2, name: /Older/ })).toBeTruthy();
  });
});
