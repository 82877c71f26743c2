import { sql, type ExpressionBuilder, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Db } from '../db/database.js';
import type { Tables } from '../db/tables.js';
import { notMutedArticle } from '../feeds/mute.js';
import { isVisible } from './visible-articles.js';

/**
 * The owner of the reading state (docs/decisions.md "Reading state and visibility: one owner"): the only module
 * that writes user_articles.is_read / is_favorite / is_hidden and the subscriptions' counters (unread_count,
 * article_count; migration 0004). Every verb is scoped to its user, runs in one transaction (the caller's, when
 * given one) and recounts exactly the subscriptions it touched, so no caller can forget a recount. The web API,
 * Fever, Google Reader and the public API call these verbs; none of them writes state SQL of its own.
 *
 * Counters: the visible (not filtered-out) articles of each subscription, unread and in all. A recount per (user,
 * feed) pair reads one range of user_articles_feed_idx, so it costs about the number of articles of one feed;
 * unread counts and list totals are then a read of at most one row per subscription (bench/README.md "Budgets").
 */

/** Ids per statement: bounded statements (SQLite's bound-parameter limit, PostgreSQL's plan size). */
const ID_BATCH = 1000;

/** Which of the user's rows an id-based verb may change. */
export type Reach =
  /** Visible rows only (not filtered out, feed not muted): what the reader APIs change (Google Reader edit-tag). */
  | 'visible'
  /** Rows of feeds not muted now, filtered-out ones included (harmless): the web API's mark-read by ids. */
  | 'unmuted'
  /** Any of the user's rows: the caller has checked the mute state itself in the same transaction (403 answers). */
  | 'own';

export interface FlagChange {
  /** Rows whose state changed. */
  changed: number;
  /** The feeds of the changed rows (distinct). */
  feedIds: number[];
}

/** Runs `fn` in the caller's transaction, or in a new one when given the database itself. */
async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/**
 * Recounts the counters of (user, feed) pairs. `userId` alone: all of that user's subscriptions; `feedIds` alone:
 * every subscriber of those feeds; both narrow to the pairs; neither recounts everything (repairs, migrations).
 * Callers outside this module use the named verbs, so every change of state and its recount stay together; the
 * export is for the tests that compare counters with a full recount.
 */
export async function recountSubscriptions(db: Db, scope: { userId?: number; feedIds?: readonly number[] }): Promise<void> {
  if (scope.feedIds && scope.feedIds.length === 0) return;
  const count = (unreadOnly: boolean) =>
    sql<number>`(select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id${
      unreadOnly ? sql` and ua.is_read = 0` : sql``
    } and ua.is_hidden = 0)`;
  let query = db.updateTable('subscriptions').set({ unread_count: count(true), article_count: count(false) });
  if (scope.userId !== undefined) query = query.where('user_id', '=', scope.userId);
  if (scope.feedIds) query = query.where('feed_id', 'in', [...scope.feedIds]);
  await query.execute();
}

type StateUpdate = UpdateQueryBuilder<Tables, 'user_articles', 'user_articles', UpdateResult>;

function reachOf(q: StateUpdate, userId: number, now: string, reach: Reach): StateUpdate {
  if (reach === 'visible') return q.where((eb) => isVisible(eb, userId, now));
  if (reach === 'unmuted') return q.where((eb) => notMutedArticle(eb, userId, now));
  return q;
}

async function setFlag(
  db: Db,
  userId: number,
  now: string,
  articleIds: readonly number[],
  flag: 'is_read' | 'is_favorite',
  on: boolean,
  reach: Reach,
): Promise<FlagChange> {
  const ids = [...new Set(articleIds)];
  if (ids.length === 0) return { changed: 0, feedIds: [] };
  const value = on ? 1 : 0;
  const change = flag === 'is_read' ? { is_read: value, read_at: on ? now : null } : { is_favorite: value, favorited_at: on ? now : null };
  return inTransaction(db, async (trx) => {
    let changed = 0;
    const feeds = new Set<number>();
    for (let i = 0; i < ids.length; i += ID_BATCH) {
      const q = trx
        .updateTable('user_articles')
        .set(change)
        .where('user_id', '=', userId)
        .where('article_id', 'in', ids.slice(i, i + ID_BATCH))
        .where(flag, '=', 1 - value);
      const rows = await reachOf(q, userId, now, reach).returning('feed_id').execute();
      changed += rows.length;
      for (const r of rows) feeds.add(r.feed_id);
    }
    const feedIds = [...feeds];
    // Only read state is counted; favourites have no counter.
    if (flag === 'is_read' && feedIds.length > 0) await recountSubscriptions(trx, { userId, feedIds });
    return { changed, feedIds };
  });
}

/** Marks these of the user's articles read (or unread); rows already so are left alone. Foreign ids match nothing. */
export function setRead(db: Db, userId: number, now: string, articleIds: readonly number[], read: boolean, reach: Reach = 'visible'): Promise<FlagChange> {
  return setFlag(db, userId, now, articleIds, 'is_read', read, reach);
}

/** Stars (favourites) or unstars these of the user's articles. Foreign ids match nothing. */
export function setStarred(db: Db, userId: number, now: string, articleIds: readonly number[], starred: boolean, reach: Reach = 'visible'): Promise<FlagChange> {
  return setFlag(db, userId, now, articleIds, 'is_favorite', starred, reach);
}

/**
 * What markAllRead marks: the user's visible unread articles (never those of muted feeds, never filtered-out
 * ones), narrowed by every field given. Without feedIds and listId: all the user's feeds.
 */
export interface ReadScope {
  feedIds?: readonly number[];
  /** One reading list's members (the caller checked the list is the user's). */
  listId?: number;
  /** Only favourites (Google Reader's starred stream). */
  starredOnly?: boolean;
  /** Stored (articles.created_at, the protocols' crawl time) at or before this: what the client had seen. */
  storedBy?: string;
  /** Published at or after this (the public API's read-all, limited to recent articles). */
  publishedSince?: string;
}

/** The article was stored (articles.created_at) at or before `before`. */
function storedBy(eb: ExpressionBuilder<Tables, 'user_articles'>, before: string) {
  return eb.exists(eb.selectFrom('articles').select('articles.id').whereRef('articles.id', '=', 'user_articles.article_id').where('articles.created_at', '<=', before));
}

/**
 * Marks the scope's visible unread articles read in one statement, however many rows (no RETURNING of a million
 * feed ids: the recount is by scope), and recounts the scope's subscriptions. Returns how many changed.
 */
export async function markAllRead(db: Db, userId: number, now: string, scope: ReadScope = {}): Promise<number> {
  if (scope.feedIds && scope.feedIds.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    let q = trx
      .updateTable('user_articles')
      .set({ is_read: 1, read_at: now })
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .where((eb) => isVisible(eb, userId, now));
    if (scope.feedIds) q = q.where('feed_id', 'in', [...scope.feedIds]);
    if (scope.starredOnly) q = q.where('is_favorite', '=', sql.lit(1));
    if (scope.publishedSince !== undefined) q = q.where('published_at', '>=', scope.publishedSince);
    if (scope.storedBy !== undefined) {
      const before = scope.storedBy;
      q = q.where((eb) => storedBy(eb, before));
    }
    if (scope.listId !== undefined) {
      const listId = scope.listId;
      // A list's members span feeds: they come back for the recount.
      const rows = await q
        .where('article_id', 'in', (eb) =>
          eb.selectFrom('reading_list_articles').select('reading_list_articles.article_id').where('reading_list_articles.list_id', '=', listId),
        )
        .returning('feed_id')
        .execute();
      await recountSubscriptions(trx, { userId, feedIds: [...new Set(rows.map((r) => r.feed_id))] });
      return rows.length;
    }
    const marked = Number((await q.executeTakeFirst()).numUpdatedRows);
    if (marked > 0) await recountSubscriptions(trx, scope.feedIds ? { userId, feedIds: scope.feedIds } : { userId });
    return marked;
  });
}

/** Visible articles read at or after `since` become unread again (Fever's unread_recently_read). */
export async function unreadReadSince(db: Db, userId: number, now: string, since: string): Promise<number> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('user_articles')
      .set({ is_read: 0, read_at: null })
      .where('user_id', '=', userId)
      .where('is_read', '=', 1)
      .where('read_at', '>=', since)
      .where((eb) => isVisible(eb, userId, now))
      .executeTakeFirst();
    const marked = Number(result.numUpdatedRows);
    if (marked > 0) await recountSubscriptions(trx, { userId });
    return marked;
  });
}

/**
 * The user's filters changed (feeds/filters.service.ts): hides and shows these of the user's articles of one feed
 * (`'show-all'` shows every article of the feed again: no filters left), and recounts that subscription.
 */
export async function setHidden(db: Db, userId: number, feedId: number, change: { hide: readonly number[]; show: readonly number[] } | 'show-all'): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (change === 'show-all') {
      await trx.updateTable('user_articles').set({ is_hidden: 0 }).where('user_id', '=', userId).where('feed_id', '=', feedId).where('is_hidden', '=', 1).execute();
    } else {
      await writeHidden(trx, userId, change.hide, true);
      await writeHidden(trx, userId, change.show, false);
    }
    await recountSubscriptions(trx, { userId, feedIds: [feedId] });
  });
}

async function writeHidden(trx: Db, userId: number, articleIds: readonly number[], hidden: boolean): Promise<void> {
  for (let i = 0; i < articleIds.length; i += ID_BATCH) {
    await trx
      .updateTable('user_articles')
      .set({ is_hidden: hidden ? 1 : 0 })
      .where('user_id', '=', userId)
      .where('article_id', 'in', articleIds.slice(i, i + ID_BATCH))
      .execute();
  }
}

/**
 * The refresh stored a document's items of one feed (articles/articles.repository.ts storeItems, in its
 * transaction): the subscribers' filters' verdicts on the new and edited articles (per user: ids to hide, and for
 * edits ids to show again), then, when anything a subscriber counts changed, the recount of the feed's subscribers.
 */
export async function articlesStored(trx: Db, feedId: number, o: { hidden: Map<number, { hide: number[]; show: number[] }>; changed: boolean }): Promise<void> {
  for (const [userId, { hide, show }] of o.hidden) {
    await writeHidden(trx, userId, hide, true);
    await writeHidden(trx, userId, show, false);
  }
  if (o.changed) await recountSubscriptions(trx, { feedIds: [feedId] });
}

/** The clean-up removed articles of these feeds (refresh/cleanup.ts, in its transaction): their subscribers' totals. */
export async function articlesRemoved(trx: Db, feedIds: readonly number[]): Promise<void> {
  await recountSubscriptions(trx, { feedIds });
}

/**
 * A user subscribed to these feeds and was given their stored articles (feeds' backfillSubscriptions, in its
 * transaction): the new subscriptions' counters (the sidebar's badge right after subscribing).
 */
export async function subscriptionsAdded(trx: Db, userId: number, feedIds: readonly number[]): Promise<void> {
  await recountSubscriptions(trx, { userId, feedIds });
}
