import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Migrator, sql, type Generated, type Kysely } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openPostgres, openSqlite, type Database, type Dialect } from './database.js';
import { createTestDatabase, DIALECTS, TEST_POSTGRES_URL } from '../test/dialects.js';
import { migrations } from './migrations/index.js';

/**
 * Migrations are frozen (docs/decisions.md "Composition root, logging and frozen migrations"): a database that was
 * at 0003 when it met 0004 and everything after must end up exactly as it did with the chain as first released,
 * whatever the application's code does today. The snapshot below was recorded with the original chain (0004 calling
 * the live search-index backfill, recount and icon hash); the frozen copies must give the same schema and data.
 */

const T0 = '2020-01-01T00:00:00.000Z';
const T1 = '2020-01-02T00:00:00.000Z';

const LONG_BODY = `<p>${'Lorem ipsum dolor sit amet. '.repeat(4000)}</p>`; // beyond the 100,000 characters indexed

/** Articles as they could have been stored by 0003's refresh (sanitised HTML). */
const ARTICLES: { title: string; content: string | null; summary: string | null }[] = [
  { title: 'Plain words', content: '<p>Hello <b>bold</b>world</p><p>next paragraph</p>', summary: null },
  { title: 'Entities & more', content: '<p>Fish &amp; chips &lt;tag&gt; &quot;quoted&quot; it&#39;s a&nbsp;b</p>', summary: null },
  { title: 'Rarer entities', content: '<p>caf&eacute; na&#239;ve &#x41;BC &hellip; end</p>', summary: null },
  { title: 'Comment', content: '<div>before<!-- hidden remark -->after</div>', summary: null },
  { title: 'Summary only', content: null, summary: '<p>Only a <i>summary</i> here</p>' },
  { title: 'Nothing', content: null, summary: null },
  { title: 'Breaks and lists', content: 'one<br>two<br/>three<ul><li>alpha</li><li>beta</li></ul>gamma', summary: 'ignored summary' },
  { title: 'Umlaute', content: '<p>Müller aß Straße, ÉCOLE Ünïcödé</p>', summary: null },
  { title: 'Long', content: LONG_BODY, summary: null },
  { title: '', content: '<table><tr><td>cell1</td><td>cell2</td></tr></table><pre>code  block</pre>', summary: null },
];

/**
 * The columns the seed writes and reads, as they were at 0003 (not today's `Tables`: later migrations add required
 * columns the seed must not know about).
 */
interface TablesAt0003 {
  users: {
    id: Generated<number>;
    email: string;
    name: string;
    password_hash: string;
    is_verified: number;
    language_preference: string;
    created_at: string;
    updated_at: string;
  };
  feeds: {
    id: Generated<number>;
    url: string;
    title: string;
    icon_data: string | null;
    icon_type: string | null;
    next_check_at: string;
    created_at: string;
    updated_at: string;
  };
  articles: {
    id: Generated<number>;
    feed_id: number;
    guid_hash: string;
    guid: string;
    url: string;
    title: string;
    content: string | null;
    summary: string | null;
    content_hash: string;
    published_at: string;
    created_at: string;
    last_seen_at: string;
  };
  subscriptions: { user_id: number; feed_id: number; sort_order: number; created_at: string; muted_until: string | null };
  user_articles: {
    user_id: number;
    article_id: number;
    feed_id: number;
    published_at: string;
    is_read: number;
    read_at: string | null;
    is_favorite: number;
    favorited_at: string | null;
  };
}

async function seedAt0003(db: Kysely<TablesAt0003>): Promise<void> {
  for (const [i, email] of ['ann@example.com', 'bob@example.com'].entries()) {
    await db
      .insertInto('users')
      .values({ email, name: `User ${i}`, password_hash: 'x', is_verified: 1, language_preference: 'en', created_at: T0, updated_at: T0 })
      .execute();
  }
  const feed = (n: number, icon: string | null) => ({
    url: `https://example.com/feed${n}.xml`,
    title: `Feed ${n}`,
    icon_data: icon,
    icon_type: icon ? 'image/png' : null,
    next_check_at: T1,
    created_at: T0,
    updated_at: T0,
  });
  await db
    .insertInto('feeds')
    .values([feed(1, 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk'), feed(2, null), feed(3, 'R0lGODlhAQABAAAAACw=')])
    .execute();
  for (const [i, a] of ARTICLES.entries()) {
    await db
      .insertInto('articles')
      .values({
        feed_id: (i % 3) + 1,
        guid_hash: createHash('sha256').update(`g${i}`).digest('hex'),
        guid: `g${i}`,
        url: `https://example.com/a/${i}`,
        title: a.title,
        content: a.content,
        summary: a.summary,
        content_hash: createHash('sha256').update(`c${i}`).digest('hex'),
        published_at: `2020-01-01T00:00:${String(i).padStart(2, '0')}.000Z`,
        created_at: T0,
        last_seen_at: T0,
      })
      .execute();
  }
  // Ann reads feeds 1 and 2, Bob feeds 2 and 3; some articles read, one favourite.
  await db
    .insertInto('subscriptions')
    .values([
      { user_id: 1, feed_id: 1, sort_order: 0, created_at: T0 },
      { user_id: 1, feed_id: 2, sort_order: 1, created_at: T0, muted_until: T1 },
      { user_id: 2, feed_id: 2, sort_order: 0, created_at: T0 },
      { user_id: 2, feed_id: 3, sort_order: 1, created_at: T0 },
    ])
    .execute();
  const articles = await db.selectFrom('articles').select(['id', 'feed_id', 'published_at']).orderBy('id').execute();
  const subs = await db.selectFrom('subscriptions').select(['user_id', 'feed_id']).execute();
  for (const s of subs) {
    for (const a of articles.filter((x) => x.feed_id === s.feed_id)) {
      const read = (a.id + s.user_id) % 2 === 0 ? 1 : 0;
      await db
        .insertInto('user_articles')
        .values({
          user_id: s.user_id,
          article_id: a.id,
          feed_id: a.feed_id,
          published_at: a.published_at,
          is_read: read,
          read_at: read ? T1 : null,
          is_favorite: a.id === 2 ? 1 : 0,
          favorited_at: a.id === 2 ? T1 : null,
        })
        .execute();
    }
  }
}

/** An empty database of the dialect, not migrated; PostgreSQL in a throw-away schema. */
async function emptyDatabase(dialect: Dialect): Promise<{ database: Database; schema?: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = openSqlite(':memory:');
    return { database, drop: () => database.destroy() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openPostgres(TEST_POSTGRES_URL, { schema, max: 2 });
  return {
    database,
    schema,
    async drop() {
      await database.destroy();
      const c = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/** Long values (the long article) are kept as their length and hash, so the snapshot stays readable. */
function compact(value: unknown): unknown {
  if (typeof value === 'string' && value.length > 300) return `${value.length} chars, sha256 ${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
  return value;
}

function sortedRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, compact(v)]))).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** The schema, every table's rows and the search index, in a form that compares across runs. */
async function describeDatabase<DB>(dialect: Dialect, db: Kysely<DB>, schema?: string) {
  const bookkeeping = (name: string) => name.startsWith('kysely_migration');
  // Only this database's tables: on PostgreSQL other schemas of the test database (other runs, kept benchmark
  // databases) are listed too.
  const tables = (await db.introspection.getTables())
    .filter((t) => schema === undefined || t.schema === schema)
    .map((t) => t.name)
    .filter((n) => !bookkeeping(n) && !n.startsWith('articles_fts'))
    .sort();
  const data: Record<string, unknown> = {};
  for (const t of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db)).rows;
    data[t] = sortedRows(rows.map((r) => (dialect === 'postgres' && 'search_vector' in r ? { ...r, search_vector: String(r.search_vector) } : r)));
  }
  let structure: unknown;
  let search: unknown;
  if (dialect === 'sqlite') {
    structure = (
      await sql<Record<string, unknown>>`select type, name, tbl_name, sql from sqlite_master where name not like 'kysely_migration%' order by type, name`.execute(db)
    ).rows;
    await sql`create virtual table temp.fts_vocab using fts5vocab(main, articles_fts, 'instance')`.execute(db);
    search = (
      await sql<
        Record<string, unknown>
      >`select term, doc, col, count(*) as n, min("offset") as first, max("offset") as last from temp.fts_vocab group by term, doc, col order by doc, col, term`.execute(
        db,
      )
    ).rows;
  } else {
    const strip = (s: unknown) => String(s).replaceAll(`${schema}.`, '');
    const columns = await sql<Record<string, unknown>>`select table_name, column_name, ordinal_position, data_type, character_maximum_length, is_nullable, column_default
      from information_schema.columns where table_schema = current_schema() and table_name not like 'kysely_migration%' order by table_name, ordinal_position`.execute(
      db,
    );
    const indexes = await sql<Record<string, unknown>>`select tablename, indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename not like 'kysely_migration%' order by tablename, indexname`.execute(db);
    const constraints = await sql<Record<string, unknown>>`select c.conrelid::regclass::text as table_name, c.conname, pg_get_constraintdef(c.oid) as def
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = current_schema() and c.conrelid::regclass::text not like 'kysely_migration%' order by 1, 2`.execute(db);
    structure = {
      columns: columns.rows.map((r) => ({ ...r, column_default: r.column_default === null ? null : strip(r.column_default) })),
      indexes: indexes.rows.map((r) => ({ ...r, indexdef: strip(r.indexdef) })),
      constraints: constraints.rows.map((r) => ({ ...r, table_name: strip(r.table_name), def: strip(r.def) })),
    };
    search = null; // search_vector is part of the articles rows
  }
  return { structure, data, search };
}

for (const dialect of DIALECTS) {
  describe(`migrations (${dialect})`, () => {
    let drop: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await drop?.();
      drop = undefined;
    });

    it('a database holding data at 0003 ends up, after every later migration, as it did with the chain as released', async () => {
      const empty = await emptyDatabase(dialect);
      drop = empty.drop;
      const db = empty.database.db;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(empty.schema ? { migrationTableSchema: empty.schema } : {}) });
      const first = await migrator.migrateTo('0003_feeds');
      expect(first.error).toBeUndefined();
      // The database is at 0003 here: the seed sees it with that schema's types.
      await seedAt0003(db as unknown as Kysely<TablesAt0003>);
      expect(await migrateToLatest(db)).toEqual(Object.keys(migrations).slice(3));
      expect(await describeDatabase(dialect, db, empty.schema)).toMatchSnapshot();
    });
  });
}

describe('migration files', () => {
  it('import Kysely and nothing of the application (docs/ARCHITECTURE.md "Rules" 13)', () => {
    const dir = new URL('./migrations/', import.meta.url);
    const files = readdirSync(dir).filter((f) => /^\d{4}_.*\.ts$/.test(f));
    expect(files.length).toBe(Object.keys(migrations).length);
    for (const file of files) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      const imported = [...source.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
      expect(
        imported.filter((m) => !['kysely', 'node:crypto', 'htmlparser2'].includes(m)),
        file,
      ).toEqual([]);
    }
  });
});

describe.runIf(DIALECTS.includes('postgres'))('0013_articles_lz4 (postgres)', () => {
  it('stores the articles’ large columns with lz4 when the server has it, and down gives them the default back', async () => {
    const database = await createTestDatabase('postgres');
    try {
      const db = database.db;
      const lz4 = (await sql<{ lz4: boolean }>`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db)).rows[0].lz4;
      const methods = async () =>
        (
          await sql<{ attname: string; method: string }>`select attname, attcompression as method from pg_attribute
            where attrelid = 'articles'::regclass and attname in ('content', 'summary', 'teaser', 'extracted_content', 'search_vector') order by attname`.execute(db)
        ).rows.map((r) => `${r.attname}:${r.method}`);
      expect(await methods()).toEqual(['content', 'extracted_content', 'search_vector', 'summary', 'teaser'].map((c) => `${c}:${lz4 ? 'l' : ''}`));
      await (await import('./migrations/0013_articles_lz4.js')).down(db);
      expect(await methods()).toEqual(['content', 'extracted_content', 'search_vector', 'summary', 'teaser'].map((c) => `${c}:`));
    } finally {
      await database.destroy();
    }
  });
});
