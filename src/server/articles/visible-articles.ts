import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { Tables } from '../db/tables.js';
import { mutedSql, notMutedArticle, notMutedSql } from '../feeds/mute.js';

/**
 * The one "visible article" rule (docs/decisions.md "Reading state and visibility: one owner"; dashboard.md §4
 * "Feed mute", §3 "Feed filter"): a user_articles row is visible when the user's filters do not hide it
 * (is_hidden = 0) and its feed is not muted now. Every list, count, search, stream and mark-read of the web API,
 * the reading lists, Fever, Google Reader and the public API starts from here; none spells the rule out itself.
 *
 * The conditions are the ones the hand-written queries had, column for column, so the plans stay the index range
 * scans they were (user_articles_unread_idx, user_articles_feed_idx, the favourites index; bench/README.md "Budgets").
 */

/**
 * How the mute half of the rule is given to a query:
 * - 'lookup' (default): a subquery of the user's muted subscriptions, `feed_id not in (…)`; for writes and for
 *   queries that read few rows.
 * - a list of muted feed ids, read beforehand with `mutedFeedList` (usually empty: then no condition at all); for
 *   hot reads, where PostgreSQL plans the subquery slower than a literal list.
 */
export type MutedFeeds = 'lookup' | readonly number[];

/**
 * The rule as a condition on `user_articles` (no user constant: the caller scopes the row, by
 * `user_articles.user_id` or through a join, as its index needs).
 */
export function isVisible(eb: ExpressionBuilder<Tables, 'user_articles'>, userId: number, now: string, muted: MutedFeeds = 'lookup'): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [isNotFilteredOut(eb)];
  if (muted === 'lookup') parts.push(notMutedArticle(eb, userId, now));
  else if (muted.length > 0) parts.push(eb('user_articles.feed_id', 'not in', [...muted]));
  return parts.length === 1 ? parts[0] : eb.and(parts);
}

/**
 * The filter half of the rule alone: the user's filters do not hide the row. For callers that check the mute half
 * themselves to answer it differently (a 403 for a muted feed's article instead of a 404).
 */
export function isNotFilteredOut(eb: ExpressionBuilder<Tables, 'user_articles'>): Expression<SqlBool> {
  return eb('user_articles.is_hidden', '=', 0);
}

/** The user's visible articles: `select … from user_articles where user_id = ? and <visible>`; add columns and filters. */
export function visibleArticles(db: Db, userId: number, now: string, muted: MutedFeeds = 'lookup') {
  return db
    .selectFrom('user_articles')
    .where('user_articles.user_id', '=', userId)
    .where((eb) => isVisible(eb, userId, now, muted));
}

/**
 * The subscription half of the rule, for lists of feeds and for totals read from the counters (which count only
 * articles not filtered out): the subscription (alias `subscriptions`) is not muted now.
 */
export function isVisibleSubscription(eb: ExpressionBuilder<Tables, 'subscriptions'>, now: string): Expression<SqlBool> {
  return notMutedSql(eb, now);
}

/**
 * The feeds the user has muted now, as a list for `visibleArticles(…, muted)`. A mute changing between this read
 * and the query that uses it changes nothing a client could tell.
 */
export async function mutedFeedList(db: Db, userId: number, now: string): Promise<number[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('subscriptions.feed_id')
    .where('subscriptions.user_id', '=', userId)
    .where((eb) => mutedSql(eb, now))
    .execute();
  return rows.map((r) => r.feed_id);
}
