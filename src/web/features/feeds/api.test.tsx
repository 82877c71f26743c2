import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { on, type AppEvent } from '../../lib/events.js';
import { storage } from '../../lib/storage.js';
import { fakeServer } from '../../test/fakeServer.js';
import {
  feedTitle,
  REFRESH_SETTLE_MS,
  useAddFeed,
  useDeleteFeed,
  useFeeds,
  useMuteFeed,
  useRefreshFeed,
  useSetCustomTitle,
  useSortFeeds,
  useUnmuteFeed,
  useUnreadCounts,
} from './api.js';
import { makeFeed } from '../../test/testFeeds.js';

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Records the app events raised while a test runs. */
function recordEvents(): AppEvent[] {
  const seen: AppEvent[] = [];
  const names: AppEvent[] = ['feeds-updated', 'force-unread-update', 'force-article-update', 'filters-updated', 'unread-counts-updated'];
  for (const name of names) offs.push(on(name, () => seen.push(name)));
  return seen;
}
const offs: Array<() => void> = [];

/** A mutation hook's mutateAsync, as a component gets it. */
function mutation<TData, TVariables>(hook: () => { mutateAsync(variables: TVariables): Promise<TData> }) {
  const { result } = renderHook(hook, { wrapper: wrapper() });
  return (variables: TVariables) => result.current.mutateAsync(variables);
}

beforeEach(async () => {
  localStorage.clear();
  storage.setTokens('access-1', 'refresh-1');
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  offs.splice(0).forEach((off) => off());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('feedTitle (dashboard.md §3, §9 default title)', () => {
  const t = i18n.t.bind(i18n);
  it('prefers the custom title, then the own title, then "Untitled feed"', () => {
    expect(feedTitle({ title: 'Own', custom_title: 'Mine', original_title: 'Own' }, t)).toBe('Mine');
    expect(feedTitle({ title: 'Own', custom_title: null }, t)).toBe('Own');
    expect(feedTitle({ title: '', custom_title: '  ', original_title: '' }, t)).toBe('Untitled feed');
  });
  it('says "Unbenannter Feed" in German', async () => {
    await i18n.changeLanguage('de');
    expect(feedTitle({ title: '' }, i18n.t.bind(i18n))).toBe('Unbenannter Feed');
  });
});

describe('useFeeds', () => {
  it('loads the feeds and fetches them again, once, on feeds-updated however many components listen', async () => {
    const calls = fakeServer({ 'GET /api/feeds': () => [200, [makeFeed({ id: 1 }), makeFeed({ id: 2 })]] });
    const Wrapper = wrapper();
    const { result } = renderHook(() => [useFeeds(), useFeeds()], { wrapper: Wrapper });
    await waitFor(() => expect(result.current[0].data?.map((f) => f.id)).toEqual([1, 2]));
    const count = () => calls.filter((c) => c.key === 'GET /api/feeds').length;
    expect(count()).toBe(1);
    act(() => void window.dispatchEvent(new CustomEvent('feeds-updated')));
    await waitFor(() => expect(count()).toBe(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(count()).toBe(2);
  });
});

describe('useUnreadCounts (dashboard.md §9: 60 s cache, 300 ms debounce)', () => {
  it('debounces unread-counts-updated by 300 ms and refetches at once on force-unread-update', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let total = 3;
    const calls = fakeServer({ 'GET /api/feeds/unread_counts': () => [200, { counts: { '1': total }, total }] });
    const { result } = renderHook(() => useUnreadCounts(), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.data).toEqual({ counts: { '1': 3 }, total: 3 }));
    const count = () => calls.filter((c) => c.key === 'GET /api/feeds/unread_counts').length;

    total = 2;
    act(() => {
      for (let i = 0; i < 5; i++) window.dispatchEvent(new CustomEvent('unread-counts-updated'));
    });
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(count()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(result.current.data?.total).toBe(2));
    expect(count()).toBe(2);

    total = 1;
    act(() => void window.dispatchEvent(new CustomEvent('force-unread-update')));
    await waitFor(() => expect(result.current.data?.total).toBe(1));
    expect(count()).toBe(3);
  });

  it('serves a second user of the counts from the cache within 60 s', async () => {
    const calls = fakeServer({ 'GET /api/feeds/unread_counts': () => [200, { counts: {}, total: 0 }] });
    const Wrapper = wrapper();
    const first = renderHook(() => useUnreadCounts(), { wrapper: Wrapper });
    await waitFor(() => expect(first.result.current.isSuccess).toBe(true));
    const second = renderHook(() => useUnreadCounts(), { wrapper: Wrapper });
    expect(second.result.current.data).toEqual({ counts: {}, total: 0 });
    await new Promise((r) => setTimeout(r, 30));
    expect(calls.filter((c) => c.key === 'GET /api/feeds/unread_counts')).toHaveLength(1);
  });
});

describe('feed mutations and their events (dashboard.md §4, §7)', () => {
  it('useAddFeed posts the trimmed URL and announces feeds, counts and articles', async () => {
    const calls = fakeServer({ 'POST /api/feeds': () => [201, { ...makeFeed({ id: 5 }), is_new: true }] });
    const events = recordEvents();
    const feed = await mutation(useAddFeed)('  https://example.org/feed.xml ');
    expect(feed.is_new).toBe(true);
    expect(calls.at(-1)).toMatchObject({ key: 'POST /api/feeds', body: { url: 'https://example.org/feed.xml' }, auth: 'Bearer access-1' });
    expect(events).toEqual(['feeds-updated', 'force-unread-update', 'force-article-update']);
  });

  it('mute and unmute send the spec bodies and broadcast feeds-updated and a forced count refresh', async () => {
    const calls = fakeServer({
      'POST /api/feeds/3/mute': () => [200, makeFeed({ id: 3, is_muted: true })],
      'POST /api/feeds/3/unmute': () => [200, makeFeed({ id: 3 })],
    });
    const events = recordEvents();
    const muteFeed = mutation(useMuteFeed);
    await muteFeed({ id: 3, duration: 24, permanently: false });
    await muteFeed({ id: 3, duration: null, permanently: true });
    await mutation(useUnmuteFeed)(3);
    expect(calls.map((c) => [c.key, c.body])).toEqual([
      ['POST /api/feeds/3/mute', { duration: 24, permanently: false }],
      ['POST /api/feeds/3/mute', { duration: null, permanently: true }],
      ['POST /api/feeds/3/unmute', undefined],
    ]);
    expect(events.filter((e) => e === 'feeds-updated')).toHaveLength(3);
    expect(events.filter((e) => e === 'force-unread-update')).toHaveLength(3);
  });

  it('rename, sort and delete call their endpoints; a failed call raises no event', async () => {
    const calls = fakeServer({
      'POST /api/feeds/set_custom_title': () => [200, makeFeed({ id: 3 })],
      'POST /api/feeds/sort': () => [200, []],
      'DELETE /api/feeds/3': () => [200],
      'DELETE /api/feeds/4': () => [404, { message: 'Feed not found.', code: 'FEED_NOT_FOUND' }],
    });
    const events = recordEvents();
    const deleteFeed = mutation(useDeleteFeed);
    await mutation(useSetCustomTitle)({ id: 3, title: '  Mein Feed ' });
    await mutation(useSortFeeds)([3, 1, 2]);
    await deleteFeed(3);
    await expect(deleteFeed(4)).rejects.toMatchObject({ status: 404 });
    expect(calls.map((c) => [c.key, c.body])).toEqual([
      ['POST /api/feeds/set_custom_title', { feed_id: 3, custom_title: 'Mein Feed' }],
      ['POST /api/feeds/sort', { feed_order: [3, 1, 2] }],
      ['DELETE /api/feeds/3', undefined],
      ['DELETE /api/feeds/4', undefined],
    ]);
    expect(events).toEqual(['feeds-updated', 'force-article-update', 'feeds-updated', 'feeds-updated', 'force-unread-update', 'force-article-update']);
  });

  it('useRefreshFeed queues the fetch and asks for the lists again once it has had time to finish', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fakeServer({ 'POST /api/feeds/3/refresh': () => [202, { queued: true }] });
    const events = recordEvents();
    await mutation(useRefreshFeed)(3);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(REFRESH_SETTLE_MS);
    expect(events).toEqual(['feeds-updated', 'force-unread-update', 'force-article-update']);
  });
});
