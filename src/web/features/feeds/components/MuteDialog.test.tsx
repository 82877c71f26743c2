import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Feed } from '../../../../common/api.js';
import { on } from '../../../lib/events.js';
import { fakeServer, OpenDialog, renderAt, setUpDashboardTestEnv } from '../../../test/dashboardHarness.js';
import { makeFeed } from '../../../test/testFeeds.js';
import { MuteDialog } from './MuteDialog.js';

function Harness({ feed }: { feed: Feed }) {
  return <OpenDialog>{(open, close) => <MuteDialog feed={feed} open={open} onClose={close} />}</OpenDialog>;
}

setUpDashboardTestEnv();

describe('mute dialog (dashboard.md §4 "Feed mute", §9)', () => {
  it('offers 1, 3, 8, 24, 72 and 168 hours or permanently', async () => {
    fakeServer({});
    await renderAt('/dashboard', <Harness feed={makeFeed({ id: 3 })} />);
    const options = screen.getAllByRole('radio').map((r) => r.closest('label')!.textContent);
    expect(options).toEqual(['1 hour', '3 hours', '8 hours', '1 day', '3 days', '1 week', 'Permanently']);
  });

  it('mutes for the chosen hours, broadcasts feeds-updated and a forced count refresh, and closes', async () => {
    const calls = fakeServer({ 'POST /api/feeds/3/mute': () => [200, makeFeed({ id: 3, is_muted: true })] });
    const seen: string[] = [];
    const offs = [on('feeds-updated', () => seen.push('feeds')), on('force-unread-update', () => seen.push('counts'))];
    await renderAt('/dashboard', <Harness feed={makeFeed({ id: 3 })} />);
    fireEvent.click(screen.getByRole('radio', { name: '3 days' }));
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    await waitFor(() => expect(screen.getByText('is closed')).toBeTruthy());
    expect(calls.find((c) => c.key === 'POST /api/feeds/3/mute')?.body).toEqual({ duration: 72, permanently: false });
    expect(seen).toEqual(['feeds', 'counts']);
    offs.forEach((off) => off());
  });

  it('mutes permanently without a duration', async () => {
    const calls = fakeServer({ 'POST /api/feeds/3/mute': () => [200, makeFeed({ id: 3, is_muted: true })] });
    await renderAt('/dashboard', <Harness feed={makeFeed({ id: 3 })} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Permanently' }));
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    await waitFor(() => expect(screen.getByText('is closed')).toBeTruthy());
    expect(calls.find((c) => c.key === 'POST /api/feeds/3/mute')?.body).toEqual({ duration: null, permanently: true });
  });

  it('stays open with a message when muting fails', async () => {
    fakeServer({ 'POST /api/feeds/3/mute': () => [500, { message: 'x', code: 'X' }] });
    await renderAt('/dashboard', <Harness feed={makeFeed({ id: 3 })} />);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await screen.findByText('That did not work. Please try again.')).toBeTruthy();
    expect(screen.getByText('is open')).toBeTruthy();
  });

  it('shows until when a muted feed is muted (local time) and unmutes it', async () => {
    const calls = fakeServer({ 'POST /api/feeds/3/unmute': () => [200, makeFeed({ id: 3 })] });
    const feed = makeFeed({ id: 3, title: 'Tagesschau', is_muted: true, muted_until: '2026-11-22T18:30:00.000Z' });
    await renderAt('/dashboard', <Harness feed={feed} />);
    const expected = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-11-22T18:30:00Z'));
    expect(screen.getByText(`“Tagesschau” is muted until ${expected}.`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    await waitFor(() => expect(screen.getByText('is closed')).toBeTruthy());
    expect(calls.some((c) => c.key === 'POST /api/feeds/3/unmute')).toBe(true);
  });
});
