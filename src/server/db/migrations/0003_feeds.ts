import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

/**
 * The feed engine's tables (decisions.md "Feeds and articles"):
 * - feeds: one row per normalised feed URL, fetched once for all subscribers; keeps the refresh state
 *   (validators, schedule, error count and last error, a lease so two workers never fetch it at once).
 * - articles: the items of a feed, identified within it by the sha256 of the parser's stable guid.
 * - subscriptions: which user reads which feed (custom title, order, mute: extended by the reading issue).
 * - user_articles: one row per subscriber and article (read, favourite), written in the same transaction as the
 *   article, so a new article is visible to every subscriber at once. feed_id and published_at are copied in
 *   so lists and unread counts are served from one index without joining articles.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  const ts = 'varchar(30)';

  await db.schema
    .createTable('feeds')
    .addColumn('id', idColumnType(db), idColumn(db))
    .addColumn('url', 'varchar(2048)', (c) => c.notNull().unique())
    .addColumn('title', text, (c) => c.notNull().defaultTo(''))
    .addColumn('site_url', text)
    .addColumn('description', text)
    .addColumn('language', 'varchar(35)')
    .addColumn('format', 'varchar(8)')
    .addColumn('icon_data', text)
    .addColumn('icon_type', 'varchar(100)')
    .addColumn('icon_checked_at', ts)
    .addColumn('etag', text)
    .addColumn('last_modified', text)
    .addColumn('ttl_minutes', 'integer')
    .addColumn('last_fetched_at', ts)
    .addColumn('last_success_at', ts)
    .addColumn('next_check_at', ts, (c) => c.notNull())
    .addColumn('error_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', text)
    .addColumn('last_error_code', 'varchar(40)')
    .addColumn('lease_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feeds_next_check_idx').on('feeds').column('next_check_at').execute();

  await db.schema
    .createTable('articles')
    .addColumn('id', idColumnType(db), idColumn(db))
    .addColumn('feed_id', 'integer', (c) => c.notNull().references('feeds.id').onDelete('cascade'))
    .addColumn('guid_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('guid', text, (c) => c.notNull())
    .addColumn('url', text)
    .addColumn('title', text, (c) => c.notNull().defaultTo(''))
    .addColumn('author', text)
    .addColumn('content', text)
    .addColumn('summary', text)
    .addColumn('image_url', text)
    .addColumn('enclosures', text)
    .addColumn('content_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('published_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_seen_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('articles_feed_guid_uq').on('articles').columns(['feed_id', 'guid_hash']).unique().execute();
  await db.schema.createIndex('articles_feed_published_idx').on('articles').columns(['feed_id', 'published_at', 'id']).execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', idColumnType(db), idColumn(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('feed_id', 'integer', (c) => c.notNull().references('feeds.id').onDelete('cascade'))
    .addColumn('custom_title', 'varchar(200)')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('muted_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user_feed_uq').on('subscriptions').columns(['user_id', 'feed_id']).unique().execute();
  await db.schema.createIndex('subscriptions_feed_idx').on('subscriptions').column('feed_id').execute();

  await db.schema
    .createTable('user_articles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
    .addColumn('feed_id', 'integer', (c) => c.notNull())
    .addColumn('published_at', ts, (c) => c.notNull())
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_favorite', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_at', ts)
    .addColumn('favorited_at', ts)
    .addPrimaryKeyConstraint('user_articles_pk', ['user_id', 'article_id'])
    .execute();
  await db.schema.createIndex('user_articles_list_idx').on('user_articles').columns(['user_id', 'published_at', 'article_id']).execute();
  await db.schema.createIndex('user_articles_feed_idx').on('user_articles').columns(['user_id', 'feed_id', 'is_read']).execute();
  // The clean-up asks "does anybody still keep this article?" per article.
  await db.schema.createIndex('user_articles_article_idx').on('user_articles').column('article_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_articles').execute();
  await db.schema.dropTable('subscriptions').execute();
  await db.schema.dropTable('articles').execute();
  await db.schema.dropTable('feeds').execute();
}

/*
 * Frozen copies of database.ts's dialect helpers as this migration was released (docs/decisions.md "Composition
 * root, logging and frozen migrations"): a migration imports nothing of the application.
 */
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres');
/** An auto-incrementing integer primary key column, in the spelling of each dialect. */
const idColumnType = (db: Kysely<any>) => (isPostgres(db) ? ('serial' as const) : ('integer' as const));
const idColumn = (db: Kysely<any>) => (col: ColumnDefinitionBuilder) => (isPostgres(db) ? col.primaryKey() : col.primaryKey().autoIncrement());
