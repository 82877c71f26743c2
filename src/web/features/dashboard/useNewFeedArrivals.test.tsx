import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Feed } from '../../../common/api.js';
import { emit, on, type AppEvent } from '../../lib/events.js';
import { storage } from '../../lib/storage.js';
import { fakeServer } from '../../test/fakeServer.js';
import { useFeedSummaries } from '../feeds/index.js';
import { makeFeed, summariesOf } from '../../test/testFeeds.js';
import { useNewFeedArrivals } from './useNewFeedArrivals.js';

/** A just-added feed's first fetch refreshes the article list and the counts, however the timing falls. */
const offs: Array<() => void> = [];
function recordForced(): AppEvent[] {
  const seen: AppEvent[] = [];
  for (const name of ['force-article-update', 'force-unread-update'] as AppEvent[]) offs.push(on(name, () => seen.push(name)));
  return seen;
}

function setup(feeds: { current: Feed[] }) {
  fakeServer({ 'GET /api/feeds/summaries': () => [200, summariesOf(feeds.current)] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  // The feed list is returned too, so a test can wait until the hook has seen a given state of it.
  return renderHook(
    () => {
      useNewFeedArrivals();
      return useFeedSummaries().data;
    },
    { wrapper },
  );
}

beforeEach(() => {
  localStorage.clear();
  storage.setTokens('access-1', 'refresh-1');
});
afterEach(() => {
  cleanup();
  offs.splice(0).forEach((off) => off());
  vi.unstubAllGlobals();
});

describe('useNewFeedArrivals', () => {
  it('signals when a feed seen waiting has its first fetch', async () => {
    const feeds = { current: [makeFeed({ id: 1 }), makeFeed({ id: 2, last_fetched_at: null })] };
    const seen = recordForced();
    const { result } = setup(feeds);
    await waitFor(() => expect(result.current).toHaveLength(2));
    expect(seen).toEqual([]);
    feeds.current = [makeFeed({ id: 1 }), makeFeed({ id: 2 })];
    act(() => emit('feeds-updated'));
    await waitFor(() => expect(seen).toEqual(['force-article-update', 'force-unread-update']));
  });

  it('signals when a new feed shows up already fetched (the server was quicker than the list)', async () => {
    const feeds = { current: [makeFeed({ id: 1 })] };
    const seen = recordForced();
    const { result } = setup(feeds);
    await waitFor(() => expect(result.current).toHaveLength(1));
    feeds.current = [makeFeed({ id: 1 }), makeFeed({ id: 3 })];
    act(() => emit('feeds-updated'));
    await waitFor(() => expect(seen).toEqual(['force-article-update', 'force-unread-update']));
  });

  it('stays quiet on the first load and when a feed goes away', async () => {
    const feeds = { current: [makeFeed({ id: 1 }), makeFeed({ id: 2 })] };
    const seen = recordForced();
    const { result } = setup(feeds);
    await waitFor(() => expect(result.current).toHaveLength(2));
    feeds.current = [makeFeed({ id: 1 })];
    act(() => emit('feeds-updated'));
    await waitFor(() => expect(result.current).toHaveLength(1));
    expect(seen).toEqual([]);
  });
});
