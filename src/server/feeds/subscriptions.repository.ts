import { CompiledQuery, sql } from 'kysely';
import { listMembersChanged, subscriptionsAdded } from '../articles/reading-state.js';
import { isVisibleSubscription } from '../articles/visible-articles.js';
import { dialectOf, type Db } from '../db/database.js';
import { nextSortOrder } from '../db/sort-order.js';
import { inlineIconData } from './icons.js';
import { matchSubscribedFeeds } from '../reading-lists/membership.js';

/**
 * A user's subscriptions (table subscriptions): subscribing and unsubscribing, the user's feeds with the shared
 * feed's fields, their titles, order, mute state and unread counters. Every function is scoped to its user
 * (docs/ARCHITECTURE.md "Rules" 2); the shared feed row itself is feeds.repository.ts's.
 */

/**
 * Subscribes a user to a feed and gives them its articles already stored (all of them unread), in one
 * transaction, with the subscription's counters recounted. The new feed goes to the end of the user's order.
 * Returns false when the user was subscribed already.
 */
export async function subscribe(db: Db, userId: number, feedId: number, now: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('subscriptions')
      .values({ user_id: userId, feed_id: feedId, sort_order: await nextSortOrder(trx, 'subscriptions', userId), created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'feed_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return false;
    await backfillSubscriptions(trx, userId, [feedId], now);
    return true;
  });
}

/**
 * What a new subscription brings besides its row, for these feeds of the user (subscribe, and the OPML import's
 * batches, in their transaction): the feeds' articles already stored, unread; the subscriptions' counters recounted
 * (the sidebar's badge right after subscribing); and those articles joined to the user's smart reading lists whose
 * rules they match.
 */
export async function backfillSubscriptions(trx: Db, userId: number, feedIds: readonly number[], now: string): Promise<void> {
  if (feedIds.length === 0) return;
  await trx
    .insertInto('user_articles')
    .columns(['user_id', 'article_id', 'feed_id', 'published_at'])
    .expression((eb) =>
      eb
        .selectFrom('articles')
        .select([sql.lit(userId).as('user_id'), 'id', 'feed_id', 'published_at'])
        .where('feed_id', 'in', [...feedIds]),
    )
    .onConflict((oc) => oc.columns(['user_id', 'article_id']).doNothing())
    .execute();
  await subscriptionsAdded(trx, userId, feedIds);
  await matchSubscribedFeeds(trx, userId, feedIds, now);
}

/** A subscription with the shared feed's fields, as the feeds API presents it. */
export interface UserFeedRow {
  subscription_id: number;
  feed_id: number;
  custom_title: string | null;
  sort_order: number;
  muted_until: string | null;
  muted_permanently: number;
  folder_id: number | null;
  created_at: string;
  title: string;
  url: string;
  site_url: string | null;
  description: string | null;
  icon_data: string | null;
  icon_type: string | null;
  icon_hash: string | null;
  last_error_code: string | null;
  last_fetched_at: string | null;
  next_check_at: string;
  error_count: number;
  unread_count: number;
  article_count: number;
  always_load_original: number;
}

function userFeeds(db: Db, userId: number) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select([
      'subscriptions.id as subscription_id',
      'subscriptions.feed_id',
      'subscriptions.custom_title',
      'subscriptions.sort_order',
      'subscriptions.muted_until',
      'subscriptions.muted_permanently',
      'subscriptions.folder_id',
      'subscriptions.created_at',
      'feeds.title',
      'feeds.url',
      'feeds.site_url',
      'feeds.description',
      inlineIconData.as('icon_data'),
      'feeds.icon_type',
      'feeds.icon_hash',
      'feeds.last_error_code',
      'feeds.last_fetched_at',
      // The feed's health and the subscription's stored counters (articles/reading-state.ts keeps them): plain
      // columns of the two joined rows, no per-row count.
      'feeds.next_check_at',
      'feeds.error_count',
      'subscriptions.unread_count',
      'subscriptions.article_count',
      'subscriptions.always_load_original',
    ])
    .where('subscriptions.user_id', '=', userId);
}

/** The user's feeds in their order (sort_order, then subscription id: the subscriptions_user_order_idx order). */
export async function listUserFeeds(db: Db, userId: number): Promise<UserFeedRow[]> {
  return userFeeds(db, userId).orderBy('subscriptions.sort_order').orderBy('subscriptions.id').execute();
}

/**
 * The user's feed summaries (GET /api/feeds/summaries, FeedSummariesReply) as JSON text, written by the database in
 * one aggregate: no row objects, no serialising on our side (docs/decisions.md "Feed summaries"). It reads one range
 * of the user's subscriptions in their order (subscriptions_user_order_idx: sort_order, then id, as listUserFeeds)
 * and joins nothing: the feed's title, icon, error and first fetch are copied onto the subscription (migration 0012).
 * The aggregates take the rows in the order the subquery gives them (no join or grouping in between, the case in
 * which PostgreSQL and SQLite keep it); the per-column arrays cost the database far less than a JSON value per feed
 * (docs/decisions.md "Feed summaries: the list's version"). The mute test is mute.ts isMuted in SQL, with `now`.
 */
const SUMMARY_ROWS = (user: string) =>
  `select feed_id, custom_title, feed_title, folder_id, feed_icon_hash, feed_error_code, feed_fetched, muted_permanently, muted_until, always_load_original
from subscriptions where user_id = ${user} order by sort_order, id`;

const SUMMARIES_SQL = {
  sqlite: `select json_object(
  'ids', json_group_array(s.feed_id),
  'titles', json_group_array(coalesce(nullif(s.custom_title, ''), s.feed_title)),
  'folders', json_group_array(s.folder_id),
  'icons', json_group_array(s.feed_icon_hash),
  'errors', json_group_array(s.feed_error_code),
  'muted', json_group_object(cast(s.feed_id as text), case when s.muted_permanently = 1 then null else s.muted_until end) filter (where s.muted_permanently = 1 or s.muted_until > ?),
  'unfetched', json_group_array(s.feed_id) filter (where s.feed_fetched = 0),
  'always_load_original', json_group_array(s.feed_id) filter (where s.always_load_original = 1)
) as body,
min(s.muted_until) filter (where s.muted_permanently = 0 and s.muted_until > ?) as mute_ends,
(select version from feed_list_versions where user_id = ?) as version
from (${SUMMARY_ROWS('?')}) s`,
  // json_agg, json_object_agg and array_agg are null over no rows, where SQLite's aggregates give [] and {}.
  postgres: `select json_build_object(
  'ids', coalesce(array_to_json(array_agg(s.feed_id)), '[]'),
  'titles', coalesce(array_to_json(array_agg(coalesce(nullif(s.custom_title, ''), s.feed_title))), '[]'),
  'folders', coalesce(array_to_json(array_agg(s.folder_id)), '[]'),
  'icons', coalesce(array_to_json(array_agg(s.feed_icon_hash)), '[]'),
  'errors', coalesce(array_to_json(array_agg(s.feed_error_code)), '[]'),
  'muted', coalesce(json_object_agg(s.feed_id, case when s.muted_permanently = 1 then null else s.muted_until end) filter (where s.muted_permanently = 1 or s.muted_until > $1), '{}'),
  'unfetched', coalesce(json_agg(s.feed_id) filter (where s.feed_fetched = 0), '[]'),
  'always_load_original', coalesce(json_agg(s.feed_id) filter (where s.always_load_original = 1), '[]')
)::text as body,
min(s.muted_until) filter (where s.muted_permanently = 0 and s.muted_until > $1) as mute_ends,
(select version from feed_list_versions where user_id = $2) as version
from (${SUMMARY_ROWS('$2')}) s`,
};

/**
 * The user's feed summaries as JSON text, with the feed list's version they belong to (read in the same statement,
 * so of the same moment) and the end of the first timed mute still running: until then, and while the version
 * stands, the text stays what this would answer (docs/decisions.md "Feed summaries: the list's version").
 */
export interface FeedSummariesText {
  json: string;
  version: number;
  /** ISO time at which a timed mute ends and the text changes although the version does not; null when none runs. */
  muteEnds: string | null;
}

export async function feedSummariesJson(db: Db, userId: number, now: string): Promise<FeedSummariesText> {
  const result = await db.executeQuery<{ body: string; mute_ends: string | null; version: number | null }>(
    // SQLite takes its parameters in the order they appear (better-sqlite3 has no numbered ones).
    dialectOf(db) === 'sqlite' ? CompiledQuery.raw(SUMMARIES_SQL.sqlite, [now, now, userId, userId]) : CompiledQuery.raw(SUMMARIES_SQL.postgres, [now, userId]),
  );
  const row = result.rows[0];
  return { json: row.body, version: Number(row.version ?? 0), muteEnds: row.mute_ends };
}

/**
 * The version of the user's feed list: one primary-key read. Triggers (migration 0012) bump it with every write that
 * changes the summaries; 0 for a user who never subscribed to anything.
 */
export async function feedListVersion(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('feed_list_versions').select('version').where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** One of the user's feeds by feed id; undefined when the user does not subscribe to it. */
export async function findUserFeed(db: Db, userId: number, feedId: number): Promise<UserFeedRow | undefined> {
  return userFeeds(db, userId).where('subscriptions.feed_id', '=', feedId).executeTakeFirst();
}

/** The user's subscription to a feed (id only), or undefined. */
export async function findSubscriptionId(db: Db, userId: number, feedId: number): Promise<number | undefined> {
  const row = await db.selectFrom('subscriptions').select('id').where('user_id', '=', userId).where('feed_id', '=', feedId).executeTakeFirst();
  return row?.id;
}

/** The id of the user's subscribed feed with this (normalised) URL, or undefined. */
export async function subscribedFeedIdByUrl(db: Db, userId: number, url: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select('subscriptions.feed_id')
    .where('subscriptions.user_id', '=', userId)
    .where('feeds.url', '=', url)
    .executeTakeFirst();
  return row?.feed_id;
}

/**
 * Which of these (normalised) feed URLs the user subscribes to: per URL one probe of the feeds' url index and one
 * of the user's subscription to that feed, so the cost follows the URLs asked about (the catalog's few hundred, an
 * OPML batch), never the user's number of feeds (docs/decisions.md "The catalog's subscribed entries"). Left to
 * themselves both planners walked the user's subscriptions instead when they had no statistics (PostgreSQL also
 * with them); the URLs come as one array parameter, driving the join: SQLite keeps CROSS JOIN's order, and
 * PostgreSQL does not flatten a LATERAL subquery with a LIMIT, so it runs once per URL.
 */
const SUBSCRIBED_URLS_SQL = {
  sqlite: `select f.url from json_each(?) c cross join feeds f cross join subscriptions s
where f.url = c.value and s.user_id = ? and s.feed_id = f.id`,
  postgres: `select m.url from unnest($1::text[]) c(url) cross join lateral (
  select f.url from feeds f join subscriptions s on s.feed_id = f.id where f.url = c.url and s.user_id = $2 limit 1
) m`,
};

export async function subscribedUrls(db: Db, userId: number, urls: readonly string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  const dialect = dialectOf(db);
  const list = dialect === 'sqlite' ? JSON.stringify(urls) : [...urls];
  const result = await db.executeQuery<{ url: string }>(CompiledQuery.raw(SUBSCRIBED_URLS_SQL[dialect], [list, userId]));
  return new Set(result.rows.map((r) => r.url));
}

/** Sets (or with null clears) the user's title for a feed; false when the user does not subscribe to it. */
export async function setCustomTitle(db: Db, userId: number, feedId: number, customTitle: string | null): Promise<boolean> {
  const result = await db.updateTable('subscriptions').set({ custom_title: customTitle }).where('user_id', '=', userId).where('feed_id', '=', feedId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The user's "always load the original" switch for a feed; false when the user does not subscribe to it. */
export async function setAlwaysLoadOriginal(db: Db, userId: number, feedId: number, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ always_load_original: on ? 1 : 0 })
    .where('user_id', '=', userId)
    .where('feed_id', '=', feedId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Mute state of the user's subscription; false when the user does not subscribe to the feed. */
export async function setMute(db: Db, userId: number, feedId: number, mute: { muted_permanently: number; muted_until: string | null }): Promise<boolean> {
  const result = await db.updateTable('subscriptions').set(mute).where('user_id', '=', userId).where('feed_id', '=', feedId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Feed ids of the user's subscriptions in their current order. */
export async function orderedFeedIds(db: Db, userId: number): Promise<{ id: number; feed_id: number; sort_order: number }[]> {
  return db.selectFrom('subscriptions').select(['id', 'feed_id', 'sort_order']).where('user_id', '=', userId).orderBy('sort_order').orderBy('id').execute();
}

/**
 * The unread counts of the sidebar (bench/README.md "Budgets": < 20 ms for 1,000 feeds): one read of the user's subscription
 * rows, whose unread_count is kept by articles/reading-state.ts. Muted feeds are left out.
 */
export async function unreadCountRows(db: Db, userId: number, now: string): Promise<{ feed_id: number; unread_count: number }[]> {
  return db
    .selectFrom('subscriptions')
    .select(['feed_id', 'unread_count'])
    .where('user_id', '=', userId)
    .where((eb) => isVisibleSubscription(eb, now))
    .execute();
}

/**
 * Ends the user's subscription to a feed (call inside a transaction): its filters, the user's article rows of that
 * feed (read and favourite state included; docs/decisions.md "Reading"), their reading-list memberships (and the lists' counters of the feed) and the subscription go; the feeds after it
 * move up one place, so positions stay 0…n-1. The feed row stays for other subscribers (or the orphan clean-up).
 * Returns false when the user did not subscribe to the feed.
 */
export async function unsubscribe(trx: Db, userId: number, feedId: number): Promise<boolean> {
  const sub = await trx.selectFrom('subscriptions').select(['id', 'sort_order']).where('user_id', '=', userId).where('feed_id', '=', feedId).executeTakeFirst();
  if (!sub) return false;
  await trx.deleteFrom('feed_filters').where('user_id', '=', userId).where('subscription_id', '=', sub.id).execute();
  // The feed's articles leave the user's reading lists as they leave the user (docs/decisions.md "Organising").
  await trx
    .deleteFrom('reading_list_articles')
    .where('list_id', 'in', (eb) => eb.selectFrom('reading_lists').select('id').where('user_id', '=', userId))
    .where('feed_id', '=', feedId)
    .execute();
  await listMembersChanged(trx, { userId, feedIds: [feedId] });
  await trx.deleteFrom('user_articles').where('user_id', '=', userId).where('feed_id', '=', feedId).execute();
  await trx.deleteFrom('subscriptions').where('id', '=', sub.id).execute();
  await trx
    .updateTable('subscriptions')
    .set((eb) => ({ sort_order: eb('sort_order', '-', 1) }))
    .where('user_id', '=', userId)
    .where('sort_order', '>', sub.sort_order)
    .execute();
  return true;
}

/** Ends every subscription of the user (call inside a transaction), with their filters, article rows and list memberships (and the lists' counters). */
export async function unsubscribeAll(trx: Db, userId: number): Promise<void> {
  await trx.deleteFrom('feed_filters').where('user_id', '=', userId).execute();
  // The lists stay (a smart one fills again as new feeds bring matching articles); their articles go.
  await trx
    .deleteFrom('reading_list_articles')
    .where('list_id', 'in', (eb) => eb.selectFrom('reading_lists').select('id').where('user_id', '=', userId))
    .execute();
  await listMembersChanged(trx, { userId });
  await trx
    .deleteFrom('user_articles')
    .where('user_id', '=', userId)
    .where('feed_id', 'in', (eb) => eb.selectFrom('subscriptions').select('feed_id').where('user_id', '=', userId))
    .execute();
  await trx.deleteFrom('subscriptions').where('user_id', '=', userId).execute();
}
