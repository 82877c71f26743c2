import type { Selectable } from 'kysely';
import type { ArticleReadingListRef } from '../../common/api.js';
import type { Db } from '../db/database.js';
import { changedPositions, nextSortOrder, writePositions } from '../db/sort-order.js';
import type { ReadingListsTable } from '../db/tables.js';
import { listMembersChanged } from '../articles/reading-state.js';
import { isNotFilteredOut } from '../articles/visible-articles.js';

/**
 * Reading lists (dashboard.md §3 "Reading list", §7 "Reading lists") and their members (reading_list_articles).
 * Every function is scoped to its user (docs/ARCHITECTURE.md "Rules" 2). Smart-list membership is written by membership.ts;
 * list pages and counts are read by articles/reading.repository.ts beside the other lists.
 */
export type ReadingListRow = Selectable<ReadingListsTable>;

export async function listReadingLists(db: Db, userId: number): Promise<ReadingListRow[]> {
  return db.selectFrom('reading_lists').selectAll().where('user_id', '=', userId).orderBy('sort_order').orderBy('id').execute();
}

export async function findReadingList(db: Db, userId: number, listId: number): Promise<ReadingListRow | undefined> {
  return db.selectFrom('reading_lists').selectAll().where('user_id', '=', userId).where('id', '=', listId).executeTakeFirst();
}

export async function countReadingLists(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('reading_lists')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ReadingListFields {
  name: string;
  description: string;
  is_smart: number;
  /** JSON text of ReadingListRule[]. */
  rules: string;
}

/** Creates a list at the end of the user's list order. */
export async function createReadingList(db: Db, userId: number, fields: ReadingListFields, now: string): Promise<ReadingListRow> {
  const sortOrder = await nextSortOrder(db, 'reading_lists', userId);
  return db
    .insertInto('reading_lists')
    .values({ user_id: userId, ...fields, sort_order: sortOrder, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateReadingList(db: Db, userId: number, listId: number, fields: ReadingListFields, now: string): Promise<boolean> {
  const result = await db
    .updateTable('reading_lists')
    .set({ ...fields, updated_at: now })
    .where('user_id', '=', userId)
    .where('id', '=', listId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes the list with its members (set explicitly: SQLite enforces foreign keys per connection) and its counters
 * (call inside a transaction).
 */
export async function deleteReadingList(db: Db, userId: number, listId: number): Promise<boolean> {
  const list = await findReadingList(db, userId, listId);
  if (!list) return false;
  await db.deleteFrom('reading_list_articles').where('list_id', '=', listId).execute();
  await listMembersChanged(db, { userId, listId });
  await db.deleteFrom('reading_lists').where('id', '=', listId).execute();
  return true;
}

/**
 * Writes the lists' order: ids in the given order get positions 0…n-1; the user's other lists follow. Writes nothing
 * and returns false when an id is not one of the user's lists.
 */
export async function writeReadingListOrder(db: Db, userId: number, listIds: readonly number[]): Promise<boolean> {
  const current = await listReadingLists(db, userId);
  const known = new Set(current.map((l) => l.id));
  if (listIds.some((id) => !known.has(id))) return false;
  await writePositions(
    db,
    'reading_lists',
    userId,
    changedPositions(
      current.map((l) => ({ id: l.id, key: l.id, sort_order: l.sort_order })),
      listIds,
    ),
  );
  return true;
}

/**
 * An article as the user sees it, for adding it to a list: undefined when the user does not have it or a filter
 * hides it (it is shown nowhere, so it is "not found"); with its subscription's mute state.
 */
export async function findVisibleArticle(db: Db, userId: number, articleId: number) {
  return (
    db
      .selectFrom('user_articles')
      .innerJoin('subscriptions', (j) => j.onRef('subscriptions.feed_id', '=', 'user_articles.feed_id').onRef('subscriptions.user_id', '=', 'user_articles.user_id'))
      .select(['user_articles.article_id', 'user_articles.feed_id', 'user_articles.published_at', 'subscriptions.muted_permanently', 'subscriptions.muted_until'])
      .where('user_articles.user_id', '=', userId)
      .where('user_articles.article_id', '=', articleId)
      // The mute state comes back with the row: the caller answers a muted feed's article with its own error.
      .where((eb) => isNotFilteredOut(eb))
      .executeTakeFirst()
  );
}

/** Adds an article to a list, with the list's counters (call inside a transaction); false when it was there already. */
export async function addMember(
  db: Db,
  member: { listId: number; articleId: number; userId: number; feedId: number; publishedAt: string },
  now: string,
): Promise<boolean> {
  const inserted = await db
    .insertInto('reading_list_articles')
    .values({ list_id: member.listId, article_id: member.articleId, user_id: member.userId, feed_id: member.feedId, published_at: member.publishedAt, added_at: now })
    .onConflict((oc) => oc.columns(['list_id', 'article_id']).doNothing())
    .returning('article_id')
    .executeTakeFirst();
  if (inserted === undefined) return false;
  await listMembersChanged(db, { userId: member.userId, listId: member.listId, feedIds: [member.feedId] }, { removed: false });
  return true;
}

/** Removes an article from the user's list, with the list's counters (call inside a transaction); false when it was not in it. */
export async function removeMember(db: Db, userId: number, listId: number, articleId: number): Promise<boolean> {
  const removed = await db.deleteFrom('reading_list_articles').where('list_id', '=', listId).where('article_id', '=', articleId).returning('feed_id').executeTakeFirst();
  if (removed === undefined) return false;
  await listMembersChanged(db, { userId, listId, feedIds: [removed.feed_id] });
  return true;
}

/** The user's lists an article is in, in sidebar order (reading_list_articles_article_idx). */
export async function listsOfArticle(db: Db, userId: number, articleId: number): Promise<ArticleReadingListRef[]> {
  const rows = await db
    .selectFrom('reading_list_articles')
    .innerJoin('reading_lists', 'reading_lists.id', 'reading_list_articles.list_id')
    .select(['reading_lists.id', 'reading_lists.name', 'reading_lists.is_smart'])
    .where('reading_list_articles.article_id', '=', articleId)
    .where('reading_list_articles.user_id', '=', userId)
    .where('reading_lists.user_id', '=', userId)
    .orderBy('reading_lists.sort_order')
    .orderBy('reading_lists.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, is_smart: r.is_smart === 1 }));
}

/** Ids of the user's feeds among these (rules may name only the user's feeds). */
export async function ownFeedIds(db: Db, userId: number, feedIds: readonly number[]): Promise<Set<number>> {
  if (feedIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('subscriptions')
    .select('feed_id')
    .where('user_id', '=', userId)
    .where('feed_id', 'in', [...feedIds])
    .execute();
  return new Set(rows.map((r) => r.feed_id));
}
