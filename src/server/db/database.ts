import SQLite from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { inspect } from 'node:util';
import { withoutGlobal } from '../../common/lazy.js';
import { createPrivateFile, tightenMode } from '../private-file.js';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Config } from '../config.js';
import { SQLITE_BULK_CACHE_MB, SQLITE_CACHE_MB } from './sqlite-cache.js';
import { migrations } from './migrations/index.js';
import type { Tables } from './tables.js';

/**
 * The only file that knows which SQL dialect is in use (docs/ARCHITECTURE.md "Where things are"). Everything else talks Kysely.
 *
 * Storage conventions shared by both dialects (docs/decisions.md "Storage"):
 * - timestamps are UTC ISO 8601 strings with milliseconds and `Z` (fixed width, so they sort as text);
 * - booleans are integers 0/1 (better-sqlite3 cannot bind JS booleans); repositories map them;
 * - ids are integer identities.
 */
export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Tables>;

export interface Database {
  db: Db;
  dialect: Dialect;
  destroy(): Promise<void>;
}

const require = createRequire(import.meta.url);
let pgModule: typeof pg | undefined;

/**
 * pg is loaded only when a PostgreSQL database is opened: a SQLite installation never needs it, and bench/README.md "Budgets"
 * caps `feeder all` at 150 MB. pg is CommonJS, so a synchronous require keeps openPostgres/openDatabase synchronous.
 * The type parser is set on the first load, before the first pool exists and so before any query runs.
 * While it loads, pg asks whether it runs in a Cloudflare Worker by making a `Response` when there is no `navigator`
 * (Node 20 has none); without the global it answers no at once, as it would after the look, and Node does not load
 * its bundled undici for it (docs/decisions.md "Process memory: modules on first use").
 */
function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = withoutGlobal('Response', () => require('pg') as typeof pg);
    // PostgreSQL returns int8 (count(*), bigint ids) as strings by default; our ids and counts fit in a double.
    pgModule.types.setTypeParser(20, (v) => Number(v));
  }
  return pgModule;
}

/** The page size of a new SQLite database (docs/decisions.md "SQLite: 8 KB pages"). */
export const SQLITE_PAGE_SIZE = 8192;
/** The WAL a checkpoint starts at, and what a larger WAL file is cut back to afterwards. */
const WAL_BYTES = 16 * 1024 * 1024;
/** wal_autocheckpoint counts pages: WAL_BYTES of them whatever the file's page size. */
export const walCheckpointPages = (pageSize: number) => Math.max(1, Math.round(WAL_BYTES / pageSize));

export function openSqlite(file: string, cacheMb = SQLITE_CACHE_MB): Database {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 }); // a directory Feeder creates is the owner's only
    // The file is created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the database file's
    // mode); files an older version left readable by others are tightened (decisions.md "Data files are the owner's
    // only").
    createPrivateFile(file);
    for (const suffix of ['', '-wal', '-shm']) tightenMode(file + suffix);
  }
  const sqlite = new SQLite(file);
  // A new database gets 8 KB pages (SQLite's default is 4 KB); an existing file keeps the size it was made with until
  // `feeder compact` rewrites it (docs/decisions.md "SQLite: 8 KB pages"). Set before WAL mode, which fixes it.
  sqlite.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 8 MB of page cache unless SQLITE_CACHE_MB says otherwise (SQLite's default is 2 MB). It was 32 MB while FTS5's
  // segment deletes read the whole index through it, then 16. Storing, lists and counts cost the same with 8; a
  // search for a word in 5 % of a million articles, asked again and again, takes about 70 ms instead of 50–70; the
  // verbs that rewrite a whole scope's rows take 16 for their transaction (withBulkCache; docs/decisions.md "SQLite's
  // page cache: 8 MB, and 16 for a scope's rewrite").
  sqlite.pragma(`cache_size = ${-Math.round(cacheMb * 1024)}`);
  // Checkpoints every 16 MB of WAL (4,096 pages of 4 KB, 2,048 of 8 KB) instead of SQLite's 1,000 pages: the
  // refresh's index pages are written again and again, and a checkpoint copies each page once however often it
  // changed since the last one, so fewer checkpoints write fewer pages (bench/README.md "Reading the refresh
  // figures"). The WAL file is cut back to 16 MB after a checkpoint that let it grow beyond.
  sqlite.pragma(`wal_autocheckpoint = ${walCheckpointPages(sqlite.pragma('page_size', { simple: true }) as number)}`);
  sqlite.pragma(`journal_size_limit = ${WAL_BYTES}`);
  // Planner statistics: without them SQLite guesses which index serves a list query, and with a million
  // user_articles rows a wrong guess costs seconds. analysis_limit keeps ANALYZE cheap on big tables (10,000 rows
  // per index: about 0.2 s for a million articles; 1,000 estimated so coarsely that the favourites count scanned
  // every row). optimize at open (0x10002: also tables never analysed) and after the hourly clean-up keeps the
  // statistics current.
  sqlite.pragma('analysis_limit = 10000');
  if (file !== ':memory:') {
    sqlite.pragma('optimize = 0x10002');
    if (sqlite.prepare(HAS_STATISTICS).get() && sqlite.prepare(FLOOR_FTS_DATA_ROWS).run().changes > 0) sqlite.exec('analyze sqlite_schema');
  }
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // Kysely closes the connection only when a query opened its driver; one opened and never queried (`feeder
  // compact` finding the file in use, a start that failed early) must let the file go too.
  const destroy = async () => {
    await db.destroy();
    if (sqlite.open) sqlite.close();
  };
  return { db, dialect: 'sqlite', destroy };
}

/**
 * FTS5 removes merged index segments with its own `DELETE FROM <table>_data WHERE id >= ? AND id <= ?`, prepared
 * once per connection. Statistics taken while the index was (nearly) empty (the optimize at open before a first round:
 * 1–3 rows) make SQLite plan that range as a scan of the whole table, and every merge step of the connection's life
 * then read the whole index from the OS: the refresh's main thread cost that grew with the database (docs/decisions.md
 * "Refresh engine: what grew with the database on SQLite"). The data tables' row estimates get a floor instead
 * (from 10 rows up SQLite plans the range as a range); FTS5's statements are all keyed on the row id, which no larger
 * estimate can lead astray. The floor is low so that a real count above it stands: optimize analyses a table again
 * when its size left a factor of 10 around the recorded one, and counting the rows of a large index reads all of it.
 * Idempotent; after every optimize, followed by `analyze sqlite_schema` (reloads the statistics) when it changed a row.
 */
const FTS_DATA_ROWS_FLOOR = 1000;
const HAS_STATISTICS = "select 1 as yes from sqlite_schema where name = 'sqlite_stat1'";
const FLOOR_FTS_DATA_ROWS = `update sqlite_stat1 set stat = '${FTS_DATA_ROWS_FLOOR}' where tbl like '%\\_fts\\_data' escape '\\' and idx is null and cast(stat as integer) < ${FTS_DATA_ROWS_FLOOR}`;

/** Statements kept prepared per connection; the SQL of `in (…)` lists varies with their length, so it is bounded. */
const STATEMENT_CACHE_SIZE = 500;
/**
 * The SQL of the statements SQLite keeps prepared, in characters at most. A prepared statement takes about 20–30
 * bytes per character of its SQL (a 50-row insert of 2,800 characters 80 KB, a group's 400 search entries 88 KB), so
 * 500 statements of varying sizes could hold tens of MB; this keeps them to about 5 MB (docs/decisions.md "Refresh
 * engine: a few statement sizes").
 */
const STATEMENT_CACHE_CHARS = 200_000;

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs about as much as running a small insert.
 * The same few hundred statements run over and over (the refresh writes each feed with the same SQL), so they
 * are kept prepared, the least recently used going first when the cache is full (by count or by the length of
 * its SQL). Safe because Kysely runs one query at a time per connection and never keeps an iterator
 * open across queries (we do not stream from SQLite). A statement let go is finalised when it is collected.
 */
export function withStatementCache(sqlite: Pick<SQLite.Database, 'prepare' | 'close'>, maxChars = STATEMENT_CACHE_CHARS) {
  const cache = new Map<string, SQLite.Statement>();
  let chars = 0;
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        // Most recently used last: Map keeps insertion order.
        cache.delete(sql);
        cache.set(sql, stmt);
        return stmt;
      }
      stmt = sqlite.prepare(sql);
      cache.set(sql, stmt);
      chars += sql.length;
      while (cache.size > STATEMENT_CACHE_SIZE || (chars > maxChars && cache.size > 1)) {
        const oldest = cache.keys().next().value!;
        cache.delete(oldest);
        chars -= oldest.length;
      }
      return stmt;
    },
    /** What the cache holds (tests). */
    get kept() {
      return { statements: cache.size, chars };
    },
  };
}

/**
 * Kysely sends every PostgreSQL query as an unnamed statement, which the server parses, analyses and plans anew on
 * each run; for the small, hot reads of the reader apps (Fever, Google Reader: a few statements per request,
 * thousands of requests a second) that was most of the database's work (bench/README.md). Parameterised queries are
 * sent as named prepared statements instead: parsed once per connection, and after a few runs PostgreSQL keeps a
 * generic plan when it is no worse than the custom ones (its plan cache decides per statement). Statements without
 * parameters (DDL, multi-statement scripts) stay unnamed. The names per connection are bounded like the SQLite
 * cache: pg cannot forget a prepared statement, so past the bound new texts simply run unnamed.
 */
const statementNames = new Map<string, string>();

/** The name of a statement text, the same on every connection; undefined once the process knows enough texts. */
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (!name && statementNames.size < STATEMENT_CACHE_SIZE * 4) {
    name = `k${statementNames.size.toString(36)}`;
    statementNames.set(text, name);
  }
  return name;
}

function withNamedStatements(pool: pg.Pool) {
  const patched = new WeakSet<pg.PoolClient>();
  return {
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      if (!patched.has(client)) {
        patched.add(client);
        const prepared = new Set<string>();
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
          const name = typeof text === 'string' && Array.isArray(values) && values.length > 0 ? statementName(text) : undefined;
          if (name && (prepared.has(name) || prepared.size < STATEMENT_CACHE_SIZE)) {
            prepared.add(name);
            return query({ name, text, values }, callback);
          }
          return query(text, values, callback);
        };
      }
      return client;
    },
  };
}

/**
 * Bounds on every wait for PostgreSQL (docs/decisions.md "Threat model"): a database that stops
 * answering (a full pool, a hung server, a lost network) must turn into an error a request can answer with, never
 * into requests that wait forever. `connectionTimeoutMillis` bounds both a new connection and the wait for a free
 * one in the pool; `query_timeout` bounds one query on the client side (a server that went silent mid-query), and
 * is long enough for a migration's backfill of a million rows; an idle transaction is ended by the server.
 */
export const PG_TIMEOUTS = { connectMs: 10_000, queryMs: 300_000, idleInTransactionMs: 60_000 };

export function openPostgres(url: string, options: { schema?: string; max?: number; timeouts?: Partial<typeof PG_TIMEOUTS> } = {}): Database {
  const timeouts = { ...PG_TIMEOUTS, ...options.timeouts };
  const serverOptions = [`-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`];
  // A per-connection search_path lets tests run in a throw-away schema each.
  if (options.schema) serverOptions.push(`-c search_path=${options.schema}`);
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.queryMs,
    keepAlive: true,
    options: serverOptions.join(' '),
  });
  // An idle client whose connection breaks emits 'error' on the pool; without a listener that ends the process.
  pool.on('error', () => {});
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  return { db, dialect: 'postgres', destroy: () => db.destroy() };
}

/**
 * Runs `fn` (a transaction of its own, begun inside `fn`) with SQLite's page cache at SQLITE_BULK_CACHE_MB when it is
 * set smaller, and sets it back afterwards, which frees the pages beyond it (docs/decisions.md "SQLite's page cache:
 * 8 MB, and 16 for a scope's rewrite"). For the verbs that change every matching row of a user's articles (mark
 * everything read, undo that): their statement rewrites index entries all over user_articles, and a cache that cannot
 * hold those pages writes and reads them again before the commit. PostgreSQL: `fn` alone.
 *
 * Nothing is kept between calls: the size is read from the connection each time. Two such calls at once each see
 * either the setting (and raise it, then restore it) or the raised size (and leave it alone), so the cache always
 * returns to the setting; at worst one of them runs with the smaller cache. What else runs on the connection in
 * the meantime (a refresh's write group) has the larger cache too, until the verb ends.
 */
export async function withBulkCache<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.isTransaction || dialectOf(db) !== 'sqlite') return fn();
  const setting = (await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]?.cache_size;
  // openSqlite sets it in KiB (a negative figure); a positive one counts pages, which this leaves alone.
  const bulk = -Math.round(SQLITE_BULK_CACHE_MB * 1024);
  if (typeof setting !== 'number' || setting <= bulk || setting > 0) return fn();
  await sql.raw(`pragma cache_size = ${bulk}`).execute(db);
  try {
    return await fn();
  } finally {
    await sql.raw(`pragma cache_size = ${setting}`).execute(db);
  }
}

export interface CompactResult {
  before: { bytes: number; pageSize: number };
  after: { bytes: number; pageSize: number };
}

/**
 * `feeder compact`: rewrites a SQLite database file (VACUUM) with SQLITE_PAGE_SIZE pages, so that a database made
 * before 8 KB pages gets them, and the space of deleted articles goes back to the disk (SQLite keeps a file's freed
 * pages for reuse otherwise; docs/decisions.md "SQLite: 8 KB pages"). The page size changes only outside WAL mode,
 * which needs the only connection to the file: while a Feeder process has it open, SQLite refuses the switch and
 * this throws, having changed nothing. VACUUM writes a copy, then the file again with its old pages in a journal, so
 * it needs free space of about one and a half times the database's size.
 */
export function compactSqlite(file: string): CompactResult {
  if (file === ':memory:' || !existsSync(file)) throw new Error(`There is no SQLite database at ${file}.`);
  const size = () => ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);
  const sqlite = new SQLite(file, { timeout: 2000 });
  try {
    const pageSize = () => sqlite.pragma('page_size', { simple: true }) as number;
    const before = { bytes: size(), pageSize: pageSize() };
    const inUse = new Error('The database is in use: stop every Feeder process that uses it, then compact it.');
    try {
      sqlite.pragma('journal_mode = DELETE');
    } catch (err) {
      throw err instanceof SQLite.SqliteError && err.code.startsWith('SQLITE_BUSY') ? inUse : err;
    }
    // SQLite may also keep WAL mode without an error while another connection has the file open.
    if (sqlite.pragma('journal_mode', { simple: true }) !== 'delete') throw inUse;
    try {
      sqlite.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
      sqlite.exec('vacuum');
    } finally {
      sqlite.pragma('journal_mode = WAL');
    }
    return { before, after: { bytes: size(), pageSize: pageSize() } };
  } finally {
    sqlite.close();
  }
}

export function openDatabase(config: Pick<Config, 'database'>): Database {
  return config.database.dialect === 'postgres' ? openPostgres(config.database.url) : openSqlite(config.database.file, config.database.cacheMb);
}

/**
 * Runs every pending migration; throws when one fails (the transaction of that migration is rolled back).
 * `beforeRunning` is called first when there is one to run (bin/feeder.js switches V8's optimising compiler back on:
 * a migration may rewrite every row).
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, options: { beforeRunning?: () => void } = {}): Promise<string[]> {
  // Kysely's Migrator looks for its own tables in every schema it can see; in a PostgreSQL database shared with
  // other schemas (another Feeder, the tests' throw-away schemas, a benchmark's) it would take their
  // kysely_migration table for ours. Naming the schema we work in keeps the bookkeeping where the tables go.
  const migrationTableSchema = dialectOf(db) === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  if (options.beforeRunning && (await migrator.getMigrations()).some((m) => m.executedAt === undefined)) options.beforeRunning();
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(typeof error === 'string' ? error : inspect(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Which dialect a Kysely instance talks to (repositories receive a Db or a transaction). Migrations keep their own
 * frozen copy of it and import nothing from here.
 */
export function dialectOf(db: Pick<Kysely<unknown>, 'getExecutor'>): Dialect {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres') ? 'postgres' : 'sqlite';
}

/** The current time in the storage format (UTC ISO 8601 with `Z`). */
export const nowIso = () => new Date().toISOString();

/**
 * Whether an error means the database cannot answer now (as opposed to a wrong query): PostgreSQL unreachable, the
 * pool's wait or a query's time limit passed, SQLite's busy timeout passed. The HTTP layer answers these 503.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
  if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P03', '53300'].includes(code))
    return true;
  return /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error/i.test(err.message);
}

/** Liveness check for /healthz. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Keeps the query planner's statistics current after data has grown or shrunk (the hourly clean-up calls it).
 * SQLite: PRAGMA optimize (analyses only tables whose size changed a lot, bounded by analysis_limit).
 * PostgreSQL: nothing to do; autovacuum analyses on its own.
 */
export async function optimizePlanner(database: Database): Promise<void> {
  if (database.dialect !== 'sqlite') return;
  await sql`pragma optimize`.execute(database.db);
  if ((await sql.raw(HAS_STATISTICS).execute(database.db)).rows.length === 0) return;
  const floored = await sql.raw(FLOOR_FTS_DATA_ROWS).execute(database.db);
  if (Number(floored.numAffectedRows ?? 0) > 0) await sql`analyze sqlite_schema`.execute(database.db);
}
