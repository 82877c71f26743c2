import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogCategory } from '../../../../../common/api.js';
import { emit, on } from '../../../../lib/events.js';
import { fakeServer, OpenDialog, renderAt, signedIn, testUser, setUpDashboardTestEnv } from '../../../../test/dashboardHarness.js';
import type { Call } from '../../../../test/fakeServer.js';
import { makeFeed } from '../../../../test/testFeeds.js';
import { AddFeedDialog } from '../AddFeedDialog.js';

/**
 * The add-feed dialog's catalog tab (dashboard.md §2 "Feed catalog", §4, §5, §8 "Subscribe"). Its "subscribed" markers
 * come from GET /api/catalog/subscribed, never from the full feed list (docs/decisions.md "The catalog's subscribed
 * entries").
 */
const categories: CatalogCategory[] = [
  {
    id: 'international',
    name: 'Internationale Nachrichten',
    nameEn: 'International News',
    feeds: [
      { title: 'BBC News – World', xmlUrl: 'https://feeds.bbci.co.uk/news/world/rss.xml', language: 'EN' },
      { title: 'tagesschau.de', xmlUrl: 'https://www.tagesschau.de/index~rss2.xml', language: 'DE' },
      { title: 'Le Monde in English', xmlUrl: 'https://www.lemonde.fr/en/rss/une.xml', language: 'EN' },
    ],
  },
  {
    id: 'science',
    name: 'Wissenschaft',
    nameEn: 'Science',
    feeds: [
      { title: 'Nature', xmlUrl: 'https://www.nature.com/nature.rss', language: 'EN' },
      { title: 'ESA – Space Science', xmlUrl: 'https://www.esa.int/rssfeed/Our_Activities/Space_Science', language: null },
    ],
  },
  { id: 'sport', name: 'Sport', nameEn: 'Sport', feeds: [{ title: 'MARCA', xmlUrl: 'https://e00-marca.uecdn.es/rss/portada.xml', language: 'ES' }] },
];

function Harness() {
  return <OpenDialog>{(open, close) => <AddFeedDialog open={open} onClose={close} />}</OpenDialog>;
}

const TAGESSCHAU = 'https://www.tagesschau.de/index~rss2.xml';

function server(extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    'GET /api/catalog': () => [200, { categories }],
    // The user reads tagesschau already: the server names the catalog's address.
    'GET /api/catalog/subscribed': () => [200, { subscribed: [TAGESSCHAU] }],
    ...extra,
  });
}

/** The feed lists are never asked for: the catalog's markers cost one small answer at any number of feeds. */
const feedListCalls = (calls: Call[]) => calls.filter((c) => /^GET \/api\/feeds(\/summaries)?(\?|$)/.test(c.key));

/** Holds the answers to GET /api/catalog/subscribed back until release() (the fake server answers at once). */
function holdSubscribed() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    if (path === '/api/catalog/subscribed') await gate;
    return answer(path, init);
  });
  return () => act(async () => release());
}

async function openCatalog() {
  await renderAt('/dashboard', <Harness />);
  fireEvent.click(screen.getByRole('tab', { name: 'Feed catalog' }));
  return screen.findByRole('button', { name: /International News/ });
}

const tile = (name: RegExp) => screen.getByRole<HTMLButtonElement>('button', { name });

setUpDashboardTestEnv();

describe('add-feed dialog, catalog tab', () => {
  it('is a proper tab: arrow keys move between the tabs, the inactive one is out of the tab order', async () => {
    server();
    await renderAt('/dashboard', <Harness />);
    const search = screen.getByRole('tab', { name: 'Search' });
    fireEvent.keyDown(search, { key: 'ArrowRight' });
    const catalog = screen.getByRole('tab', { name: 'Feed catalog' });
    expect(catalog.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(catalog);
    expect(search.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByRole('tabpanel', { name: 'Feed catalog' })).toBeTruthy();
    fireEvent.keyDown(catalog, { key: 'Home' });
    expect(screen.getByRole('tab', { name: 'Search' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows the categories with their feed counts; the language filter changes counts and disables empty ones', async () => {
    const calls = server();
    await openCatalog();
    expect(calls.filter((c) => c.key === 'GET /api/catalog')).toHaveLength(1);
    expect(tile(/International News/).textContent).toContain('3 feeds');
    expect(tile(/Science/).textContent).toContain('2 feeds');
    expect(tile(/Sport/).disabled).toBe(false);

    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'DE' } });
    expect(tile(/International News/).textContent).toContain('1 feed');
    // ESA has no language, so it counts under German too.
    expect(tile(/Science/).textContent).toContain('1 feed');
    expect(tile(/Sport/).disabled).toBe(true);
    expect(tile(/Sport/).textContent).toContain('0 feeds');
  });

  it('opens a category, marks what the user reads already, and goes back to the tiles', async () => {
    const calls = server();
    await openCatalog();
    fireEvent.click(tile(/International News/));
    expect(screen.getByRole('heading', { name: 'International News' })).toBeTruthy();
    const list = screen.getByRole('list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    // Marked from the first frame the list is shown: the tab waited for the server's answer.
    expect(within(list).getByText(/Subscribed/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Subscribe to “BBC News – World”' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Subscribe to “tagesschau.de”' })).toBeNull();
    expect(calls.filter((c) => c.key === 'GET /api/catalog/subscribed')).toHaveLength(1);
    expect(feedListCalls(calls)).toEqual([]);

    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'EN' } });
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'All categories' }));
    expect(document.activeElement).toBe(tile(/International News/));
  });

  it('searches across all categories by title or address, case-insensitively, within the language', async () => {
    server();
    await openCatalog();
    const box = screen.getByLabelText('Search the catalog');
    fireEvent.change(box, { target: { value: 'SCIENCE' } });
    expect(screen.getByText('1 feed found')).toBeTruthy();
    expect(screen.getByText('ESA – Space Science')).toBeTruthy();

    fireEvent.change(box, { target: { value: 'rss' } });
    expect(screen.getByText('6 feeds found')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'DE' } });
    expect(screen.getByText('2 feeds found')).toBeTruthy();

    fireEvent.change(box, { target: { value: 'nothing like this' } });
    expect(screen.getByText('No feed in the catalog matches your search.')).toBeTruthy();
    fireEvent.change(box, { target: { value: '' } });
    expect(tile(/International News/)).toBeTruthy();
  });

  it('subscribes from the catalog and stays open; 409 marks it subscribed; other errors as in §8', async () => {
    let answer: [number, unknown] = [201, { ...makeFeed({ id: 5, title: 'Nature', url: 'https://www.nature.com/nature.rss' }), is_new: true }];
    const calls = server({ 'POST /api/feeds': () => answer });
    const events: string[] = [];
    const off = on('feeds-updated', () => events.push('feeds-updated'));
    await openCatalog();
    fireEvent.click(tile(/Science/));

    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to “Nature”' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Subscribe to “Nature”' })).toBeNull());
    expect(calls.find((c) => c.key === 'POST /api/feeds')?.body).toEqual({ url: 'https://www.nature.com/nature.rss' });
    expect(screen.getByText('is open')).toBeTruthy();
    expect(events).toContain('feeds-updated');

    answer = [409, { message: 'exists', code: 'FEED_EXISTS' }];
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to “ESA – Space Science”' }));
    expect(await screen.findByText('You already subscribe to this feed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Subscribe to “ESA – Space Science”' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'All categories' }));
    fireEvent.click(tile(/International News/));
    answer = [400, { message: 'bad', code: 'INVALID_URL' }];
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to “BBC News – World”' }));
    expect(await screen.findByText('Invalid URL. Please check the address.')).toBeTruthy();
    answer = [502, { message: 'down', code: 'FETCH_CONNECTION' }];
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to “BBC News – World”' }));
    expect(await screen.findByText('Error adding the feed. Please try again.')).toBeTruthy();
    off();
  });

  it('shows no entry until the markers are known, also when opened again: none flashes a button it should not have', async () => {
    let subscribed = [TAGESSCHAU];
    const calls = server({ 'GET /api/catalog/subscribed': () => [200, { subscribed }] });
    await openCatalog();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    // The markers left the cache with the tab (the query's garbage collection runs on a zero timer).
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));

    // Meanwhile the user left tagesschau and took up BBC World; the catalog itself is still cached.
    subscribed = ['https://feeds.bbci.co.uk/news/world/rss.xml'];
    const release = holdSubscribed();
    fireEvent.click(screen.getByRole('button', { name: 'open dialog' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Feed catalog' }));
    expect(screen.getByLabelText('Loading the catalog')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /International News/ })).toBeNull();
    fireEvent.change(screen.getByLabelText('Search the catalog'), { target: { value: 'rss' } });
    expect(screen.queryByRole('button', { name: /^Subscribe to/ })).toBeNull();
    expect(screen.queryByText(/Subscribed/)).toBeNull();

    await release();
    expect(await screen.findByText('6 feeds found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Subscribe to “tagesschau.de”' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Subscribe to “BBC News – World”' })).toBeNull();
    expect(calls.filter((c) => c.key === 'GET /api/catalog')).toHaveLength(1);
    expect(feedListCalls(calls)).toEqual([]);
  });

  it('follows subscribing and unsubscribing elsewhere: the markers are asked for again on feeds-updated', async () => {
    let subscribed = [TAGESSCHAU];
    const calls = server({ 'GET /api/catalog/subscribed': () => [200, { subscribed }] });
    await openCatalog();
    fireEvent.click(tile(/International News/));
    expect(screen.getByRole('button', { name: 'Subscribe to “BBC News – World”' })).toBeTruthy();

    // Subscribed to BBC World (e.g. by URL in a reader app, then the feed list refreshed), tagesschau left.
    subscribed = ['https://feeds.bbci.co.uk/news/world/rss.xml'];
    act(() => emit('feeds-updated'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Subscribe to “BBC News – World”' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Subscribe to “tagesschau.de”' })).toBeTruthy();
    expect(calls.filter((c) => c.key === 'GET /api/catalog/subscribed')).toHaveLength(2);
    expect(feedListCalls(calls)).toEqual([]);
  });

  it('names categories in German in the German interface, and starts afresh when opened again', async () => {
    const calls = server();
    await signedIn(testUser, 'de');
    await renderAt('/dashboard', <Harness />);
    fireEvent.click(screen.getByRole('tab', { name: 'Feed-Katalog' }));
    expect(await screen.findByRole('button', { name: /Internationale Nachrichten/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Wissenschaft/ }));
    expect(screen.getByRole('heading', { name: 'Wissenschaft' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Schließen' }));
    fireEvent.click(screen.getByRole('button', { name: 'open dialog' }));
    expect(screen.getByRole('tab', { name: 'Suche' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Feed-Katalog' }));
    expect(await screen.findByRole('button', { name: /Internationale Nachrichten/ })).toBeTruthy();
    // The catalog is kept for the session; the markers are asked for again, as they may have changed meanwhile.
    expect(calls.filter((c) => c.key === 'GET /api/catalog')).toHaveLength(1);
    expect(calls.filter((c) => c.key === 'GET /api/catalog/subscribed')).toHaveLength(2);
  });

  it('says so when the catalog cannot be loaded, and tries again', async () => {
    let ok = false;
    server({ 'GET /api/catalog': () => (ok ? [200, { categories }] : [500, { message: 'boom', code: 'INTERNAL_ERROR' }]) });
    await renderAt('/dashboard', <Harness />);
    fireEvent.click(screen.getByRole('tab', { name: 'Feed catalog' }));
    expect(await screen.findByText('The catalog could not be loaded.')).toBeTruthy();
    ok = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: /International News/ })).toBeTruthy();
  });

  it('says so when the markers cannot be loaded (rather than showing none), and tries again', async () => {
    let ok = false;
    const calls = server({
      'GET /api/catalog/subscribed': () => (ok ? [200, { subscribed: [TAGESSCHAU] }] : [500, { message: 'boom', code: 'INTERNAL_ERROR' }]),
    });
    await renderAt('/dashboard', <Harness />);
    fireEvent.click(screen.getByRole('tab', { name: 'Feed catalog' }));
    expect(await screen.findByText('The catalog could not be loaded.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /International News/ })).toBeNull();
    ok = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    fireEvent.click(await screen.findByRole('button', { name: /International News/ }));
    expect(screen.queryByRole('button', { name: 'Subscribe to “tagesschau.de”' })).toBeNull();
    // Only the failed answer was asked for again.
    expect(calls.filter((c) => c.key === 'GET /api/catalog')).toHaveLength(1);
    expect(calls.filter((c) => c.key === 'GET /api/catalog/subscribed')).toHaveLength(2);
  });
});
