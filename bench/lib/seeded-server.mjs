// Shared by the benchmarks that time the built server over a large generated data set (fever, greader, reading,
// reading-lists): per dialect a fresh database (SQLite in a temporary DATA_DIR; PostgreSQL in its own schema when
// reachable), migrated, one verified user created with the CLI, the bench's rows generated in SQL, `feeder web`
// started as in production, and the bench's requests run against it.
// Environment: BENCH_SKIP_SQLITE=1 / BENCH_SKIP_POSTGRES=1 skip a dialect; BENCH_POSTGRES_URL; BENCH_DATA_DIR keeps
// the seeded SQLite database there and BENCH_KEEP_POSTGRES=1 keeps the seeded schema (for EXPLAIN afterwards);
// BENCH_ROOT runs the server from a copy of the build (a directory with package.json, bin/, dist/ and node_modules),
// so a benchmark can run while dist/ is being rebuilt.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { waitUp } from './http.mjs';

export const BENCH_EMAIL = 'bench@example.com';
export const BENCH_PASSWORD = 'bench-password';
/** The generated articles are dated back from this instant, 30 s apart. */
export const NOW = Date.parse('2026-11-22T12:00:00.000Z');

const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const root = process.env.BENCH_ROOT ? pathToFileURL(process.env.BENCH_ROOT.replace(/\/?$/, '/')) : new URL('../../', import.meta.url);
const bin = new URL('bin/feeder.js', root).pathname;
const dist = new URL('dist/server/', root);

/**
 * SQL pieces that differ between the dialects, for generating rows in one statement: `seq(n)` and `from(n)` make
 * a row source of integers i = 0..n-1 (`${seq(n)} insert … select … ${from(n)}`), `iso(seconds)` is NOW minus
 * that many seconds as the ISO text the app stores, `cat` joins string expressions, `now` is NOW as a literal,
 * `guidHash` a unique 64-character guid_hash from i.
 */
export function sqlFor(dialect) {
  const sqlite = dialect === 'sqlite';
  return {
    sqlite,
    seq: (n) => (sqlite ? `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${n - 1})` : ''),
    from: (n) => (sqlite ? 'from s' : `from generate_series(0, ${n - 1}) as s(i)`),
    iso: (secondsExpr) =>
      sqlite
        ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${NOW / 1000} - (${secondsExpr}), 'unixepoch')`
        : `to_char((to_timestamp(${NOW / 1000} - (${secondsExpr})) at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    cat: (...parts) => parts.join(' || '),
    now: `'${new Date(NOW).toISOString()}'`,
    guidHash: sqlite ? `printf('%064d', i)` : `lpad(i::text, 64, '0')`,
    /** The subscriptions' stored counters, as counters.ts keeps them, after user_articles were generated. */
    recount: `update subscriptions set
       unread_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_read = 0 and ua.is_hidden = 0),
       article_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_hidden = 0)`,
    /**
     * PostgreSQL only: the id sequences past the generated ids (table → highest id), then statistics. SQLite
     * gathers its statistics itself when feeder opens the database (PRAGMA optimize); PostgreSQL's autovacuum would
     * analyse (`vacuum` also: vacuum, so index-only scans need not visit every row) the bulk load within a minute.
     */
    finish: (maxIds, { vacuum = false } = {}) =>
      sqlite
        ? []
        : [...Object.entries(maxIds).map(([table, n]) => `select setval(pg_get_serial_sequence('${table}', 'id'), ${n})`), vacuum ? 'vacuum analyze' : 'analyze'],
  };
}

/** Signs in through the web API as the bench user; the bearer header. */
export async function signIn(base) {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  if (!login.ok) throw new Error(`sign-in failed: HTTP ${login.status}`);
  const { access_token } = await login.json();
  return { authorization: `Bearer ${access_token}` };
}

/** Migrates, creates the bench user, runs `seed(dialect, userId)`'s statements in one go; the seconds seeding took. */
async function prepare(dialect, env, seed) {
  const { loadConfig } = await import(new URL('config.js', dist));
  const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));
  const database = openDatabase(loadConfig(env));
  await migrateToLatest(database.db);
  await database.destroy();
  const created = spawnSync(process.execPath, [bin, 'user', 'create', '--email', BENCH_EMAIL, '--password', BENCH_PASSWORD, '--name', 'Bench', '--verified'], {
    env,
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(created.stderr);

  const t0 = performance.now();
  if (dialect === 'sqlite') {
    const db = new Sqlite(join(env.DATA_DIR, 'feeder.db'));
    const userId = db.prepare('select id from users').get().id;
    // Seeding only: a crash would just mean re-running the benchmark.
    db.pragma('synchronous = off');
    db.pragma('cache_size = -1000000');
    db.transaction(() => {
      for (const s of seed(dialect, userId)) db.exec(s);
    })();
    db.close();
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const userId = (await client.query('select id from users')).rows[0].id;
    for (const s of seed(dialect, userId)) await client.query(s);
    await client.end();
  }
  return +((performance.now() - t0) / 1000).toFixed(1);
}

async function postgresReady(schema) {
  if (process.env.BENCH_SKIP_POSTGRES) return false;
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`create schema ${schema}`);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function runOne(dialect, env, { name, seed, sizes, serve }) {
  const seconds = await prepare(dialect, env, seed);
  console.log(JSON.stringify({ bench: `${name}-seed-${dialect}`, ...sizes, seconds }));
  const server = spawn(process.execPath, [bin, 'web'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUp(env.PUBLIC_URL);
    await serve({ dialect, base: env.PUBLIC_URL, server });
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

/**
 * Runs a benchmark on SQLite, then on PostgreSQL: `seed(dialect, userId)` gives the SQL statements that generate
 * the data (see sqlFor), `serve({ dialect, base, server })` times requests against the started server (`server.pid`
 * for its CPU). `name` prefixes the seed line and the temporary directories, `schema` is the PostgreSQL schema,
 * `port` the server's port, `sizes` goes on the seed line.
 */
export async function benchOnBothDialects({ name, schema, port, sizes = {}, seed, serve }) {
  const common = {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // SQLite's page cache for this run (README "Configuration").
    ...(process.env.SQLITE_CACHE_MB ? { SQLITE_CACHE_MB: process.env.SQLITE_CACHE_MB } : {}),
  };
  const bench = { name, seed, sizes, serve };

  if (!process.env.BENCH_SKIP_SQLITE) {
    const sqliteDir = process.env.BENCH_DATA_DIR || mkdtempSync(join(tmpdir(), `feeder-bench-${name}-`));
    try {
      await runOne('sqlite', { ...common, DATA_DIR: sqliteDir }, bench);
    } finally {
      if (!process.env.BENCH_DATA_DIR) rmSync(sqliteDir, { recursive: true, force: true });
    }
  }

  if (await postgresReady(schema)) {
    const pgDir = mkdtempSync(join(tmpdir(), `feeder-bench-${name}-pg-`));
    try {
      await runOne('postgres', { ...common, DATA_DIR: pgDir, DATABASE_URL: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` }, bench);
    } finally {
      rmSync(pgDir, { recursive: true, force: true });
      if (!process.env.BENCH_KEEP_POSTGRES) {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    }
  }
}
