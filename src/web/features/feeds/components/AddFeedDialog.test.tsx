import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { on } from '../../../lib/events.js';
import { fakeServer, OpenDialog, renderAt, setUpDashboardTestEnv, withBody } from '../../../test/dashboardHarness.js';
import { makeFeed } from '../../../test/testFeeds.js';
import { AddFeedDialog } from './AddFeedDialog.js';

function Harness({ onSubscribed }: { onSubscribed?: () => void }) {
  return <OpenDialog>{(open, close) => <AddFeedDialog open={open} onClose={close} onSubscribed={onSubscribed} />}</OpenDialog>;
}

const results = [
  { title: 'Example News', url: 'https://example.org/news.xml', favicon_url: null, subscribed: false },
  { title: 'Example Comments', url: 'https://example.org/comments.xml', favicon_url: null, subscribed: true },
];

async function search(url: string) {
  const input = screen.getByLabelText('Address of a website or a feed');
  fireEvent.change(input, { target: { value: url } });
  // Enter in the field submits the search form.
  fireEvent.submit(input.closest('form')!);
}

setUpDashboardTestEnv();

describe('add-feed dialog, search tab (dashboard.md §2, §4, §8)', () => {
  it('opens on the search tab, with the examples hint; the catalog is the second tab', async () => {
    fakeServer({});
    await renderAt('/dashboard', <Harness />);
    const dialog = screen.getByRole('dialog', { name: 'Add feed' });
    const tabs = within(dialog).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Search', 'Feed catalog']);
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false']);
    expect(within(dialog).getByRole('tabpanel', { name: 'Search' })).toBeTruthy();
    expect(within(dialog).getByText(/For example:/)).toBeTruthy();
  });

  it('refuses an empty URL without calling the server', async () => {
    const calls = fakeServer({});
    await renderAt('/dashboard', <Harness />);
    await search('   ');
    expect(await screen.findByText('Please enter a URL.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/feeds/search')).toBe(false);
  });

  it.each([
    [400, 'INVALID_URL', 'Invalid URL. Please check the address.'],
    [404, 'FEED_NOT_FOUND', 'Feed not found.'],
    [502, 'FETCH_CONNECTION', 'Error while searching. Please try again. The server could not be reached.'],
    [500, 'INTERNAL_ERROR', 'Error while searching. Please try again.'],
  ])('answers a %s from the search with its message', async (status, code, text) => {
    fakeServer({ 'POST /api/feeds/search': () => [status, { message: 'x', code }] });
    await renderAt('/dashboard', <Harness />);
    await search('example.org');
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('warns when nothing was found', async () => {
    fakeServer({ 'POST /api/feeds/search': () => [200, { feeds: [] }] });
    await renderAt('/dashboard', <Harness />);
    await search('example.org');
    expect(await screen.findByText('No feeds found. Try the address of the feed itself.')).toBeTruthy();
  });

  it('lists the results, marks subscribed ones, goes back to the URL, and subscribes then closes', async () => {
    const calls = fakeServer({
      'POST /api/feeds/search': () => [200, { feeds: results }],
      'POST /api/feeds': withBody<{ url: string }>((body) => [201, { ...makeFeed({ id: 9, title: 'Example News', url: body.url }), is_new: true }]),
    });
    const events: string[] = [];
    const off = on('feeds-updated', () => events.push('feeds-updated'));
    const subscribed = vi.fn();
    await renderAt('/dashboard', <Harness onSubscribed={subscribed} />);
    await search('  example.org ');
    expect(calls.find((c) => c.key === 'POST /api/feeds/search')?.body).toEqual({ url: 'example.org' });

    const list = await screen.findByRole('list', { name: '2 feeds found' });
    expect(within(list).getByText('Example News')).toBeTruthy();
    expect(within(list).getByText('Subscribed')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText<HTMLInputElement>('Address of a website or a feed').value).toBe('example.org');
    await search('example.org');
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to “Example News”' }));

    await waitFor(() => expect(screen.getByText('is closed')).toBeTruthy());
    expect(calls.find((c) => c.key === 'POST /api/feeds')?.body).toEqual({ url: 'https://example.org/news.xml' });
    expect(subscribed).toHaveBeenCalledWith(expect.objectContaining({ id: 9, is_new: true }));
    expect(events).toEqual(['feeds-updated']);
    off();
  });

  it('says the feed exists on 409 and stays open; other failures give the add error', async () => {
    let answer: [number, unknown] = [409, { message: 'exists', code: 'FEED_EXISTS' }];
    fakeServer({ 'POST /api/feeds/search': () => [200, { feeds: results }], 'POST /api/feeds': () => answer });
    await renderAt('/dashboard', <Harness />);
    await search('example.org');
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to “Example News”' }));
    expect(await screen.findByText('You already subscribe to this feed.')).toBeTruthy();
    expect(screen.getByText('is open')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await search('example.org');
    answer = [500, { message: 'boom', code: 'INTERNAL' }];
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to “Example News”' }));
    expect(await screen.findByText('Error adding the feed. Please try again.')).toBeTruthy();
    // The entry can be tried again.
    expect(screen.getByRole('button', { name: 'Subscribe to “Example News”' })).toBeTruthy();
  });

  it('keeps the dialog open while several feeds are on offer, marking each subscribed, until the last one', async () => {
    const offered = [
      { title: 'Example News', url: 'https://example.org/news.xml', favicon_url: null, subscribed: false },
      { title: 'Example Podcast', url: 'https://example.org/podcast.xml', favicon_url: null, subscribed: false },
      { title: 'Example Comments', url: 'https://example.org/comments.xml', favicon_url: null, subscribed: false },
    ];
    let id = 20;
    const calls = fakeServer({
      'POST /api/feeds/search': () => [200, { feeds: offered }],
      'POST /api/feeds': withBody<{ url: string }>((body) => [201, { ...makeFeed({ id: ++id, url: body.url }), is_new: true }]),
    });
    const subscribed = vi.fn();
    await renderAt('/dashboard', <Harness onSubscribed={subscribed} />);
    await search('example.org');
    expect(await screen.findByText('This page offers several feeds: subscribe to as many as you like.')).toBeTruthy();

    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to “Example News”' }));
    expect(await screen.findByText('1 feed subscribed')).toBeTruthy();
    expect(screen.getByText('is open')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to “Example Podcast”' }));
    expect(await screen.findByText('2 feeds subscribed')).toBeTruthy();
    const list = screen.getByRole('list', { name: '3 feeds found' });
    expect(within(list).getAllByText('Subscribed')).toHaveLength(2);
    expect(screen.getByText('is open')).toBeTruthy();

    // The last feed left closes the dialog, as a single result does.
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to “Example Comments”' }));
    await waitFor(() => expect(screen.getByText('is closed')).toBeTruthy());
    expect(calls.filter((c) => c.key === 'POST /api/feeds').map((c) => (c.body as { url: string }).url)).toEqual(offered.map((f) => f.url));
    expect(subscribed).toHaveBeenCalledTimes(3);
  });

  it('closes with "Done" after some of several feeds', async () => {
    fakeServer({
      'POST /api/feeds/search': () => [200, { feeds: results.map((r) => ({ ...r, subscribed: false })) }],
      'POST /api/feeds': withBody<{ url: string }>((body) => [201, { ...makeFeed({ id: 5, url: body.url }), is_new: true }]),
    });
    await renderAt('/dashboard', <Harness />);
    await search('example.org');
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to “Example News”' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
    expect(screen.getByText('is closed')).toBeTruthy();
  });

  it('starts afresh when opened again', async () => {
    fakeServer({ 'POST /api/feeds/search': () => [200, { feeds: results }] });
    await renderAt('/dashboard', <Harness />);
    await search('example.org');
    await screen.findByRole('list', { name: '2 feeds found' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText('is closed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'open dialog' }));
    expect(screen.getByLabelText<HTMLInputElement>('Address of a website or a feed').value).toBe('');
    expect(screen.queryByRole('list', { name: '2 feeds found' })).toBeNull();
  });
});
