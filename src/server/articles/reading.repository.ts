import { sql, type JoinBuilder, type SelectQueryBuilder } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import type { Tables } from '../db/tables.js';
import { inlineIconData } from '../feeds/icons.js';
import { mutedSql } from '../feeds/mute.js';
import { isVisible, isVisibleSubscription, visibleArticles } from './visible-articles.js';

/**
 * The reading API's queries (dashboard.md §7 "Articles"), every one scoped to its user (docs/ARCHITECTURE.md "Rules" 2).
 * Lists read user_articles through the 0004 indexes in their order (published_at DESC, article_id DESC), so page 1
 * is an index range scan that stops after one page; totals come from the subscriptions' counters.
 */

/** An article row as the presenter turns it into the wire's Article. */
export interface ArticleRow {
  id: number;
  feed_id: number;
  published_at: string;
  is_read: number;
  is_favorite: number;
  url: string | null;
  title: string;
  summary: string | null;
  /** Stored teaser; null for rows older than migration 0008 not yet backfilled. */
  teaser: string | null;
  content: string | null;
  author: string | null;
  image_url: string | null;
  feed_own_title: string;
  custom_title: string | null;
  icon_data: string | null;
  icon_type: string | null;
  icon_hash: string | null;
  /** In at least one of the user's reading lists: 1/0 on SQLite, true/false on PostgreSQL. */
  in_reading_list: number | boolean;
}

/**
 * `is_favorite = 1` as a literal, not a bound parameter: SQLite uses the partial user_articles_favorite_idx
 * (migration 0004) only when it can see the query's condition implies the index's.
 */
export const FAVORITE = sql.lit(1);

type ListQuery = SelectQueryBuilder<Tables, 'user_articles' | 'articles' | 'feeds' | 'subscriptions', object>;

/** user_articles of one user joined with what a card shows; `subscription` inner for feed lists, left for favourites. */
function articleSelect(db: Db, userId: number, now: string, subscription: 'inner' | 'left') {
  const base = db.selectFrom('user_articles');
  const ownSubscription = (j: JoinBuilder<Tables, 'user_articles' | 'subscriptions'>) =>
    j.onRef('subscriptions.feed_id', '=', 'user_articles.feed_id').onRef('subscriptions.user_id', '=', 'user_articles.user_id');
  const joined = subscription === 'inner' ? base.innerJoin('subscriptions', ownSubscription) : base.leftJoin('subscriptions', ownSubscription);
  return (joined as ListQuery)
    .innerJoin('articles', 'articles.id', 'user_articles.article_id')
    .innerJoin('feeds', 'feeds.id', 'user_articles.feed_id')
    .select([
      'user_articles.article_id as id',
      'user_articles.feed_id',
      'user_articles.published_at',
      'user_articles.is_read',
      'user_articles.is_favorite',
      'articles.url',
      'articles.title',
      'articles.summary',
      'articles.teaser',
      'articles.content',
      'articles.author',
      'articles.image_url',
      'feeds.title as feed_own_title',
      'subscriptions.custom_title',
      inlineIconData.as('icon_data'),
      'feeds.icon_type',
      'feeds.icon_hash',
      // One probe of reading_list_articles_article_idx per row of the page (the select list runs for output rows
      // only). A scalar subquery, not EXISTS: PostgreSQL turns an EXISTS into a hashed subplan that reads every
      // membership of every user on each page.
      (eb) =>
        sql<number | boolean>`(${eb
          .selectFrom('reading_list_articles')
          .select(sql.lit(1).as('one'))
          .whereRef('reading_list_articles.article_id', '=', 'user_articles.article_id')
          .whereRef('reading_list_articles.user_id', '=', 'user_articles.user_id')
          .limit(1)}) is not null`.as('in_reading_list'),
    ])
    .where('user_articles.user_id', '=', userId)
    .where((eb) => isVisible(eb, userId, now));
}

const newestFirst = <Q extends ListQuery>(q: Q) => q.orderBy('user_articles.published_at', 'desc').orderBy('user_articles.article_id', 'desc') as Q;

export interface Paging {
  limit: number;
  offset: number;
}

/**
 * Which feeds a list shows: all the user's (both undefined), one feed, or some feeds (a folder's, read beforehand
 * with folders.repository.ts folderFeedIds: a literal list, as the hot reads take the muted feeds).
 */
export interface FeedScope {
  feedId?: number;
  feedIds?: readonly number[];
}

/** Narrows a query on user_articles to the scope's feeds. */
function inFeeds<Q extends SelectQueryBuilder<Tables, 'user_articles', object>>(q: Q, o: FeedScope): Q {
  if (o.feedId !== undefined) q = q.where('user_articles.feed_id', '=', o.feedId) as Q;
  if (o.feedIds !== undefined) q = q.where('user_articles.feed_id', 'in', [...o.feedIds]) as Q;
  return q;
}

/** The all-feeds list (no scope), one feed's or some feeds' (a folder), unread only unless showRead. Muted feeds give nothing. */
export async function listArticles(db: Db, userId: number, now: string, o: FeedScope & { showRead: boolean } & Paging): Promise<ArticleRow[]> {
  if (o.feedIds?.length === 0) return [];
  if (o.feedId === undefined && o.feedIds === undefined && o.showRead) return listAllWithRead(db, userId, now, o);
  let q = inFeeds(articleSelect(db, userId, now, 'inner'), o);
  if (!o.showRead) q = q.where('user_articles.is_read', '=', 0);
  return await newestFirst(q).limit(o.limit).offset(o.offset).execute();
}

/**
 * All feeds, read and unread, newest first. There is deliberately no (user, date) index over every row: with the
 * unread index beside it, every stored article would land at two random places, which halved the refresh's store
 * rate. Instead the unread and the read articles each come in date order from user_articles_unread_idx (two
 * backward range scans of at most offset + limit slim rows), are merged here, and only the page's rows are
 * joined with article text and feed.
 */
async function listAllWithRead(db: Db, userId: number, now: string, paging: Paging): Promise<ArticleRow[]> {
  const wanted = paging.offset + paging.limit;
  const slim = (isRead: 0 | 1) =>
    visibleArticles(db, userId, now)
      .select(['article_id', 'published_at'])
      .where('is_read', '=', isRead)
      .orderBy('published_at', 'desc')
      .orderBy('article_id', 'desc')
      .limit(wanted)
      .execute();
  const [unread, read] = [await slim(0), await slim(1)];
  const newer = (a: { published_at: string; article_id: number }, b: { published_at: string; article_id: number }) =>
    a.published_at === b.published_at ? b.article_id - a.article_id : a.published_at < b.published_at ? 1 : -1;
  const ids = [...unread, ...read]
    .sort(newer)
    .slice(paging.offset, wanted)
    .map((r) => r.article_id);
  if (ids.length === 0) return [];
  return await newestFirst(articleSelect(db, userId, now, 'inner').where('user_articles.article_id', 'in', ids)).execute();
}

/** List total from the counters: unread or all visible articles of the user's non-muted subscriptions (or the scope's). */
export async function countFromSubscriptions(db: Db, userId: number, now: string, o: FeedScope & { showRead: boolean }): Promise<number> {
  if (o.feedIds?.length === 0) return 0;
  let q = db
    .selectFrom('subscriptions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(o.showRead ? 'article_count' : 'unread_count'), sql<number>`0`).as('n'))
    .where('user_id', '=', userId)
    .where((eb) => isVisibleSubscription(eb, now));
  if (o.feedId !== undefined) q = q.where('feed_id', '=', o.feedId);
  if (o.feedIds !== undefined) q = q.where('feed_id', 'in', [...o.feedIds]);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The visible members of one of the user's reading lists (not filtered out, feed not muted: as every list), newest
 * first, unread only unless showRead: the page is found on slim rows through reading_list_articles_page_idx, then
 * only its rows are joined with what a card shows. The caller has checked the list is the user's.
 */
export async function listReadingListArticles(db: Db, userId: number, now: string, o: { listId: number; showRead: boolean } & Paging): Promise<ArticleRow[]> {
  const page = await readingListMembers(db, userId, now, o)
    .select('reading_list_articles.article_id')
    .orderBy('reading_list_articles.published_at', 'desc')
    .orderBy('reading_list_articles.article_id', 'desc')
    .limit(o.limit)
    .offset(o.offset)
    .execute();
  if (page.length === 0) return [];
  const ids = page.map((r) => r.article_id);
  return await newestFirst(articleSelect(db, userId, now, 'inner').where('user_articles.article_id', 'in', ids)).execute();
}

/** A list's total (showRead) or unread count, from its counters (readingListCounts). */
export async function countReadingListArticles(db: Db, userId: number, now: string, o: { listId: number; showRead: boolean }): Promise<number> {
  const [counts] = await readingListCounts(db, userId, now, { listId: o.listId });
  return counts === undefined ? 0 : o.showRead ? counts.total : counts.unread;
}

/**
 * The list's members joined with the user's state. Deliberately no constant on user_articles.user_id (the join
 * through the member row's user_id carries it): the planner must walk the list's members, never the user's articles
 * (a million rows) looking for members.
 */
function readingListMembers(db: Db, userId: number, now: string, o: { listId: number; showRead: boolean }) {
  let q = db
    .selectFrom('reading_list_articles')
    .innerJoin('user_articles', (j) =>
      j.onRef('user_articles.article_id', '=', 'reading_list_articles.article_id').onRef('user_articles.user_id', '=', 'reading_list_articles.user_id'),
    )
    .where('reading_list_articles.list_id', '=', o.listId)
    .where((eb) => isVisible(eb, userId, now));
  if (!o.showRead) q = q.where('user_articles.is_read', '=', 0);
  return q;
}

/**
 * Visible members of the user's reading lists (or one), all and unread, per list: what the lists' counts show. Read
 * from the counters (migration 0011, kept by reading-state.ts: per list and feed, the members not filtered out), one
 * range of their primary key, summed over the feeds not muted now (the mute half of the visibility rule depends on
 * the time, so it is applied here, as for the subscriptions' counters). Lists without counter rows are absent.
 */
export async function readingListCounts(db: Db, userId: number, now: string, o: { listId?: number } = {}): Promise<{ list_id: number; total: number; unread: number }[]> {
  let q = db
    .selectFrom('reading_list_counts')
    .select((eb) => ['reading_list_counts.list_id', eb.fn.sum<number>('article_count').as('total'), eb.fn.sum<number>('unread_count').as('unread')])
    .where('reading_list_counts.user_id', '=', userId)
    .where('reading_list_counts.feed_id', 'not in', (eb) =>
      eb
        .selectFrom('subscriptions')
        .select('subscriptions.feed_id')
        .where('subscriptions.user_id', '=', userId)
        .where((w) => mutedSql(w, now)),
    )
    .groupBy('reading_list_counts.list_id');
  if (o.listId !== undefined) q = q.where('reading_list_counts.list_id', '=', o.listId);
  const rows = await q.execute();
  return rows.map((r) => ({ list_id: r.list_id, total: Number(r.total), unread: Number(r.unread) }));
}

/** The user's subscription to a feed, or undefined: a feed the user does not subscribe to is a 404. */
export async function findSubscription(db: Db, userId: number, feedId: number) {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'feed_id', 'muted_permanently', 'muted_until'])
    .where('user_id', '=', userId)
    .where('feed_id', '=', feedId)
    .executeTakeFirst();
}

/** Favourites, read and unread, newest first; muted feeds' and filtered-out ones are left out. */
export async function listFavorites(db: Db, userId: number, now: string, paging: Paging): Promise<ArticleRow[]> {
  const q = articleSelect(db, userId, now, 'left').where('user_articles.is_favorite', '=', FAVORITE);
  return await newestFirst(q).limit(paging.limit).offset(paging.offset).execute();
}

export async function countFavorites(db: Db, userId: number, now: string): Promise<number> {
  const row = await visibleArticles(db, userId, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('is_favorite', '=', FAVORITE)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Ids of favourites or of read articles (the client-held lists, dashboard.md §3), of visible articles of non-muted
 * feeds, newest first, at most `limit`.
 */
export async function flaggedIds(db: Db, userId: number, now: string, flag: 'is_favorite' | 'is_read', limit: number): Promise<number[]> {
  const rows = await visibleArticles(db, userId, now)
    .select('article_id')
    .where(flag, '=', flag === 'is_favorite' ? FAVORITE : 1)
    .orderBy('published_at', 'desc')
    .orderBy('article_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.article_id);
}

/**
 * Full-text search over the user's visible articles, newest first. `match` is the dialect's query text, built
 * by article-text.ts (ftsMatchQuery / pgTsQuery) so no user syntax reaches the engine. A common word matches tens
 * of thousands of articles, so the page is found on slim rows first (id, date; the total as a window count over
 * those), and only the page's rows are joined with the article text, feed and subscription.
 */
export async function searchArticles(
  db: Db,
  userId: number,
  now: string,
  o: { match: string; showRead: boolean } & FeedScope & Paging,
): Promise<{ rows: ArticleRow[]; total: number | null }> {
  if (o.feedIds?.length === 0) return { rows: [], total: null };
  let q = visibleArticles(db, userId, now).select(['user_articles.article_id', sql<number>`count(*) over ()`.as('total_count')]);
  if (dialectOf(db) === 'postgres') {
    // The matches come from the GIN index first, as one array (an init plan): the planner then looks each up by
    // the user_articles primary key. Given the condition inline, it may instead walk the user's whole list and
    // test every row's vector, or hash-join a scan of every user_articles row: seconds with a million rows.
    q = q.where(sql<boolean>`user_articles.article_id = any(array(select id from articles where search_vector @@ to_tsquery('simple', ${o.match})))`);
  } else {
    q = q.where('user_articles.article_id', 'in', sql<number>`(select rowid from articles_fts where articles_fts match ${o.match})`);
  }
  q = inFeeds(q, o);
  if (!o.showRead) q = q.where('user_articles.is_read', '=', 0);
  const page = await q.orderBy('user_articles.published_at', 'desc').orderBy('user_articles.article_id', 'desc').limit(o.limit).offset(o.offset).execute();
  if (page.length === 0) return { rows: [], total: null };
  const ids = page.map((r) => r.article_id);
  const rows = (await newestFirst(articleSelect(db, userId, now, 'inner').where('user_articles.article_id', 'in', ids)).execute()) as ArticleRow[];
  return { rows, total: Number(page[0].total_count) };
}

/** One article's per-user state, with its subscription's mute state (null when not subscribed any more). */
export async function findArticleState(db: Db, userId: number, articleId: number) {
  return db
    .selectFrom('user_articles')
    .leftJoin('subscriptions', (j) => j.onRef('subscriptions.feed_id', '=', 'user_articles.feed_id').onRef('subscriptions.user_id', '=', 'user_articles.user_id'))
    .select([
      'user_articles.article_id',
      'user_articles.feed_id',
      'user_articles.is_read',
      'user_articles.is_favorite',
      'subscriptions.muted_permanently',
      'subscriptions.muted_until',
    ])
    .where('user_articles.user_id', '=', userId)
    .where('user_articles.article_id', '=', articleId)
    .executeTakeFirst();
}

/** The filters of the feeds in view (one feed's, or all the user's) with each feed's title, oldest first. */
export async function activeFilters(db: Db, userId: number, feedId?: number) {
  let q = db
    .selectFrom('feed_filters')
    .innerJoin('subscriptions', 'subscriptions.id', 'feed_filters.subscription_id')
    .innerJoin('feeds', 'feeds.id', 'feed_filters.feed_id')
    .selectAll('feed_filters')
    .select(['subscriptions.custom_title', 'feeds.title as feed_own_title'])
    .where('feed_filters.user_id', '=', userId)
    .where('subscriptions.user_id', '=', userId);
  if (feedId !== undefined) q = q.where('feed_filters.feed_id', '=', feedId);
  return q.orderBy('feed_filters.id').execute();
}

/** An article the user has (user_articles row), with what extraction needs; undefined for foreign ids. */
export async function findUserArticle(db: Db, userId: number, articleId: number) {
  return db
    .selectFrom('user_articles')
    .innerJoin('articles', 'articles.id', 'user_articles.article_id')
    .select(['articles.id', 'articles.url', 'articles.content', 'articles.summary', 'articles.extracted_content', 'articles.extracted_at', 'articles.extract_error'])
    .where('user_articles.user_id', '=', userId)
    .where('user_articles.article_id', '=', articleId)
    .executeTakeFirst();
}

/** Caches an extraction's outcome on the article, for every reader: the content, or the error code and when. */
export async function saveExtraction(db: Db, articleId: number, outcome: { content: string } | { error: string }, now: string): Promise<void> {
  await db
    .updateTable('articles')
    .set('content' in outcome ? { extracted_content: outcome.content, extract_error: null, extracted_at: now } : { extract_error: outcome.error, extracted_at: now })
    .where('id', '=', articleId)
    .execute();
}
