import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Article, Feed, UnreadCounts } from '../../../common/api.js';
import { on } from '../../lib/events.js';
import { renderAt, signedIn, setUpDashboardTestEnv } from '../../test/dashboardHarness.js';
import { DashboardRoutes } from '../dashboard/index.js';
import { makeFeed, summariesOf } from '../../test/testFeeds.js';
import { makeArticle, page, stubApi, stubIntersectionObserver, type Request, type Route } from '../../test/testArticles.js';

const feed1 = makeFeed({ id: 1, title: 'Feed 1' });
const mutedForever = makeFeed({ id: 2, title: 'Quiet Feed', is_muted: true, muted_permanently: true });
const mutedUntil = makeFeed({ id: 3, title: 'Napping Feed', is_muted: true, muted_until: '2026-11-23T15:30:00.000Z' });

interface World {
  feeds: Feed[];
  counts: UnreadCounts;
  /** The list answers by path and page. */
  list(req: Request): [number, unknown?] | undefined;
  extra?: Route;
}

function serve(world: World): Request[] {
  return stubApi((req) => {
    const key = `${req.method} ${req.path}`;
    if (key === 'GET /auth/me') return [200, { user: JSON.parse(localStorage.getItem('user')!) }];
    if (key === 'GET /api/feeds') return [200, world.feeds];
    if (key === 'GET /api/feeds/summaries') return [200, summariesOf(world.feeds)];
    if (key === 'GET /api/feeds/unread_counts') return [200, world.counts];
    const extra = world.extra?.(req);
    if (extra) return extra;
    if (req.method === 'GET') return world.list(req);
    return undefined;
  });
}

function articleCards(): HTMLElement[] {
  return screen.queryAllByRole('article');
}

function titles(): string[] {
  return articleCards().map((a) =>
    within(a)
      .getByRole('heading')
      .textContent.replace(/\s*\(opens in a new tab\)$/, ''),
  );
}

function sidebarBadge(name: RegExp | string) {
  const nav = screen.getByRole('navigation', { name: 'Main navigation' });
  return within(nav).getByRole('link', { name }).querySelector('[data-testid="unread-badge"] [aria-hidden]')?.textContent ?? null;
}

let io: ReturnType<typeof stubIntersectionObserver>;

setUpDashboardTestEnv();
beforeEach(() => {
  io = stubIntersectionObserver();
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('all articles (dashboard.md §2 "Article list view")', () => {
  it('lists unread articles with count, note, summary of three sentences, date and a link to the original', async () => {
    const articles = [makeArticle({ id: 12, title: 'Newest' }), makeArticle({ id: 11, title: 'Older' })];
    const requests = serve({ feeds: [feed1], counts: { counts: { '1': 2 }, total: 2 }, list: () => [200, page(articles)] });
    await renderAt('/dashboard', <DashboardRoutes />);

    expect(await screen.findByRole('heading', { level: 2, name: /Newest/ })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'All articles' })).toBeTruthy();
    expect(screen.getByTestId('article-total').textContent).toBe('2 articles');
    expect(screen.getByRole('button', { name: 'Showing unread only' })).toBeTruthy();
    const list = requests.find((r) => r.path === '/api/articles')!;
    expect(Object.fromEntries(list.query)).toEqual({ page: '1', per_page: '20', show_read: 'false' });

    const card = articleCards()[0];
    expect(within(card).getByText('First sentence of 12. Second one. Third one.')).toBeTruthy();
    const link = within(card).getByRole('link', { name: /Newest/ });
    expect(link.getAttribute('href')).toBe('https://example.org/posts/12');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(within(card).getByText(/^20 Nov 2026, \d\d:12$/)).toBeTruthy();
    // The sidebar: total badge on All articles, the feed with its badge.
    expect(sidebarBadge(/All articles/)).toBe('2');
    expect(sidebarBadge(/Feed 1/)).toBe('2');
  });

  it('formats dates the German way in German', async () => {
    await signedIn(undefined, 'de');
    serve({ feeds: [feed1], counts: { counts: { '1': 1 }, total: 1 }, list: () => [200, page([makeArticle({ id: 5 })])] });
    await renderAt('/dashboard', <DashboardRoutes />);
    const card = (await screen.findAllByRole('article'))[0];
    // lib/dates: day first, 24-hour clock (docs/decisions.md "One date style per language").
    expect(card.querySelector('time')!.textContent).toMatch(/^20\.11\.2026, \d\d:05$/);
    expect(screen.getByTestId('article-total').textContent).toBe('1 Artikel');
    expect(screen.getByRole('button', { name: 'Nur ungelesene sichtbar' })).toBeTruthy();
  });

  it('marks an article read: it leaves the list, the total and the badges drop, and the events go out', async () => {
    const articles = [makeArticle({ id: 12, title: 'Newest' }), makeArticle({ id: 11, title: 'Older' })];
    const world: World = {
      feeds: [feed1],
      counts: { counts: { '1': 2 }, total: 2 },
      list: () => [200, page(articles)],
      extra: (req) => {
        if (req.path !== '/api/articles/12/read') return undefined;
        world.counts = { counts: { '1': 1 }, total: 1 };
        return [200, { id: 12, is_read: true, is_favorite: false }];
      },
    };
    const requests = serve(world);
    const events: unknown[] = [];
    const offs = [on('article-read-status-changed', (d) => events.push(d)), on('unread-counts-updated', () => events.push('counts'))];
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Newest/ });

    fireEvent.click(within(articleCards()[0]).getByRole('button', { name: 'Mark as read' }));
    expect(titles()).toEqual(['Older']);
    expect(screen.getByTestId('article-total').textContent).toBe('1 article');
    await waitFor(() => expect(requests.some((r) => r.method === 'POST' && r.path === '/api/articles/12/read')).toBe(true));
    await wait(10);
    expect(events).toContainEqual(expect.objectContaining({ ids: [12], is_read: true }));
    expect(events).toContain('counts');
    // Badges follow 400 ms later (the optimistic count, before the server's answer comes back).
    await wait(450);
    expect(sidebarBadge(/All articles/)).toBe('1');
    expect(sidebarBadge(/Feed 1/)).toBe('1');
    offs.forEach((off) => off());
  });

  it('shows read articles with a read badge after the note is clicked, and marking unread keeps them', async () => {
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: (req) =>
        req.query.get('show_read') === 'true'
          ? [200, page([makeArticle({ id: 2, title: 'Unread one' }), makeArticle({ id: 1, title: 'Read one', is_read: true })])]
          : [200, page([makeArticle({ id: 2, title: 'Unread one' })])],
      extra: (req) => (req.path === '/api/articles/1/unread' ? [200, { id: 1, is_read: false, is_favorite: false }] : undefined),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Unread one/ });
    fireEvent.click(screen.getByRole('button', { name: 'Showing unread only' }));
    expect(await screen.findByRole('heading', { level: 2, name: /Read one/ })).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/articles').map((r) => r.query.get('show_read'))).toEqual(['false', 'true']);
    // The top bar's toggle shows the same state.
    expect(screen.getByRole('button', { name: 'Show read articles' }).getAttribute('aria-pressed')).toBe('true');
    const readCard = articleCards()[1];
    expect(within(readCard).getByText('Read')).toBeTruthy();
    fireEvent.click(within(readCard).getByRole('button', { name: 'Mark as unread' }));
    expect(titles()).toEqual(['Unread one', 'Read one']);
    expect(within(articleCards()[1]).queryByText('Read')).toBeNull();
  });

  it('opening the original marks the article read', async () => {
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 7, title: 'Go there' })])],
      extra: (req) => (req.path === '/api/articles/7/read' ? [200, { id: 7, is_read: true, is_favorite: false }] : undefined),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    const link = await screen.findByRole('link', { name: /Go there/ });
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    await waitFor(() => expect(requests.some((r) => r.method === 'POST' && r.path === '/api/articles/7/read')).toBe(true));
  });

  it('marks all read with an empty body on the all view and then says everything is read', async () => {
    let read = false;
    const world: World = {
      feeds: [feed1],
      counts: { counts: { '1': 2 }, total: 2 },
      list: () => [200, read ? page([]) : page([makeArticle({ id: 2 }), makeArticle({ id: 1 })])],
      extra: (req) => {
        if (req.path !== '/api/articles/read/all') return undefined;
        read = true;
        world.counts = { counts: { '1': 0 }, total: 0 };
        return [200, { marked: 2 }];
      },
    };
    const requests = serve(world);
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Article 2/ });
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('heading', { name: 'All read!' })).toBeTruthy();
    expect(requests.find((r) => r.path === '/api/articles/read/all')!.body).toEqual({});
    await wait(500);
    expect(sidebarBadge(/All articles/)).toBeNull();
  });

  it('loads the next page when the end comes near (300 px), with five placeholders while loading', async () => {
    const first = Array.from({ length: 20 }, (_, i) => makeArticle({ id: 100 - i }));
    const second = [makeArticle({ id: 50, title: 'From page two' })];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 21 }, total: 21 },
      list: (req) => (req.query.get('page') === '2' ? [200, page(second, { total: 21, current_page: 2, pages: 2 })] : [200, page(first, { total: 21, pages: 2 })]),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Article 100/ });
    expect(io.options().some((o) => o?.rootMargin === '300px')).toBe(true);

    // Hold page 2 to see the placeholders.
    const realFetch = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (...args: Parameters<typeof fetch>) => (await gate, realFetch(...args))),
    );
    act(() => io.intersect());
    expect(screen.getAllByTestId('article-skeleton')).toHaveLength(5);
    release();
    expect(await screen.findByRole('heading', { level: 2, name: /From page two/ })).toBeTruthy();
    expect(screen.queryAllByTestId('article-skeleton')).toHaveLength(0);
    expect(requests.filter((r) => r.path === '/api/articles').map((r) => r.query.get('page'))).toEqual(['1', '2']);
    expect(articleCards()).toHaveLength(21);
  });

  it('adds new articles at the top when the 30 s poll finds them', async () => {
    let articles = [makeArticle({ id: 10, title: 'Known' })];
    serve({ feeds: [feed1], counts: { counts: { '1': 1 }, total: 1 }, list: () => [200, page(articles)] });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Known/ });
    articles = [makeArticle({ id: 11, title: 'Fresh', published_at: '2026-11-21T08:00:00.000Z' }), ...articles];
    await wait(29_000);
    expect(titles()).toEqual(['Known']);
    const events: string[] = [];
    const off = on('unread-counts-updated', () => events.push('counts'));
    await wait(1_100);
    await waitFor(() => expect(titles()).toEqual(['Fresh', 'Known']));
    expect(screen.getByTestId('article-total').textContent).toBe('2 articles');
    // The sidebar's badges are fetched again with the new articles, not left as old as the first load.
    expect(events).toEqual(['counts']);
    // A poll that finds nothing new leaves them alone.
    await wait(30_100);
    expect(events).toEqual(['counts']);
    off();
  });

  it('does not show load errors on the all view while articles are there, and retries a failed first load', async () => {
    let fail = true;
    serve({ feeds: [feed1], counts: { counts: {}, total: 0 }, list: () => (fail ? [500, { message: 'x', code: 'INTERNAL' }] : [200, page([makeArticle({ id: 1 })])]) });
    await renderAt('/dashboard', <DashboardRoutes />);
    await wait(600);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Articles could not be loaded right now' })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: /Article 1/ })).toBeTruthy();
  });
});

describe('a single feed (?feed=<id>)', () => {
  it('is titled after the feed, lists its articles, offers "no filters" and marks all read by feed id', async () => {
    let read = false;
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: (req) =>
        req.path === '/api/feeds/1/articles' ? [200, page(read ? [] : [makeArticle({ id: 3 })])] : req.path === '/api/feeds/1/filters' ? [200, []] : undefined,
      extra: (req) => (req.path === '/api/articles/read/all' ? ((read = true), [200, { marked: 1 }]) : undefined),
    });
    await renderAt('/dashboard?feed=1', <DashboardRoutes />);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Articles from Feed 1' });
    // A phone's top bar shows just the feed's name (hidden from screen readers); the full title is the tooltip.
    expect(heading.getAttribute('title')).toBe('Articles from Feed 1');
    expect(heading.querySelector('[aria-hidden]')?.textContent).toBe('Feed 1');
    await screen.findByRole('heading', { level: 2, name: /Article 3/ });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(
      within(nav)
        .getByRole('link', { name: /Feed 1/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(
      within(nav)
        .getByRole('link', { name: /All articles/ })
        .getAttribute('aria-current'),
    ).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(requests.find((r) => r.path === '/api/articles/read/all')?.body).toEqual({ feed_id: 1 }));
    expect(await screen.findByRole('heading', { name: 'No unread articles' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'No filters' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('lists active filters behind the "active filters applied (n)" toggle', async () => {
    const filter = { id: 9, filter_type: 'exclude', filter_scope: 'title', filter_text: 'sponsored', feed_id: 1, user_feed_id: 11, created_at: '', feed_title: 'Feed 1' };
    serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 3 })], { active_filters: [filter as never] })],
    });
    await renderAt('/dashboard?feed=1', <DashboardRoutes />);
    const toggle = await screen.findByRole('button', { name: 'Active filter applied (1)' });
    expect(screen.queryByText('sponsored')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('sponsored')).toBeTruthy();
  });

  it('shows a muted feed greyed in the sidebar and explains the empty list (permanently / until a time)', async () => {
    const requests = serve({ feeds: [feed1, mutedForever, mutedUntil], counts: { counts: { '1': 0 }, total: 0 }, list: () => [200, page([])] });
    await renderAt('/dashboard?feed=2', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { name: 'Feed muted' })).toBeTruthy();
    expect(screen.getByText(/muted permanently/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unmute' })).toBeTruthy();
    expect(requests.some((r) => r.path === '/api/feeds/2/articles')).toBe(false);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const muted = within(nav).getByRole('link', { name: /Quiet Feed/ });
    expect(muted.getAttribute('data-muted')).toBe('true');
    expect(muted.querySelector('[data-testid="unread-badge"]')).toBeNull();

    fireEvent.click(within(nav).getByRole('link', { name: /Napping Feed/ }));
    expect(await screen.findByText(/muted until 23 Nov 2026/)).toBeTruthy();
  });

  it('says so when the feed id is not one of the user’s feeds', async () => {
    serve({ feeds: [feed1], counts: { counts: {}, total: 0 }, list: () => [404, { message: 'Feed not found.', code: 'FEED_NOT_FOUND' }] });
    await renderAt('/dashboard?feed=99', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { name: 'Feed not found' })).toBeTruthy();
  });

  it('shows a load error only after it persisted 500 ms, with "try again later"', async () => {
    serve({ feeds: [feed1], counts: { counts: {}, total: 0 }, list: () => [500, { message: 'x', code: 'INTERNAL' }] });
    await renderAt('/dashboard?feed=1', <DashboardRoutes />);
    await wait(100);
    expect(screen.queryByRole('alert')).toBeNull();
    await wait(500);
    expect(screen.getByRole('alert').textContent).toContain('Server error. Please try again later.');
  });
});

describe('favorites (/dashboard/favorites)', () => {
  it('always shows read articles; unfavouriting removes the article and lowers the total', async () => {
    const requests = serve({
      feeds: [feed1],
      counts: { counts: {}, total: 0 },
      list: (req) =>
        req.path === '/api/articles/favorites'
          ? [200, page([makeArticle({ id: 4, title: 'Kept', is_favorite: true, is_read: true }), makeArticle({ id: 3, title: 'Gone', is_favorite: true })])]
          : undefined,
      extra: (req) => (req.path === '/api/articles/3/unfavorite' ? [200, { id: 3, is_read: false, is_favorite: false }] : undefined),
    });
    await renderAt('/dashboard/favorites', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Favorites' })).toBeTruthy();
    await screen.findByRole('heading', { level: 2, name: /Kept/ });
    expect(requests.find((r) => r.path === '/api/articles/favorites')!.query.has('show_read')).toBe(false);
    expect(screen.queryByRole('button', { name: /Showing/ })).toBeNull();
    expect(within(articleCards()[0]).getByText('Read')).toBeTruthy();
    // No search box or read toggle outside /dashboard.
    expect(screen.queryByRole('searchbox')).toBeNull();

    fireEvent.click(within(articleCards()[1]).getByRole('button', { name: 'Remove from favorites' }));
    expect(titles()).toEqual(['Kept']);
    expect(screen.getByTestId('article-total').textContent).toBe('1 article');
    await waitFor(() => expect(requests.some((r) => r.path === '/api/articles/3/unfavorite')).toBe(true));
  });
});

describe('search (?q=)', () => {
  it('searches 300 ms after typing, only for non-blank text, and returns to the view when cleared', async () => {
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: (req) =>
        req.path === '/api/articles/search'
          ? [200, page(req.query.get('q') === 'rust' ? [makeArticle({ id: 8, title: 'Rust news' })] : [])]
          : [200, page([makeArticle({ id: 1, title: 'Everything' })])],
      extra: (req) => (req.path === '/api/articles/read/all' ? [200, { marked: 1 }] : undefined),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Everything/ });
    const box = screen.getByRole('searchbox', { name: 'Search articles' });

    fireEvent.change(box, { target: { value: '   ' } });
    await wait(400);
    expect(requests.some((r) => r.path === '/api/articles/search')).toBe(false);

    fireEvent.change(box, { target: { value: 'rus' } });
    await wait(100);
    fireEvent.change(box, { target: { value: 'rust' } });
    await wait(250);
    expect(requests.some((r) => r.path === '/api/articles/search')).toBe(false);
    await wait(100);
    expect(await screen.findByRole('heading', { level: 1, name: 'Search results for “rust”' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: /Rust news/ })).toBeTruthy();
    const searches = requests.filter((r) => r.path === '/api/articles/search');
    expect(searches.map((r) => r.query.get('q'))).toEqual(['rust']);
    expect(screen.getByTestId('location-search').textContent).toBe('?q=rust');

    // Mark all read on a search acts on the loaded articles.
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(requests.find((r) => r.path === '/api/articles/read/all')?.body).toEqual({ article_ids: [8] }));

    // Enter searches at once.
    fireEvent.change(box, { target: { value: 'nothing' } });
    fireEvent.submit(box.closest('form')!);
    expect(await screen.findByRole('heading', { name: 'No results for “nothing”' })).toBeTruthy();

    fireEvent.change(box, { target: { value: '' } });
    expect(await screen.findByRole('heading', { level: 2, name: /Everything/ })).toBeTruthy();
    expect(screen.getByTestId('location-search').textContent).toBe('');
  });

  it('says "Fehler bei der Suche" when the search fails', async () => {
    await signedIn(undefined, 'de');
    serve({
      feeds: [feed1],
      counts: { counts: {}, total: 0 },
      list: (req) => (req.path === '/api/articles/search' ? [500, { message: 'x', code: 'X' }] : [200, page([])]),
    });
    await renderAt('/dashboard?q=x', <DashboardRoutes />);
    await wait(700);
    expect(screen.getByRole('alert').textContent).toContain('Fehler bei der Suche. Bitte versuche es erneut.');
  });
});

describe('extended card', () => {
  it('loads the full content once, drops images under 10 px and shows the author', async () => {
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 5, title: 'Long read', author: 'Ada' })])],
      extra: (req) =>
        req.path === '/api/extract-article-content'
          ? [
              200,
              {
                content: '<p>The whole story.</p><img src="https://x/pixel.gif" width="1" height="1"><img src="https://x/photo.jpg" width="600">',
                warning: null,
                error: null,
                cached: false,
              },
            ]
          : undefined,
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    const card = (await screen.findAllByRole('article'))[0];
    fireEvent.click(within(card).getByRole('button', { name: 'Full article' }));
    expect(await within(card).findByText('The whole story.')).toBeTruthy();
    expect(within(card).getByText('By Ada')).toBeTruthy();
    const images = Array.from(card.querySelectorAll('img')).map((i) => i.getAttribute('src'));
    expect(images).toContain('https://x/photo.jpg');
    expect(images).not.toContain('https://x/pixel.gif');
    expect(requests.find((r) => r.path === '/api/extract-article-content')!.body).toEqual({ url: 'https://example.org/posts/5', articleId: 5 });

    fireEvent.click(within(card).getByRole('button', { name: 'Compact' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Full article' }));
    expect(await within(card).findByText('The whole story.')).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/extract-article-content')).toHaveLength(1);
  });

  it('shows the feed’s content with the note when the full article cannot be loaded', async () => {
    await signedIn(undefined, 'de');
    serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 5 })])],
      extra: (req) =>
        req.path === '/api/extract-article-content' ? [200, { content: '<p>Feed text only.</p>', warning: 'EXTRACT_FAILED', error: null, cached: false }] : undefined,
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    const card = (await screen.findAllByRole('article'))[0];
    fireEvent.click(within(card).getByRole('button', { name: 'Ganzer Artikel' }));
    expect(await within(card).findByText('Feed text only.')).toBeTruthy();
    expect(within(card).getByText(/Vollständiger Artikel konnte nicht geladen werden/)).toBeTruthy();
  });
});

describe('keyboard shortcuts', () => {
  it('j/k move, m toggles read, s favourites, v extends, ? opens the help; never while typing', async () => {
    const articles: Article[] = [makeArticle({ id: 3, title: 'One' }), makeArticle({ id: 2, title: 'Two' }), makeArticle({ id: 1, title: 'Three' })];
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 3 }, total: 3 },
      list: () => [200, page(articles)],
      extra: (req) =>
        req.method === 'POST' && req.path.startsWith('/api/articles/')
          ? [200, { id: 0, is_read: true, is_favorite: true }]
          : req.path === '/api/extract-article-content'
            ? [200, { content: '<p>Full two.</p>', warning: null, error: null, cached: false }]
            : undefined,
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /One/ });
    const key = (k: string, opts: KeyboardEventInit = {}) => fireEvent.keyDown(document.activeElement ?? document.body, { key: k, ...opts });

    key('j');
    expect(document.activeElement).toBe(articleCards()[0]);
    key('j');
    expect(document.activeElement).toBe(articleCards()[1]);
    key('k');
    key('j');
    key('s');
    await waitFor(() => expect(requests.some((r) => r.path === '/api/articles/2/favorite')).toBe(true));
    key('v');
    expect(await screen.findByText('Full two.')).toBeTruthy();
    // Opening reads it, and it stays where it is although read ones are hidden.
    await waitFor(() => expect(requests.some((r) => r.path === '/api/articles/2/read')).toBe(true));
    expect(titles()).toEqual(['One', 'Two', 'Three']);
    expect(screen.getByTestId('article-total').textContent).toBe('2 articles');
    key('m');
    await waitFor(() => expect(requests.some((r) => r.path === '/api/articles/2/unread')).toBe(true));
    expect(screen.getByTestId('article-total').textContent).toBe('3 articles');
    key('m');
    // Read by hand while read ones are hidden: it leaves, the next one is selected.
    expect(titles()).toEqual(['One', 'Three']);
    await waitFor(() => expect(articleCards()[1].getAttribute('data-active')).toBe('true'));
    key('j', { ctrlKey: true });
    expect(requests.some((r) => r.path === '/api/articles/1/read')).toBe(false);

    const box = screen.getByRole('searchbox');
    box.focus();
    fireEvent.keyDown(box, { key: 'm' });
    expect(requests.some((r) => r.path === '/api/articles/1/read')).toBe(false);

    fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    expect(screen.getByText('Open original')).toBeTruthy();
  });

  it('"/" focuses the search box', async () => {
    serve({ feeds: [feed1], counts: { counts: {}, total: 0 }, list: () => [200, page([makeArticle({ id: 1 })])] });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findAllByRole('article');
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(screen.getByRole('searchbox'));
  });
});

describe('app-wide events (§7)', () => {
  it('reloads the list on force-article-update and applies read marks made elsewhere', async () => {
    let articles = [makeArticle({ id: 2, title: 'A' }), makeArticle({ id: 1, title: 'B' })];
    serve({ feeds: [feed1], counts: { counts: { '1': 2 }, total: 2 }, list: () => [200, page(articles)] });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /^A/ });
    act(() => void window.dispatchEvent(new CustomEvent('article-read-status-changed', { detail: { ids: [2], is_read: true } })));
    expect(titles()).toEqual(['B']);
    articles = [makeArticle({ id: 3, title: 'C' }), ...articles];
    act(() => void window.dispatchEvent(new CustomEvent('force-article-update')));
    await waitFor(() => expect(titles()).toEqual(['C', 'A', 'B']));
  });
});
