import type { Kysely } from 'kysely';

/**
 * The feed row keeps its posting frequency (docs/decisions.md "Refresh engine: storing in groups"): the average gap
 * between its newest posts in minutes, and the newest post's time, written when a fetched document is stored. A 304
 * then schedules the next check from the row it has just leased instead of reading the feed's newest articles.
 * Null (feeds stored before this migration) until their next stored document; the refresh reads the articles once
 * for them, so nothing needs a backfill here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feeds').addColumn('post_gap_minutes', 'double precision').execute();
  await db.schema.alterTable('feeds').addColumn('newest_post_at', 'varchar(30)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feeds').dropColumn('newest_post_at').execute();
  await db.schema.alterTable('feeds').dropColumn('post_gap_minutes').execute();
}
