import { useQuery, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { MUTE_HOURS } from '../../../common/limits.js';
import type {
  AddFeedResponse,
  CatalogCategory,
  CatalogResponse,
  CatalogSubscribedResponse,
  Feed,
  FeedFilter,
  FeedSummariesResponse,
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

/** The full feed list (feed management). Its prefix covers feedSummariesKey and catalogSubscribedKey. */
export const feedsKey = ['feeds'] as const;
/** The feed summaries of the dashboard's start; under feedsKey, so every feeds-updated refreshes them too. */
export const feedSummariesKey = ['feeds', 'summaries'] as const;
/** The catalog entries the user subscribes to; under feedsKey, so whatever refreshes the feed lists refreshes it too. */
export const catalogSubscribedKey = ['feeds', 'catalog-subscribed'] as const;
export const unreadCountsKey = ['unread-counts'] as const;
export const filtersKey = (feedId: number) => ['feed-filters', feedId] as const;

/* ───────────── Feeds ───────────── */

export function listFeeds(): Promise<Feed[]> {
  return api<Feed[]>('/api/feeds');
}

/**
 * What the dashboard shows of a feed: GET /api/feeds/summaries unpacked into one object per feed, with the names of
 * the same fields of Feed (docs/decisions.md "Feed summaries"). The sidebar, the article views, n/p and the rule
 * editor read these; screens that need a feed's URL, description or health load the full list (useFeeds).
 */
export interface FeedSummary {
  id: number;
  /** The custom title, else the feed's own title, else '' (shown as "Unbenannter Feed"). */
  title: string;
  folder_id: number | null;
  /** Position in the user's order (0-based). */
  sort_order: number;
  /** The stored icon's content address (/api/icons/{hash}, cached for good), or null: the letter tile. */
  favicon_url: string | null;
  last_error_code: string | null;
  is_muted: boolean;
  muted_permanently: boolean;
  /** When a timed mute ends (UTC ISO 8601); null when not muted or muted permanently. */
  muted_until: string | null;
  /** false while a new feed waits for its first fetch. */
  fetched: boolean;
  always_load_original: boolean;
}

export function unpackFeedSummaries(res: FeedSummariesResponse): FeedSummary[] {
  const unfetched = new Set(res.unfetched);
  const original = new Set(res.always_load_original);
  return res.ids.map((id, i) => {
    const muted = res.muted[id];
    const icon = res.icons[i];
    return {
      id,
      title: res.titles[i],
      folder_id: res.folders[i],
      sort_order: i,
      favicon_url: icon === null ? null : `/api/icons/${icon}`,
      last_error_code: res.errors[i],
      is_muted: muted !== undefined,
      muted_permanently: muted === null,
      muted_until: muted ?? null,
      fetched: !unfetched.has(id),
      always_load_original: original.has(id),
    };
  });
}

/**
 * GET /api/feeds/summaries. The browser keeps the answer and revalidates it with its entity tag (the server sends
 * it private, no-cache), so an unchanged list comes back as a 304 and costs no download.
 */
export function listFeedSummaries(): Promise<FeedSummary[]> {
  return api<FeedSummariesResponse>('/api/feeds/summaries').then(unpackFeedSummaries);
}

/**
 * Puts the cached summaries into the order of `ids` (the feeds not named keep theirs after them), as the server will
 * after POST /api/feeds/sort; returns what was cached before, for a roll-back.
 */
export function reorderFeedSummaries(client: QueryClient, ids: readonly number[]): FeedSummary[] | undefined {
  const before = client.getQueryData<FeedSummary[]>(feedSummariesKey);
  if (!before) return undefined;
  void client.cancelQueries({ queryKey: feedSummariesKey });
  const byId = new Map(before.map((f) => [f.id, f]));
  const named = new Set(ids);
  const next = [...ids.flatMap((id) => byId.get(id) ?? []), ...before.filter((f) => !named.has(f.id))];
  client.setQueryData<FeedSummary[]>(
    feedSummariesKey,
    next.map((f, i) => (f.sort_order === i ? f : { ...f, sort_order: i })),
  );
  return before;
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

/**
 * GET /api/catalog/subscribed: the catalog's addresses (xmlUrl as the catalog lists them) the user subscribes to,
 * matched by the server as subscribing matches a feed (docs/decisions.md "The catalog's subscribed entries"). The
 * browser revalidates it with its entity tag (private, no-cache), so asking again costs a 304.
 */
export function getCatalogSubscribed(): Promise<string[]> {
  return api<CatalogSubscribedResponse>('/api/catalog/subscribed').then((res) => res.subscribed);
}

/**
 * The catalog's subscribed entries, refetched on feeds-updated (its key is under feedsKey, so every invalidation of
 * the feed lists reaches it too). Dropped from the cache as soon as no catalog shows it (gcTime 0): a catalog opened
 * again waits for the server's answer instead of showing the markers of a list that may have changed meanwhile.
 */
export function useCatalogSubscribed(enabled = true): UseQueryResult<string[]> {
  useRefetchOn('feeds-updated', feedsKey);
  return useQuery({ queryKey: catalogSubscribedKey, queryFn: getCatalogSubscribed, gcTime: 0, enabled });
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

/**
 * The user's feeds in their order with every detail (GET /api/feeds), refetched on feeds-updated. Muted feeds are
 * included. The dashboard's start uses useFeedSummaries and the catalog useCatalogSubscribed instead; this is for the
 * screens that show URLs, descriptions and health.
 */
export function useFeeds(): UseQueryResult<Feed[]> {
  useRefetchOn('feeds-updated', feedsKey);
  return useQuery({ queryKey: feedsKey, queryFn: listFeeds });
}

/**
 * The feed summaries in the user's order (GET /api/feeds/summaries), refetched on feeds-updated (the same
 * listener as useFeeds: one invalidation of the feeds prefix refreshes both). Muted feeds are included.
 */
export function useFeedSummaries(): UseQueryResult<FeedSummary[]> {
  useRefetchOn('feeds-updated', feedsKey);
  return useQuery({ queryKey: feedSummariesKey, queryFn: listFeedSummaries });
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
      const summaries = client.getQueryData<FeedSummary[]>(feedSummariesKey);
      const set = <T extends { id: number; always_load_original: boolean }>(list: T[] | undefined) =>
        list?.map((f) => (f.id === id ? { ...f, always_load_original: value } : f));
      client.setQueryData<Feed[]>(feedsKey, set);
      client.setQueryData<FeedSummary[]>(feedSummariesKey, set);
      return { before, summaries };
    },
    onError: (_err, _vars, context) => {
      const { before, summaries } = (context ?? {}) as { before?: Feed[]; summaries?: FeedSummary[] };
      if (before) client.setQueryData(feedsKey, before);
      if (summaries) client.setQueryData(feedSummariesKey, summaries);
    },
    // The article view reads the setting from the feed summaries.
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
