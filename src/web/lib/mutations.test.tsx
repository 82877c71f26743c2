import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { on, type AppEvent } from './events.js';
import { announce, useAppMutation } from './mutations.js';

const ALL: AppEvent[] = [
  'feeds-updated',
  'folders-updated',
  'reading-lists-updated',
  'reading-list-updated',
  'unread-counts-updated',
  'force-unread-update',
  'force-article-update',
  'article-read-status-changed',
  'filters-updated',
];
const offs: Array<() => void> = [];

function record(): Array<[AppEvent, unknown]> {
  const seen: Array<[AppEvent, unknown]> = [];
  for (const name of ALL) offs.push(on(name, (detail) => seen.push([name, detail])));
  return seen;
}

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

afterEach(() => {
  cleanup();
  offs.splice(0).forEach((off) => off());
  vi.useRealTimers();
});

describe('announce (dashboard.md §7 "Browser events")', () => {
  it('raises one event per change, in the order named, with the details', () => {
    const seen = record();
    announce([
      'feeds',
      'folders',
      'reading-lists',
      { membership: { list_id: 2, article_id: 7, in_reading_list: true } },
      { filters: { feedId: 3 } },
      { readStatus: { ids: [7], is_read: true } },
      'counts-soon',
      'counts',
      'articles',
    ]);
    expect(seen).toEqual([
      ['feeds-updated', null],
      ['folders-updated', null],
      ['reading-lists-updated', null],
      ['reading-list-updated', { list_id: 2, article_id: 7, in_reading_list: true }],
      ['filters-updated', { feedId: 3 }],
      ['article-read-status-changed', { ids: [7], is_read: true }],
      ['unread-counts-updated', null],
      ['force-unread-update', null],
      ['force-article-update', null],
    ]);
  });
});

describe('useAppMutation', () => {
  it('announces the changes once the call has succeeded, before mutateAsync resolves', async () => {
    const seen = record();
    const { result } = renderHook(
      () => useAppMutation({ mutationFn: async (id: number) => id * 2, changes: (data, id) => [{ membership: { list_id: id, article_id: data } }] }),
      { wrapper },
    );
    let answer: number | undefined;
    await act(async () => {
      answer = await result.current.mutateAsync(4);
      expect(seen.map(([name]) => name)).toEqual(['reading-list-updated']);
    });
    expect(answer).toBe(8);
    expect(seen).toEqual([['reading-list-updated', { list_id: 4, article_id: 8 }]]);
  });

  it('announces nothing when the call fails', async () => {
    const seen = record();
    const { result } = renderHook(() => useAppMutation({ mutationFn: () => Promise.reject(new Error('no')), changes: ['feeds'] }), { wrapper });
    await act(async () => {
      await expect(result.current.mutateAsync()).rejects.toThrow('no');
    });
    expect(seen).toEqual([]);
  });

  it('announces after the given delay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const seen = record();
    const { result } = renderHook(() => useAppMutation({ mutationFn: async () => null, changes: ['feeds', 'articles'], announceAfterMs: 1000 }), { wrapper });
    await act(() => result.current.mutateAsync());
    expect(seen).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(seen.map(([name]) => name)).toEqual(['feeds-updated', 'force-article-update']);
  });
});
