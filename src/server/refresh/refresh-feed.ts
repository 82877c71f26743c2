import { FEED_ERROR_CODES, type FeedErrorCode } from '../../common/feed-errors.js';
import { currentItemHashes, writeFeedItems } from '../articles/articles.repository.js';
import type { FeedEngineConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { normalizeFeedUrl } from '../feeds/feed-url.js';
import { iconHash } from '../feeds/icons.js';
import {
  feedUrlTaken,
  recentPublicationTimes,
  recordNotModified,
  releaseLease,
  updateFeedAfterRefresh,
  type FeedRefreshUpdate,
  type LeasedFeed,
} from '../feeds/feeds.repository.js';
import type { Fetcher } from '../reader/fetch/index.js';
import { fetchIcon, type IconParsers } from '../reader/icon/index.js';
import { ReaderError } from '../reader/types.js';
import type { DocumentProcessor } from './document-pool.js';
import type { Slots } from './slots.js';
import type { HostLimiter } from './host-limiter.js';
import type { Logger } from '../log.js';
import type { LeaseKeeper } from './lease.js';
import type { StoredDocument } from './process-document.js';
import { FREQUENCY_SAMPLE, errorIntervalMinutes, intervalFromFrequency, nextCheckAt, postingFrequency, type PostingFrequency } from './schedule.js';
import { runWriteJob, type WriteGroups, type WriteJob } from './write-groups.js';
import { releaseTexts } from './pack-texts.js';

/** What one refresh needs; built once per process by the engine. */
export interface RefreshContext {
  database: Database;
  fetcher: Fetcher;
  hostLimiter: HostLimiter;
  /** Parses and sanitises fetched documents (worker threads in the engine, inline in tests and the CLI). */
  processor: DocumentProcessor;
  /** This engine's lease owner id, lease length and heartbeat (lease.ts). */
  leases: LeaseKeeper;
  /** Scans the site page for its icons and sanitises SVG icons (the engine's worker pool). */
  parsers: IconParsers;
  config: FeedEngineConfig;
  now: () => Date;
  /** The process's logger (log.ts) or a child of it; nothing in tests. */
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /**
   * Runs low-priority follow-up work (the icon look-up) without holding the feed's job; the engine bounds and
   * drains it. Without it (a caller that builds its own context), the work is awaited.
   */
  background?: (task: () => Promise<void>) => void;
  /**
   * Commits the feeds' writes in groups (write-groups.ts); without it (a caller that builds its own context), each
   * feed's writes are a transaction of their own.
   */
  writes?: WriteGroups;
  /**
   * The process's document slots (REFRESH_CONCURRENCY of them, slots.ts): a refresh holds one from before its body
   * is read until its writes are committed. Without them (a caller that builds its own context), nothing bounds the
   * documents but the caller.
   */
  documents?: Slots;
  /**
   * Whether the parse threads make the articles' PostgreSQL search vectors (the engine's one check of the database,
   * articles.repository.ts searchVectorsAgree); without it, the database computes them.
   */
  searchVectors?: () => Promise<boolean>;
}

/** Runs one feed's writes in a transaction: its group's, when the engine groups them. */
function write<T>(ctx: RefreshContext, job: WriteJob<T>): Promise<T> {
  return ctx.writes ? ctx.writes.run(job) : ctx.database.db.transaction().execute((trx) => runWriteJob(trx, job));
}

export type RefreshOutcome =
  | { status: 'ok'; newArticles: number; updatedArticles: number }
  | { status: 'not-modified' }
  | { status: 'error'; code: string; message: string }
  /** Another worker holds the feed's lease, or the feed is gone. */
  | { status: 'skipped' }
  /**
   * Shutdown interrupted the refresh, or its new document waited for a document slot until the fetch's time limit;
   * the feed was handed back and is due at once.
   */
  | { status: 'returned' };

/** Site icons are looked for again after this long ("refreshed rarely"). */
export const ICON_REFRESH_DAYS = 7;
/** Error code of failures that are not the feed's fault (database trouble, a bug): logged, shown generically. */
export const REFRESH_FAILED: FeedErrorCode = 'REFRESH_FAILED';

/**
 * Refreshes one feed: lease → fetch (conditional) → parse → store new and edited items in one transaction →
 * schedule the next check. Errors are recorded on the feed (code + English message) and answered with backoff;
 * this function itself only throws when the database is unreachable while recording.
 */
export async function refreshFeed(ctx: RefreshContext, feedId: number, signal?: AbortSignal): Promise<RefreshOutcome> {
  // A short lease, renewed by the engine's heartbeat while this refresh runs; a crashed worker's lease runs out
  // within LEASE_MS and the feed is due again (docs/decisions.md "Leases and crashed workers").
  const feed = await ctx.leases.acquire(feedId);
  if (!feed) return { status: 'skipped' };
  const unhold = ctx.leases.hold();
  try {
    return await refreshLeased(ctx, feed, signal);
  } finally {
    unhold();
  }
}

async function refreshLeased(ctx: RefreshContext, feed: LeasedFeed, signal?: AbortSignal): Promise<RefreshOutcome> {
  const slots = ctx.documents;
  let holding = false;
  // A conditional request waits for its slot within the fetch's time limit (its body unread on the connection). If
  // the limit runs out meanwhile, the server is not to blame: the feed is handed back, due at once, instead of
  // recording a timeout (docs/decisions.md "Refresh engine: requests and documents in flight").
  let slotWaitRanOut = false;
  const takeSlot = async (abort?: AbortSignal) => {
    try {
      await slots!.acquire(abort);
    } catch (err) {
      // `abort` is the fetch's own signal here: aborted by its time limit, or by ours (then `signal` is aborted too).
      if (abort?.aborted && !signal?.aborted) slotWaitRanOut = true;
      throw err;
    }
    holding = true;
  };
  try {
    // A feed without validators (new, or its server sends none) answers with a document: it takes its slot before
    // asking, so it holds no connection while it waits. A conditional request is sent at once and takes a slot only
    // when a document comes back (docs/decisions.md "Refresh engine: requests and documents in flight"). Both wait
    // for a slot within their host's turn, never the other way round: a refresh that holds a slot never waits for a
    // host, so the two limits cannot wait on each other.
    const conditional = Boolean(feed.etag || feed.last_modified);
    // A refresh waiting for its host's turn leaves the line when the engine stops, as one waiting for a slot does.
    const result = await ctx.hostLimiter.run(
      feed.url,
      async () => {
        if (slots && !conditional) await takeSlot(signal);
        return ctx.fetcher.fetch(feed.url, {
          validators: { etag: feed.etag, lastModified: feed.last_modified },
          signal,
          ...(slots && conditional ? { beforeBody: takeSlot } : {}),
        });
      },
      signal,
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
      // The posting frequency is on the leased row (migration 0010); a feed stored before it is read once.
      let frequency: PostingFrequency = { gapMinutes: feed.post_gap_minutes, newestAt: feed.newest_post_at };
      let learned: Pick<FeedRefreshUpdate, 'post_gap_minutes' | 'newest_post_at'> = {};
      if (frequency.gapMinutes === null) {
        frequency = postingFrequency(await recentPublicationTimes(ctx.database.db, feed.id, FREQUENCY_SAMPLE), now);
        learned = { post_gap_minutes: frequency.gapMinutes, newest_post_at: frequency.newestAt };
      }
      const minutes = intervalFromFrequency(frequency, now, ctx.config, feed.ttl_minutes);
      const next = nextCheckAt(now, minutes);
      if (base.url === undefined && !('post_gap_minutes' in learned)) {
        // The common 304: one row of a statement shared with the other 304s of its write group (docs/decisions.md
        // "Refresh engine: the 304 round on PostgreSQL").
        const row = { id: feed.id, fetchedAt: nowIso, etag: base.etag ?? null, lastModified: base.last_modified ?? null, nextCheckAt: next };
        await (ctx.writes ? ctx.writes.add(recordNotModified, row) : recordNotModified(ctx.database.db, [row]));
      } else {
        const update = { ...base, ...learned, next_check_at: next };
        await write(ctx, (trx) => updateFeedAfterRefresh(trx, feed.id, update));
      }
      return { status: 'not-modified' };
    }

    const known = feed.last_success_at ? await currentItemHashes(ctx.database.db, feed.id, feed.last_success_at) : new Map<string, string>();
    const searchVectors = ctx.searchVectors ? await ctx.searchVectors() : false;
    const doc = await ctx.processor.process({ body: result.body, url: result.url, contentType: result.contentType, known, now: now.getTime(), searchVectors });
    const stored = await storeDocument(ctx, feed, doc, base, now);
    // Committed: the texts' buffers go now, not at the next full collection (nothing reads them again).
    releaseTexts(doc);
    if (iconDue(feed, now)) {
      // The task keeps only what it needs: a waiting task must not hold the whole document in memory.
      const input = { siteUrl: doc.feed.siteUrl, feedUrl: feed.url, feedImageUrl: doc.feed.imageUrl };
      const task = () => refreshIcon(ctx, feed.id, input);
      if (ctx.background) ctx.background(task);
      else await task();
    }
    return stored;
  } catch (err) {
    if (signal?.aborted || slotWaitRanOut) {
      if (slotWaitRanOut) ctx.log.info({ feedId: feed.id }, 'no document slot within the fetch time limit; feed handed back');
      await releaseLease(ctx.database.db, feed.id, ctx.now().toISOString());
      return { status: 'returned' };
    }
    return recordError(ctx, feed, err);
  } finally {
    if (holding) slots!.release();
  }
}

/** The feed's new URL after a permanent redirect, unless another feed row has it already. */
async function movedUrl(ctx: RefreshContext, feed: LeasedFeed, permanentUrl: string | null): Promise<Pick<FeedRefreshUpdate, 'url'>> {
  const url = permanentUrl ? normalizeFeedUrl(permanentUrl) : null;
  if (!url || url === feed.url) return {};
  if (await feedUrlTaken(ctx.database.db, url, feed.id)) {
    ctx.log.warn({ feedId: feed.id, url }, 'permanent redirect onto a feed that is stored already; keeping the old URL');
    return {};
  }
  return { url };
}

async function storeDocument(ctx: RefreshContext, feed: LeasedFeed, doc: StoredDocument, base: FeedRefreshUpdate, now: Date): Promise<RefreshOutcome> {
  const nowIso = now.toISOString();
  const meta = doc.feed;
  const frequency = postingFrequency(doc.publishedTimes, now);
  const minutes = intervalFromFrequency(frequency, now, ctx.config, meta.ttlMinutes);
  const update: FeedRefreshUpdate = {
    ...base,
    title: meta.title || feed.title,
    site_url: meta.siteUrl ?? feed.site_url,
    description: meta.description ?? feed.description,
    language: meta.language ?? feed.language,
    format: meta.format,
    ttl_minutes: meta.ttlMinutes,
    last_success_at: nowIso,
    next_check_at: nextCheckAt(now, minutes),
    post_gap_minutes: frequency.gapMinutes,
    newest_post_at: frequency.newestAt,
  };
  // The new articles, every subscriber's copy of them and the feed's state become visible together, or not at
  // all: one transaction (shared with other feeds' writes when they arrive together, write-groups.ts).
  return write(ctx, async (trx, end) => {
    const newIds = await writeFeedItems(trx, feed.id, doc, nowIso, end);
    await updateFeedAfterRefresh(trx, feed.id, update);
    return { status: 'ok' as const, newArticles: newIds.length, updatedArticles: doc.changed.length };
  });
}

function iconDue(feed: LeasedFeed, now: Date): boolean {
  const checked = feed.icon_checked_at ? Date.parse(feed.icon_checked_at) : 0;
  return now.getTime() - checked >= ICON_REFRESH_DAYS * 86_400_000;
}

async function refreshIcon(ctx: RefreshContext, feedId: number, input: Parameters<typeof fetchIcon>[0]): Promise<void> {
  const now = ctx.now();
  try {
    const icon = await fetchIcon(input, ctx.fetcher, ctx.parsers);
    await ctx.database.db
      .updateTable('feeds')
      .set({
        icon_checked_at: now.toISOString(),
        // A site that lost its icon keeps the one we had.
        ...(icon ? { icon_data: icon.data, icon_type: icon.mimeType, icon_hash: iconHash(icon.data) } : {}),
      })
      .where('id', '=', feedId)
      .execute();
  } catch (err) {
    ctx.log.warn({ feedId, err }, 'icon refresh failed');
  }
}

async function recordError(ctx: RefreshContext, feed: LeasedFeed, err: unknown): Promise<RefreshOutcome> {
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
    ctx.log.error({ feedId: feed.id, url: feed.url, err }, 'feed refresh failed unexpectedly');
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
