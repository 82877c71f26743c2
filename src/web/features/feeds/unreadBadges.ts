import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { UnreadCounts } from '../../../common/api.js';
import { unreadCountsKey } from './api.js';

/** §9: the sidebar's badges follow the unread counts 400 ms after they settle (a burst of marks is one change). */
export const BADGE_DEBOUNCE_MS = 400;

/**
 * The counts the sidebar's badges show (docs/decisions.md "Sidebar at scale"): the cached unread counts, 400 ms
 * after they last changed. Each badge subscribes to its own number (useSyncExternalStore with a selector), so a
 * mark-read re-renders the badges it touches (its feed, its folder, the total), never the tree.
 */
class BadgeCounts {
  value: UnreadCounts | undefined;
  /** The newest counts in the cache (the debounce waits from their last change, not from any cache event). */
  private latest: UnreadCounts | undefined;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(client: QueryClient) {
    this.value = this.latest = client.getQueryData<UnreadCounts>(unreadCountsKey);
    const hash = JSON.stringify(unreadCountsKey);
    client.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryHash !== hash) return;
      const next = event.query.state.data as UnreadCounts | undefined;
      if (next === this.latest) return;
      this.latest = next;
      clearTimeout(this.timer);
      // The first known counts show at once, and so does "nothing unread" (all marked read, all feeds deleted);
      // other changes wait for quiet.
      if (this.value === undefined || next?.total === 0) this.publish(next);
      else this.timer = setTimeout(() => this.publish(this.latest), BADGE_DEBOUNCE_MS);
    });
  }

  private publish(next: UnreadCounts | undefined) {
    this.value = next;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
}

const stores = new WeakMap<QueryClient, BadgeCounts>();
function storeOf(client: QueryClient): BadgeCounts {
  let store = stores.get(client);
  if (!store) stores.set(client, (store = new BadgeCounts(client)));
  return store;
}

function useBadge<T>(select: (counts: UnreadCounts | undefined) => T): T {
  const store = storeOf(useQueryClient());
  return useSyncExternalStore(store.subscribe, () => select(store.value));
}

/** A feed's unread count as its badge shows it (undefined while unknown, and for a muted feed). */
export function useFeedUnread(feedId: number): number | undefined {
  return useBadge(useCallback((c) => c?.counts[String(feedId)], [feedId]));
}

/** The sum of the unread counts of `feedIds` (a folder's badge). */
export function useUnreadSum(feedIds: readonly number[]): number {
  return useBadge(
    useCallback(
      (c) => {
        if (!c) return 0;
        let sum = 0;
        for (const id of feedIds) sum += c.counts[String(id)] ?? 0;
        return sum;
      },
      [feedIds],
    ),
  );
}

/** The total unread count (All articles, the browser tab's title). */
export function useTotalUnread(): number | undefined {
  return useBadge(useCallback((c) => c?.total, []));
}
