import { useQuery, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { MUTE_HOURS } from '../../../common/limits.js';
import type {
  AddFeedResponse,
  CatalogCategory,
  CatalogResponse,
  Feed,
  FeedFilter,
  FilterScopeName,
  FiltersResponse,
  FilterTypeName,
  OpmlImportResult,
  QueuedResponse,
  SearchFeedResult,
  SearchFeedsResponse,
  UnreadCounts,
} from '../../../common/api.js';
import { api } from '../../lib/api.js';
import { useAppMutation, useRefetchOn, type Change } from '../../lib/mutations.js';

/**
 * The feed and filter calls of dashboard.md §7 ("Feeds", "Filters"), and their mutations: each names what it
 * changes (§4, §7 "Browser events"), and lib/mutations raises the events, so the sidebar, the article lists and
 * the counts refresh without knowing who changed what:
 * - 'feeds' (feeds-updated): the feed list changed (added, removed, renamed, reordered, muted, refreshed);
 * - 'counts' (force-unread-update): the unread counts must be fetched now (mute hides a feed's articles from them);
 * - 'articles' (force-article-update): the visible article list must be fetched again (a new, deleted or muted feed);
 * - filters (filters-updated): announced by the filters dialog when it closes (§4 "Filters dialog"), not per call.
 * The plain calls raise nothing; components use the hooks.
 */

/** §9: unread counts are cached for 60 s; a count refresh request is debounced by 300 ms. */
export const UNREAD_COUNTS_STALE_MS = 60_000;
export const UNREAD_COUNTS_DEBOUNCE_MS = 300;
/** §4 "Feed mute": the durations on offer, in hours (null = permanently). */
export const MUTE_DURATIONS_HOURS = MUTE_HOURS;

export const feedsKey = ['feeds'] as const;
export const unreadCountsKey = ['unread-counts'] as const;
export const filtersKey = (feedId: number) => ['feed-filters', feedId] as const;

/* ───────────── Feeds ───────────── */

export function listFeeds(): Promise<Feed[]> {
  return api<Feed[]>('/api/feeds');
}

export function getUnreadCounts(): Promise<UnreadCounts> {
  return api<UnreadCounts>('/api/feeds/unread_counts').then((res) => ({ counts: res?.counts ?? {}, total: res?.total ?? 0 }));
}

/**
 * The last counts the server sent to a query client, with their version (docs/decisions.md "Sidebar at scale"):
 * the base a delta applies to. Kept beside the cache rather than in it, because the optimistic count changes of
 * the article views rewrite the cached counts (and are superseded by the next answer anyway).
 */
const serverCounts = new WeakMap<QueryClient, { version: string; buckets: number; counts: Record<string, number> }>();

/**
 * GET /api/feeds/unread_counts as a delta when possible: the version of the last answer goes as `since`, and the
 * answer's changed buckets replace those of the last counts. Without a base (first call, cleared cache) or when the
 * server answers in full (another bucket count, an old server), the answer is taken whole.
 */
export async function fetchUnreadCounts(client: QueryClient): Promise<UnreadCounts> {
  const base = client.getQueryData(unreadCountsKey) === undefined ? undefined : serverCounts.get(client);
  const res = await api<UnreadCounts>(`/api/feeds/unread_counts${base ? `?since=${encodeURIComponent(base.version)}` : ''}`);
  const sent = res?.counts ?? {};
  let counts = sent;
  if (base && res?.delta && res.delta.buckets === base.buckets) {
    const changed = new Set(res.delta.changed);
    counts = {};
    for (const [id, n] of Object.entries(base.counts)) if (!changed.has(Number(id) % base.buckets)) counts[id] = n;
    Object.assign(counts, sent);
  }
  if (res?.version) serverCounts.set(client, { version: res.version, buckets: Number(res.version.split('.')[1]) || 1, counts });
  else serverCounts.delete(client);
  return { counts, total: res?.total ?? 0 };
}

/** POST /api/feeds: subscribes (discovering the feed when the URL is a page). 400 invalid URL, 409 already subscribed. */
export async function addFeed(url: string): Promise<AddFeedResponse> {
  const feed = await api<AddFeedResponse>('/api/feeds', { method: 'POST', body: { url: url.trim() } });
  return feed;
}

/** POST /api/feeds/search: the feeds found at or behind a URL (no subscription is made). */
export function searchFeeds(url: string): Promise<SearchFeedResult[]> {
  return api<SearchFeedsResponse>('/api/feeds/search', { method: 'POST', body: { url: url.trim() } }).then((res) => res.feeds);
}

/** POST /api/feeds/{id}/mute: for `duration` hours (one of MUTE_DURATIONS_HOURS), or permanently (duration null). */
export async function muteFeed(id: number, options: { duration: number | null; permanently: boolean }): Promise<void> {
  await api(`/api/feeds/${id}/mute`, { method: 'POST', body: { duration: options.duration, permanently: options.permanently } });
}

export async function unmuteFeed(id: number): Promise<void> {
  await api(`/api/feeds/${id}/unmute`, { method: 'POST' });
}

/** POST /api/feeds/set_custom_title: an empty title removes the custom one (the feed's own title shows again). */
export async function setCustomTitle(id: number, title: string): Promise<void> {
  await api('/api/feeds/set_custom_title', { method: 'POST', body: { feed_id: id, custom_title: title.trim() } });
}

/**
 * PUT /api/feeds/{id} {always_load_original}: whether opening an article of this feed always fetches the original
 * page (otherwise only when the feed carries teasers, or when asked).
 */
export async function setAlwaysLoadOriginal(id: number, value: boolean): Promise<void> {
  await api(`/api/feeds/${id}`, { method: 'PUT', body: { always_load_original: value } });
}

export async function deleteFeed(id: number): Promise<void> {
  await api(`/api/feeds/${id}`, { method: 'DELETE' });
}

/** DELETE /api/feeds/all (account settings, "delete all feeds"). */
export async function deleteAllFeeds(): Promise<void> {
  await api('/api/feeds/all', { method: 'DELETE' });
}

/** POST /api/feeds/sort with the user's feed ids in their new order. */
export async function sortFeeds(ids: number[]): Promise<void> {
  await api('/api/feeds/sort', { method: 'POST', body: { feed_order: ids } });
}

/** How long after "refresh now" the lists look again: the server queues the fetch (202) and answers at once. */
export const REFRESH_SETTLE_MS = 4000;

/**
 * POST /api/feeds/{id}/refresh: queues a fetch of the feed now (202 {queued}). The fetch runs in the background,
 * so the feed list, counts and articles are asked for again once it has had time to finish (useRefreshFeed).
 */
export async function refreshFeed(id: number): Promise<void> {
  await api<QueuedResponse>(`/api/feeds/${id}/refresh`, { method: 'POST' });
}

/** POST /api/feeds/import/opml (multipart, field opml_file): subscriptions and folders from an OPML file. */
export async function importOpml(file: File): Promise<OpmlImportResult> {
  const form = new FormData();
  form.append('opml_file', file);
  const result = await api<OpmlImportResult>('/api/feeds/import/opml', { method: 'POST', body: form });
  return result;
}

/** GET /api/feeds/export/opml: the OPML document as text. */
export async function exportOpml(): Promise<string> {
  const text = await api<unknown>('/api/feeds/export/opml');
  if (typeof text !== 'string' || !text.includes('<opml')) throw new Error('The export is not an OPML document.');
  return text;
}

/** dashboard.md §9: feeder-feeds-{date YYYY-MM-DD}.opml, the date as the user's calendar shows it. */
export function opmlFilename(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `feeder-feeds-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}.opml`;
}

/**
 * Fetches the export and saves it as feeder-feeds-YYYY-MM-DD.opml (a download, as the browser does for files);
 * resolves to the file's name.
 */
export async function downloadOpmlExport(): Promise<string> {
  const text = await exportOpml();
  const filename = opmlFilename();
  const url = URL.createObjectURL(new Blob([text], { type: 'application/xml' }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Revoked after the click has been handled; the download keeps its own copy.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return filename;
}

/* ───────────── Catalog ───────────── */

export const catalogKey = ['catalog'] as const;

/** GET /api/catalog: the built-in catalog (dashboard.md §3 "Catalog category"). */
export function getCatalog(): Promise<CatalogCategory[]> {
  return api<CatalogResponse>('/api/catalog').then((res) => res.categories);
}

/** The catalog changes only with a release: fetched once per session. */
export function useCatalog(enabled = true): UseQueryResult<CatalogCategory[]> {
  return useQuery({ queryKey: catalogKey, queryFn: getCatalog, staleTime: Infinity, gcTime: Infinity, enabled });
}

/* ───────────── Filters ───────────── */

export interface NewFilter {
  filter_type: FilterTypeName;
  filter_scope: FilterScopeName;
  filter_text: string;
}

export function listFilters(feedId: number): Promise<FeedFilter[]> {
  return api<FiltersResponse>(`/api/feeds/${feedId}/filters`).then((res) => res.filters);
}

/** 400 when the text is blank, 409 when the same filter exists. */
export function addFilter(feedId: number, filter: NewFilter): Promise<FeedFilter> {
  return api<FeedFilter>(`/api/feeds/${feedId}/filters`, { method: 'POST', body: { ...filter, filter_text: filter.filter_text.trim() } });
}

export async function deleteFilter(filterId: number): Promise<void> {
  await api(`/api/feeds/filters/${filterId}`, { method: 'DELETE' });
}

/* ───────────── Hooks ───────────── */

/** The user's feeds in their order (GET /api/feeds), refetched on feeds-updated. Muted feeds are included. */
export function useFeeds(): UseQueryResult<Feed[]> {
  useRefetchOn('feeds-updated', feedsKey);
  return useQuery({ queryKey: feedsKey, queryFn: listFeeds });
}

/** §4 "Background poll": every 30 s; the counts follow with it, so the badges keep up with the lists. */
export const UNREAD_COUNTS_POLL_MS = 30_000;

/**
 * Unread counts per feed and in total (§9: cached 60 s). unread-counts-updated refetches after 300 ms of quiet
 * (a burst of read marks costs one request); force-unread-update refetches at once; and they are asked for every
 * 30 s. Each fetch is a delta against the last answer (fetchUnreadCounts).
 */
export function useUnreadCounts(): UseQueryResult<UnreadCounts> {
  const client = useQueryClient();
  useRefetchOn('unread-counts-updated', unreadCountsKey, UNREAD_COUNTS_DEBOUNCE_MS);
  useRefetchOn('force-unread-update', unreadCountsKey);
  return useQuery({
    queryKey: unreadCountsKey,
    queryFn: () => fetchUnreadCounts(client),
    staleTime: UNREAD_COUNTS_STALE_MS,
    refetchInterval: UNREAD_COUNTS_POLL_MS,
  });
}

/** One feed's filters (GET /api/feeds/{id}/filters), refetched on filters-updated. */
export function useFeedFilters(feedId: number, enabled = true): UseQueryResult<FeedFilter[]> {
  useRefetchOn('filters-updated', ['feed-filters']);
  return useQuery({ queryKey: filtersKey(feedId), queryFn: () => listFilters(feedId), enabled });
}

/* ───────────── Mutations ───────────── */

/** A feed came, went, or was muted or unmuted: the feed list, the counts and the visible articles all change. */
const FEED_SET_CHANGED: readonly Change[] = ['feeds', 'counts', 'articles'];

export function useAddFeed() {
  return useAppMutation({ mutationFn: addFeed, changes: FEED_SET_CHANGED });
}

export function useMuteFeed() {
  return useAppMutation({
    mutationFn: ({ id, ...options }: { id: number; duration: number | null; permanently: boolean }) => muteFeed(id, options),
    changes: FEED_SET_CHANGED,
  });
}

export function useUnmuteFeed() {
  return useAppMutation({ mutationFn: unmuteFeed, changes: FEED_SET_CHANGED });
}

export function useSetCustomTitle() {
  return useAppMutation({
    mutationFn: ({ id, title }: { id: number; title: string }) => setCustomTitle(id, title),
    // Article cards show the feed's title.
    changes: ['feeds', 'articles'],
  });
}

/**
 * The switch shows the new state at once (the feed list's cache is updated before the call) and goes back when the
 * server refuses; the feed list is fetched again afterwards either way.
 */
export function useSetAlwaysLoadOriginal() {
  const client = useQueryClient();
  return useAppMutation({
    mutationFn: ({ id, value }: { id: number; value: boolean }) => setAlwaysLoadOriginal(id, value),
    onMutate: async ({ id, value }) => {
      await client.cancelQueries({ queryKey: feedsKey });
      const before = client.getQueryData<Feed[]>(feedsKey);
      client.setQueryData<Feed[]>(feedsKey, (list) => list?.map((f) => (f.id === id ? { ...f, always_load_original: value } : f)));
      return { before };
    },
    onError: (_err, _vars, context) => {
      const before = (context as { before?: Feed[] } | undefined)?.before;
      if (before) client.setQueryData(feedsKey, before);
    },
    // The article view reads the setting from the feed list.
    changes: ['feeds'],
  });
}

export function useDeleteFeed() {
  return useAppMutation({ mutationFn: deleteFeed, changes: FEED_SET_CHANGED });
}

/** With every feed gone nothing is unread: the counts drop to 0 at once (the refetch confirms it). */
export function useDeleteAllFeeds() {
  const client = useQueryClient();
  return useAppMutation({
    mutationFn: async () => {
      await deleteAllFeeds();
      client.setQueryData<UnreadCounts>(unreadCountsKey, { counts: {}, total: 0 });
    },
    changes: FEED_SET_CHANGED,
  });
}

export function useSortFeeds() {
  return useAppMutation({ mutationFn: sortFeeds, changes: ['feeds'] });
}

/** The server answers at once and fetches in the background: the lists are asked for again after REFRESH_SETTLE_MS. */
export function useRefreshFeed() {
  return useAppMutation({ mutationFn: refreshFeed, changes: FEED_SET_CHANGED, announceAfterMs: REFRESH_SETTLE_MS });
}

export function useImportOpml() {
  return useAppMutation({ mutationFn: importOpml, changes: ['feeds', 'folders', 'counts', 'articles'] });
}

/** Filter calls change nothing on their own: the dialog announces the filters once, when it closes (§4). */
export function useAddFilter() {
  return useAppMutation({ mutationFn: ({ feedId, filter }: { feedId: number; filter: NewFilter }) => addFilter(feedId, filter), changes: [] });
}

export function useDeleteFilter() {
  return useAppMutation({ mutationFn: deleteFilter, changes: [] });
}

/* ───────────── Presentation helpers ───────────── */

type TitledFeed = Pick<Feed, 'title'> & Partial<Pick<Feed, 'custom_title' | 'original_title'>>;

/** What a feed is called (§3, §9): its custom title, else its own title, else "Unbenannter Feed". */
export function feedTitle(feed: TitledFeed, t: TFunction): string {
  return feed.custom_title?.trim() || feed.title?.trim() || feed.original_title?.trim() || t('feeds.unnamed');
}
