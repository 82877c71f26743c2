import { sql } from 'kysely';
import { FAVORITE } from '../../articles/reading.repository.js';
import type { Db } from '../../db/database.js';
import { isVisible, isVisibleSubscription, visibleArticles } from '../../articles/visible-articles.js';
import { mutedSql } from '../../feeds/mute.js';
import { normalizeApiKey } from '../app-password.js';
import { PAGE_SIZE, type ItemsWindow } from './fever.params.js';

/**
 * The Fever adapter's queries, each scoped to its user (docs/ARCHITECTURE.md "Rules" 2). What the web app hides stays hidden
 * here (dashboard.md §4 "Feed mute", decisions.md "Feeds and articles"): articles of muted feeds
 * (feeds/mute.ts) and articles the user's filters hide (user_articles.is_hidden). Items are read by the
 * user_articles primary key (user_id, article_id), so since_id / max_id pages are one index range each
 * (bench/README.md "Budgets" external API budget).
 */

/** The user has no muted feed (FeverUser.muted_feeds = 0): the visibility rule needs no mute condition at all. */
const NONE_MUTED: readonly number[] = [];

export interface FeverUser {
  id: number;
  /** The latest check of any of the user's feeds: last_refreshed_on_time. */
  last_fetched_at: string | null;
  /** How many of the user's feeds are muted now; when none, item queries need no mute condition at all. */
  muted_feeds: number;
  /** total_items: visible articles of non-muted feeds, read or not (the subscription counters). */
  total_items: number;
}

/**
 * The Fever api_key's user (only while the reader apps are on, apps/app-password.ts's contract), with what every
 * answer needs, in one statement and one pass over the user's subscriptions: last_refreshed_on_time, the number
 * of muted feeds and total_items from the counters (articles/reading-state.ts).
 */
export async function authenticate(db: Db, apiKey: unknown, now: string): Promise<FeverUser | undefined> {
  const key = normalizeApiKey(apiKey);
  if (key === null) return undefined;
  const row = await db
    .selectFrom('users')
    .leftJoin('subscriptions', 'subscriptions.user_id', 'users.id')
    .leftJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select((eb) => {
      const muted = mutedSql(eb, now);
      return [
        'users.id',
        eb.fn.max('feeds.last_fetched_at').as('last_fetched_at'),
        eb.fn.sum<number>(eb.case().when(muted).then(1).else(0).end()).as('muted_feeds'),
        eb.fn.sum<number>(eb.case().when(muted).then(0).else(eb.ref('subscriptions.article_count')).end()).as('total_items'),
      ];
    })
    .where('users.app_password_key', '=', key)
    .where('users.fever_api_enabled', '=', 1)
    .groupBy('users.id')
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    last_fetched_at: row.last_fetched_at ?? null,
    muted_feeds: Number(row.muted_feeds ?? 0),
    total_items: Number(row.total_items ?? 0),
  };
}

/** The user's folders (Fever groups), in sidebar order. */
export async function listGroups(db: Db, userId: number) {
  return db.selectFrom('folders').select(['id', 'name']).where('user_id', '=', userId).orderBy('sort_order').orderBy('id').execute();
}

/** The user's feeds that are not muted at `now`, in sidebar order, with what a Fever feed shows. */
export async function listVisibleFeeds(db: Db, userId: number, now: string) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select([
      'subscriptions.feed_id',
      'subscriptions.folder_id',
      'subscriptions.custom_title',
      'feeds.title',
      'feeds.url',
      'feeds.site_url',
      'feeds.last_success_at',
      'feeds.last_fetched_at',
      sql<number>`case when feeds.icon_data is null then 0 else 1 end`.as('has_icon'),
    ])
    .where('subscriptions.user_id', '=', userId)
    .where((eb) => isVisibleSubscription(eb, now))
    .orderBy('subscriptions.sort_order')
    .orderBy('subscriptions.id')
    .execute();
}

/** Icons of the user's visible feeds (full size: a favicons call is rare and cached by the clients). */
export async function listFavicons(db: Db, userId: number, now: string) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select(['subscriptions.feed_id', 'feeds.icon_data', 'feeds.icon_type'])
    .where('subscriptions.user_id', '=', userId)
    .where('feeds.icon_data', 'is not', null)
    .where((eb) => isVisibleSubscription(eb, now))
    .orderBy('subscriptions.feed_id')
    .execute();
}

export interface ItemRow {
  id: number;
  feed_id: number;
  is_read: number;
  is_favorite: number;
  title: string;
  author: string | null;
  html: string | null;
  url: string | null;
  published_at: string;
}

/**
 * One page (at most 50) of the user's visible items in the window the client asked for, of the given feeds only
 * when `feedIds` is not null. `anyMuted` false (the
 * common case) leaves the mute condition out, so the page is a plain primary-key range.
 */
export async function listItems(
  db: Db,
  userId: number,
  now: string,
  window: ItemsWindow,
  anyMuted: boolean,
  feedIds: readonly number[] | null = null,
): Promise<ItemRow[]> {
  if (window.kind === 'with' && window.ids.length === 0) return [];
  if (feedIds !== null && feedIds.length === 0) return [];
  let q = db
    .selectFrom('user_articles')
    .innerJoin('articles', 'articles.id', 'user_articles.article_id')
    .select([
      'user_articles.article_id as id',
      'user_articles.feed_id',
      'user_articles.is_read',
      'user_articles.is_favorite',
      'articles.title',
      'articles.author',
      // The content, or the summary when a feed gives only that: one string per row instead of two.
      sql<string | null>`coalesce(articles.content, articles.summary)`.as('html'),
      'articles.url',
      'articles.published_at',
    ])
    .where('user_articles.user_id', '=', userId)
    .where((eb) => isVisible(eb, userId, now, anyMuted ? 'lookup' : NONE_MUTED));
  if (feedIds !== null) q = q.where('user_articles.feed_id', 'in', [...feedIds]);
  // Each bound is given on articles.id too: PostgreSQL merge-joins the two id-ordered indexes, and without it walks
  // articles from id 1 up to since_id (50 ms at since_id=50,000) before the first match.
  if (window.kind === 'with') {
    q = q.where('user_articles.article_id', 'in', window.ids).where('articles.id', 'in', window.ids).orderBy('user_articles.article_id', 'asc');
  } else if (window.kind === 'since') {
    q = q.where('user_articles.article_id', '>', window.sinceId).where('articles.id', '>', window.sinceId).orderBy('user_articles.article_id', 'asc');
  } else {
    if (window.maxId !== null) q = q.where('user_articles.article_id', '<', window.maxId).where('articles.id', '<', window.maxId);
    q = q.orderBy('user_articles.article_id', 'desc');
  }
  return q.limit(PAGE_SIZE).execute();
}

/**
 * Ids of the user's visible unread (is_read = 0) or saved (is_favorite = 1) items, ascending. The ids come from the
 * unread or favourites index as they lie (a covering range, no per-row look-up) and are sorted here: asking SQL for
 * id order makes SQLite walk every row of the user by primary key instead (0.2 s for 100,000 articles).
 */
export async function flaggedItemIds(db: Db, userId: number, now: string, flag: 'unread' | 'saved', anyMuted: boolean): Promise<Int32Array> {
  let q = visibleArticles(db, userId, now, anyMuted ? 'lookup' : NONE_MUTED).select('article_id');
  q = flag === 'unread' ? q.where('is_read', '=', 0) : q.where('is_favorite', '=', FAVORITE);
  const rows = await q.execute();
  const ids = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) ids[i] = rows[i].article_id;
  return ids.sort();
}
