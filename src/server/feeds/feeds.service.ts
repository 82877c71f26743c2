import { createHash } from 'node:crypto';
import type { AddFeedResponse, Feed, SearchFeedResult, UnreadCounts } from '../../common/api.js';
import { changedBuckets, parseUnreadToken, unreadVersion } from './unread-delta.js';
import { MAX_CUSTOM_TITLE_LENGTH, MUTE_HOURS } from '../../common/limits.js';
import type { Db } from '../db/database.js';
import { changedPositions, writePositions } from '../db/sort-order.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { onFirstUse } from '../../common/lazy.js';
import { normalizeInput } from '../reader/discover/input.js';
import type { Fetcher } from '../reader/fetch/index.js';
import { poolParsers, type ParsePool } from '../refresh/document-pool.js';
import { ReaderError, type DiscoveredFeed } from '../reader/types.js';
import { normalizeFeedUrl } from './feed-url.js';
import { presentFeed } from './feeds.presenter.js';
import * as repo from './feeds.repository.js';
import { SummariesCache } from './summaries-cache.js';
import * as subscriptions from './subscriptions.repository.js';

/**
 * The user's feeds (dashboard.md §3, §4, §7 "Feeds", §8 "Feed management"; decisions.md "Feeds and articles";
 * docs/decisions.md "Reading"): list, subscribe by URL (with discovery), rename, reorder, mute, unread counts,
 * search, delete and refresh now.
 */

export interface FeedsServiceDeps {
  db: Db;
  /** The SSRF-guarded fetcher of the refresh engine: discovery fetches through it. */
  fetcher: Fetcher;
  /** Where discovery parses what it fetched: the worker pool (never the main thread, docs/decisions.md "Worker pool"). */
  pool: ParsePool;
  /** Queues feeds for a refresh as soon as possible (the refresh engine's enqueue). */
  enqueue: (feedIds: number[]) => Promise<void>;
  now: () => Date;
  log: { error: (obj: object, msg: string) => void };
  /** Bytes of feed summaries kept for answering again (default SUMMARIES_CACHE_BYTES); 0 keeps none (tests). */
  summariesCacheBytes?: number;
}

export const feedNotFound = () => notFound('FEED_NOT_FOUND', 'Feed not found.');

/** Characters as a person counts them (code points), as varchar(n) counts them on PostgreSQL. */
const charCount = (s: string) => [...s].length;

/**
 * What discovery's failures mean to the add-feed dialog (dashboard.md §8: 400 invalid URL, 404 feed not found,
 * anything else the generic error). The code stays the feed-errors code where the web app has a text for it.
 * - not a web address → 400 INVALID_URL;
 * - nothing found there (no feed linked or at the usual paths, the page is not a feed, the site says 404/410)
 *   → 404 FEED_NOT_FOUND;
 * - the site could not be reached or answered badly (DNS, connection, timeout, redirects, other HTTP errors, rate
 *   limits) → 502 with the feed-errors code: the problem is upstream, not in the request;
 * - the address is refused on purpose, or what is there cannot be used (private network, too large, broken feed,
 *   entity declarations) → 422 with the feed-errors code.
 */
export function discoveryError(err: unknown): unknown {
  if (!(err instanceof ReaderError)) return err;
  switch (err.code) {
    case 'FETCH_INVALID_URL':
      return new AppError(400, 'INVALID_URL', err.message);
    case 'DISCOVER_NO_FEED':
    case 'PARSE_NOT_A_FEED':
      return new AppError(404, 'FEED_NOT_FOUND', err.message);
    case 'FETCH_HTTP_ERROR':
      if (err.details.status === 404 || err.details.status === 410) return new AppError(404, 'FEED_NOT_FOUND', err.message);
      return new AppError(502, err.code, err.message);
    case 'FETCH_DNS':
    case 'FETCH_CONNECTION':
    case 'FETCH_TIMEOUT':
    case 'FETCH_TOO_MANY_REDIRECTS':
    case 'FETCH_RATE_LIMITED':
      return new AppError(502, err.code, err.message);
    default:
      return new AppError(422, err.code, err.message);
  }
}

/**
 * Discovery (with the encoding sniffer and its tables) is loaded on the first add-feed search, not at start (docs/decisions.md
 * "Process memory: modules on first use").
 */
const loadDiscovery = onFirstUse('feed discovery', () => import('../reader/discover/index.js'));

export class FeedsService {
  private readonly summariesCache: SummariesCache;

  constructor(private readonly deps: FeedsServiceDeps) {
    this.summariesCache = new SummariesCache(deps.summariesCacheBytes);
  }

  private nowIso(): string {
    return this.deps.now().toISOString();
  }

  private async discover(input: string): Promise<DiscoveredFeed[]> {
    const text = input.trim();
    if (!text) throw badRequest('URL_REQUIRED', 'Please enter a web address.');
    const { discoverFeeds } = await loadDiscovery();
    try {
      return await discoverFeeds(text, this.deps.fetcher, poolParsers(this.deps.pool));
    } catch (err) {
      throw discoveryError(err);
    }
  }

  /** The feed as the API presents it; 404 when the user does not subscribe to it. */
  async get(userId: number, feedId: number): Promise<Feed> {
    const row = await subscriptions.findUserFeed(this.deps.db, userId, feedId);
    if (!row) throw feedNotFound();
    return presentFeed(row, this.nowIso());
  }

  async list(userId: number): Promise<Feed[]> {
    const now = this.nowIso();
    return (await subscriptions.listUserFeeds(this.deps.db, userId)).map((row) => presentFeed(row, now));
  }

  /**
   * What the dashboard's start shows of every feed (FeedSummariesReply) as JSON text, with an entity tag of that
   * text: the route answers 304 when the browser holds it already (docs/decisions.md "Feed summaries"). An answer
   * this process gave before is given again while the user's feed-list version stands (one primary-key read instead
   * of the aggregate: docs/decisions.md "Feed summaries: the list's version").
   */
  async summaries(userId: number): Promise<{ json: string; etag: string }> {
    const { db } = this.deps;
    const now = this.nowIso();
    if (this.summariesCache.has(userId)) {
      const kept = this.summariesCache.get(userId, await subscriptions.feedListVersion(db, userId), now);
      if (kept) return kept;
    }
    const text = await subscriptions.feedSummariesJson(db, userId, now);
    // sha1 is plenty for telling two versions of one user's list apart, and the fastest hash node has built in.
    const kept = { ...text, etag: `"${createHash('sha1').update(text.json).digest('base64url')}"` };
    this.summariesCache.set(userId, kept);
    return kept;
  }

  /**
   * Subscribes the user to the first feed discovery finds at or behind the URL. The new feed is queued for an
   * urgent refresh; a feed other users read already brings its stored articles along (subscribe backfills them).
   */
  async add(userId: number, input: string): Promise<AddFeedResponse> {
    const { db } = this.deps;
    const text = input.trim();
    if (!text) throw badRequest('URL_REQUIRED', 'Please enter a web address.');
    // The exact URL of a feed the user reads already is answered without fetching anything.
    let typed: string | null = null;
    try {
      typed = normalizeFeedUrl(normalizeInput(text).href);
    } catch (err) {
      throw discoveryError(err);
    }
    if (typed && (await subscriptions.subscribedUrls(db, userId, [typed])).has(typed)) throw feedExists();

    const [found] = await this.discover(text);
    const url = normalizeFeedUrl(found.url);
    if (!url) throw notFound('FEED_NOT_FOUND', `No usable feed address was found (${found.url}).`);
    if ((await subscriptions.subscribedUrls(db, userId, [url])).has(url)) throw feedExists();

    const now = this.nowIso();
    const { feed } = await repo.ensureFeed(db, url, now);
    // Until its first refresh the feed is known by the title discovery saw; the refresh replaces it.
    if (found.title) await repo.setFeedTitleIfEmpty(db, feed.id, found.title);
    if (!(await subscriptions.subscribe(db, userId, feed.id, now))) throw feedExists();
    await this.queue(feed.id);
    return { ...(await this.get(userId, feed.id)), is_new: true };
  }

  /**
   * Queues a refresh. When the queue is down the engine makes the feed due in the database instead, so the next
   * scheduler step takes it (docs/decisions.md "Redis outages"); should even that fail, the subscription stands
   * and the answer says so rather than an error: the scheduler finds a new feed due anyway.
   */
  private async queue(feedId: number): Promise<void> {
    try {
      await this.deps.enqueue([feedId]);
    } catch (err) {
      this.deps.log.error({ err, feedId }, 'could not queue a feed refresh; the scheduler takes it instead');
    }
  }

  /**
   * PUT /api/feeds/{id}: custom_title and always_load_original are writable; whatever else the client sends back is
   * ignored. The title is checked before anything is written.
   */
  async update(userId: number, feedId: number, body: { custom_title?: string | null; always_load_original?: boolean }): Promise<Feed> {
    if (body.always_load_original !== undefined) {
      if (body.custom_title !== undefined) checkCustomTitle(body.custom_title);
      if (!(await subscriptions.setAlwaysLoadOriginal(this.deps.db, userId, feedId, body.always_load_original))) throw feedNotFound();
    }
    if (body.custom_title === undefined) return this.get(userId, feedId);
    return this.setCustomTitle(userId, feedId, body.custom_title);
  }

  /** Trimmed; empty or null clears it, so the feed's own title shows again. */
  async setCustomTitle(userId: number, feedId: number, raw: string | null): Promise<Feed> {
    const title = checkCustomTitle(raw);
    if (!(await subscriptions.setCustomTitle(this.deps.db, userId, feedId, title))) throw feedNotFound();
    return this.get(userId, feedId);
  }

  /**
   * New order: the named feeds first, in the order given; feeds not named keep their relative order after them.
   * An id the user does not subscribe to is a 404 (as everywhere), a repeated id a 400; nothing is written then.
   */
  async sort(userId: number, feedOrder: readonly number[]): Promise<Feed[]> {
    if (new Set(feedOrder).size !== feedOrder.length) throw badRequest('DUPLICATE_FEED_ID', 'A feed is named more than once.');
    await this.deps.db.transaction().execute(async (trx) => {
      const current = await subscriptions.orderedFeedIds(trx, userId);
      const byFeed = new Map(current.map((s) => [s.feed_id, s]));
      if (feedOrder.some((id) => !byFeed.has(id))) throw feedNotFound();
      await writePositions(
        trx,
        'subscriptions',
        userId,
        changedPositions(
          current.map((s) => ({ ...s, key: s.feed_id })),
          feedOrder,
        ),
      );
    });
    return this.list(userId);
  }

  /**
   * Unread articles per feed (not filtered out), muted feeds left out; total is their sum. With `since` (the version
   * of an earlier answer) only the buckets that changed since then (unread-delta.ts).
   */
  async unreadCounts(userId: number, since?: string): Promise<UnreadCounts> {
    const rows = await subscriptions.unreadCountRows(this.deps.db, userId, this.nowIso());
    const version = unreadVersion(rows);
    const changed = changedBuckets(version, parseUnreadToken(since));
    const wanted = changed === null ? null : new Set(changed);
    const counts: Record<string, number> = {};
    let total = 0;
    for (const row of rows) {
      total += row.unread_count;
      if (wanted === null || wanted.has(row.feed_id % version.buckets)) counts[String(row.feed_id)] = row.unread_count;
    }
    return changed === null ? { counts, total, version: version.token } : { counts, total, version: version.token, delta: { buckets: version.buckets, changed } };
  }

  /** A stored icon by its content address (GET /api/icons/{hash}); 404 when no feed has it. */
  async icon(hash: string): Promise<{ type: string; bytes: Buffer }> {
    const row = await repo.findIconByHash(this.deps.db, hash);
    if (!row?.icon_data) throw notFound('ICON_NOT_FOUND', 'No such icon.');
    return { type: row.icon_type ?? 'application/octet-stream', bytes: Buffer.from(row.icon_data, 'base64') };
  }

  /** Every feed discovery finds at or behind the URL, each marked when the user reads it already. */
  async search(userId: number, input: string): Promise<{ feeds: SearchFeedResult[] }> {
    const found = await this.discover(input);
    const urls = found.map((f) => normalizeFeedUrl(f.url));
    const subscribed = await subscriptions.subscribedUrls(
      this.deps.db,
      userId,
      urls.filter((u): u is string => u !== null),
    );
    return {
      feeds: found.map((f, i) => ({
        title: f.title,
        url: f.url,
        favicon_url: f.favicon_url,
        subscribed: urls[i] !== null && subscribed.has(urls[i]),
      })),
    };
  }

  /**
   * Mutes for one of MUTE_HOURS hours (dashboard.md §9), or permanently (then no duration may be given).
   * A timed mute ends by itself at muted_until.
   */
  async mute(userId: number, feedId: number, body: { duration?: number | null; permanently?: boolean }): Promise<Feed> {
    const duration = body.duration ?? null;
    let state: { muted_permanently: number; muted_until: string | null };
    if (body.permanently === true) {
      if (duration !== null) throw invalidMute();
      state = { muted_permanently: 1, muted_until: null };
    } else {
      if (duration === null || !(MUTE_HOURS as readonly number[]).includes(duration)) throw invalidMute();
      state = { muted_permanently: 0, muted_until: new Date(this.deps.now().getTime() + duration * 3_600_000).toISOString() };
    }
    if (!(await subscriptions.setMute(this.deps.db, userId, feedId, state))) throw feedNotFound();
    return this.get(userId, feedId);
  }

  async unmute(userId: number, feedId: number): Promise<Feed> {
    if (!(await subscriptions.setMute(this.deps.db, userId, feedId, { muted_permanently: 0, muted_until: null }))) throw feedNotFound();
    return this.get(userId, feedId);
  }

  /** Ends the subscription with its filters and the user's articles of the feed, favourites included. */
  async remove(userId: number, feedId: number): Promise<void> {
    const removed = await this.deps.db.transaction().execute((trx) => subscriptions.unsubscribe(trx, userId, feedId));
    if (!removed) throw feedNotFound();
  }

  async removeAll(userId: number): Promise<void> {
    await this.deps.db.transaction().execute((trx) => subscriptions.unsubscribeAll(trx, userId));
  }

  /** "Refresh now": queued at the front; the answer does not wait for the fetch. */
  async refresh(userId: number, feedId: number): Promise<{ queued: boolean }> {
    if ((await subscriptions.findSubscriptionId(this.deps.db, userId, feedId)) === undefined) throw feedNotFound();
    await this.queue(feedId);
    return { queued: true };
  }
}

/** The custom title as stored: trimmed, null when empty; 400 CUSTOM_TITLE_TOO_LONG beyond the limit. */
function checkCustomTitle(raw: string | null): string | null {
  const title = raw?.trim() || null;
  if (title && charCount(title) > MAX_CUSTOM_TITLE_LENGTH) {
    throw badRequest('CUSTOM_TITLE_TOO_LONG', `The title may be at most ${MAX_CUSTOM_TITLE_LENGTH} characters long.`);
  }
  return title;
}

const feedExists = () => conflict('FEED_EXISTS', 'You already subscribe to this feed.');
const invalidMute = () => badRequest('INVALID_MUTE_DURATION', `Mute for ${MUTE_HOURS.join(', ')} hours (duration) or permanently (permanently: true, no duration).`);
