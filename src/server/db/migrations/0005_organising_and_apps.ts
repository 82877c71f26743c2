import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * Storage of organising and of external apps (docs/decisions.md "Organising: folders and reading lists", "External
 * apps: Google Reader API", "External apps: Fever"):
 * - folders: a user's named groups of feeds (dashboard.md §3 "Folder"); a subscription is in at most one
 *   (subscriptions.folder_id; deleting a folder sets it back to null, never deletes feeds). Root feeds, folders and
 *   reading lists each keep their own sort_order (the sidebar orders them by drag and drop).
 * - reading_lists: simple (manual) or smart (rules, decisions.md "Smart reading lists"); rules are kept as JSON
 *   text, membership is materialised in reading_list_articles (smart lists: recomputed when rules change and
 *   matched as articles arrive), so list pages and unread counts are index reads.
 * - reading_list_articles: membership; user_id, feed_id and published_at are copied in so a list page is one
 *   index range and the clean-up can keep what is in any list.
 * - users gain the reader-apps password (decisions.md "External apps"): the flag, the password encrypted with the
 *   server secret, and md5(email:password) for the Fever api_key look-up.
 * - api_tokens: opaque 365-day bearer tokens of the public API v1, stored as SHA-256 hashes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = 'varchar(30)';

  await db.schema
    .createTable('folders')
    .addColumn('id', idColumnType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('folders_user_idx').on('folders').columns(['user_id', 'sort_order', 'id']).execute();

  await db.schema
    .alterTable('subscriptions')
    .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('subscriptions_folder_idx').on('subscriptions').column('folder_id').execute();

  await db.schema
    .createTable('reading_lists')
    .addColumn('id', idColumnType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_smart', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON array of rules: {rule_type, rule_scope, rule_value, include_all_feeds, selected_feeds}. */
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reading_lists_user_idx').on('reading_lists').columns(['user_id', 'sort_order', 'id']).execute();

  await db.schema
    .createTable('reading_list_articles')
    .addColumn('list_id', 'integer', (c) => c.notNull().references('reading_lists.id').onDelete('cascade'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('feed_id', 'integer', (c) => c.notNull())
    .addColumn('published_at', ts, (c) => c.notNull())
    .addColumn('added_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('reading_list_articles_pk', ['list_id', 'article_id'])
    .execute();
  await db.schema.createIndex('reading_list_articles_page_idx').on('reading_list_articles').columns(['list_id', 'published_at', 'article_id']).execute();
  // "Is this article in any of my lists" (in_reading_list, GET /api/articles/{id}/reading-lists, the clean-up).
  await db.schema.createIndex('reading_list_articles_article_idx').on('reading_list_articles').columns(['article_id', 'user_id']).execute();

  await db.schema
    .alterTable('users')
    .addColumn('fever_api_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  /** The reader-apps password, AES-GCM encrypted with the server secret (shown again on reveal). */
  await db.schema.alterTable('users').addColumn('app_password_enc', 'text').execute();
  /** md5(lower(email):password), hex: the Fever api_key, looked up case-insensitively (stored lower-case). */
  await db.schema.alterTable('users').addColumn('app_password_key', 'varchar(32)').execute();
  await db.schema.createIndex('users_app_password_key_idx').on('users').column('app_password_key').execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', idColumnType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
  await db.schema.dropIndex('users_app_password_key_idx').execute();
  for (const c of ['app_password_key', 'app_password_enc', 'fever_api_enabled']) await db.schema.alterTable('users').dropColumn(c).execute();
  await db.schema.dropTable('reading_list_articles').execute();
  await db.schema.dropTable('reading_lists').execute();
  await db.schema.dropIndex('subscriptions_folder_idx').execute();
  await db.schema.alterTable('subscriptions').dropColumn('folder_id').execute();
  await db.schema.dropTable('folders').execute();
}

/*
 * Frozen copies of database.ts's dialect helpers as this migration was released (docs/decisions.md "Composition
 * root, logging and frozen migrations"): a migration imports nothing of the application.
 */
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres');
/** An auto-incrementing integer primary key column, in the spelling of each dialect. */
const idColumnType = (db: Kysely<any>) => (isPostgres(db) ? ('serial' as const) : ('integer' as const));
const idColumn = (db: Kysely<any>) => (col: ColumnDefinitionBuilder) => (isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement());
