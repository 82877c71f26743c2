import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Enclosure } from '../reader/types.js';

/** An item ready to store: sanitised HTML, plain-text title and author, hashes computed by the caller. */
export interface StoredItem {
  guidHash: string;
  guid: string;
  contentHash: string;
  url: string | null;
  title: string;
  author: string | null;
  content: string | null;
  summary: string | null;
  imageUrl: string | null;
  enclosures: Enclosure[];
  publishedAt: string;
  updatedAt: string | null;
}

// SQLite allows 32,766 bound parameters per statement, PostgreSQL 65,535; articles have 16 columns.
const INSERT_BATCH = 500;
const LOOKUP_BATCH = 1000;

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * guid hash → content hash of the items that were in the feed's last successful document (last seen then):
 * what a new document is compared with to tell new, edited and unchanged items apart before any sanitising.
 */
export async function currentItemHashes(db: Db, feedId: number, lastSuccessAt: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('articles')
    .select(['guid_hash', 'content_hash'])
    .where('feed_id', '=', feedId)
    .where('last_seen_at', '>=', lastSuccessAt)
    .execute();
  return new Map(rows.map((r) => [r.guid_hash, r.content_hash]));
}

const encodeEnclosures = (e: Enclosure[]) => (e.length ? JSON.stringify(e) : null);

/** The columns an item sets, on insert and on an edit alike. */
const itemColumns = (i: StoredItem) => ({
  guid: i.guid,
  url: i.url,
  title: i.title,
  author: i.author,
  content: i.content,
  summary: i.summary,
  image_url: i.imageUrl,
  enclosures: encodeEnclosures(i.enclosures),
  content_hash: i.contentHash,
  published_at: i.publishedAt,
});

/**
 * Writes one fetch's items of a feed (call inside the feed's transaction): inserts new articles and gives them
 * to every subscriber at once, updates edited ones in place (read and favourite state stay), and records that
 * every item of the document was seen now (the clean-up keeps articles still in the feed).
 * `seen` lists the guid hashes of every item in the document, stored or not.
 */
export async function writeFeedItems(
  trx: Db,
  feedId: number,
  items: { fresh: StoredItem[]; changed: StoredItem[]; seen: string[] },
  now: string,
): Promise<number[]> {
  const newIds: number[] = [];
  for (const batch of chunks(items.fresh, INSERT_BATCH)) {
    const rows = await trx
      .insertInto('articles')
      .values(
        batch.map((i) => ({
          ...itemColumns(i),
          feed_id: feedId,
          guid_hash: i.guidHash,
          updated_at: i.updatedAt,
          created_at: now,
          last_seen_at: now,
        })),
      )
      // Two workers cannot store the same feed at once (lease), but a retried job might: never duplicate.
      .onConflict((oc) => oc.columns(['feed_id', 'guid_hash']).doNothing())
      .returning('id')
      .execute();
    for (const r of rows) newIds.push(r.id);
  }
  for (const batch of chunks(newIds, LOOKUP_BATCH)) {
    await trx
      .insertInto('user_articles')
      .columns(['user_id', 'article_id', 'feed_id', 'published_at'])
      .expression((eb) =>
        eb
          .selectFrom('subscriptions')
          .innerJoin('articles', 'articles.feed_id', 'subscriptions.feed_id')
          .select(['subscriptions.user_id', 'articles.id', 'articles.feed_id', 'articles.published_at'])
          .where('subscriptions.feed_id', '=', feedId)
          .where('articles.id', 'in', batch),
      )
      .onConflict((oc) => oc.columns(['user_id', 'article_id']).doNothing())
      .execute();
  }
  for (const i of items.changed) {
    const updated = await trx
      .updateTable('articles')
      .set({
        ...itemColumns(i),
        updated_at: i.updatedAt ?? now,
        last_seen_at: now,
      })
      .where('feed_id', '=', feedId)
      .where('guid_hash', '=', i.guidHash)
      .returning('id')
      .executeTakeFirst();
    if (updated) {
      await trx.updateTable('user_articles').set({ published_at: i.publishedAt }).where('article_id', '=', updated.id).execute();
    }
  }
  const touched = new Set([...items.fresh, ...items.changed].map((i) => i.guidHash));
  const unchanged = items.seen.filter((h) => !touched.has(h));
  for (const batch of chunks(unchanged, LOOKUP_BATCH)) {
    await trx
      .updateTable('articles')
      .set({ last_seen_at: now })
      .where('feed_id', '=', feedId)
      .where('guid_hash', 'in', batch)
      .execute();
  }
  return newIds;
}

/**
 * The clean-up of decisions.md "Old articles": removes articles published before `cutoff` that no subscriber
 * keeps (every subscriber has read it, nobody made it a favourite) and that are no longer in their feed's latest
 * document (otherwise the next fetch would bring them back as new). At most `limit` per call, so one call never
 * holds the database for long. Returns how many went.
 */
export async function deleteUnkeptArticles(db: Db, cutoff: string, limit: number): Promise<number> {
  const doomed = db
    .selectFrom('articles')
    .innerJoin('feeds', 'feeds.id', 'articles.feed_id')
    .select('articles.id')
    .where('articles.published_at', '<', cutoff)
    .where((eb) => eb.or([eb('feeds.last_success_at', 'is', null), eb('articles.last_seen_at', '<', eb.ref('feeds.last_success_at'))]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('user_articles')
            .select('user_articles.article_id')
            .whereRef('user_articles.article_id', '=', 'articles.id')
            .where((w) => w.or([w('user_articles.is_read', '=', 0), w('user_articles.is_favorite', '=', 1)])),
        ),
      ),
    )
    .limit(limit);
  const result = await db.deleteFrom('articles').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Rows of a feed's articles, newest first (tests and the reading issue's code build on this shape). */
export async function listFeedArticles(db: Db, feedId: number, limit = 100) {
  return db
    .selectFrom('articles')
    .selectAll()
    .where('feed_id', '=', feedId)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Count of a user's unread articles (all feeds); a building block for tests until the reading API exists. */
export async function countUnread(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_articles')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
