import { sql } from 'kysely';
import { FAVORITE } from '../../articles/reading.repository.js';
import type { Db } from '../../db/database.js';
import { isVisible, isVisibleSubscription, mutedFeedList, visibleArticles } from '../../articles/visible-articles.js';

/**
 * The Google Reader adapter's queries (apis/greader/README.md), every one scoped to its user (docs/ARCHITECTURE.md "Rules" 2)
 * and, like the web app's (articles/reading.repository.ts), blind to filtered-out articles and muted feeds.
 * Streams are read through the user_articles indexes of migration 0004 in their order (published_at, article_id)
 * with a keyset cursor, so every page, the first or the hundredth, is one index range scan that stops after n rows.
 */

/** `is_favorite = 1` as a literal: SQLite uses the partial favourites index only when it can see this (0004). */

export interface StreamPosition {
  published_at: string;
  article_id: number;
}

export interface StreamQuery {
  /** Only these feeds (a feed or label stream); undefined: all the user's feeds. */
  feedIds?: readonly number[];
  /** is_read must be this (xt=read → 0, it=read or the read stream → 1); undefined: either. */
  read?: 0 | 1;
  /** Only favourites (the starred stream, it=starred) or only the others (xt=starred). */
  starred?: boolean;
  /** Crawled (articles.created_at) at or after / before these times (ot, nt). */
  crawledFrom?: string;
  crawledUntil?: string;
  /** Items strictly after this position in the stream's order (continuation). */
  after?: StreamPosition;
  oldestFirst: boolean;
  limit: number;
}

/** A stream's slim row: position, feed and the user's state of the item. */
export interface StreamRef extends StreamPosition {
  feed_id: number;
  is_read: number;
  is_favorite: number;
}

const SLIM = ['user_articles.article_id', 'user_articles.published_at', 'user_articles.feed_id', 'user_articles.is_read', 'user_articles.is_favorite'] as const;

/** What an item shows of its article, besides the slim row. */
export interface ArticleText {
  url: string | null;
  title: string;
  author: string | null;
  content: string | null;
  summary: string | null;
  enclosures: string | null;
  /** articles.created_at: when Feeder first stored it (the protocol's crawl time). */
  crawled_at: string;
  updated_at: string | null;
}

const TEXT = [
  'articles.url',
  'articles.title',
  'articles.author',
  'articles.content',
  'articles.summary',
  'articles.enclosures',
  'articles.created_at as crawled_at',
  'articles.updated_at',
] as const;

/**
 * One page of a stream: slim rows (id, date, feed, state), and with `withText` the article's text joined to each
 * (stream/contents: one statement for the page and its text). When read and unread are both wanted (and not only
 * favourites), the unread and the read rows come each from their own range of the (user, is_read, is_hidden,
 * published_at, article_id) index, limited each, and are merged by a UNION ALL in the same statement, as the web
 * app's all-articles list merges them: there is no index over every row in date order (docs/decisions.md
 * "Reading"). With `withText` the rows are `StreamRef & ArticleText`.
 */
export async function streamPage(db: Db, userId: number, now: string, q: StreamQuery, withText = false): Promise<StreamRef[]> {
  if (q.feedIds && q.feedIds.length === 0) return [];
  const muted = await mutedFeedList(db, userId, now);
  const dir = q.oldestFirst ? 'asc' : 'desc';
  if (q.read === undefined && q.starred !== true) {
    // Merged on slim rows (index entries only); the article text is joined to the page's rows alone, not to the
    // twice as many candidates (that doubled the cost of a page).
    const part = (read: 0 | 1, alias: 'unread' | 'read') => db.selectFrom(streamRange(db, userId, now, muted, { ...q, read }, false).as(alias)).selectAll();
    const page = part(0, 'unread').unionAll(part(1, 'read')).orderBy('published_at', dir).orderBy('article_id', dir).limit(q.limit);
    if (!withText) return await page.execute();
    return await db
      .selectFrom(page.as('page'))
      .innerJoin('articles', 'articles.id', 'page.article_id')
      .select(['page.article_id', 'page.published_at', 'page.feed_id', 'page.is_read', 'page.is_favorite', ...TEXT])
      .orderBy('page.published_at', dir)
      .orderBy('page.article_id', dir)
      .execute();
  }
  return await streamRange(db, userId, now, muted, q, withText).execute();
}

const withArticles = (db: Db) => db.selectFrom('user_articles').innerJoin('articles', 'articles.id', 'user_articles.article_id');

function streamRange(db: Db, userId: number, now: string, muted: readonly number[], q: StreamQuery, withText: boolean) {
  const dir = q.oldestFirst ? 'asc' : 'desc';
  // The article row only when its text or crawl time is wanted: ids pages of 10,000 stay on the index alone.
  const joined = withText || q.crawledFrom !== undefined || q.crawledUntil !== undefined;
  const from = joined ? withArticles(db) : (db.selectFrom('user_articles') as unknown as ReturnType<typeof withArticles>);
  let query = from
    .select(withText ? [...SLIM, ...TEXT] : SLIM)
    .where('user_articles.user_id', '=', userId)
    // The mute half as the list read beforehand: see visible-articles.ts.
    .where((eb) => isVisible(eb, userId, now, muted));
  if (q.read !== undefined) query = query.where('user_articles.is_read', '=', q.read);
  if (q.starred === true) query = query.where('user_articles.is_favorite', '=', FAVORITE);
  if (q.starred === false) query = query.where('user_articles.is_favorite', '=', 0);
  if (q.feedIds) query = query.where('user_articles.feed_id', 'in', [...q.feedIds]);
  if (q.after) {
    // A row-value comparison: both engines read it as a range of the index, not as a filter.
    query = query.where(
      q.oldestFirst
        ? sql<boolean>`(user_articles.published_at, user_articles.article_id) > (${q.after.published_at}, ${q.after.article_id})`
        : sql<boolean>`(user_articles.published_at, user_articles.article_id) < (${q.after.published_at}, ${q.after.article_id})`,
    );
  }
  if (q.crawledFrom !== undefined) query = query.where('articles.created_at', '>=', q.crawledFrom);
  if (q.crawledUntil !== undefined) query = query.where('articles.created_at', '<', q.crawledUntil);
  return query.orderBy('user_articles.published_at', dir).orderBy('user_articles.article_id', dir).limit(q.limit);
}

/** Where an article sits in every stream (its date); undefined when it is not the user's. */
export async function streamPosition(db: Db, userId: number, articleId: number): Promise<StreamPosition | undefined> {
  return db.selectFrom('user_articles').select(['published_at', 'article_id']).where('user_id', '=', userId).where('article_id', '=', articleId).executeTakeFirst();
}

/**
 * The visible ones among these ids (the user's, not filtered out, not of a muted feed) as slim rows; foreign and
 * unknown ids match nothing.
 */
export async function visibleRefs(db: Db, userId: number, now: string, ids: readonly number[]): Promise<StreamRef[]> {
  if (ids.length === 0) return [];
  const muted = await mutedFeedList(db, userId, now);
  return visibleArticles(db, userId, now, muted)
    .select(SLIM)
    .where('user_articles.article_id', 'in', [...ids])
    .execute();
}

/**
 * The texts of these articles. The ids come from the user's own slim rows (visibleRefs), never from the client
 * directly.
 */
export async function articleTexts(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('articles')
    .select(['articles.id', ...TEXT])
    .where('articles.id', 'in', [...ids])
    .execute();
}

/** Title, site and folder name of the user's subscriptions to these feeds. */
export async function feedDirectory(db: Db, userId: number, feedIds: readonly number[]) {
  if (feedIds.length === 0) return [];
  return db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .leftJoin('folders', 'folders.id', 'subscriptions.folder_id')
    .select(['subscriptions.feed_id', 'subscriptions.custom_title', 'feeds.title', 'feeds.site_url', 'folders.name as folder_name'])
    .where('subscriptions.user_id', '=', userId)
    .where('subscriptions.feed_id', 'in', [...feedIds])
    .execute();
}

/**
 * Unread count and newest article date of each of the user's feeds that is not muted: the counters kept by
 * articles/reading-state.ts, and the newest date from articles_feed_published_idx (one index probe per feed).
 */
export async function feedCounts(db: Db, userId: number, now: string) {
  return db
    .selectFrom('subscriptions')
    .select((eb) => [
      'subscriptions.feed_id',
      'subscriptions.folder_id',
      'subscriptions.unread_count',
      eb
        .selectFrom('articles')
        .select((a) => a.fn.max('articles.published_at').as('newest'))
        .whereRef('articles.feed_id', '=', 'subscriptions.feed_id')
        .as('newest'),
    ])
    .where('subscriptions.user_id', '=', userId)
    .where((eb) => isVisibleSubscription(eb, now))
    .orderBy('subscriptions.sort_order')
    .orderBy('subscriptions.id')
    .execute() as Promise<{ feed_id: number; folder_id: number | null; unread_count: number; newest: string | null }[]>;
}

/** The user's profile as user-info shows it. */
export async function findProfile(db: Db, userId: number) {
  return db.selectFrom('users').select(['id', 'email', 'name', 'created_at']).where('id', '=', userId).executeTakeFirst();
}
