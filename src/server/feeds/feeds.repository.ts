import { CompiledQuery, type ExpressionBuilder, type Selectable } from 'kysely';
import { dialectOf, type Db, type Dialect } from '../db/database.js';
import type { FeedsTable, Tables } from '../db/tables.js';

/**
 * The shared feed row (table feeds) and its refresh state: created by URL, claimed, leased and written back by the
 * refresh engine, cleaned up when orphaned. Feeds are shared by every subscriber, so these functions are not
 * user-scoped; a user's view of a feed is their subscription (subscriptions.repository.ts, scoped to its user,
 * docs/ARCHITECTURE.md "Rules" 2).
 */
export type FeedRow = Selectable<FeedsTable>;

/** "The feed has a subscriber" (or: this user's subscription), inside a query on `feeds`. */
function subscribed(eb: ExpressionBuilder<Tables, 'feeds'>, userId?: number) {
  let q = eb.selectFrom('subscriptions').select('subscriptions.id').whereRef('subscriptions.feed_id', '=', 'feeds.id');
  if (userId !== undefined) q = q.where('subscriptions.user_id', '=', userId);
  return eb.exists(q);
}

/** The feed with this (normalised) URL, created when new. New feeds are due at once. */
export async function ensureFeed(db: Db, url: string, now: string): Promise<{ feed: FeedRow; created: boolean }> {
  const inserted = await db
    .insertInto('feeds')
    .values({ url, title: '', next_check_at: now, error_count: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('url').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { feed: inserted, created: true };
  const feed = await db.selectFrom('feeds').selectAll().where('url', '=', url).executeTakeFirstOrThrow();
  return { feed, created: false };
}

export async function findFeed(db: Db, feedId: number): Promise<FeedRow | undefined> {
  return db.selectFrom('feeds').selectAll().where('id', '=', feedId).executeTakeFirst();
}

/**
 * The scheduler's step: marks up to `limit` due feeds (with at least one subscriber, not leased) as queued by
 * moving their next check to `requeueAt`, and returns their ids. A feed whose job is lost (a worker died)
 * becomes due again at `requeueAt`. Atomic on both dialects: SQLite has one writer; on PostgreSQL the
 * candidate rows are locked once with SKIP LOCKED (in a CTE) and the due condition is checked again by the
 * UPDATE, so schedulers running at once never both take a feed, and none is left untaken. `owner` (the claiming
 * engine's lease owner id) is written to the claimed rows, so a restarted embedded process can tell the claims its
 * dead predecessor left in its lost in-process queue (releaseStaleClaims).
 */
export async function claimDueFeeds(db: Db, dialect: Dialect, now: string, requeueAt: string, limit: number, owner: string | null = null): Promise<number[]> {
  const candidates = db
    .selectFrom('feeds')
    .select('feeds.id')
    .where('feeds.next_check_at', '<=', now)
    .where((eb) => eb.or([eb('feeds.lease_until', 'is', null), eb('feeds.lease_until', '<', now)]))
    .where((eb) => subscribed(eb))
    .orderBy('feeds.next_check_at')
    .limit(limit);
  if (dialect === 'postgres') {
    // The candidates are picked and locked once, in a CTE: a LIMIT … FOR UPDATE SKIP LOCKED subquery inside
    // `id IN (…)` may be evaluated more than once, and rows it locked the first time would then be claimed by
    // nobody in this round.
    const rows = await db
      .with('due', () => candidates.forUpdate().skipLocked())
      .updateTable('feeds')
      .set({ next_check_at: requeueAt, lease_owner: owner })
      .from('due')
      .whereRef('feeds.id', '=', 'due.id')
      .where('feeds.next_check_at', '<=', now)
      .returning('feeds.id')
      .execute();
    return rows.map((r) => r.id);
  }
  const rows = await db
    .updateTable('feeds')
    .set({ next_check_at: requeueAt, lease_owner: owner })
    .where('id', 'in', candidates)
    .where('next_check_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Makes due again the feeds that another engine claimed or leased and no longer holds: claimed for a queue that is
 * gone (an embedded process's in-process queue dies with the process) or leased past the lease's end. Called when an
 * embedded engine starts, so a restart after a crash refetches what the dead process had queued at once instead of
 * after the claim's grace (docs/decisions.md "Leases and crashed workers"). Returns how many.
 */
export async function releaseStaleClaims(db: Db, owner: string, now: string): Promise<number> {
  const result = await db
    .updateTable('feeds')
    .set({ next_check_at: now, lease_owner: null })
    .where('lease_owner', 'is not', null)
    .where('lease_owner', '<>', owner)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Makes feeds due now (the scheduler takes them at its next step). */
export async function markFeedsDue(db: Db, feedIds: number[], now: string): Promise<void> {
  if (feedIds.length === 0) return;
  await db.updateTable('feeds').set({ next_check_at: now }).where('id', 'in', feedIds).execute();
}

/**
 * Takes the refresh lease of one feed for `owner` (an engine instance): at most one worker refreshes a feed at a
 * time, whichever way the job arrived (scheduler, "refresh now", a retried job). Returns the feed, or undefined when
 * another worker holds the lease or the feed is gone.
 *
 * The feed is made due (next_check_at = now) with the lease: every way a refresh ends writes the next check, so this
 * only shows when the owner died mid-refresh. Then the lease runs out (its owner renews it while it lives,
 * renewLeases) and the scheduler's next step claims the feed again, instead of waiting out the claim's 15 minutes
 * (docs/decisions.md "Leases and crashed workers").
 */
/** A leased feed's row as the refresh reads it: every column but the icon (base64, up to a few hundred KB). */
export type LeasedFeed = Omit<FeedRow, 'icon_data'>;
const LEASED_COLUMNS = [
  'id',
  'url',
  'title',
  'site_url',
  'description',
  'language',
  'format',
  'icon_type',
  'icon_hash',
  'icon_checked_at',
  'etag',
  'last_modified',
  'ttl_minutes',
  'last_fetched_at',
  'last_success_at',
  'next_check_at',
  'error_count',
  'last_error',
  'last_error_code',
  'lease_until',
  'lease_owner',
  'post_gap_minutes',
  'newest_post_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof LeasedFeed)[];

export async function acquireLease(db: Db, feedId: number, owner: string, now: string, leaseUntil: string): Promise<LeasedFeed | undefined> {
  return db
    .updateTable('feeds')
    .set({ lease_until: leaseUntil, lease_owner: owner, next_check_at: now })
    .where('id', '=', feedId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning(LEASED_COLUMNS)
    .executeTakeFirst();
}

const LEASED_LIST = LEASED_COLUMNS.map((c) => `"feeds"."${c}"`).join(', ');
/**
 * acquireLeases as SQL text, one per dialect (the hot path of every refresh: no query builder per call). PostgreSQL
 * locks the free rows in id order first, so two processes leasing overlapping sets at once wait for each other
 * instead of deadlocking, and the UPDATE checks the lease again on the row it locked (as acquireLease's does).
 */
const LEASE_MANY = {
  postgres:
    'with "free" as (select "id" from "feeds" where "id" = any($1::integer[]) and ("lease_until" is null or "lease_until" < $2) order by "id" for update) ' +
    'update "feeds" set "lease_until" = $3, "lease_owner" = $4, "next_check_at" = $2 from "free" where "feeds"."id" = "free"."id" ' +
    `and ("feeds"."lease_until" is null or "feeds"."lease_until" < $2) returning ${LEASED_LIST}`,
  sqlite:
    'update "feeds" set "lease_until" = ?, "lease_owner" = ?, "next_check_at" = ? where "id" in (select "value" from json_each(?)) ' +
    `and ("lease_until" is null or "lease_until" < ?) returning ${LEASED_LIST}`,
};

/**
 * acquireLease for several feeds in one statement (the engine's LeaseKeeper batches the leases its refreshes ask for
 * at once): each feed is leased when free, as acquireLease would, and the rows of those leased are returned, in no
 * particular order. Ids must be distinct.
 */
export async function acquireLeases(db: Db, dialect: Dialect, feedIds: readonly number[], owner: string, now: string, leaseUntil: string): Promise<LeasedFeed[]> {
  if (feedIds.length === 0) return [];
  const query =
    dialect === 'postgres'
      ? CompiledQuery.raw(LEASE_MANY.postgres, [feedIds, now, leaseUntil, owner])
      : CompiledQuery.raw(LEASE_MANY.sqlite, [leaseUntil, owner, now, JSON.stringify(feedIds), now]);
  return (await db.executeQuery<LeasedFeed>(query)).rows;
}

/**
 * The heartbeat: moves the end of every lease `owner` still holds to `leaseUntil`; returns how many. On PostgreSQL
 * it skips the rows another transaction has locked: those are feeds a write group is finishing, whose own row write
 * sets or releases the lease. Waiting for them instead, while holding the rows it had already updated, deadlocked
 * with a group that then wrote one of those (docs/decisions.md "Leases and crashed workers"). A skipped lease keeps
 * at least two thirds of its time, and the next heartbeat extends it.
 */
export async function renewLeases(db: Db, owner: string, now: string, leaseUntil: string): Promise<number> {
  // A lease that ran out already may belong to another worker's refresh by now; it is not ours to extend.
  const held = (eb: ExpressionBuilder<Tables, 'feeds'>) => eb.and([eb('lease_owner', '=', owner), eb('lease_until', '>=', now)]);
  let query = db.updateTable('feeds').set({ lease_until: leaseUntil });
  if (dialectOf(db) === 'postgres') {
    query = query.where('id', 'in', (eb) => eb.selectFrom('feeds').select('id').where(held).forUpdate().skipLocked());
  } else query = query.where(held);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Gives a lease back without recording anything (shutdown returned the job): the feed is due again at `nextCheckAt`. */
export async function releaseLease(db: Db, feedId: number, nextCheckAt: string): Promise<void> {
  await db.updateTable('feeds').set({ lease_until: null, lease_owner: null, next_check_at: nextCheckAt }).where('id', '=', feedId).execute();
}

/** What a finished refresh writes back to the feed row; the lease is always released. */
export type FeedRefreshUpdate = Partial<
  Pick<
    FeedRow,
    | 'url'
    | 'title'
    | 'site_url'
    | 'description'
    | 'language'
    | 'format'
    | 'etag'
    | 'last_modified'
    | 'ttl_minutes'
    | 'last_fetched_at'
    | 'last_success_at'
    | 'next_check_at'
    | 'error_count'
    | 'last_error'
    | 'last_error_code'
    | 'icon_data'
    | 'icon_type'
    | 'icon_checked_at'
    | 'post_gap_minutes'
    | 'newest_post_at'
  >
> & { updated_at: string };

export async function updateFeedAfterRefresh(db: Db, feedId: number, update: FeedRefreshUpdate): Promise<void> {
  await db
    .updateTable('feeds')
    .set({ ...update, lease_until: null, lease_owner: null })
    .where('id', '=', feedId)
    .execute();
}

/** A 304's write to its feed row (recordNotModified): what changes when the document did not. */
export interface NotModifiedUpdate {
  id: number;
  /** last_fetched_at and updated_at. */
  fetchedAt: string;
  etag: string | null;
  lastModified: string | null;
  nextCheckAt: string;
}

/** recordNotModified as SQL text, one per dialect: the rows come as arrays (PostgreSQL) or one JSON array (SQLite). */
const NOT_MODIFIED_SET =
  '"last_fetched_at" = "v"."fetched", "updated_at" = "v"."fetched", "etag" = "v"."etag", "last_modified" = "v"."modified", ' +
  '"next_check_at" = "v"."next", "error_count" = 0, "last_error" = null, "last_error_code" = null, "lease_until" = null, "lease_owner" = null';
const NOT_MODIFIED = {
  postgres:
    `update "feeds" set ${NOT_MODIFIED_SET} ` +
    'from unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[]) as "v"("id", "fetched", "etag", "modified", "next") where "feeds"."id" = "v"."id"',
  sqlite:
    `update "feeds" set ${NOT_MODIFIED_SET} from (select "value" ->> 0 as "id", "value" ->> 1 as "fetched", "value" ->> 2 as "etag", ` +
    '"value" ->> 3 as "modified", "value" ->> 4 as "next" from json_each(?)) as "v" where "feeds"."id" = "v"."id"',
};

/**
 * The feed rows of 304s, in one statement (write-groups.ts BatchWrite: the feeds answered 304 together): each as
 * updateFeedAfterRefresh would write it after a 304 (fetched now, validators, next check, no error, lease released).
 * Ids must be distinct.
 */
export async function recordNotModified(db: Db, rows: readonly NotModifiedUpdate[]): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(db) === 'postgres') {
    const ids: number[] = [];
    const fetched: string[] = [];
    const etags: (string | null)[] = [];
    const modified: (string | null)[] = [];
    const next: string[] = [];
    for (const r of rows) {
      ids.push(r.id);
      fetched.push(r.fetchedAt);
      etags.push(r.etag);
      modified.push(r.lastModified);
      next.push(r.nextCheckAt);
    }
    await db.executeQuery(CompiledQuery.raw(NOT_MODIFIED.postgres, [ids, fetched, etags, modified, next]));
    return;
  }
  const json = JSON.stringify(rows.map((r) => [r.id, r.fetchedAt, r.etag, r.lastModified, r.nextCheckAt]));
  await db.executeQuery(CompiledQuery.raw(NOT_MODIFIED.sqlite, [json]));
}

/** True when another feed row already has this URL (a permanent redirect onto a feed we store already). */
export async function feedUrlTaken(db: Db, url: string, exceptFeedId: number): Promise<boolean> {
  const row = await db.selectFrom('feeds').select('id').where('url', '=', url).where('id', '!=', exceptFeedId).executeTakeFirst();
  return row !== undefined;
}

/** Publication times of the feed's newest articles (newest first): the posting frequency the scheduler uses. */
export async function recentPublicationTimes(db: Db, feedId: number, count: number): Promise<string[]> {
  const rows = await db.selectFrom('articles').select('published_at').where('feed_id', '=', feedId).orderBy('published_at', 'desc').limit(count).execute();
  return rows.map((r) => r.published_at);
}

/** Feeds nobody subscribes to any more and that hold nothing anybody keeps (favourites): for the clean-up. */
export async function deleteOrphanFeeds(db: Db, createdBefore: string): Promise<number> {
  const result = await db
    .deleteFrom('feeds')
    .where('created_at', '<', createdBefore)
    .where((eb) => eb.not(subscribed(eb)))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('user_articles').select('user_articles.article_id').whereRef('user_articles.feed_id', '=', 'feeds.id').where('user_articles.is_favorite', '=', 1),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ids of the feeds somebody subscribes to. */
export async function subscribedFeedIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('feeds')
    .select('id')
    .where((eb) => subscribed(eb))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Every feed (or one user's) with its refresh state and article count, for operators (`feeder feed list`). */
export async function listFeedStates(db: Db, userId?: number) {
  let query = db
    .selectFrom('feeds')
    .select(['feeds.id', 'feeds.url', 'feeds.title', 'feeds.last_fetched_at', 'feeds.next_check_at', 'feeds.error_count', 'feeds.last_error_code', 'feeds.last_error'])
    .select((eb) => eb.selectFrom('articles').select(eb.fn.countAll().as('n')).whereRef('articles.feed_id', '=', 'feeds.id').as('articles'))
    .orderBy('feeds.id');
  if (userId !== undefined) query = query.where((eb) => subscribed(eb, userId));
  return query.execute();
}

/** A stored icon by its content address (feeds/icons.ts). */
export async function findIconByHash(db: Db, hash: string) {
  return db.selectFrom('feeds').select(['icon_data', 'icon_type']).where('icon_hash', '=', hash).limit(1).executeTakeFirst();
}

/** Gives a feed a title while it has none (discovery knows it before the first refresh does). */
export async function setFeedTitleIfEmpty(db: Db, feedId: number, title: string): Promise<void> {
  await db.updateTable('feeds').set({ title }).where('id', '=', feedId).where('title', '=', '').execute();
}
