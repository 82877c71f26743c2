import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { FeedFiltersTable } from '../db/tables.js';
import type { FilterRule, FilterScope, FilterType } from './filter-match.js';

/**
 * Feed filters and the hidden flag they materialise in user_articles (decisions.md "Feeds and articles").
 * Every function is scoped to its user (docs/ARCHITECTURE.md "Rules" 2).
 */
export type FilterRow = Selectable<FeedFiltersTable>;

/** The filters of one of the user's feeds, oldest first. */
export async function listFilters(db: Db, userId: number, feedId: number): Promise<FilterRow[]> {
  return db.selectFrom('feed_filters').selectAll().where('user_id', '=', userId).where('feed_id', '=', feedId).orderBy('id').execute();
}

/** The rules of one of the user's feeds, as isHiddenByFilters takes them. */
export async function filterRules(db: Db, userId: number, feedId: number): Promise<FilterRule[]> {
  return db.selectFrom('feed_filters').select(['filter_type', 'filter_scope', 'filter_text']).where('user_id', '=', userId).where('feed_id', '=', feedId).execute();
}

export async function countFilters(db: Db, userId: number, feedId: number): Promise<number> {
  const row = await db
    .selectFrom('feed_filters')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('feed_id', '=', feedId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Adds a filter; undefined when the same filter (type, scope, text ignoring case) exists already. The unique index
 * decides, so two requests at once cannot both add it.
 */
export async function insertFilter(
  db: Db,
  userId: number,
  filter: { subscriptionId: number; feedId: number; type: FilterType; scope: FilterScope; text: string; now: string },
): Promise<FilterRow | undefined> {
  return db
    .insertInto('feed_filters')
    .values({
      user_id: userId,
      subscription_id: filter.subscriptionId,
      feed_id: filter.feedId,
      filter_type: filter.type,
      filter_scope: filter.scope,
      filter_text: filter.text,
      filter_key: filter.text.toLowerCase(),
      created_at: filter.now,
    })
    .onConflict((oc) => oc.columns(['subscription_id', 'filter_type', 'filter_scope', 'filter_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Deletes one of the user's filters and says which feed it belonged to; undefined when there is no such filter. */
export async function deleteFilter(db: Db, userId: number, filterId: number): Promise<{ feed_id: number } | undefined> {
  return db.deleteFrom('feed_filters').where('user_id', '=', userId).where('id', '=', filterId).returning('feed_id').executeTakeFirst();
}

/** A page of the user's articles of a feed with what the filters look at, by ascending article id (keyset paging). */
export async function articlesToFilter(
  db: Db,
  userId: number,
  feedId: number,
  afterArticleId: number,
  limit: number,
): Promise<{ article_id: number; is_hidden: number; title: string; content: string | null; summary: string | null }[]> {
  return db
    .selectFrom('user_articles')
    .innerJoin('articles', 'articles.id', 'user_articles.article_id')
    .select(['user_articles.article_id', 'user_articles.is_hidden', 'articles.title', 'articles.content', 'articles.summary'])
    .where('user_articles.user_id', '=', userId)
    .where('user_articles.feed_id', '=', feedId)
    .where('user_articles.article_id', '>', afterArticleId)
    .orderBy('user_articles.article_id')
    .limit(limit)
    .execute();
}
