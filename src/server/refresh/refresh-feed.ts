import { createHash } from 'node:crypto';
import { FEED_ERROR_CODES, type FeedErrorCode } from '../../common/feed-errors.js';
import { storedContentHashes, writeFeedItems, type StoredItem } from '../articles/articles.repository.js';
import type { FeedEngineConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { normalizeFeedUrl } from '../feeds/feed-url.js';
import {
  acquireLease,
  feedUrlTaken,
  recentPublicationTimes,
  releaseLease,
  updateFeedAfterRefresh,
  type FeedRefreshUpdate,
  type FeedRow,
} from '../feeds/feeds.repository.js';
import type { Fetcher } from '../reader/fetch/index.js';
import { fetchIcon } from '../reader/icon/index.js';
import { parseFeed } from '../reader/parse/index.js';
import { sanitizeContent } from '../reader/sanitize/index.js';
import { ReaderError, type ParsedFeed, type ParsedItem } from '../reader/types.js';
import type { HostLimiter } from './host-limiter.js';
import { FREQUENCY_SAMPLE, errorIntervalMinutes, nextCheckAt, successIntervalMinutes } from './schedule.js';

/** What one refresh needs; built once per process by the engine. */
export interface RefreshContext {
  database: Database;
  fetcher: Fetcher;
  hostLimiter: HostLimiter;
  config: FeedEngineConfig;
  now: () => Date;
  log: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void;
  /**
   * Runs low-priority follow-up work (the icon look-up) without holding the feed's job; the engine bounds and
   * drains it. Without it (the CLI), the work is awaited.
   */
  background?: (task: () => Promise<void>) => void;
}

export type RefreshOutcome =
  | { status: 'ok'; newArticles: number; updatedArticles: number }
  | { status: 'not-modified' }
  | { status: 'error'; code: string; message: string }
  /** Another worker holds the feed's lease, or the feed is gone. */
  | { status: 'skipped' }
  /** Shutdown interrupted the refresh; the feed was handed back and is due at once. */
  | { status: 'returned' };

/** A document with more items than this keeps its first (newest) ones: a hostile feed cannot flood the database. */
export const MAX_ITEMS_PER_FETCH = 1000;
/** Site icons are looked for again after this long (issue 3: "refreshed rarely"). */
export const ICON_REFRESH_DAYS = 7;
/** Error code of failures that are not the feed's fault (database trouble, a bug): logged, shown generically. */
export const REFRESH_FAILED: FeedErrorCode = 'REFRESH_FAILED';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Refreshes one feed: lease → fetch (conditional) → parse → store new and edited items in one transaction →
 * schedule the next check. Errors are recorded on the feed (code + English message) and answered with backoff;
 * this function itself only throws when the database is unreachable while recording.
 */
export async function refreshFeed(ctx: RefreshContext, feedId: number, signal?: AbortSignal): Promise<RefreshOutcome> {
  const started = ctx.now();
  // The lease outlives the longest possible fetch; a crashed worker's lease simply runs out.
  const leaseUntil = new Date(started.getTime() + ctx.config.fetchTimeoutMs * 2 + 60_000).toISOString();
  const feed = await acquireLease(ctx.database.db, feedId, started.toISOString(), leaseUntil);
  if (!feed) return { status: 'skipped' };

  try {
    const result = await ctx.hostLimiter.run(feed.url, () =>
      ctx.fetcher.fetch(feed.url, { validators: { etag: feed.etag, lastModified: feed.last_modified }, signal }),
    );
    const now = ctx.now();
    const nowIso = now.toISOString();
    const base: FeedRefreshUpdate = {
      last_fetched_at: nowIso,
      error_count: 0,
      last_error: null,
      last_error_code: null,
      etag: result.etag ?? feed.etag,
      last_modified: result.lastModified ?? feed.last_modified,
      updated_at: nowIso,
      ...(await movedUrl(ctx, feed, result.permanentUrl)),
    };

    if (result.status === 'not-modified') {
      const times = await recentPublicationTimes(ctx.database.db, feed.id, FREQUENCY_SAMPLE);
      const minutes = successIntervalMinutes(times, now, ctx.config, feed.ttl_minutes);
      await updateFeedAfterRefresh(ctx.database.db, feed.id, { ...base, next_check_at: nextCheckAt(now, minutes) });
      return { status: 'not-modified' };
    }

    const parsed = parseFeed(result.body, { url: result.url, contentType: result.contentType });
    const stored = await storeParsedFeed(ctx, feed, parsed, base, now);
    if (iconDue(feed, now)) {
      const task = () => refreshIcon(ctx, feed, parsed);
      if (ctx.background) ctx.background(task);
      else await task();
    }
    return stored;
  } catch (err) {
    if (signal?.aborted) {
      await releaseLease(ctx.database.db, feed.id, ctx.now().toISOString());
      return { status: 'returned' };
    }
    return recordError(ctx, feed, err);
  }
}

/** The feed's new URL after a permanent redirect, unless another feed row has it already. */
async function movedUrl(ctx: RefreshContext, feed: FeedRow, permanentUrl: string | null): Promise<Pick<FeedRefreshUpdate, 'url'>> {
  const url = permanentUrl ? normalizeFeedUrl(permanentUrl) : null;
  if (!url || url === feed.url) return {};
  if (await feedUrlTaken(ctx.database.db, url, feed.id)) {
    ctx.log('warn', 'permanent redirect onto a feed that is stored already; keeping the old URL', { feedId: feed.id, url });
    return {};
  }
  return { url };
}

/** Identity and change detection work on the parser's output, so unchanged items are never sanitised again. */
function fingerprint(item: ParsedItem): string {
  return sha256(JSON.stringify([item.title, item.url, item.author, item.content, item.summary, item.imageUrl, item.enclosures]));
}

function toStoredItem(item: ParsedItem, guidHash: string, contentHash: string, publishedAt: string): StoredItem {
  const baseUrl = item.url;
  return {
    guidHash,
    guid: item.guid,
    contentHash,
    url: item.url,
    title: item.title,
    author: item.author,
    content: item.content ? sanitizeContent(item.content, { baseUrl }) : null,
    summary: item.summary ? sanitizeContent(item.summary, { baseUrl }) : null,
    imageUrl: item.imageUrl,
    enclosures: item.enclosures,
    publishedAt,
    updatedAt: item.updatedAt,
  };
}

async function storeParsedFeed(
  ctx: RefreshContext,
  feed: FeedRow,
  parsed: ParsedFeed,
  base: FeedRefreshUpdate,
  now: Date,
): Promise<RefreshOutcome> {
  const nowIso = now.toISOString();
  const items = parsed.items.slice(0, MAX_ITEMS_PER_FETCH).map((item, index) => ({
    item,
    guidHash: sha256(item.guid),
    contentHash: fingerprint(item),
    // An undated item gets its first-seen time; the document's order (newest first) is kept by a millisecond each.
    publishedAt: item.publishedAt ?? new Date(now.getTime() - index).toISOString(),
  }));
  const minutes = successIntervalMinutes(
    items.map((i) => i.publishedAt),
    now,
    ctx.config,
    parsed.ttlMinutes,
  );
  const update: FeedRefreshUpdate = {
    ...base,
    title: parsed.title || feed.title,
    site_url: parsed.siteUrl ?? feed.site_url,
    description: parsed.description ?? feed.description,
    language: parsed.language ?? feed.language,
    format: parsed.format,
    ttl_minutes: parsed.ttlMinutes,
    last_success_at: nowIso,
    next_check_at: nextCheckAt(now, minutes),
  };

  // One transaction per feed (issue 3): the new articles, every subscriber's copy of them and the feed's state
  // become visible together, or not at all.
  return ctx.database.db.transaction().execute(async (trx) => {
    const known = await storedContentHashes(trx, feed.id, items.map((i) => i.guidHash));
    const fresh: StoredItem[] = [];
    const changed: StoredItem[] = [];
    for (const i of items) {
      const stored = known.get(i.guidHash);
      if (stored === undefined) fresh.push(toStoredItem(i.item, i.guidHash, i.contentHash, i.publishedAt));
      else if (stored !== i.contentHash) changed.push(toStoredItem(i.item, i.guidHash, i.contentHash, i.publishedAt));
    }
    const newIds = await writeFeedItems(trx, feed.id, { fresh, changed, seen: items.map((i) => i.guidHash) }, nowIso);
    await updateFeedAfterRefresh(trx, feed.id, update);
    return { status: 'ok' as const, newArticles: newIds.length, updatedArticles: changed.length };
  });
}

function iconDue(feed: FeedRow, now: Date): boolean {
  const checked = feed.icon_checked_at ? Date.parse(feed.icon_checked_at) : 0;
  return now.getTime() - checked >= ICON_REFRESH_DAYS * 86_400_000;
}

async function refreshIcon(ctx: RefreshContext, feed: FeedRow, parsed: ParsedFeed): Promise<void> {
  const now = ctx.now();
  try {
    const icon = await fetchIcon({ siteUrl: parsed.siteUrl, feedUrl: feed.url, feedImageUrl: parsed.imageUrl }, ctx.fetcher);
    await ctx.database.db
      .updateTable('feeds')
      .set({
        icon_checked_at: now.toISOString(),
        // A site that lost its icon keeps the one we had.
        ...(icon ? { icon_data: icon.data, icon_type: icon.mimeType } : {}),
      })
      .where('id', '=', feed.id)
      .execute();
  } catch (err) {
    ctx.log('warn', 'icon refresh failed', { feedId: feed.id, err: String(err) });
  }
}

async function recordError(ctx: RefreshContext, feed: FeedRow, err: unknown): Promise<RefreshOutcome> {
  const now = ctx.now();
  const errorCount = feed.error_count + 1;
  let code: string = REFRESH_FAILED;
  let message: string = FEED_ERROR_CODES.REFRESH_FAILED;
  let retryAfterSeconds: number | undefined;
  if (err instanceof ReaderError) {
    code = err.code;
    message = err.message;
    retryAfterSeconds = err.details.retryAfterSeconds;
  } else {
    ctx.log('error', 'feed refresh failed unexpectedly', { feedId: feed.id, url: feed.url, err: err instanceof Error ? err.stack : String(err) });
  }
  const minutes = errorIntervalMinutes(errorCount, ctx.config, retryAfterSeconds);
  await updateFeedAfterRefresh(ctx.database.db, feed.id, {
    last_fetched_at: now.toISOString(),
    error_count: errorCount,
    last_error: message.slice(0, 1000),
    last_error_code: code,
    next_check_at: nextCheckAt(now, minutes, Math.random, (retryAfterSeconds ?? 0) / 60),
    updated_at: now.toISOString(),
  });
  return { status: 'error', code, message };
}
