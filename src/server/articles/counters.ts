import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * subscriptions.unread_count and article_count (migration 0004): the visible (not filtered-out) articles of each
 * subscription, unread and in all. Every write that can change them (article state, filters, new articles,
 * clean-up, subscribe) calls this for the (user, feed) pairs it touched, inside its transaction. A recount per
 * pair reads one range of user_articles_feed_idx, so it costs about the number of articles of one feed; unread
 * counts and list totals are then a read of at most one row per subscription (design.md §5).
 *
 * `userId` alone recounts all of that user's subscriptions; `feedIds` alone recounts every subscriber of
 * those feeds; both narrow to the pairs. Neither recounts everything (migrations, repairs).
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
