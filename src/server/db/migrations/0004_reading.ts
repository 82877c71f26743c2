import { createHash } from 'node:crypto';
// eslint-disable-next-line no-restricted-imports -- the frozen search backfill needs an HTML parser's entity decoding: a pinned package, not Feeder code (docs/decisions.md "Composition root, logging and frozen migrations")
import { Parser } from 'htmlparser2';
import { sql, type Kysely } from 'kysely';

/**
 * The reading issue's storage (dashboard.md §3, §4, §7; decisions.md "Feeds and articles"):
 * - subscriptions gain the permanent-mute flag and two counters, unread_count and article_count, of the
 *   subscriber's visible (not filtered-out) articles. They are recomputed per (user, feed) after every change
 *   (today by articles/reading-state.ts), so unread counts and list totals for 1,000 feeds are one small read, never a count
 *   over a million rows (bench/README.md "Budgets").
 * - user_articles.is_hidden: 1 when the subscriber's filters hide the article. Filters are materialised here when
 *   they change and when articles arrive, so lists, counts and search use plain indexed conditions.
 * - feed_filters: include/exclude filters of one subscription.
 * - articles gain the cached full text (POST /api/extract-article-content), fetched once per article for all.
 * - full-text search: SQLite FTS5 (contentless table, rowid = article id, plain text written by the store) and on
 *   PostgreSQL a tsvector column with a GIN index ('simple' configuration: feeds are in many languages).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = 'varchar(30)';
  const pg = isPostgres(db);

  await db.schema
    .alterTable('subscriptions')
    .addColumn('muted_permanently', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('unread_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('article_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('subscriptions_user_order_idx').on('subscriptions').columns(['user_id', 'sort_order', 'id']).execute();

  await db.schema
    .alterTable('user_articles')
    .addColumn('is_hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // All-feeds list of unread articles, newest first; and the per-feed list and per-feed counts.
  await db.schema.createIndex('user_articles_unread_idx').on('user_articles').columns(['user_id', 'is_read', 'is_hidden', 'published_at', 'article_id']).execute();
  // 0003's (user, date) index over every row goes: beside the unread index it made every stored article land at
  // two random places in two indexes (half the refresh's store rate); lists with read articles merge two ranges
  // of the unread index instead (reading.repository.ts listAllWithRead).
  await db.schema.dropIndex('user_articles_list_idx').execute();
  await db.schema.dropIndex('user_articles_feed_idx').execute();
  await db.schema
    .createIndex('user_articles_feed_idx')
    .on('user_articles')
    .columns(['user_id', 'feed_id', 'is_read', 'is_hidden', 'published_at', 'article_id'])
    .execute();
  // Partial: only favourites are in it, so storing a new (never favourite) article does not touch it. Queries
  // must say `is_favorite = 1` as a literal (FAVORITE in reading.repository.ts) for SQLite to use it.
  await sql`create index user_articles_favorite_idx on user_articles (user_id, published_at, article_id) where is_favorite = 1`.execute(db);

  await db.schema
    .createTable('feed_filters')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscription_id', 'integer', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('feed_id', 'integer', (c) => c.notNull())
    .addColumn('filter_type', 'varchar(10)', (c) => c.notNull())
    .addColumn('filter_scope', 'varchar(10)', (c) => c.notNull())
    .addColumn('filter_text', 'varchar(500)', (c) => c.notNull())
    /** lower-cased text: the duplicate check (409) is case-insensitive, as matching is. */
    .addColumn('filter_key', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feed_filters_uq').on('feed_filters').columns(['subscription_id', 'filter_type', 'filter_scope', 'filter_key']).unique().execute();
  await db.schema.createIndex('feed_filters_user_feed_idx').on('feed_filters').columns(['user_id', 'feed_id']).execute();

  await db.schema.alterTable('articles').addColumn('extracted_content', 'text').execute();
  await db.schema.alterTable('articles').addColumn('extracted_at', ts).execute();
  /** Error code of the last failed extraction; a failure is retried after a while (articles/extract). */
  await db.schema.alterTable('articles').addColumn('extract_error', 'varchar(40)').execute();

  if (pg) {
    await sql`alter table articles add column search_vector tsvector`.execute(db);
    await sql`create index articles_search_idx on articles using gin (search_vector)`.execute(db);
  } else {
    // Contentless: the text lives in articles already; the store writes title and plain text under the article's id,
    // and the trigger removes the entry with the article (also when a feed's deletion cascades).
    await sql`create virtual table articles_fts using fts5(title, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger articles_fts_delete after delete on articles begin delete from articles_fts where rowid = old.id; end`.execute(db);
  }
  // Articles stored before this migration become searchable too (the store indexes every later one).
  await backfillSearchIndex(db, pg);

  // Icons are served content-addressed (feeds/icons.ts); icons stored before this migration get their address.
  await db.schema.alterTable('feeds').addColumn('icon_hash', 'varchar(64)').execute();
  await db.schema.createIndex('feeds_icon_hash_idx').on('feeds').column('icon_hash').execute();
  const withIcons = await db.selectFrom('feeds').select(['id', 'icon_data']).where('icon_data', 'is not', null).execute();
  for (const f of withIcons)
    await db
      .updateTable('feeds')
      .set({ icon_hash: iconHash(f.icon_data) })
      .where('id', '=', f.id)
      .execute();
  // Existing subscriptions start with the counters of what they already hold (list totals and unread counts).
  await recountAllSubscriptions(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('feeds_icon_hash_idx').execute();
  await db.schema.alterTable('feeds').dropColumn('icon_hash').execute();
  if (isPostgres(db)) {
    await sql`drop index if exists articles_search_idx`.execute(db);
    await db.schema.alterTable('articles').dropColumn('search_vector').execute();
  } else {
    await sql`drop trigger if exists articles_fts_delete`.execute(db);
    await sql`drop table if exists articles_fts`.execute(db);
  }
  for (const c of ['extract_error', 'extracted_at', 'extracted_content']) await db.schema.alterTable('articles').dropColumn(c).execute();
  await db.schema.dropTable('feed_filters').execute();
  await db.schema.dropIndex('user_articles_favorite_idx').execute();
  await db.schema.dropIndex('user_articles_feed_idx').execute();
  await db.schema.createIndex('user_articles_feed_idx').on('user_articles').columns(['user_id', 'feed_id', 'is_read']).execute();
  await db.schema.dropIndex('user_articles_unread_idx').execute();
  await db.schema.createIndex('user_articles_list_idx').on('user_articles').columns(['user_id', 'published_at', 'article_id']).execute();
  await db.schema.alterTable('user_articles').dropColumn('is_hidden').execute();
  await db.schema.dropIndex('subscriptions_user_order_idx').execute();
  for (const c of ['article_count', 'unread_count', 'muted_permanently']) await db.schema.alterTable('subscriptions').dropColumn(c).execute();
}

/*
 * Frozen copies of what the application's code did when this migration was released (docs/decisions.md
 * "Composition root, logging and frozen migrations"): a migration imports nothing of the application, so a later
 * change to the store, the counters or the icon addresses can never change what this migration did. They run once,
 * on a database that still had 0003's tables; never call them from anywhere else, never change them.
 */

/** Which dialect the bare Kysely talks to (database.ts dialectOf as released). */
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres');
}

/** The content address of an icon (feeds/icons.ts iconHash as released). */
function iconHash(base64: string): string {
  return createHash('sha256').update(base64).digest('hex').slice(0, 32);
}

/** subscriptions.unread_count and article_count of every subscription (articles/counters.ts as released). */
async function recountAllSubscriptions(db: Kysely<any>): Promise<void> {
  const count = (unreadOnly: boolean) =>
    sql<number>`(select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id${
      unreadOnly ? sql` and ua.is_read = 0` : sql``
    } and ua.is_hidden = 0)`;
  await db
    .updateTable('subscriptions')
    .set({ unread_count: count(true), article_count: count(false) })
    .execute();
}

/** Indexed text per article was cut here (article-text.ts INDEX_TEXT_MAX as released). */
const INDEX_TEXT_MAX = 100_000;
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);
const HIDDEN_TAGS = new Set(['script', 'style', 'template']);
// eslint-disable-next-line no-control-regex -- deliberate: the control characters the indexed text drops (text.ts as released)
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/**
 * An article's body as plain text (article-text.ts articleBody as released, simplified): its stored (sanitised)
 * content, else its summary; tags removed with a space at block boundaries, the text of script/style/template
 * dropped, every HTML entity decoded, whitespace collapsed, cut at INDEX_TEXT_MAX. htmlparser2's Parser gives the
 * decoded text the application's tokenizer gave.
 */
function articleBody(content: string | null, summary: string | null): string {
  const html = content ?? summary;
  if (!html) return '';
  let out = '';
  let hidden = 0;
  const parser = new Parser(
    {
      ontext: (text) => {
        if (hidden === 0) out += text;
      },
      onopentagname: (name) => {
        if (HIDDEN_TAGS.has(name)) hidden++;
        else if (BLOCK_TAGS.has(name)) out += ' ';
      },
      onclosetag: (name) => {
        if (HIDDEN_TAGS.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCK_TAGS.has(name)) out += ' ';
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  const text = out.replace(CONTROL_CHARS, '').replace(/\s+/g, ' ').trim();
  return text.length > INDEX_TEXT_MAX ? text.slice(0, INDEX_TEXT_MAX) : text;
}

/**
 * Makes every article stored before this migration searchable (articles.repository.ts backfillSearchIndex as
 * released): in batches by id, so memory stays small however many articles there are. SQLite: a row of the
 * contentless FTS5 table per article; PostgreSQL: the article's search_vector ('simple' configuration).
 */
async function backfillSearchIndex(db: Kysely<any>, pg: boolean): Promise<void> {
  const BATCH = 500;
  let after = 0;
  for (;;) {
    const rows: { id: number; title: string; content: string | null; summary: string | null }[] = await db
      .selectFrom('articles')
      .select(['id', 'title', 'content', 'summary'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    const texts = rows.map((r) => ({ id: r.id, title: r.title, body: articleBody(r.content, r.summary) }));
    if (pg) {
      for (const t of texts) {
        await db
          .updateTable('articles')
          .set({ search_vector: sql`to_tsvector('simple', ${`${t.title} ${t.body}`})` })
          .where('id', '=', t.id)
          .execute();
      }
    } else {
      // 300 rows per statement (3 parameters each) stay below SQLite's parameter limit.
      for (let i = 0; i < texts.length; i += 300) {
        await db
          .insertInto('articles_fts')
          .values(texts.slice(i, i + 300).map((t) => ({ rowid: t.id, title: t.title, body: t.body })))
          .execute();
      }
    }
  }
}
