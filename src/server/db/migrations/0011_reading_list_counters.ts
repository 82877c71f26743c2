import { sql, type Kysely } from 'kysely';

/**
 * Reading-list counters (docs/decisions.md "Reading-list counters"): the lists' counts become a read of counter rows
 * instead of a count over the lists' members at read time.
 * - reading_list_counts: per (user, list, feed) with at least one member in the list, the members the user's filters
 *   do not hide (article_count) and of those the unread ones (unread_count). Kept by articles/reading-state.ts, which
 *   recounts a pair wherever it recounts the subscriptions' counters and wherever membership changes. The mute half
 *   of the visibility rule depends on the time (muted_until), so it is applied when reading: a list's counts are the
 *   sum over its rows of feeds not muted now. The primary key leads with user_id: the lists' counts of a user are one
 *   range, in list order.
 * - reading_list_articles_feed_idx: a list's members of some feeds (the recounts are scoped by user and feeds, or by
 *   feeds alone when articles arrive); with list and article ids in it the recount reads no member row.
 * Existing lists start with the counters of what they hold.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reading_list_counts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('list_id', 'integer', (c) => c.notNull())
    .addColumn('feed_id', 'integer', (c) => c.notNull())
    .addColumn('unread_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('article_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('reading_list_counts_pk', ['user_id', 'list_id', 'feed_id'])
    .execute();
  await db.schema.createIndex('reading_list_articles_feed_idx').on('reading_list_articles').columns(['feed_id', 'user_id', 'list_id', 'article_id']).execute();
  await countAllLists(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reading_list_articles_feed_idx').execute();
  await db.schema.dropTable('reading_list_counts').execute();
}

/*
 * A frozen copy of the recount as this migration was released (docs/decisions.md "Composition root, logging and
 * frozen migrations"): a migration imports nothing of the application. Never call it from anywhere else.
 */

/** The counters of every (user, list, feed) with members. */
async function countAllLists(db: Kysely<any>): Promise<void> {
  await sql`insert into reading_list_counts (user_id, list_id, feed_id, unread_count, article_count)
    select rla.user_id, rla.list_id, rla.feed_id,
      sum(case when ua.is_hidden = 0 and ua.is_read = 0 then 1 else 0 end),
      sum(case when ua.is_hidden = 0 then 1 else 0 end)
    from reading_list_articles rla
    left join user_articles ua on ua.user_id = rla.user_id and ua.article_id = rla.article_id
    group by rla.user_id, rla.list_id, rla.feed_id`.execute(db);
}
