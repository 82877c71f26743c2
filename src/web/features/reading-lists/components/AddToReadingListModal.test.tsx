import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ArticleReadingListRef, ReadingList } from '../../../../common/api.js';
import { on } from '../../../lib/events.js';
import { fakeServer, type Handler, renderAt, setUpDashboardTestEnv, withBody } from '../../../test/dashboardHarness.js';
import { summariesOf } from '../../../test/testFeeds.js';
import { makeList, type SentReadingList } from '../../../test/testLists.js';
import { AddToReadingListModal, MESSAGE_MS } from './AddToReadingListModal.js';

let lists: ReadingList[];
let refs: ArticleReadingListRef[];

function server(routes: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/feeds': () => [200, []],
    'GET /api/feeds/summaries': () => [200, summariesOf([])],
    'GET /api/reading-lists': () => [200, { reading_lists: lists }],
    'GET /api/articles/42/reading-lists': () => [200, { reading_lists: refs }],
    ...routes,
  });
}

const article = { id: 42, title: 'The article' };
const dialog = () => screen.getByRole('dialog', { name: 'Add to reading list' });
const row = (name: string) =>
  within(dialog())
    .getAllByTestId('add-list-row')
    .find((r) => r.textContent.includes(name))!;

setUpDashboardTestEnv();
beforeEach(() => {
  lists = [makeList({ id: 1, name: 'Later' }), makeList({ id: 2, name: 'Keep' }), makeList({ id: 3, name: 'AI', is_smart: true })];
  refs = [{ id: 2, name: 'Keep', is_smart: false }];
});

describe('add to reading list (dashboard.md §2 "Modals", §4, §8 "Reading list add")', () => {
  it('offers "add" for lists without the article, "already added" (disabled) and "remove" for lists with it; smart lists cannot be chosen', async () => {
    server();
    await renderAt('/dashboard', <AddToReadingListModal article={article} open onClose={() => {}} />);
    expect(await within(dialog()).findByRole('button', { name: 'Add to “Later”' })).toBeTruthy();
    expect(dialog().textContent).toContain('The article');
    const keep = row('Keep');
    expect(within(keep).getByRole<HTMLButtonElement>('button', { name: /Already added/ }).disabled).toBe(true);
    expect(within(keep).getByRole('button', { name: 'Remove from list “Keep”' })).toBeTruthy();
    const smart = row('AI');
    expect(within(smart).queryByRole('button')).toBeNull();
    expect(smart.textContent).toContain('Rules only');
    expect(within(dialog()).getByText(/Smart lists fill themselves/)).toBeTruthy();
  });

  it('adds, then shows "already added", tells the card and the badges, and clears the message after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = server({
      'POST /api/reading-lists/1/articles/42': () => {
        refs = [...refs, { id: 1, name: 'Later', is_smart: false }];
        return [201, {}];
      },
    });
    const changes: unknown[] = [];
    const off = on('reading-list-updated', (d) => changes.push(d));
    await renderAt('/dashboard', <AddToReadingListModal article={article} open onClose={() => {}} />);
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'Add to “Later”' }));
    expect(await within(dialog()).findByText('Added to “Later”.')).toBeTruthy();
    await waitFor(() => expect(within(row('Later')).getByRole('button', { name: /Already added/ })).toBeTruthy());
    expect(calls.some((c) => c.key === 'POST /api/reading-lists/1/articles/42')).toBe(true);
    expect(changes).toContainEqual({ list_id: 1, article_id: 42, in_reading_list: true });
    await act(() => vi.advanceTimersByTimeAsync(MESSAGE_MS + 50));
    expect(within(dialog()).queryByText('Added to “Later”.')).toBeNull();
    off();
  });

  it('409 says "already in list"; other failures "error adding"', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server({
      'POST /api/reading-lists/1/articles/42': () => [409, { message: 'dup', code: 'ALREADY_IN_LIST' }],
      'POST /api/reading-lists/2/articles/42': () => [500, { message: 'boom' }],
    });
    refs = [];
    await renderAt('/dashboard', <AddToReadingListModal article={article} open onClose={() => {}} />);
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'Add to “Later”' }));
    expect(await within(dialog()).findByText('The article is already in this list.')).toBeTruthy();
    await waitFor(() => expect(within(dialog()).getByRole<HTMLButtonElement>('button', { name: 'Add to “Keep”' }).disabled).toBe(false));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Add to “Keep”' }));
    expect(await within(dialog()).findByText('Error adding to the reading list.')).toBeTruthy();
  });

  it('removes from a simple list; the card learns it is in no list any more', async () => {
    server({
      'DELETE /api/reading-lists/2/articles/42': () => {
        refs = [];
        return [200];
      },
    });
    const changes: unknown[] = [];
    const off = on('reading-list-updated', (d) => changes.push(d));
    await renderAt('/dashboard', <AddToReadingListModal article={article} open onClose={() => {}} />);
    fireEvent.click(await within(dialog()).findByRole('button', { name: 'Remove from list “Keep”' }));
    expect(await within(dialog()).findByText('Removed from “Keep”.')).toBeTruthy();
    await waitFor(() => expect(within(dialog()).getByRole('button', { name: 'Add to “Keep”' })).toBeTruthy());
    expect(changes).toContainEqual({ list_id: 2, article_id: 42, in_reading_list: false });
    off();
  });

  it('says when loading fails', async () => {
    server({ 'GET /api/reading-lists': () => [500, { message: 'x' }] });
    await renderAt('/dashboard', <AddToReadingListModal article={article} open onClose={() => {}} />);
    expect(await within(dialog()).findByText('Error loading the reading lists.')).toBeTruthy();
  });

  it('"new list" creates a simple list and puts the article in it', async () => {
    lists = [];
    refs = [];
    const calls = server({
      'POST /api/reading-lists': withBody<SentReadingList>((body) => {
        lists = [makeList({ id: 7, ...body })];
        return [201, { reading_list: lists[0] }];
      }),
      'POST /api/reading-lists/7/articles/42': () => {
        refs = [{ id: 7, name: 'Fresh', is_smart: false }];
        return [201, {}];
      },
    });
    await renderAt('/dashboard', <AddToReadingListModal article={article} open onClose={() => {}} />);
    expect(await within(dialog()).findByText(/You have no reading lists yet/)).toBeTruthy();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'New list' }));
    const create = screen.getByRole('dialog', { name: 'New reading list' });
    fireEvent.change(within(create).getByLabelText('Name'), { target: { value: 'Fresh' } });
    fireEvent.click(within(create).getByRole('button', { name: 'Create' }));
    expect(await within(dialog()).findByText('Added to “Fresh”.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/reading-lists/7/articles/42')).toBe(true);
    await waitFor(() => expect(within(row('Fresh')).getByRole('button', { name: /Already added/ })).toBeTruthy());
  });
});
