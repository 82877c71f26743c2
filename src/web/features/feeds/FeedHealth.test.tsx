import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderAt, setUpDashboardTestEnv, withBody } from '../../test/dashboardHarness.js';
import { makeFeed } from '../../test/testFeeds.js';
import FeedsPage, { FEED_ROWS_STEP } from './FeedsPage.js';
import { filterFeeds, isBroken, type ManagedFeed } from './health.js';

/** Feed management's health, filters, per-feed "always load the original" and its long lists (dashboard.md §2). */
let feeds: ManagedFeed[];
/** makeFeed with the health fields and the setting feed management reads besides the spec's. */
const managed = (overrides: Partial<ManagedFeed> & Pick<ManagedFeed, 'id'>): ManagedFeed => ({ ...makeFeed(overrides), ...overrides });

function server(extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({ 'GET /api/feeds': () => [200, feeds], ...extra });
}

const list = () => screen.getByRole('list', { name: 'Your feeds' });
const rowTitles = () =>
  within(list())
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);
const row = (title: string) => screen.getByRole('heading', { level: 3, name: title }).closest('li')!;
const fmt = (iso: string) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

setUpDashboardTestEnv();
beforeEach(() => {
  feeds = [
    managed({
      id: 1,
      title: 'Tagesschau',
      last_fetched_at: '2026-11-22T07:00:00.000Z',
      next_check_at: '2026-11-22T07:30:00.000Z',
      article_count: 120,
      unread_count: 1,
      error_count: 0,
      always_load_original: false,
    }),
    managed({
      id: 2,
      title: 'Heise',
      url: 'https://www.heise.de/rss/heise.rdf',
      last_error_code: 'FETCH_TIMEOUT',
      error_count: 3,
      article_count: 1,
      unread_count: 0,
      always_load_original: true,
    }),
    makeFeed({ id: 3, title: 'Golem', last_fetched_at: null, last_error_code: 'HTTP_404' }),
  ];
});

describe('feed health', () => {
  it('shows last fetch, next check, article and unread counts, and how often the refresh failed in a row', async () => {
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    const health = within(row('Tagesschau')).getByTestId('feed-health').textContent;
    expect(health).toContain(`Last fetched ${fmt('2026-11-22T07:00:00.000Z')}`);
    expect(health).toContain(`next check ${fmt('2026-11-22T07:30:00.000Z')}`);
    expect(health).toContain('120 articles');
    expect(health).toContain('1 unread');
    expect(within(row('Heise')).getByText('Last refresh failed: The server took too long to answer. (failed 3 times in a row)')).toBeTruthy();
    expect(within(row('Heise')).getByTestId('feed-health').textContent).toContain('1 article');
    // A feed not fetched yet says so, with its first check and empty counts; nothing reads "undefined".
    const golem = within(row('Golem')).getByTestId('feed-health').textContent;
    expect(golem).toMatch(/^Not fetched yet·next check .*·0 articles·0 unread$/);
    expect(golem).not.toContain('undefined');
  });

  it('in German', async () => {
    const { signedIn } = await import('../../test/dashboardHarness.js');
    await signedIn(undefined, 'de');
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Deine Feeds' });
    const health = within(row('Tagesschau')).getByTestId('feed-health').textContent;
    expect(health).toContain('120 Artikel');
    expect(health).toContain('1 ungelesen');
    expect(within(row('Heise')).getByText(/\(3-mal in Folge fehlgeschlagen\)/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nur fehlerhafte Feeds (2)' })).toBeTruthy();
  });
});

describe('search and the broken-feeds filter', () => {
  it('narrows the list by title or address, and to broken feeds, with a count; arrows wait meanwhile', async () => {
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    const broken = screen.getByRole('button', { name: 'Only broken feeds (2)' });
    expect(broken.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(broken);
    expect(broken.getAttribute('aria-pressed')).toBe('true');
    expect(rowTitles()).toEqual(['Heise', 'Golem']);
    expect(screen.getByText('2 of 3 feeds')).toBeTruthy();
    expect(within(row('Heise')).getByRole<HTMLButtonElement>('button', { name: 'Move “Heise” up' }).disabled).toBe(true);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search your feeds' }), { target: { value: 'HEISE.de' } });
    expect(rowTitles()).toEqual(['Heise']);
    fireEvent.click(broken);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search your feeds' }), { target: { value: 'nothing like it' } });
    expect(screen.getByText('No feed matches.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show all feeds' }));
    expect(rowTitles()).toEqual(['Tagesschau', 'Heise', 'Golem']);
    expect(within(row('Heise')).getByRole<HTMLButtonElement>('button', { name: 'Move “Heise” up' }).disabled).toBe(false);
  });

  it('says so when no feed is broken', async () => {
    feeds = [makeFeed({ id: 1, title: 'Tagesschau' })];
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    fireEvent.click(screen.getByRole('button', { name: 'Only broken feeds (0)' }));
    expect(screen.getByText('No broken feeds – every feed was fetched without a problem.')).toBeTruthy();
  });

  it('filterFeeds and isBroken', () => {
    const title = (f: ManagedFeed) => f.title;
    expect(filterFeeds(feeds, { query: '  tages ', brokenOnly: false }, title).map((f) => f.id)).toEqual([1]);
    expect(filterFeeds(feeds, { query: '', brokenOnly: true }, title).map((f) => f.id)).toEqual([2, 3]);
    expect(isBroken(makeFeed({ id: 9, last_error_code: '' }))).toBe(false);
  });
});

describe('always load the original', () => {
  it('switches per feed at once, sends PUT /api/feeds/:id, and goes back with a message when refused', async () => {
    let reply: [number, unknown] = [200, {}];
    const calls = server({
      'PUT /api/feeds/1': withBody<{ always_load_original: boolean }>((body) => {
        if (reply[0] === 200) feeds = feeds.map((f) => (f.id === 1 ? { ...f, always_load_original: body.always_load_original } : f));
        return reply;
      }),
    });
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    const toggle = within(row('Tagesschau')).getByRole('switch', { name: 'Always load the original: Tagesschau' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(within(row('Heise')).getByRole('switch', { name: 'Always load the original: Heise' }).getAttribute('aria-checked')).toBe('true');
    expect(within(row('Tagesschau')).getByText(/for feeds that send only teasers/)).toBeTruthy();

    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/feeds/1')?.body).toEqual({ always_load_original: true }));

    reply = [500, { message: 'boom', code: 'INTERNAL' }];
    const again = () => within(row('Tagesschau')).getByRole('switch', { name: 'Always load the original: Tagesschau' });
    await waitFor(() => expect((again() as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(again());
    expect(await within(row('Tagesschau')).findByText('The setting for “Tagesschau” could not be saved. Please try again.')).toBeTruthy();
    await waitFor(() => expect(again().getAttribute('aria-checked')).toBe('true'));
  });
});

describe('a long list', () => {
  let observers: { callback: IntersectionObserverCallback; target?: Element }[];
  beforeEach(() => {
    observers = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        entry: { callback: IntersectionObserverCallback; target?: Element };
        constructor(callback: IntersectionObserverCallback) {
          this.entry = { callback };
          observers.push(this.entry);
        }
        observe(target: Element) {
          this.entry.target = target;
        }
        disconnect() {
          observers = observers.filter((o) => o !== this.entry);
        }
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  // 2,000 feeds through the fake server and 150 rows in jsdom take a few seconds on a busy machine.
  it('renders 2,000 feeds a step at a time: more as the end comes near, or on "Show more"', { timeout: 30_000 }, async () => {
    feeds = Array.from({ length: 2000 }, (_, i) => makeFeed({ id: i + 1, title: `Feed ${i + 1}`, last_error_code: i % 100 === 0 ? 'HTTP_404' : null }));
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    // Plain DOM counts: role queries over hundreds of rows are slow in jsdom.
    const rendered = () => document.querySelectorAll('ul[aria-label="Your feeds"] > li').length;
    await screen.findByRole('list', { name: 'Your feeds' });
    expect(rendered()).toBe(FEED_ROWS_STEP);

    // The sentinel under the list comes into view.
    act(() => {
      const o = observers.at(-1)!;
      o.callback([{ isIntersecting: true, target: o.target! } as IntersectionObserverEntry], {} as IntersectionObserver);
    });
    expect(rendered()).toBe(2 * FEED_ROWS_STEP);
    fireEvent.click(screen.getByText(`Show more (${2000 - 2 * FEED_ROWS_STEP} left)`));
    expect(rendered()).toBe(3 * FEED_ROWS_STEP);

    // The filter searches all 2,000, not just the rendered rows.
    fireEvent.click(screen.getByText('Only broken feeds (20)'));
    expect(rendered()).toBe(20);
    expect(document.querySelector('ul[aria-label="Your feeds"] > li:last-child h3')?.textContent).toBe('Feed 1901');
  });
});
