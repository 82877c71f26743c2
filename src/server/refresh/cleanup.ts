import { deleteUnkeptArticles } from '../articles/articles.repository.js';
import { articlesRemoved } from '../articles/reading-state.js';
import { optimizePlanner, type Database } from '../db/database.js';
import { deleteOrphanFeeds } from '../feeds/feeds.repository.js';

/** Articles deleted per statement: short transactions, so readers and the refresh are never held up for long. */
export const CLEANUP_BATCH = 2000;
/** A feed nobody subscribes to is kept this long (a user who unsubscribes by mistake gets its history back). */
export const ORPHAN_FEED_GRACE_DAYS = 1;

/**
 * The periodic clean-up of decisions.md "Old articles": read, non-favourite articles older than
 * ARTICLE_RETENTION_DAYS that are no longer in their feed go, and so do feeds without subscribers that hold no
 * favourite. Nothing a user kept is ever removed. Safe to run from several processes at once (plain deletes).
 */
export async function cleanupArticles(database: Database, options: { retentionDays: number; now?: Date }): Promise<{ articles: number; feeds: number }> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - options.retentionDays * 86_400_000).toISOString();
  let articles = 0;
  for (;;) {
    // Each batch and the recount of its feeds' subscriptions (article_count: the "show read" totals) commit together.
    const n = await database.db.transaction().execute(async (trx) => {
      const { deleted, feedIds } = await deleteUnkeptArticles(trx, cutoff, CLEANUP_BATCH);
      await articlesRemoved(trx, feedIds);
      return deleted;
    });
    articles += n;
    if (n < CLEANUP_BATCH) break;
  }
  const feeds = await deleteOrphanFeeds(database.db, new Date(now.getTime() - ORPHAN_FEED_GRACE_DAYS * 86_400_000).toISOString());
  await optimizePlanner(database);
  return { articles, feeds };
}
