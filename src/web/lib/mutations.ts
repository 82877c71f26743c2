import { useMutation, useQueryClient, type QueryClient, type UseMutationOptions, type UseMutationResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { emit, on, type AppEvent, type MembershipChange, type ReadStatusChange } from './events.js';

/**
 * The one place where a change made in the app becomes the browser events of dashboard.md §7 ("Browser events")
 * and, through them, fresh queries (docs/decisions.md "Web structure: features, entries and mutations").
 * A mutation says what it changed; `announce` raises the events in the order the changes are named, and
 * `useRefetchOn` is how a query asks to be fetched again when one of them arrives. Components name changes, they
 * never dispatch the events themselves.
 */
export type Change =
  /** feeds-updated: the feed list (added, removed, renamed, reordered, muted, moved between folders). */
  | 'feeds'
  /** folders-updated: the folder list or a folder's feeds. */
  | 'folders'
  /** reading-lists-updated: the set of reading lists (created, renamed, rules edited, deleted, reordered). */
  | 'reading-lists'
  /** force-article-update: the visible article list must be fetched again. */
  | 'articles'
  /** force-unread-update: the unread counts must be fetched now. */
  | 'counts'
  /** unread-counts-updated: the unread counts moved; fetched after a short quiet (a burst is one request). */
  | 'counts-soon'
  /** reading-list-updated: the members of a list changed. */
  | { membership: MembershipChange }
  /** filters-updated: a feed's filters changed (sent when the filters dialog closes, §4 "Filters dialog"). */
  | { filters: { feedId: number } }
  /** article-read-status-changed: articles were marked read or unread. */
  | { readStatus: ReadStatusChange };

const EVENT_OF: Record<Extract<Change, string>, AppEvent> = {
  feeds: 'feeds-updated',
  folders: 'folders-updated',
  'reading-lists': 'reading-lists-updated',
  articles: 'force-article-update',
  counts: 'force-unread-update',
  'counts-soon': 'unread-counts-updated',
};

/** Raises the events for `changes`, in their order. */
export function announce(changes: readonly Change[]): void {
  for (const change of changes) {
    if (typeof change === 'string') emit(EVENT_OF[change]);
    else if ('membership' in change) emit<MembershipChange>('reading-list-updated', change.membership);
    else if ('filters' in change) emit('filters-updated', change.filters);
    else emit<ReadStatusChange>('article-read-status-changed', change.readStatus);
  }
}

export type AppMutationOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'onSuccess'> & {
  /** What a successful call changed (a list, or a function of the answer and the variables). A failure changes nothing. */
  changes: readonly Change[] | ((data: TData, variables: TVariables) => readonly Change[]);
  /** Announce this long after success instead of at once (a queued server job that needs time to finish). */
  announceAfterMs?: number;
};

/**
 * React Query's useMutation with the changes announced on success. The announcement is part of the mutation
 * itself (not of one `mutate` call), so it is made even when the component that started it has gone (a dialog
 * that closes on submit), and before `mutateAsync` resolves.
 */
export function useAppMutation<TData, TVariables = void>({
  changes,
  announceAfterMs,
  ...options
}: AppMutationOptions<TData, TVariables>): UseMutationResult<TData, Error, TVariables> {
  return useMutation({
    ...options,
    onSuccess: (data, variables) => {
      const list = typeof changes === 'function' ? changes(data, variables) : changes;
      if (announceAfterMs === undefined) announce(list);
      else setTimeout(() => announce(list), announceAfterMs);
    },
  });
}

/**
 * Refetches a query when an app event arrives. However many components use the hook, each query client listens
 * once per event and key (a shared, counted subscription), so one event means one request.
 */
const listeners = new WeakMap<QueryClient, Map<string, { count: number; off: () => void }>>();

export function useRefetchOn(event: AppEvent, queryKey: readonly unknown[], debounceMs = 0): void {
  const client = useQueryClient();
  const keyText = JSON.stringify(queryKey);
  useEffect(() => {
    let byKey = listeners.get(client);
    if (!byKey) listeners.set(client, (byKey = new Map()));
    const id = `${event}|${debounceMs}|${keyText}`;
    let entry = byKey.get(id);
    if (!entry) {
      const key = JSON.parse(keyText) as unknown[];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const refetch = () => void client.invalidateQueries({ queryKey: key });
      const stop = on(event, () => {
        if (debounceMs <= 0) return refetch();
        clearTimeout(timer);
        timer = setTimeout(refetch, debounceMs);
      });
      entry = { count: 0, off: () => (clearTimeout(timer), stop()) };
      byKey.set(id, entry);
    }
    entry.count++;
    return () => {
      const current = byKey.get(id);
      if (!current) return;
      if (--current.count === 0) {
        current.off();
        byKey.delete(id);
      }
    };
  }, [client, event, keyText, debounceMs]);
}
