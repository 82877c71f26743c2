import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Feed, Folder } from '../../../../common/api.js';
import { on, type AppEvent } from '../../../lib/events.js';
import { fakeServer, type Handler, renderAt, signedIn, setUpDashboardTestEnv, withBody } from '../../../test/dashboardHarness.js';
import { Sidebar } from '../../dashboard/index.js';
import { feedSummariesKey, feedsKey, unpackFeedSummaries, type FeedSummary } from '../../feeds/index.js';
import { makeFeed, summariesOf } from '../../../test/testFeeds.js';
import { foldersKey } from '../api.js';
import { buildLayout, moveFeed, moveFolder } from '../tree.js';
import { COLLAPSED_FOLDERS_KEY } from '../useCollapsedFolders.js';
import { useLayoutCommit } from '../useLayoutCommit.js';

const folder = (id: number, name: string, feeds: number[], sort_order = id): Folder => ({ id, name, feeds, sort_order, created_at: '2026-11-22T07:00:00.000Z' });
const feeds: Feed[] = [
  makeFeed({ id: 1, title: 'Tagesblick', folder_id: 10 }),
  makeFeed({ id: 2, title: 'Byte Sized', folder_id: 10 }),
  makeFeed({ id: 3, title: 'Quiet Digest', folder_id: 10, is_muted: true, muted_permanently: true }),
  makeFeed({ id: 4, title: 'Julia schreibt' }),
  makeFeed({ id: 5, title: 'Slow Kitchen' }),
];
const folders = [folder(10, 'News', [1, 2, 3]), folder(11, 'Later', [])];
const counts = { counts: { '1': 5, '2': 4, '4': 2 }, total: 11 };

function serve(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/feeds': () => [200, feeds],
    'GET /api/feeds/summaries': () => [200, summariesOf(feeds)],
    'GET /api/folders': () => [200, { folders }],
    'GET /api/feeds/unread_counts': () => [200, counts],
    'GET /api/reading-lists': () => [200, { reading_lists: [] }],
    ...extra,
  });
}

const nav = () => screen.getByRole('navigation', { name: /Main navigation|Hauptnavigation/ });

setUpDashboardTestEnv();

describe('sidebar folders (dashboard.md §2 "Sidebar", §4 "Folders")', () => {
  it('shows the folders with the sum of their unread counts, their feeds, then the feeds outside any folder', async () => {
    serve();
    await renderAt('/dashboard?feed=2', <Sidebar onClose={() => {}} />);
    // The folder's name opens its stream; its badge is the sum of its feeds' unread counts (5 + 4; the muted feed has none).
    const news = await within(nav()).findByRole('link', { name: /^News/ });
    expect(news.getAttribute('href')).toBe('/dashboard?folder=10');
    expect(news.getAttribute('title')).toBe('News');
    await waitFor(() => expect(news.textContent).toBe('News99 unread articles'));
    expect(within(nav()).getByRole('button', { name: 'Close folder News' }).getAttribute('aria-expanded')).toBe('true');
    const inFolder = [...document.querySelectorAll('li[data-group="10"]')];
    expect(inFolder.map((li) => li.querySelector('a')!.textContent)).toEqual(['TTagesblick55 unread articles', 'BByte Sized44 unread articles', 'QQuiet Digestmuted']);
    expect(
      within(nav())
        .getByRole('link', { name: /Byte Sized/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(
      within(nav())
        .getByRole('link', { name: /Byte Sized/ })
        .getAttribute('title'),
    ).toBe('Byte Sized');
    expect(
      within(nav())
        .getByRole('link', { name: /Quiet Digest/ })
        .getAttribute('data-muted'),
    ).toBe('true');
    // The empty folder says how to fill it; the root feeds follow the folders.
    expect(within(nav()).getByText('Empty – drag feeds here')).toBeTruthy();
    expect([...document.querySelectorAll('li[data-group="root"] a')].map((a) => a.getAttribute('href'))).toEqual(['/dashboard?feed=4', '/dashboard?feed=5']);
    // Every feed and folder has a named drag handle for the keyboard.
    expect(within(nav()).getByRole('button', { name: 'Move feed Julia schreibt' })).toBeTruthy();
    expect(within(nav()).getByRole('button', { name: 'Move folder News' })).toBeTruthy();
  });

  it('marks the open folder stream as current', async () => {
    serve();
    await renderAt('/dashboard?folder=10', <Sidebar onClose={() => {}} />);
    const news = await within(nav()).findByRole('link', { name: /^News/ });
    expect(news.getAttribute('aria-current')).toBe('page');
    expect(
      within(nav())
        .getByRole('link', { name: /All articles/ })
        .getAttribute('aria-current'),
    ).toBeNull();
  });

  it('marks a feed whose last fetch failed, with the error as its tooltip', async () => {
    fakeServer({
      'GET /api/feeds': () => [200, [makeFeed({ id: 7, title: 'Broken Blog', last_error_code: 'FETCH_DNS' }), makeFeed({ id: 8, title: 'Fine Blog' })]],
      'GET /api/feeds/summaries': () => [
        200,
        summariesOf([makeFeed({ id: 7, title: 'Broken Blog', last_error_code: 'FETCH_DNS' }), makeFeed({ id: 8, title: 'Fine Blog' })]),
      ],
      'GET /api/folders': () => [200, { folders: [] }],
      'GET /api/feeds/unread_counts': () => [200, counts],
      'GET /api/reading-lists': () => [200, { reading_lists: [] }],
    });
    await renderAt('/dashboard', <Sidebar onClose={() => {}} />);
    const broken = await within(nav()).findByRole('link', { name: /Broken Blog/ });
    expect(broken.getAttribute('title')).toBe('Broken Blog – The server name could not be found.');
    expect(within(broken).getByTestId('feed-error-marker').textContent).toBe('The server name could not be found.');
    expect(within(within(nav()).getByRole('link', { name: /Fine Blog/ })).queryByTestId('feed-error-marker')).toBeNull();
  });

  it('draws only the rows near the view of a long list', async () => {
    const many = Array.from({ length: 500 }, (_, i) => makeFeed({ id: 100 + i, title: `Feed ${i}` }));
    fakeServer({
      'GET /api/feeds': () => [200, many],
      'GET /api/feeds/summaries': () => [200, summariesOf(many)],
      'GET /api/folders': () => [200, { folders: [] }],
      'GET /api/feeds/unread_counts': () => [200, { counts: { '100': 3 }, total: 3 }],
      'GET /api/reading-lists': () => [200, { reading_lists: [] }],
    });
    await renderAt('/dashboard', <Sidebar onClose={() => {}} />);
    await within(nav()).findByRole('link', { name: /Feed 0/ });
    expect(screen.getByTestId('sidebar-feed-tree').getAttribute('data-rows')).toBe('500');
    const drawn = document.querySelectorAll('li[data-feed-id]').length;
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(100);
  });

  it('collapses and expands a folder by its chevron and remembers it across a reload', async () => {
    serve();
    const first = await renderAt('/dashboard', <Sidebar onClose={() => {}} />);
    const chevron = await within(nav()).findByRole('button', { name: 'Close folder News' });
    fireEvent.click(chevron);
    expect(within(nav()).getByRole('button', { name: 'Open folder News' }).getAttribute('aria-expanded')).toBe('false');
    expect(within(nav()).queryByRole('link', { name: /Tagesblick/ })).toBeNull();
    expect(JSON.parse(localStorage.getItem(COLLAPSED_FOLDERS_KEY)!)).toEqual([10]);
    first.unmount();

    await renderAt('/dashboard', <Sidebar onClose={() => {}} />);
    const again = await within(nav()).findByRole('button', { name: 'Open folder News' });
    expect(again.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(again);
    expect(await within(nav()).findByRole('link', { name: /Tagesblick/ })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(COLLAPSED_FOLDERS_KEY)!)).toEqual([]);
  });

  it('adds a folder from the "+" menu: the name is required and trimmed, a taken name is said in the dialog', async () => {
    const calls = serve({
      'POST /api/folders': withBody<{ name: string }>((body) =>
        body.name === 'News' ? [409, { message: 'exists', code: 'FOLDER_EXISTS' }] : [201, { folder: folder(12, body.name, []) }],
      ),
    });
    await renderAt('/dashboard', <Sidebar onClose={() => {}} />);
    fireEvent.click(within(nav()).getByRole('button', { name: 'Add feed or folder' }));
    const menu = screen.getByRole('menu', { name: 'Add feed or folder' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Add feed', 'Add folder']);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Add folder' }));
    const dialog = screen.getByRole('dialog', { name: 'New folder' });
    const input = within(dialog).getByLabelText('Name');

    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter a folder name.');
    expect(calls.some((c) => c.key === 'POST /api/folders')).toBe(false);

    fireEvent.change(input, { target: { value: 'News' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    expect(await within(dialog).findByText('A folder with this name exists already.')).toBeTruthy();

    const events: AppEvent[] = [];
    const off = on('folders-updated', () => events.push('folders-updated'));
    const toasts: string[] = [];
    const offToast = on<{ message: string }>('toast', (d) => toasts.push(d.message));
    fireEvent.change(input, { target: { value: '  Read later  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create folder' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New folder' })).toBeNull());
    expect(calls.filter((c) => c.key === 'POST /api/folders').at(-1)!.body).toEqual({ name: 'Read later' });
    expect(events).toEqual(['folders-updated']);
    expect(toasts).toEqual(['Folder “Read later” created']);
    off();
    offToast();
  });

  it('renames and deletes a folder from its menu; deleting says the feeds stay', async () => {
    await signedIn(undefined, 'de');
    const calls = serve({
      'PUT /api/folders/10': withBody<{ name: string }>((body) => [200, { folder: folder(10, body.name, [1, 2, 3]) }]),
      // (The server answers 204; jsdom's Response cannot carry a 204 with the fake server's empty body.)
      'DELETE /api/folders/10': () => [200],
    });
    await renderAt('/dashboard', <Sidebar onClose={() => {}} />);
    fireEvent.click(await within(nav()).findByRole('button', { name: 'Aktionen für Ordner News' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Umbenennen' }));
    const rename = screen.getByRole('dialog', { name: 'Ordner umbenennen' });
    const input = within(rename).getByLabelText<HTMLInputElement>('Name');
    expect(input.value).toBe('News');
    fireEvent.change(input, { target: { value: ' Nachrichten ' } });
    fireEvent.click(within(rename).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ordner umbenennen' })).toBeNull());
    expect(calls.find((c) => c.key === 'PUT /api/folders/10')!.body).toEqual({ name: 'Nachrichten' });

    fireEvent.click(within(nav()).getByRole('button', { name: 'Aktionen für Ordner News' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Löschen' }));
    const confirm = screen.getByRole('dialog', { name: 'Ordner löschen?' });
    expect(confirm.textContent).toContain('Den Ordner „News“ löschen?');
    expect(confirm.textContent).toContain('Seine 3 Feeds kommen zurück in die Feedliste; sie werden nicht gelöscht.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Ordner löschen' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'DELETE /api/folders/10')).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Ordner löschen?' })).toBeNull());
  });

  it('keeps the delete dialog open with the error when deleting fails', async () => {
    serve({ 'DELETE /api/folders/11': () => [500, { message: 'boom', code: 'X' }] });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderAt('/dashboard', <Sidebar onClose={() => {}} />);
    fireEvent.click(await within(nav()).findByRole('button', { name: 'Actions for folder Later' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete folder?' });
    expect(confirm.textContent).toContain('It holds no feeds.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete folder' }));
    expect(await within(confirm).findByText('The folder could not be deleted. Please try again.')).toBeTruthy();
  });
});

describe('drops (dashboard.md §4: optimistic, rolled back on failure; §8 toasts)', () => {
  function setup(extra: Record<string, Handler>) {
    const calls = serve(extra);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The sidebar draws the summaries; a screen may hold the full list as well, and both follow a drop.
    client.setQueryData(feedSummariesKey, unpackFeedSummaries(summariesOf(feeds)));
    client.setQueryData(feedsKey, feeds);
    client.setQueryData(foldersKey, folders);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useLayoutCommit(), { wrapper });
    const toasts: { message: string; tone: string }[] = [];
    offs.push(on<{ message: string; tone: string }>('toast', (d) => toasts.push(d)));
    return { calls, client, commit: result.current, toasts };
  }
  const offs: Array<() => void> = [];
  afterEach(() => offs.splice(0).forEach((off) => off()));
  const layout = buildLayout(feeds, folders);
  const folderOf = (client: QueryClient, id: number) => client.getQueryData<FeedSummary[]>(feedSummariesKey)!.find((f) => f.id === id)!.folder_id;
  const fullFolderOf = (client: QueryClient, id: number) => client.getQueryData<Feed[]>(feedsKey)!.find((f) => f.id === id)!.folder_id;

  it("moves a feed into a folder at once, then sends the move and the folder's new order", async () => {
    const { calls, client, commit, toasts } = setup({
      'POST /api/folders/11/feeds': () => [200, { folder: folder(11, 'Later', [4]), code: 'FEED_MOVED_TO_FOLDER', message: '' }],
    });
    const pending = commit(layout, moveFeed(layout, 4, 11), { feedId: 4 });
    // Optimistic: the caches already show it.
    expect(folderOf(client, 4)).toBe(11);
    expect(fullFolderOf(client, 4)).toBe(11);
    expect(client.getQueryData<Folder[]>(foldersKey)!.find((f) => f.id === 11)!.feeds).toEqual([4]);
    await act(() => pending);
    expect(calls.filter((c) => c.key.startsWith('POST')).map((c) => [c.key, c.body])).toEqual([['POST /api/folders/11/feeds', { feed_id: 4 }]]);
    expect(toasts).toEqual([{ message: '“Julia schreibt” moved to “Later”', tone: 'success' }]);
  });

  it('rolls a move back and says why when the server refuses it (404) or does not answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client, commit, toasts } = setup({
      'DELETE /api/folders/10/feeds/1': () => [404, { message: 'Folder not found.', code: 'FOLDER_NOT_FOUND' }],
    });
    const pending = commit(layout, moveFeed(layout, 1, 'root', 0), { feedId: 1 });
    expect(folderOf(client, 1)).toBeNull();
    await act(() => pending);
    expect(folderOf(client, 1)).toBe(10);
    expect(fullFolderOf(client, 1)).toBe(10);
    expect(client.getQueryData<Folder[]>(foldersKey)!.find((f) => f.id === 10)!.feeds).toEqual([1, 2, 3]);
    expect(toasts).toEqual([{ message: 'Feed or folder not found.', tone: 'error' }]);

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await act(() => commit(layout, moveFeed(layout, 5, 10, 0), { feedId: 5 }));
    expect(folderOf(client, 5)).toBeNull();
    expect(toasts.at(-1)).toEqual({ message: 'No response from the server. Please check your connection.', tone: 'error' });
  });

  it('reorders inside a group with one sort call and rolls the order back when it fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = false;
    const { calls, client, commit, toasts } = setup({ 'POST /api/feeds/sort': () => (fail ? [500, { message: 'x', code: 'X' }] : [200, []]) });
    await act(() => commit(layout, moveFeed(layout, 5, 'root', 0), { feedId: 5 }));
    expect(calls.find((c) => c.key === 'POST /api/feeds/sort')!.body).toEqual({ feed_order: [5, 4] });
    expect(client.getQueryData<FeedSummary[]>(feedSummariesKey)!.map((f) => [f.id, f.sort_order])).toEqual([
      [5, 0],
      [4, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(client.getQueryData<Feed[]>(feedsKey)!.map((f) => f.id)).toEqual([5, 4, 1, 2, 3]);
    expect(toasts.at(-1)).toEqual({ message: 'Feed order updated', tone: 'success' });

    fail = true;
    const before = client.getQueryData<FeedSummary[]>(feedSummariesKey);
    const current = buildLayout(before!, folders);
    const pending = commit(current, moveFeed(current, 2, 10, 0), { feedId: 2 });
    expect(client.getQueryData<FeedSummary[]>(feedSummariesKey)![0].id).toBe(2);
    await act(() => pending);
    expect(client.getQueryData<FeedSummary[]>(feedSummariesKey)).toEqual(before);
    expect(toasts.at(-1)).toEqual({ message: 'The feed order could not be saved. Please try again.', tone: 'error' });
  });

  it('reorders folders, and says "already in the folder" (info) for a feed dropped on its own folder', async () => {
    const { calls, client, commit, toasts } = setup({ 'POST /api/folders/sort': () => [200, { folders: [] }] });
    await act(() => commit(layout, moveFolder(layout, 1, 0)));
    expect(calls.find((c) => c.key === 'POST /api/folders/sort')!.body).toEqual({ folder_order: [11, 10] });
    expect(client.getQueryData<Folder[]>(foldersKey)!.map((f) => f.id)).toEqual([11, 10]);
    expect(toasts.at(-1)).toEqual({ message: 'Folder order updated', tone: 'success' });

    await act(() => commit(layout, layout, { feedId: 1, droppedOnFolder: 10 }));
    expect(toasts.at(-1)).toEqual({ message: '“Tagesblick” is already in “News”', tone: 'info' });
    expect(calls.filter((c) => c.key.startsWith('POST')).length).toBe(1);
  });
});
