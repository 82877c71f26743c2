import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { on, type AppEvent } from '../../lib/events.js';
import { storage } from '../../lib/storage.js';
import { fakeServer } from '../../test/fakeServer.js';
import {
  feedSummariesKey,
  feedsKey,
  feedTitle,
  REFRESH_SETTLE_MS,
  reorderFeedSummaries,
  unpackFeedSummaries,
  useFeedSummaries,
  useSetAlwaysLoadOriginal,
  type FeedSummary,
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
import { makeFeed, summariesOf } from '../../test/testFeeds.js';
import type { Feed } from '../../../common/api.js';

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

describe('feed summaries (docs/decisions.md "Feed summaries")', () => {
  const wire = {
    ids: [3, 1, 2],
    titles: ['Muted for now', 'With icon', ''],
    folders: [null, 7, null],
    icons: [null, '0123456789abcdef0123456789abcdef', null],
    errors: [null, 'FETCH_TIMEOUT', null],
    muted: { '3': '2026-11-23T15:30:00.000Z', '2': null },
    unfetched: [2],
    always_load_original: [1],
  };

  it('unpacks the arrays and sets into one object per feed, in the order sent', () => {
    expect(unpackFeedSummaries(wire)).toEqual([
      {
        id: 3,
        title: 'Muted for now',
        folder_id: null,
        sort_order: 0,
        favicon_url: null,
        last_error_code: null,
        is_muted: true,
        muted_permanently: false,
        muted_until: '2026-11-23T15:30:00.000Z',
        fetched: true,
        always_load_original: false,
      },
      {
        id: 1,
        title: 'With icon',
        folder_id: 7,
        sort_order: 1,
        favicon_url: '/api/icons/0123456789abcdef0123456789abcdef',
        last_error_code: 'FETCH_TIMEOUT',
        is_muted: false,
        muted_permanently: false,
        muted_until: null,
        fetched: true,
        always_load_original: true,
      },
      {
        id: 2,
        title: '',
        folder_id: null,
        sort_order: 2,
        favicon_url: null,
        last_error_code: null,
        is_muted: true,
        muted_permanently: true,
        muted_until: null,
        fetched: false,
        always_load_original: false,
      },
    ]);
  });

  it('is loaded from /api/feeds/summaries, never from the full list, and refreshed by feeds-updated with the full list', async () => {
    const feeds = [makeFeed({ id: 1 }), makeFeed({ id: 2 })];
    const calls = fakeServer({ 'GET /api/feeds/summaries': () => [200, summariesOf(feeds)], 'GET /api/feeds': () => [200, feeds] });
    const { result } = renderHook(() => [useFeedSummaries(), useFeedSummaries(), useFeeds()] as const, { wrapper: wrapper() });
    await waitFor(() => expect(result.current[0].data?.map((f) => f.id)).toEqual([1, 2]));
    await waitFor(() => expect(result.current[2].data).toHaveLength(2));
    const count = (key: string) => calls.filter((c) => c.key === key).length;
    expect([count('GET /api/feeds/summaries'), count('GET /api/feeds')]).toEqual([1, 1]);
    act(() => void window.dispatchEvent(new CustomEvent('feeds-updated')));
    await waitFor(() => expect([count('GET /api/feeds/summaries'), count('GET /api/feeds')]).toEqual([2, 2]));
    await new Promise((r) => setTimeout(r, 50));
    expect([count('GET /api/feeds/summaries'), count('GET /api/feeds')]).toEqual([2, 2]);
  });

  it('reorders the cached summaries as a sort will (named first, the rest after them) and hands back the old list', () => {
    const client = new QueryClient();
    const list = unpackFeedSummaries(summariesOf([1, 2, 3, 4].map((id) => makeFeed({ id }))));
    client.setQueryData(feedSummariesKey, list);
    expect(reorderFeedSummaries(client, [3, 1])).toBe(list);
    expect(client.getQueryData<FeedSummary[]>(feedSummariesKey)!.map((f) => [f.id, f.sort_order])).toEqual([
      [3, 0],
      [1, 1],
      [2, 2],
      [4, 3],
    ]);
    expect(reorderFeedSummaries(new QueryClient(), [1])).toBeUndefined();
  });

  it('"always load the original" shows at once in the summaries and the full list, and goes back when refused', async () => {
    let refuse = false;
    fakeServer({ 'PUT /api/feeds/1': () => (refuse ? [500, { message: 'x', code: 'X' }] : [200, makeFeed({ id: 1, always_load_original: true })]) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const feeds = [makeFeed({ id: 1 }), makeFeed({ id: 2 })];
    client.setQueryData(feedsKey, feeds);
    client.setQueryData(feedSummariesKey, unpackFeedSummaries(summariesOf(feeds)));
    const { result } = renderHook(() => useSetAlwaysLoadOriginal(), {
      wrapper: ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
    });
    const flags = () => [
      client.getQueryData<FeedSummary[]>(feedSummariesKey)!.map((f) => f.always_load_original),
      client.getQueryData<Feed[]>(feedsKey)!.map((f) => f.always_load_original),
    ];
    const pending = result.current.mutateAsync({ id: 1, value: true });
    await waitFor(() =>
      expect(flags()).toEqual([
        [true, false],
        [true, false],
      ]),
    );
    await act(() => pending);
    refuse = true;
    client.setQueryData(feedSummariesKey, unpackFeedSummaries(summariesOf(feeds)));
    client.setQueryData(feedsKey, feeds);
    await act(() => result.current.mutateAsync({ id: 2, value: true }).catch(() => undefined));
    expect(flags()).toEqual([
      [false, false],
      [false, false],
    ]);
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
