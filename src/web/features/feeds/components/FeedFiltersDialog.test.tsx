import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedFilter } from '../../../../common/api.js';
import type { NewFilter } from '../api.js';
import { on, type AppEvent } from '../../../lib/events.js';
import { fakeServer, OpenDialog, renderAt, setUpDashboardTestEnv, withBody } from '../../../test/dashboardHarness.js';
import { makeFeed, makeFilter, summariesOf } from '../../../test/testFeeds.js';
import { FeedFiltersDialog } from './FeedFiltersDialog.js';

function Harness() {
  return <OpenDialog>{(open, close) => <FeedFiltersDialog feedId={1} open={open} onClose={close} />}</OpenDialog>;
}

let filters: FeedFilter[];
function server(addAnswer?: () => [number, unknown]) {
  return fakeServer({
    'GET /api/feeds': () => [200, [makeFeed({ id: 1, title: 'Sport Daily' })]],
    'GET /api/feeds/summaries': () => [200, summariesOf([makeFeed({ id: 1, title: 'Sport Daily' })])],
    'GET /api/feeds/1/filters': () => [200, { filters }],
    'POST /api/feeds/1/filters': withBody<NewFilter>((body) => {
      if (addAnswer) return addAnswer();
      const created = makeFilter({ id: 50 + filters.length, ...body });
      filters = [...filters, created];
      return [201, created];
    }),
    'DELETE /api/feeds/filters/31': () => {
      filters = filters.filter((f) => f.id !== 31);
      return [200];
    },
    'DELETE /api/feeds/filters/32': () => [500, { message: 'boom', code: 'X' }],
  });
}

setUpDashboardTestEnv();
beforeEach(() => {
  filters = [makeFilter({ id: 31, filter_text: 'Fußball', filter_type: 'exclude', filter_scope: 'title' }), makeFilter({ id: 32, filter_text: 'Tennis' })];
});

describe('filters dialog (dashboard.md §2, §4, §5, §8 "Filters")', () => {
  it('names the feed and lists its filters with type and scope', async () => {
    server();
    await renderAt('/dashboard', <Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Filters for “Sport Daily”' });
    const list = await within(dialog).findByRole('list');
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['ExcludeFußballTitle', 'IncludeTennisTitle and content']);
  });

  it('adds a filter with the defaults include and both; blank text is refused locally', async () => {
    const calls = server();
    await renderAt('/dashboard', <Harness />);
    await screen.findByText('Tennis');
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(await screen.findByText('Filter text required.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/feeds/1/filters')).toBe(false);

    fireEvent.change(screen.getByLabelText('Filter text'), { target: { value: '  Formel 1 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(await screen.findByText('Formel 1')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/feeds/1/filters')?.body).toEqual({
      filter_type: 'include',
      filter_scope: 'both',
      filter_text: 'Formel 1',
    });
    expect(screen.getByLabelText<HTMLInputElement>('Filter text').value).toBe('');
  });

  it('sends the chosen type and scope', async () => {
    const calls = server();
    await renderAt('/dashboard', <Harness />);
    await screen.findByText('Tennis');
    fireEvent.click(screen.getByRole('radio', { name: 'Exclude' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Content' }));
    fireEvent.change(screen.getByLabelText('Filter text'), { target: { value: 'Werbung' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    await screen.findByText('Werbung');
    expect(calls.find((c) => c.key === 'POST /api/feeds/1/filters')?.body).toEqual({
      filter_type: 'exclude',
      filter_scope: 'content',
      filter_text: 'Werbung',
    });
  });

  it.each([
    [409, 'This filter already exists.'],
    [500, 'Error adding the filter.'],
  ])('shows the add failure %s', async (status, text) => {
    server(() => [status, { message: 'x', code: 'X' }]);
    await renderAt('/dashboard', <Harness />);
    await screen.findByText('Tennis');
    fireEvent.change(screen.getByLabelText('Filter text'), { target: { value: 'Tennis' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('deletes a filter, and says so when deleting fails', async () => {
    server();
    await renderAt('/dashboard', <Harness />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete filter “Fußball”' }));
    await waitFor(() => expect(screen.queryByText('Fußball')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Delete filter “Tennis”' }));
    expect(await screen.findByText('Error deleting the filter.')).toBeTruthy();
    expect(screen.getByText('Tennis')).toBeTruthy();
  });

  it('shows the load error', async () => {
    fakeServer({ 'GET /api/feeds/1/filters': () => [500, { message: 'x', code: 'X' }] });
    await renderAt('/dashboard', <Harness />);
    expect(await screen.findByText('Error loading the filters.')).toBeTruthy();
  });

  it('broadcasts filters-updated and forced count and article refreshes when it closes', async () => {
    server();
    const seen: AppEvent[] = [];
    const offs = (['filters-updated', 'force-unread-update', 'force-article-update'] as const).map((name) => on(name, () => seen.push(name)));
    await renderAt('/dashboard', <Harness />);
    await screen.findByText('Tennis');
    expect(seen).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getByText('is closed')).toBeTruthy();
    expect(seen).toEqual(['filters-updated', 'force-unread-update', 'force-article-update']);
    offs.forEach((off) => off());
  });
});
