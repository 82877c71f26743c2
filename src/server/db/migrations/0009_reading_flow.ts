import type { Kysely } from 'kysely';

/**
 * The reading flow (dashboard.md §4 "Read/unread", §5; docs/decisions.md "Reading flow: undo, mark-read setting,
 * loading the original"):
 * - users.mark_read_on: when the web app marks an article read ('open', the default; 'scroll'; 'manual'), per user so
 *   that it follows the reader across devices.
 * - subscriptions.always_load_original: the subscriber's "always load the original" switch for one feed (per user,
 *   like the custom title: the shared feeds row is the same for every subscriber).
 * - read_undo: one row per bulk mark-read that changed something, naming the articles it marked by the read_at stamp
 *   it wrote (unique per user: no two undoable calls of one user share a stamp), with the feeds whose counters an
 *   undo recounts (JSON array, or null for all the user's feeds). Rows expire after minutes and are deleted then.
 *
 * The feed health the feed list shows needs no column: feeds.error_count (consecutive failed refreshes, reset on
 * success), next_check_at, last_fetched_at and last_error_code exist, and the counts are the subscriptions' counters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = 'varchar(30)';
  await db.schema
    .alterTable('users')
    .addColumn('mark_read_on', 'varchar(10)', (c) => c.notNull().defaultTo('open'))
    .execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('always_load_original', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('read_undo')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', ts, (c) => c.notNull())
    .addColumn('feed_ids', 'text')
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('read_undo_user_stamp_uq').on('read_undo').columns(['user_id', 'read_at']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('read_undo').execute();
  await db.schema.alterTable('subscriptions').dropColumn('always_load_original').execute();
  await db.schema.alterTable('users').dropColumn('mark_read_on').execute();
}
