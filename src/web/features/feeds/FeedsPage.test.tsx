import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Feed } from '../../../common/api.js';
import { fakeServer, renderAt, setUpDashboardTestEnv, withBody } from '../../test/dashboardHarness.js';
import FeedsPage from './FeedsPage.js';
import { makeFeed, summariesOf } from '../../test/testFeeds.js';

let feeds: Feed[];

function server(extra: Parameters<typeof fakeServer>[0] = {}) {
  return fakeServer({
    'GET /api/feeds': () => [200, feeds],
    'GET /api/feeds/summaries': () => [200, summariesOf(feeds)],
    'POST /api/feeds/sort': withBody<{ feed_order: number[] }>((body) => {
      feeds = body.feed_order.map((id, i) => ({ ...feeds.find((f) => f.id === id)!, sort_order: i }));
      return [200, feeds];
    }),
    ...extra,
  });
}

const rowTitles = () =>
  within(screen.getByRole('list', { name: 'Your feeds' }))
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

const row = (title: string) => screen.getByRole('heading', { level: 3, name: title }).closest('li')!;

async function chooseAction(title: string, action: string) {
  fireEvent.click(within(row(title)).getByRole('button', { name: `Actions for “${title}”` }));
  fireEvent.click(within(row(title)).getByRole('menuitem', { name: action }));
}

setUpDashboardTestEnv();
beforeEach(() => {
  feeds = [
    makeFeed({ id: 1, title: 'Tagesschau', description: 'Nachrichten aus Deutschland und der Welt.' }),
    makeFeed({ id: 2, title: 'Heise', is_muted: true, muted_permanently: true, last_error_code: 'FETCH_TIMEOUT' }),
    makeFeed({ id: 3, title: '', original_title: '' }),
  ];
});

describe('feed management screen (dashboard.md §2, §4, §5, §8)', () => {
  it('lists the feeds in order with URL, description, mute notice and the last refresh problem', async () => {
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    expect(document.title).toBe('Manage feeds · Feeder');
    await screen.findByRole('list', { name: 'Your feeds' });
    expect(rowTitles()).toEqual(['Tagesschau', 'Heise', 'Untitled feed']);
    const first = within(row('Tagesschau'));
    expect(first.getByText('https://example.org/1/feed.xml')).toBeTruthy();
    expect(first.getByText('Nachrichten aus Deutschland und der Welt.')).toBeTruthy();
    expect(within(row('Heise')).getByText('Muted permanently')).toBeTruthy();
    expect(within(row('Heise')).getByText('Last refresh failed: The server took too long to answer.')).toBeTruthy();
  });

  it('shows "muted until" in local time', async () => {
    feeds = [makeFeed({ id: 1, title: 'Tagesschau', is_muted: true, muted_until: '2026-11-22T18:30:00.000Z' })];
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    const expected = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-11-22T18:30:00Z'));
    expect(await screen.findByText(`Muted until ${expected}`)).toBeTruthy();
  });

  it('shows skeletons while loading and an error box with retry when loading fails', async () => {
    let fail = true;
    fakeServer({ 'GET /api/feeds': () => (fail ? [500, { message: 'x', code: 'X' }] : [200, feeds]) });
    const view = await renderAt('/dashboard/feeds', <FeedsPage />);
    expect(await screen.findByText('Your feeds could not be loaded. Check your connection and try again.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('list', { name: 'Your feeds' });
    view.unmount();
  });

  it('has an empty state with the add-feed button', async () => {
    feeds = [];
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    expect(await screen.findByText('No feeds yet')).toBeTruthy();
    expect(screen.getByText('Click “Add feed” to subscribe to your first feed.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add feed' }));
    expect(screen.getByRole('dialog', { name: 'Add feed' })).toBeTruthy();
  });

  it('reorders with the arrows: the first cannot go up, the last cannot go down; the new order is saved', async () => {
    const calls = server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move “Tagesschau” up' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move “Untitled feed” down' }).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Move “Tagesschau” down' }));
    await waitFor(() => expect(rowTitles()).toEqual(['Heise', 'Tagesschau', 'Untitled feed']));
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/feeds/sort')?.body).toEqual({ feed_order: [2, 1, 3] }));
    fireEvent.click(screen.getByRole('button', { name: 'Move “Untitled feed” up' }));
    await waitFor(() => expect(rowTitles()).toEqual(['Heise', 'Untitled feed', 'Tagesschau']));
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/feeds/sort').at(-1)?.body).toEqual({ feed_order: [2, 3, 1] }));
  });

  it('rolls the order back and says so when saving it fails', async () => {
    server({ 'POST /api/feeds/sort': () => [500, { message: 'x', code: 'X' }] });
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    fireEvent.click(screen.getByRole('button', { name: 'Move “Tagesschau” down' }));
    expect(await screen.findByText('The new order could not be saved. Please try again.')).toBeTruthy();
    expect(rowTitles()).toEqual(['Tagesschau', 'Heise', 'Untitled feed']);
  });

  it('offers unmute on a muted row and the filters on the others', async () => {
    const calls = server({ 'POST /api/feeds/2/unmute': () => [200, makeFeed({ id: 2 })] });
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    expect(within(row('Tagesschau')).getByRole('button', { name: 'Filters for “Tagesschau”' })).toBeTruthy();
    expect(within(row('Heise')).queryByRole('button', { name: 'Filters for “Heise”' })).toBeNull();
    fireEvent.click(within(row('Heise')).getByRole('button', { name: 'Unmute “Heise”' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/feeds/2/unmute')).toBe(true));

    fireEvent.click(within(row('Tagesschau')).getByRole('button', { name: 'Filters for “Tagesschau”' }));
    // The dialog names the feed from the summaries the dashboard holds (loaded here with the page).
    expect(await screen.findByRole('dialog', { name: 'Filters for “Tagesschau”' })).toBeTruthy();
  });

  it('has an actions menu with mute, filters, edit, refresh and delete', async () => {
    server();
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    fireEvent.click(within(row('Tagesschau')).getByRole('button', { name: 'Actions for “Tagesschau”' }));
    const menu = within(row('Tagesschau')).getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Mute', 'Manage filters', 'Edit', 'Refresh now', 'Delete']);
    expect(document.activeElement?.textContent).toBe('Mute');
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(within(row('Tagesschau')).queryByRole('menu')).toBeNull();

    await chooseAction('Heise', 'Unmute');
    await chooseAction('Tagesschau', 'Mute');
    expect(screen.getByRole('dialog', { name: 'Mute feed' })).toBeTruthy();
  });

  it('renames inline: the original title is shown, save shows a confirmation for 3 s, empty falls back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = server({
      'POST /api/feeds/set_custom_title': withBody<{ feed_id: number; custom_title: string }>((body) => {
        feeds = feeds.map((f) => (f.id === body.feed_id ? { ...f, custom_title: body.custom_title || null, title: body.custom_title || f.original_title } : f));
        return [200, feeds[0]];
      }),
    });
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    await chooseAction('Tagesschau', 'Edit');
    const input = screen.getByLabelText('Custom title');
    expect(document.activeElement).toBe(input);
    expect(screen.getByText('Original title: Tagesschau')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Custom title')).toBeNull();

    await chooseAction('Tagesschau', 'Edit');
    fireEvent.change(screen.getByLabelText('Custom title'), { target: { value: ' Nachrichten ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The feed title was saved.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/feeds/set_custom_title')?.body).toEqual({ feed_id: 1, custom_title: 'Nachrichten' });
    await waitFor(() => expect(rowTitles()[0]).toBe('Nachrichten'));
    await act(() => vi.advanceTimersByTimeAsync(3100));
    expect(screen.queryByText('The feed title was saved.')).toBeNull();

    await chooseAction('Nachrichten', 'Edit');
    fireEvent.change(screen.getByLabelText('Custom title'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(rowTitles()[0]).toBe('Tagesschau'));
  });

  it('deletes after confirmation and shows a failure inside the dialog', async () => {
    let fail = true;
    server({
      'DELETE /api/feeds/1': () => {
        if (fail) return [500, { message: 'x', code: 'X' }];
        feeds = feeds.filter((f) => f.id !== 1);
        return [200];
      },
    });
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    await chooseAction('Tagesschau', 'Delete');
    const dialog = screen.getByRole('dialog', { name: 'Delete feed' });
    expect(within(dialog).getByText(/Do you really want to delete “Tagesschau”\?/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete feed' }));
    expect(await within(dialog).findByText('Error deleting the feed. Please try again.')).toBeTruthy();

    fail = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete feed' }));
    expect(await screen.findByText('“Tagesschau” was deleted.')).toBeTruthy();
    await waitFor(() => expect(rowTitles()).toEqual(['Heise', 'Untitled feed']));
  });

  it('refreshes a feed now', async () => {
    const calls = server({ 'POST /api/feeds/1/refresh': () => [202, { queued: true }] });
    await renderAt('/dashboard/feeds', <FeedsPage />);
    await screen.findByRole('list', { name: 'Your feeds' });
    await chooseAction('Tagesschau', 'Refresh now');
    expect(await screen.findByText('“Tagesschau” is being refreshed now.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/feeds/1/refresh')).toBe(true);
  });
});
