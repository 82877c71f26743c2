import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  ArticleReadingListRef,
  ArticleReadingListsResponse,
  ReadingList,
  ReadingListInput,
  ReadingListResponse,
  ReadingListRule,
  ReadingListsResponse,
  ReadingListUnreadCount,
  ReadingListUnreadCountsResponse,
} from '../../../common/api.js';
import { MAX_READING_LIST_DESCRIPTION_LENGTH, MAX_READING_LIST_NAME_LENGTH } from '../../../common/limits.js';
import { api } from '../../lib/api.js';
import { announce, useAppMutation, useRefetchOn } from '../../lib/mutations.js';
import { UNREAD_COUNTS_DEBOUNCE_MS, UNREAD_COUNTS_STALE_MS } from '../feeds/index.js';

/**
 * The reading-list calls of dashboard.md §7 "Reading lists" (and GET /api/articles/{id}/reading-lists) and their
 * mutations, which name what they change (lib/mutations raises the events of §7 "Browser events"):
 * - 'reading-lists' (reading-lists-updated): the set of lists changed (created, renamed, rules edited, deleted, reordered);
 * - membership (reading-list-updated): the members of a list changed (which list and article, MembershipChange);
 * - 'counts-soon' (unread-counts-updated): an article joined or left a list, so a list's unread badge may change.
 */

/** §9 and §5: the limits the dialog enforces (the server checks the same ones again, src/common/limits.ts). */
export const NAME_MAX = MAX_READING_LIST_NAME_LENGTH;
export const DESCRIPTION_MAX = MAX_READING_LIST_DESCRIPTION_LENGTH;

export const readingListsKey = ['reading-lists'] as const;
export const readingListUnreadKey = ['reading-list-unread-counts'] as const;
export const readingListKey = (id: number) => ['reading-list', id] as const;
export const articleListsKey = (articleId: number) => ['article-reading-lists', articleId] as const;

/**
 * §5: angle brackets in names, descriptions and rule values are escaped before sending. What comes back is
 * shown with them unescaped again (React escapes on its own), so a user who typed "<3" reads "<3".
 */
export function escapeAngles(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function unescapeAngles(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/**
 * The body of POST/PUT: name and description trimmed, everything escaped, rules only for smart lists. Rule values
 * keep their spaces (the server stores them as typed: " ai " is a deliberate whole-word keyword).
 */
export function toInput(form: { name: string; description: string; is_smart: boolean; rules: ReadingListRule[] }): ReadingListInput {
  return {
    name: escapeAngles(form.name.trim()),
    description: escapeAngles(form.description.trim()),
    is_smart: form.is_smart,
    rules: form.is_smart
      ? form.rules.map((r) => ({
          rule_type: r.rule_type,
          rule_scope: r.rule_scope,
          rule_value: escapeAngles(r.rule_value),
          include_all_feeds: r.include_all_feeds,
          selected_feeds: r.include_all_feeds ? [] : r.selected_feeds,
        }))
      : [],
  };
}

/* ───────────── Calls ───────────── */

export function listReadingLists(): Promise<ReadingList[]> {
  return api<ReadingListsResponse>('/api/reading-lists').then((res) => res?.reading_lists ?? []);
}

export function getReadingList(id: number): Promise<ReadingList> {
  return api<ReadingListResponse>(`/api/reading-lists/${id}`).then((res) => res.reading_list);
}

export function getReadingListUnreadCounts(): Promise<ReadingListUnreadCount[]> {
  return api<ReadingListUnreadCountsResponse>('/api/reading-lists/unread_counts').then((res) => res?.unread_counts ?? []);
}

export async function createReadingList(input: ReadingListInput): Promise<ReadingList> {
  const res = await api<ReadingListResponse>('/api/reading-lists', { method: 'POST', body: input });
  return res.reading_list;
}

export async function updateReadingList(id: number, input: ReadingListInput): Promise<ReadingList> {
  const res = await api<ReadingListResponse>(`/api/reading-lists/${id}`, { method: 'PUT', body: input });
  return res.reading_list;
}

export async function deleteReadingList(id: number): Promise<void> {
  await api(`/api/reading-lists/${id}`, { method: 'DELETE' });
}

/** POST /api/reading-lists/sort with every list id in the new order. */
export async function sortReadingLists(ids: number[]): Promise<void> {
  await api('/api/reading-lists/sort', { method: 'POST', body: { reading_list_order: ids } });
}

export function articleReadingLists(articleId: number): Promise<ArticleReadingListRef[]> {
  return api<ArticleReadingListsResponse>(`/api/articles/${articleId}/reading-lists`).then((res) => res?.reading_lists ?? []);
}

/** Adds an article to a simple list; 409 ALREADY_IN_LIST when it is there, a 4xx when the list is smart. */
export async function addToReadingList(listId: number, articleId: number): Promise<void> {
  await api(`/api/reading-lists/${listId}/articles/${articleId}`, { method: 'POST' });
}

export async function removeFromReadingList(listId: number, articleId: number): Promise<void> {
  await api(`/api/reading-lists/${listId}/articles/${articleId}`, { method: 'DELETE' });
}

/* ───────────── Mutations ───────────── */

export function useCreateReadingList() {
  return useAppMutation({ mutationFn: createReadingList, changes: ['reading-lists', 'counts'] });
}

export function useUpdateReadingList() {
  return useAppMutation({
    mutationFn: ({ id, input }: { id: number; input: ReadingListInput }) => updateReadingList(id, input),
    // New rules mean new members: the list on screen and the unread badges follow.
    changes: (_list, { id }) => ['reading-lists', { membership: { list_id: id } }, 'counts'],
  });
}

export function useDeleteReadingList() {
  // Cards in other views may have been in this list only.
  return useAppMutation({ mutationFn: deleteReadingList, changes: ['reading-lists', 'articles'] });
}

export interface MembershipEdit {
  listId: number;
  articleId: number;
  action: 'add' | 'remove';
}

/**
 * Adds an article to a simple list or removes it. Whether the call succeeded or not (a 409 means it was there),
 * the article's lists are asked for again and the change announced with its new flag (the card's filled button,
 * §2), so the lists and their badges follow the server.
 */
export function useEditMembership() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ listId, articleId, action }: MembershipEdit) => (action === 'add' ? addToReadingList(listId, articleId) : removeFromReadingList(listId, articleId)),
    onSettled: async (_data, _error, { listId, articleId }) => {
      let inAny: boolean | undefined;
      try {
        const refs = await client.fetchQuery({ queryKey: articleListsKey(articleId), queryFn: () => articleReadingLists(articleId), staleTime: 0 });
        inAny = refs.length > 0;
      } catch {
        inAny = undefined;
      }
      announce([{ membership: { list_id: listId, article_id: articleId, in_reading_list: inAny } }, 'counts-soon']);
    },
  });
}

/* ───────────── Hooks ───────────── */

/** The user's lists in their order, refetched whenever lists or their members change. */
export function useReadingLists(): UseQueryResult<ReadingList[]> {
  useRefetchOn('reading-lists-updated', readingListsKey);
  useRefetchOn('reading-list-updated', readingListsKey);
  return useQuery({ queryKey: readingListsKey, queryFn: listReadingLists });
}

/** One list (the list page's title, description and rules). */
export function useReadingList(id: number): UseQueryResult<ReadingList> {
  useRefetchOn('reading-lists-updated', ['reading-list']);
  // Its article_count decides between "empty" and "all read".
  useRefetchOn('reading-list-updated', ['reading-list']);
  return useQuery({ queryKey: readingListKey(id), queryFn: () => getReadingList(id), retry: false });
}

/**
 * Unread articles per list, for the sidebar badges. Like the feeds' counts (§9): cached 60 s, a burst of read
 * marks (unread-counts-updated) is one request after 300 ms, a forced refresh or a membership change is at once.
 */
export function useReadingListUnreadCounts(): UseQueryResult<Map<number, number>> {
  useRefetchOn('unread-counts-updated', readingListUnreadKey, UNREAD_COUNTS_DEBOUNCE_MS);
  useRefetchOn('force-unread-update', readingListUnreadKey);
  useRefetchOn('reading-list-updated', readingListUnreadKey);
  useRefetchOn('reading-lists-updated', readingListUnreadKey);
  return useQuery({ queryKey: readingListUnreadKey, queryFn: fetchReadingListUnread, staleTime: UNREAD_COUNTS_STALE_MS });
}

/** The value of the lists' unread query (readingListUnreadKey): list id → unread count. */
export async function fetchReadingListUnread(): Promise<Map<number, number>> {
  return new Map((await getReadingListUnreadCounts()).map((c) => [c.id, c.unread_article_count]));
}

/**
 * One list's unread count, as its sidebar badge shows it (undefined while unknown). It selects its own number from
 * the shared query, so a count change re-renders the badges whose number changed and nothing else, as the feeds'
 * badges do (docs/decisions.md "Sidebar at scale"). Whoever shows the section keeps the query fresh with
 * useReadingListUnreadCounts (without reading its data).
 */
export function useReadingListUnread(listId: number): number | undefined {
  const select = useCallback((counts: Map<number, number>) => counts.get(listId), [listId]);
  return useQuery({ queryKey: readingListUnreadKey, queryFn: fetchReadingListUnread, staleTime: UNREAD_COUNTS_STALE_MS, select }).data;
}

/** The lists an article is in (the add-to-list modal). */
export function useArticleReadingLists(articleId: number): UseQueryResult<ArticleReadingListRef[]> {
  return useQuery({ queryKey: articleListsKey(articleId), queryFn: () => articleReadingLists(articleId), staleTime: 0 });
}

/**
 * Reordering with an optimistic cache update (§4 "Folders": applied at once, rolled back on failure).
 * Resolves false when the server refused, after the old order is back.
 */
export function useSortReadingLists(): (ids: number[]) => Promise<boolean> {
  const client = useQueryClient();
  // The new order is in the cache before the call (set here, not in onMutate, which runs a tick later and would
  // let the dropped list show its old order for a frame); the order is not announced, the cache already has it.
  const { mutateAsync } = useAppMutation({ mutationFn: sortReadingLists, changes: [] });
  return useCallback(
    async (ids: number[]) => {
      // A fetch of the lists already under way would land after the optimistic order and show the old one again.
      void client.cancelQueries({ queryKey: readingListsKey });
      const before = client.getQueryData<ReadingList[]>(readingListsKey);
      if (before) {
        const byId = new Map(before.map((l) => [l.id, l]));
        client.setQueryData<ReadingList[]>(
          readingListsKey,
          ids.map((id) => byId.get(id)).filter((l): l is ReadingList => Boolean(l)),
        );
      }
      try {
        await mutateAsync(ids);
        return true;
      } catch (err) {
        console.error('Reordering reading lists failed', err);
        if (before) client.setQueryData(readingListsKey, before);
        return false;
      } finally {
        void client.invalidateQueries({ queryKey: readingListsKey });
      }
    },
    [client, mutateAsync],
  );
}
