import { act, cleanup, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReadingList } from '../../../../common/api.js';
import { emit } from '../../../lib/events.js';
import { fakeServer, type Handler, renderAt, setUpDashboardTestEnv, withBody } from '../../../test/dashboardHarness.js';
import { summariesOf } from '../../../test/testFeeds.js';
import { readingListsKey, readingListUnreadKey, useReadingListUnread, useSortReadingLists } from '../api.js';
import { makeList, type SentReadingList } from '../../../test/testLists.js';
import { activeListId, ReadingListsSection } from './ReadingListsSection.js';

let lists: ReadingList[];
let unread: Array<{ id: number; unread_article_count: number }>;

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/feeds': () => [200, []],
    'GET /api/feeds/summaries': () => [200, summariesOf([])],
    'GET /api/reading-lists': () => [200, { reading_lists: lists }],
    'GET /api/reading-lists/unread_counts': () => [200, { unread_counts: unread }],
    ...extra,
  });
}

setUpDashboardTestEnv();
beforeEach(() => {
  lists = [makeList({ id: 1, name: 'Read later' }), makeList({ id: 2, name: 'AI &lt;3', is_smart: true })];
  unread = [
    { id: 1, unread_article_count: 4 },
    { id: 2, unread_article_count: 0 },
  ];
});

const section = () => screen.getByRole('region', { name: 'Reading lists' });

describe('reading-lists section (dashboard.md §2 "Sidebar")', () => {
  it('lists each list with a link, the smart marker and the unread badge', async () => {
    server();
    await renderAt('/dashboard', <ReadingListsSection />);
    const link = await within(section()).findByRole('link', { name: /Read later/ });
    expect(link.getAttribute('href')).toBe('/dashboard/reading-list/1');
    await waitFor(() => expect(link.textContent).toContain('4'));
    expect(within(link).getByText('4 unread articles')).toBeTruthy();
    // The escaped name is shown as typed; the smart list says it is smart and has no badge at 0.
    const smart = within(section()).getByRole('link', { name: /AI <3/ });
    expect(smart.textContent).toContain('(smart list)');
    expect(smart.querySelector('[data-testid="unread-badge"]')).toBeNull();
  });

  it('collapses and expands, and opens by itself when a list is in view', async () => {
    server();
    await renderAt('/dashboard', <ReadingListsSection />);
    await within(section()).findByRole('link', { name: /Read later/ });
    const toggle = within(section()).getByRole('button', { name: 'Reading lists' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(section()).queryByRole('link', { name: /Read later/ })).toBeNull();
    cleanup();

    // Collapsed is remembered, but a list in view opens the section again.
    server();
    await renderAt('/dashboard/reading-list/2', <ReadingListsSection />);
    const again = within(section()).getByRole('button', { name: 'Reading lists' });
    expect(again.getAttribute('aria-expanded')).toBe('true');
    const active = await within(section()).findByRole('link', { name: /AI <3/ });
    expect(active.getAttribute('aria-current')).toBe('page');
  });

  it('each badge reads its own number: a count change re-renders the badges whose number changed, nothing else', async () => {
    server();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(
      readingListUnreadKey,
      new Map([
        [1, 4],
        [2, 0],
      ]),
    );
    const renders = { 1: 0, 2: 0 };
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const one = renderHook(() => (renders[1]++, useReadingListUnread(1)), { wrapper });
    const two = renderHook(() => (renders[2]++, useReadingListUnread(2)), { wrapper });
    expect([one.result.current, two.result.current]).toEqual([4, 0]);
    const before = { ...renders };
    act(() => {
      client.setQueryData(
        readingListUnreadKey,
        new Map([
          [1, 3],
          [2, 0],
        ]),
      );
    });
    await waitFor(() => expect(one.result.current).toBe(3));
    expect(renders[1]).toBeGreaterThan(before[1]);
    expect(renders[2]).toBe(before[2]);
    expect(two.result.current).toBe(0);
  });

  it('refreshes the badges when unread counts change (app events)', async () => {
    server();
    await renderAt('/dashboard', <ReadingListsSection />);
    const link = await within(section()).findByRole('link', { name: /Read later/ });
    await waitFor(() => expect(link.textContent).toContain('4'));
    unread = [{ id: 1, unread_article_count: 7 }];
    act(() => emit('force-unread-update'));
    await waitFor(() => expect(link.textContent).toContain('7'));
    lists = [...lists, makeList({ id: 3, name: 'New one' })];
    act(() => emit('reading-lists-updated'));
    expect(await within(section()).findByRole('link', { name: /New one/ })).toBeTruthy();
  });

  it('"+" opens the dialog for a new list and goes to the list once created', async () => {
    const calls = server({
      'POST /api/reading-lists': withBody<SentReadingList>((body) => [201, { reading_list: makeList({ id: 9, ...body }) }]),
    });
    await renderAt('/dashboard', <ReadingListsSection />);
    fireEvent.click(within(section()).getByRole('button', { name: 'New reading list' }));
    const dialog = screen.getByRole('dialog', { name: 'New reading list' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Weekend' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard/reading-list/9'));
    expect(calls.find((c) => c.key === 'POST /api/reading-lists')?.body).toEqual({ name: 'Weekend', description: '', is_smart: false, rules: [] });
  });

  it('edits a list from its menu', async () => {
    server();
    await renderAt('/dashboard', <ReadingListsSection />);
    await within(section()).findByRole('link', { name: /AI <3/ });
    fireEvent.click(within(section()).getByRole('button', { name: 'Actions for “AI <3”' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit reading list' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').value).toBe('AI <3');
    // A smart list opens on its rules (§2).
    expect(within(dialog).getByRole('tab', { name: 'Smart rules' }).getAttribute('aria-selected')).toBe('true');
  });

  it('deletes after a confirm that says it cannot be undone; the list in view leads to /dashboard', async () => {
    const calls = server({
      'DELETE /api/reading-lists/1': () => {
        lists = lists.filter((l) => l.id !== 1);
        return [200];
      },
    });
    await renderAt('/dashboard/reading-list/1', <ReadingListsSection />);
    await within(section()).findByRole('link', { name: /Read later/ });
    fireEvent.click(within(section()).getByRole('button', { name: 'Actions for “Read later”' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete reading list' });
    expect(dialog.textContent).toContain('This action cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(calls.some((c) => c.key === 'DELETE /api/reading-lists/1')).toBe(true);
    await waitFor(() => expect(within(section()).queryByRole('link', { name: /Read later/ })).toBeNull());
  });

  it('shows the delete failure in the dialog and stays', async () => {
    server({ 'DELETE /api/reading-lists/1': () => [500, { message: 'boom' }] });
    await renderAt('/dashboard/reading-list/1', <ReadingListsSection />);
    await within(section()).findByRole('link', { name: /Read later/ });
    fireEvent.click(within(section()).getByRole('button', { name: 'Actions for “Read later”' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete reading list' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('The reading list could not be deleted.')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/reading-list/1');
  });

  it('offers a grip per list for keyboard reordering', async () => {
    server();
    await renderAt('/dashboard', <ReadingListsSection />);
    const grip = await within(section()).findByRole('button', { name: 'Move “Read later”' });
    expect(grip.getAttribute('aria-roledescription')).toBe('sortable');
  });
});

describe('reordering (dashboard.md §4: optimistic, rolled back on failure)', () => {
  function wrapper(client: QueryClient) {
    return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  }

  it('applies the new order at once and sends it', async () => {
    const calls = server({ 'POST /api/reading-lists/sort': () => [200, {}] });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(readingListsKey, lists);
    const { result } = renderHook(() => useSortReadingLists(), { wrapper: wrapper(client) });
    let ok: boolean | undefined;
    const pending = result.current([2, 1]).then((v) => (ok = v));
    expect(client.getQueryData<ReadingList[]>(readingListsKey)!.map((l) => l.id)).toEqual([2, 1]);
    await act(() => pending);
    expect(ok).toBe(true);
    expect(calls.find((c) => c.key === 'POST /api/reading-lists/sort')?.body).toEqual({ reading_list_order: [2, 1] });
  });

  it('puts the old order back when the server refuses', async () => {
    server({ 'POST /api/reading-lists/sort': () => [500, { message: 'no' }] });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(readingListsKey, lists);
    const { result } = renderHook(() => useSortReadingLists(), { wrapper: wrapper(client) });
    let ok: boolean | undefined;
    await act(async () => {
      ok = await result.current([2, 1]);
    });
    expect(ok).toBe(false);
    expect(client.getQueryData<ReadingList[]>(readingListsKey)!.map((l) => l.id)).toEqual([1, 2]);
  });
});

describe('activeListId', () => {
  it('reads numeric ids of list paths only', () => {
    expect(activeListId('/dashboard/reading-list/12')).toBe(12);
    expect(activeListId('/dashboard/reading-list/abc')).toBeNull();
    expect(activeListId('/dashboard')).toBeNull();
  });
});
