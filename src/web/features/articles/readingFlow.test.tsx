import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Feed, Folder, UnreadCounts } from '../../../common/api.js';
import { renderAt, signedIn, setUpDashboardTestEnv, testUser } from '../../test/dashboardHarness.js';
import { makeArticle, page, stubApi, stubIntersectionObserver, type Request, type Route } from '../../test/testArticles.js';
import { makeFeed, summariesOf } from '../../test/testFeeds.js';
import { DashboardRoutes } from '../dashboard/index.js';

/**
 * The reading flow (docs/decisions.md "Reading flow"): read state follows reading and keeps the article in place,
 * bulk marks offer an undo, folders are streams, the feed's content comes first, n / p go from feed to feed.
 */

interface World {
  feeds: Feed[];
  folders?: Folder[];
  counts: UnreadCounts;
  list(req: Request): [number, unknown?] | undefined;
  extra?: Route;
}

function serve(world: World): Request[] {
  return stubApi((req) => {
    const key = `${req.method} ${req.path}`;
    if (key === 'GET /auth/me') return [200, { user: JSON.parse(localStorage.getItem('user')!) }];
    if (key === 'GET /api/feeds') return [200, world.feeds];
    if (key === 'GET /api/feeds/summaries') return [200, summariesOf(world.feeds)];
    if (key === 'GET /api/folders') return [200, { folders: world.folders ?? [] }];
    if (key === 'GET /api/feeds/unread_counts') return [200, world.counts];
    const extra = world.extra?.(req);
    if (extra) return extra;
    if (req.method === 'GET') return world.list(req);
    return undefined;
  });
}

const cards = () => screen.queryAllByRole('article');
const titles = () =>
  cards().map((a) =>
    within(a)
      .getByRole('heading')
      .textContent.replace(/\s*\(opens in a new tab\)$/, ''),
  );
const card = (title: string) => cards().find((a) => within(a).getByRole('heading').textContent.startsWith(title))!;
const posted = (requests: Request[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);
function sidebarBadge(name: RegExp) {
  const nav = screen.getByRole('navigation', { name: 'Main navigation' });
  return within(nav).getByRole('link', { name }).querySelector('[data-testid="unread-badge"] [aria-hidden]')?.textContent ?? null;
}

const feed1 = makeFeed({ id: 1, title: 'Feed 1' });
const ok = (id: number, read: boolean) => [200, { id, is_read: read, is_favorite: false }] as [number, unknown];
const readRoutes: Route = (req) => {
  const m = /^\/api\/articles\/(\d+)\/(read|unread)$/.exec(req.path);
  return m && req.method === 'POST' ? ok(Number(m[1]), m[2] === 'read') : undefined;
};
const fullText = `<p>${'A long paragraph of the whole story, as the feed carries it. '.repeat(8)}</p><p>${'And a second one. '.repeat(10)}</p>`;

setUpDashboardTestEnv();
beforeEach(() => {
  stubIntersectionObserver();
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('read state follows reading', () => {
  it('expanding an article reads it and it stays in place, even with read ones hidden; the explicit mark removes it', async () => {
    const world: World = {
      feeds: [feed1],
      counts: { counts: { '1': 3 }, total: 3 },
      list: () => [200, page([makeArticle({ id: 3, title: 'One', content: fullText }), makeArticle({ id: 2, title: 'Two' }), makeArticle({ id: 1, title: 'Three' })])],
      extra: (req) => {
        const answer = readRoutes(req);
        if (answer) world.counts = { counts: { '1': world.counts.total - 1 }, total: world.counts.total - 1 };
        return answer;
      },
    };
    const requests = serve(world);
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /One/ });
    fireEvent.click(within(card('One')).getByRole('button', { name: 'Full article' }));
    await waitFor(() => expect(posted(requests, '/api/articles/3/read')).toHaveLength(1));
    expect(titles()).toEqual(['One', 'Two', 'Three']);
    expect(within(card('One')).getByText('Read')).toBeTruthy();
    expect(screen.getByTestId('article-total').textContent).toBe('2 articles');
    await wait(450);
    expect(sidebarBadge(/All articles/)).toBe('2');
    // Collapsing and expanding again does not mark twice.
    fireEvent.click(within(card('One')).getByRole('button', { name: 'Compact' }));
    fireEvent.click(within(card('One')).getByRole('button', { name: 'Full article' }));
    expect(posted(requests, '/api/articles/3/read')).toHaveLength(1);
    // The explicit mark follows dashboard.md §4: gone while read ones are hidden.
    fireEvent.click(within(card('Two')).getByRole('button', { name: 'Mark as read' }));
    expect(titles()).toEqual(['One', 'Three']);
    expect(screen.getByTestId('article-total').textContent).toBe('1 article');
  });

  it('"only by hand" never marks on opening', async () => {
    await signedIn({ ...testUser, mark_read_on: 'manual' });
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 3, title: 'One', content: fullText })])],
      extra: readRoutes,
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    const link = await screen.findByRole('link', { name: /One/ });
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    fireEvent.click(within(card('One')).getByRole('button', { name: 'Full article' }));
    await wait(50);
    expect(posted(requests, '/api/articles/3/read')).toHaveLength(0);
  });
});

describe('read when scrolled past', () => {
  it('marks a card read once it was seen and its bottom left the top of the window; it stays in place', async () => {
    await signedIn({ ...testUser, mark_read_on: 'scroll' });
    // An observer that lets the test say where each card is.
    const observers: { cb: IntersectionObserverCallback; els: Element[]; margin?: string }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        private o: { cb: IntersectionObserverCallback; els: Element[]; margin?: string };
        constructor(cb: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          this.o = { cb, els: [], margin: options?.rootMargin };
          observers.push(this.o);
        }
        observe(el: Element) {
          this.o.els.push(el);
        }
        unobserve() {}
        disconnect() {
          this.o.els = [];
        }
        takeRecords() {
          return [];
        }
      },
    );
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 2 }, total: 2 },
      list: () => [200, page([makeArticle({ id: 2, title: 'One' }), makeArticle({ id: 1, title: 'Two' })])],
      extra: readRoutes,
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Two/ });
    const report = (title: string, isIntersecting: boolean, bottom: number) => {
      const el = card(title);
      for (const o of observers.filter((x) => x.margin?.startsWith('-') && x.els.includes(el))) {
        o.cb(
          [{ target: el, isIntersecting, boundingClientRect: { bottom }, rootBounds: { top: 112 } } as unknown as IntersectionObserverEntry],
          o as unknown as IntersectionObserver,
        );
      }
    };
    // Below the window, never seen: nothing. Seen, then its bottom passes under the top bars: read.
    report('Two', false, 2000);
    report('One', true, 400);
    await wait(20);
    expect(posted(requests, '/api/articles/2/read')).toHaveLength(0);
    report('One', false, 60);
    await waitFor(() => expect(posted(requests, '/api/articles/2/read')).toHaveLength(1));
    expect(titles()).toEqual(['One', 'Two']);
    expect(posted(requests, '/api/articles/1/read')).toHaveLength(0);
  });
});

describe('undo of bulk marks', () => {
  it('mark all read offers "Undo", which restores the list and the counts and asks the server to undo', async () => {
    let undone = false;
    const world: World = {
      feeds: [feed1],
      counts: { counts: { '1': 2 }, total: 2 },
      list: () => [200, page([makeArticle({ id: 2, title: 'Two' }), makeArticle({ id: 1, title: 'One' })])],
      extra: (req) => {
        if (req.path === '/api/articles/read/all') {
          world.counts = { counts: { '1': 0 }, total: 0 };
          return [200, { marked: 2, undo_token: 'tok-1' }];
        }
        if (req.path === '/api/articles/read/undo') {
          undone = true;
          world.counts = { counts: { '1': 2 }, total: 2 };
          return [200, { restored: 2 }];
        }
        return undefined;
      },
    };
    const requests = serve(world);
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Two/ });
    await wait(450);
    expect(sidebarBadge(/All articles/)).toBe('2');
    world.list = () => [200, page([])];
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('heading', { name: 'All read!' })).toBeTruthy();
    const toasts = screen.getByTestId('toasts');
    expect(within(toasts).getByText('2 articles marked as read.')).toBeTruthy();
    await wait(450);
    expect(sidebarBadge(/All articles/)).toBeNull();

    world.list = () => [200, page([makeArticle({ id: 2, title: 'Two' }), makeArticle({ id: 1, title: 'One' })])];
    fireEvent.click(within(toasts).getByRole('button', { name: 'Undo' }));
    expect(titles()).toEqual(['Two', 'One']);
    expect(screen.getByTestId('article-total').textContent).toBe('2 articles');
    await waitFor(() => expect(undone).toBe(true));
    await wait(450);
    expect(sidebarBadge(/All articles/)).toBe('2');
    expect(posted(requests, '/api/articles/read/undo')[0].body).toEqual({ undo_token: 'tok-1' });
    expect(within(toasts).queryByText('2 articles marked as read.')).toBeNull();
  });

  it('"mark above as read" marks the loaded articles above the card, with an undo', async () => {
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 3 }, total: 3 },
      list: () => [200, page([makeArticle({ id: 3, title: 'One' }), makeArticle({ id: 2, title: 'Two' }), makeArticle({ id: 1, title: 'Three' })])],
      extra: (req) => (req.path === '/api/articles/read/all' ? [200, { marked: 2, undo_token: 'tok-2' }] : undefined),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Three/ });
    expect(within(card('One')).queryByRole('button', { name: 'Mark the articles above as read' })).toBeNull();
    fireEvent.click(within(card('Three')).getByRole('button', { name: 'Mark the articles above as read' }));
    await waitFor(() => expect(titles()).toEqual(['Three']));
    expect(posted(requests, '/api/articles/read/all')[0].body).toEqual({ article_ids: [3, 2] });
    fireEvent.click(within(screen.getByTestId('toasts')).getByRole('button', { name: 'Undo' }));
    expect(titles()).toEqual(['One', 'Two', 'Three']);
  });

  it('on a phone the icon asks first', async () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('max-width'), media: q, addEventListener() {}, removeEventListener() {} }));
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 1, title: 'One' })])],
      extra: (req) => (req.path === '/api/articles/read/all' ? [200, { marked: 1, undo_token: null }] : undefined),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /One/ });
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark all as read?' });
    expect(posted(requests, '/api/articles/read/all')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posted(requests, '/api/articles/read/all')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Mark all as read?' })).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(posted(requests, '/api/articles/read/all')).toHaveLength(1));
  });
});

describe('folder streams', () => {
  const folder: Folder = { id: 9, name: 'News', feeds: [1, 2], sort_order: 0, created_at: '2026-11-01T00:00:00.000Z' };
  const feeds = [makeFeed({ id: 1, title: 'Feed 1', folder_id: 9 }), makeFeed({ id: 2, title: 'Feed 2', folder_id: 9 }), makeFeed({ id: 3, title: 'Feed 3' })];

  it('lists the folder’s articles with its name and unread badge, searches and marks all read within it', async () => {
    const world: World = {
      feeds,
      folders: [folder],
      counts: { counts: { '1': 2, '2': 3, '3': 4 }, total: 9 },
      list: () => [200, page([makeArticle({ id: 2, title: 'From one' }), makeArticle({ id: 1, title: 'From two', feed_id: 2 })])],
      extra: (req) => {
        if (req.path !== '/api/articles/read/all') return undefined;
        world.counts = { counts: { '1': 0, '2': 0, '3': 4 }, total: 4 };
        return [200, { marked: 5, undo_token: 'tok' }];
      },
    };
    const requests = serve(world);
    await renderAt('/dashboard?folder=9', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /From one/ });
    expect(screen.getByRole('heading', { level: 1, name: 'Folder News' })).toBeTruthy();
    expect(screen.getByTestId('view-unread-badge').textContent).toBe('5 unread');
    const list = requests.find((r) => r.path === '/api/folders/9/articles')!;
    expect(Object.fromEntries(list.query)).toEqual({ page: '1', per_page: '20', show_read: 'false' });

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(posted(requests, '/api/articles/read/all')).toHaveLength(1));
    expect(posted(requests, '/api/articles/read/all')[0].body).toEqual({ folder_id: 9 });
    await wait(450);
    expect(sidebarBadge(/All articles/)).toBe('4');

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'story' } });
    await wait(350);
    await waitFor(() => expect(requests.some((r) => r.path === '/api/articles/search')).toBe(true));
    const search = requests.find((r) => r.path === '/api/articles/search')!;
    expect(search.query.get('folder_id')).toBe('9');
    expect(search.query.get('q')).toBe('story');
  });

  it('says so for a folder that does not exist', async () => {
    serve({ feeds, folders: [folder], counts: { counts: {}, total: 0 }, list: () => [404, { message: 'Folder not found.', code: 'FOLDER_NOT_FOUND' }] });
    await renderAt('/dashboard?folder=77', <DashboardRoutes />);
    expect(await screen.findByRole('heading', { name: 'Folder not found' })).toBeTruthy();
  });
});

describe('content first', () => {
  const extract: Route = (req) =>
    req.path === '/api/extract-article-content' ? [200, { content: '<p>The original page.</p>', warning: null, error: null, cached: false }] : undefined;

  it('shows a full-text feed’s content without fetching the page, and fetches it when asked', async () => {
    const requests = serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 4, title: 'Whole', content: fullText, author: 'Ada' })])],
      extra: (req) => extract(req) ?? readRoutes(req),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Whole/ });
    fireEvent.click(within(card('Whole')).getByRole('button', { name: 'Full article' }));
    expect(await within(card('Whole')).findByText(/A long paragraph of the whole story/)).toBeTruthy();
    expect(within(card('Whole')).getByText('By Ada')).toBeTruthy();
    await wait(50);
    expect(requests.some((r) => r.path === '/api/extract-article-content')).toBe(false);
    fireEvent.click(within(card('Whole')).getByRole('button', { name: 'Load the original' }));
    expect(await within(card('Whole')).findByText('The original page.')).toBeTruthy();
  });

  it('fetches the page for a teaser, and always for a feed set to load the original', async () => {
    const requests = serve({
      feeds: [feed1, { ...makeFeed({ id: 2, title: 'Always' }), always_load_original: true }],
      counts: { counts: { '1': 1, '2': 1 }, total: 2 },
      list: () => [
        200,
        page([makeArticle({ id: 5, title: 'Teaser', content: '<p>Short intro…</p>' }), makeArticle({ id: 4, title: 'Full', feed_id: 2, content: fullText })]),
      ],
      extra: (req) => extract(req) ?? readRoutes(req),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Teaser/ });
    fireEvent.click(within(card('Teaser')).getByRole('button', { name: 'Full article' }));
    expect(await within(card('Teaser')).findByText('The original page.')).toBeTruthy();
    fireEvent.click(within(card('Full')).getByRole('button', { name: 'Full article' }));
    expect(await within(card('Full')).findByText('The original page.')).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/extract-article-content').map((r) => (r.body as { articleId: number }).articleId)).toEqual([5, 4]);
  });

  it('a failed fetch leaves the feed’s text with a quiet note and a retry', async () => {
    let fail = true;
    serve({
      feeds: [feed1],
      counts: { counts: { '1': 1 }, total: 1 },
      list: () => [200, page([makeArticle({ id: 5, title: 'Teaser', content: '<p>Short intro.</p>' })])],
      extra: (req) =>
        req.path === '/api/extract-article-content'
          ? fail
            ? [200, { content: '<p>Short intro.</p>', warning: 'EXTRACT_FAILED', error: null, cached: false }]
            : [200, { content: '<p>Now it worked.</p>', warning: null, error: null, cached: false }]
          : readRoutes(req),
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Teaser/ });
    fireEvent.click(within(card('Teaser')).getByRole('button', { name: 'Full article' }));
    const note = await within(card('Teaser')).findByTestId('original-failed');
    expect(within(card('Teaser')).getByText('Short intro.')).toBeTruthy();
    expect(within(card('Teaser')).queryByRole('alert')).toBeNull();
    fail = false;
    fireEvent.click(within(note).getByRole('button', { name: 'Try again' }));
    expect(await within(card('Teaser')).findByText('Now it worked.')).toBeTruthy();
  });
});

describe('n / p', () => {
  it('go to the next and previous feed with unread articles in the sidebar order', async () => {
    const folder: Folder = { id: 9, name: 'News', feeds: [3], sort_order: 0, created_at: '2026-11-01T00:00:00.000Z' };
    serve({
      feeds: [makeFeed({ id: 1 }), makeFeed({ id: 2 }), makeFeed({ id: 3, folder_id: 9 })],
      folders: [folder],
      counts: { counts: { '1': 0, '2': 4, '3': 1 }, total: 5 },
      list: () => [200, page([makeArticle({ id: 1 })])],
    });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findAllByRole('article');
    await wait(50);
    fireEvent.keyDown(document.body, { key: 'n' });
    await waitFor(() => expect(screen.getByTestId('location-search').textContent).toBe('?feed=3'));
    await screen.findAllByRole('article');
    fireEvent.keyDown(document.body, { key: 'n' });
    await waitFor(() => expect(screen.getByTestId('location-search').textContent).toBe('?feed=2'));
    await screen.findAllByRole('article');
    fireEvent.keyDown(document.body, { key: 'p' });
    await waitFor(() => expect(screen.getByTestId('location-search').textContent).toBe('?feed=3'));
  });
});

describe('a long list (docs/decisions.md "Reading flow")', () => {
  it('replaces cards far off screen by spacers of their height, and brings them back when scrolled to', async () => {
    // jsdom has no layout: every card is 200 px high, the list starts at the top of the page.
    const height = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.tagName === 'ARTICLE' ? 200 : 0;
    });
    const rect = HTMLElement.prototype.getBoundingClientRect;
    const listRect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      return this.getAttribute('role') === 'feed' ? ({ top: -window.scrollY, bottom: 0 } as DOMRect) : rect.call(this);
    });
    const many = Array.from({ length: 120 }, (_, i) => makeArticle({ id: 500 - i, title: `Story ${500 - i}` }));
    serve({ feeds: [feed1], counts: { counts: { '1': 120 }, total: 120 }, list: () => [200, page(many, { total: 120, pages: 6 })] });
    await renderAt('/dashboard', <DashboardRoutes />);
    await screen.findByRole('heading', { level: 2, name: /Story 500/ });
    await wait(50);
    const spacers = () => screen.queryAllByTestId('article-spacer');
    // The window (768 px) and two window heights below it: about 12 cards; the rest are spacers of 200 px.
    expect(cards().length).toBeLessThan(20);
    expect(cards().length + spacers().length).toBe(120);
    expect(spacers()[0].style.height).toBe('200px');

    // Scrolled far down: the cards there are rendered, the first ones give way.
    Object.defineProperty(window, 'scrollY', { value: 100 * 200, configurable: true });
    fireEvent.scroll(window);
    await wait(50);
    expect(titles()).toContain('Story 400');
    expect(titles()).not.toContain('Story 500');
    height.mockRestore();
    listRect.mockRestore();
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    // 120 cards take jsdom a while to render.
  }, 30_000);
});
