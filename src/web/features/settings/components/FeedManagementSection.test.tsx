import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { on, type AppEvent } from '../../../lib/events.js';
import { fakeServer, renderAt, signedIn, testUser, setUpDashboardTestEnv } from '../../../test/dashboardHarness.js';
import { makeFeed, summariesOf } from '../../../test/testFeeds.js';
import { FeedManagementSection } from './FeedManagementSection.js';

/** Settings section 3, feed management (dashboard.md §2, §5, §8 "Account", §9). */

const opmlFile = (name = 'subscriptions.opml') => new File(['<opml version="2.0"><body/></opml>'], name, { type: 'text/x-opml' });

function section() {
  return screen.getByRole('region', { name: 'Feed management' });
}

function choose(file: File) {
  fireEvent.change(screen.getByLabelText('OPML file'), { target: { files: [file] } });
}

function listen(...names: AppEvent[]) {
  const seen: string[] = [];
  const offs = names.map((name) => on(name, () => seen.push(name)));
  return { seen, off: () => offs.forEach((off) => off()) };
}

setUpDashboardTestEnv();
afterEach(() => vi.restoreAllMocks());

describe('settings: feed management', () => {
  it('sums up the feeds and how many failed at their last refresh, with the way to feed management', async () => {
    const feed = (id: number, last_error_code: string | null) => makeFeed({ id, last_error_code });
    fakeServer({ 'GET /api/feeds/summaries': () => [200, summariesOf([feed(1, null), feed(2, 'FETCH_TIMEOUT'), feed(3, null)])] });
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    expect(await within(section()).findByText('3 feeds · 1 failed at its last refresh')).toBeTruthy();
    expect(within(section()).getByRole('link', { name: 'Manage feeds' }).getAttribute('href')).toBe('/dashboard/feeds');
  });

  it('says when every feed is fine, and shows no summary without feeds', async () => {
    let list = [makeFeed({ id: 1 })];
    const calls = fakeServer({ 'GET /api/feeds/summaries': () => [200, summariesOf(list)] });
    const { unmount } = await renderAt('/dashboard/settings', <FeedManagementSection />);
    expect(await within(section()).findByText('1 feed · all fetched without problems')).toBeTruthy();
    unmount();
    list = [];
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/feeds/summaries')).toHaveLength(2));
    // The empty answer has arrived and rendered.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(section()).queryByRole('link', { name: 'Manage feeds' })).toBeNull();
    expect(within(section()).queryByText(/^0 feeds/)).toBeNull();
  });

  it('asks for an OPML file when none (or another kind) is chosen, without calling the server', async () => {
    const calls = fakeServer({});
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    fireEvent.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Please choose an OPML file.')).toBeTruthy();
    choose(new File(['x'], 'notes.txt'));
    fireEvent.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Please choose an OPML file.')).toBeTruthy();
    expect(calls.some((c) => c.key.includes('opml'))).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('OPML file').accept).toBe('.opml,.xml');
  });

  it('imports the file as opml_file, shows the counts and refreshes feeds, folders and counts', async () => {
    let sent: FormDataEntryValue | null = null;
    fakeServer({
      'POST /api/feeds/import/opml': (_body, init) => {
        sent = (init.body as FormData).get('opml_file');
        return [200, { imported_count: 12, existed_count: 1, failed_count: 2, folders_created: 3, message: '12 feeds imported.' }];
      },
    });
    const events = listen('feeds-updated', 'folders-updated', 'force-unread-update');
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    choose(opmlFile('export.xml'));
    fireEvent.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('12 feeds imported')).toBeTruthy();
    expect(screen.getByText('1 feed was already subscribed')).toBeTruthy();
    expect(screen.getByText('2 entries without a valid feed address skipped')).toBeTruthy();
    expect(screen.getByText('3 folders created')).toBeTruthy();
    expect((sent as unknown as File).name).toBe('export.xml');
    expect(events.seen).toEqual(['feeds-updated', 'folders-updated', 'force-unread-update']);
    events.off();
  });

  it.each([
    [400, { message: 'The OPML file contains no feeds.', code: 'OPML_NO_FEEDS' }, 'The OPML file contains no feeds.'],
    [413, { message: 'too big', code: 'OPML_TOO_LARGE' }, 'The file is larger than 5 MB.'],
    [422, { message: 'Something the server explains.', code: 'SOMETHING_NEW' }, 'Something the server explains.'],
    [500, { message: 'Internal server error.', code: 'INTERNAL_ERROR' }, 'The import failed. Please try again.'],
  ])('shows the reason of a failed import (%s)', async (status, body, text) => {
    fakeServer({ 'POST /api/feeds/import/opml': () => [status, body] });
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    choose(opmlFile());
    fireEvent.click(within(section()).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('shows German texts in the German interface', async () => {
    await signedIn(testUser, 'de');
    fakeServer({ 'POST /api/feeds/import/opml': () => [400, { message: 'x', code: 'OPML_INVALID' }] });
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    const region = screen.getByRole('region', { name: 'Feedverwaltung' });
    fireEvent.click(within(region).getByRole('button', { name: 'Importieren' }));
    expect(await screen.findByText('Bitte wähle eine OPML-Datei aus.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('OPML-Datei'), { target: { files: [opmlFile()] } });
    fireEvent.click(within(region).getByRole('button', { name: 'Importieren' }));
    expect(await screen.findByText('Die Datei ist keine gültige OPML-Datei.')).toBeTruthy();
  });

  it('downloads the export as feeder-feeds-YYYY-MM-DD.opml, or says the export failed', async () => {
    let ok = true;
    fakeServer({
      'GET /api/feeds/export/opml': () => (ok ? [200, '<?xml version="1.0"?><opml version="2.0"><body/></opml>'] : [500, { message: 'x', code: 'INTERNAL_ERROR' }]),
    });
    // jsdom has no object URLs and does not navigate on a download click.
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => (created.push(blob), 'blob:feeder-export'));
    URL.revokeObjectURL = vi.fn();
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    fireEvent.click(within(section()).getByRole('button', { name: 'Export' }));
    const now = new Date();
    const name = `feeder-feeds-${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}.opml`;
    expect(await screen.findByText(`${name} was downloaded.`)).toBeTruthy();
    expect(downloads).toEqual([name]);
    expect(await created[0].text()).toContain('<opml');

    ok = false;
    fireEvent.click(within(section()).getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('The export failed. Please try again.')).toBeTruthy();
    expect(downloads).toHaveLength(1);
  });

  it('deletes all feeds only after the browser confirmation, and reports the outcome', async () => {
    let status = 200;
    const calls = fakeServer({ 'DELETE /api/feeds/all': () => [status] });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const events = listen('feeds-updated');
    await renderAt('/dashboard/settings', <FeedManagementSection />);
    const button = within(section()).getByRole('button', { name: 'Delete all feeds' });

    fireEvent.click(button);
    expect(confirm).toHaveBeenCalledWith('Do you really want to delete all feeds? This cannot be undone.');
    expect(calls.some((c) => c.key === 'DELETE /api/feeds/all')).toBe(false);

    confirm.mockReturnValue(true);
    fireEvent.click(button);
    expect(await screen.findByText('All feeds deleted.')).toBeTruthy();
    expect(events.seen).toEqual(['feeds-updated']);

    status = 500;
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByText('Error deleting all feeds.')).toBeTruthy());
    events.off();
  });
});
