// Reading at scale (design.md §5 "Reading"): one user subscribed to 1,000 feeds holding 1,000,000 articles (30 %
// unread), on SQLite and on PostgreSQL (when reachable). The data is generated in SQL, then `feeder web` is
// started as in production and timed over real HTTP, one request at a time (latency, not throughput):
// the article list (page 1, a deeper page, read included, one feed), unread counts, search (a common and a rare
// word), marking one article read, mark-all-read of one feed, and mark-all-read of everything (once, at the end).
// BENCH_ARTICLES and BENCH_FEEDS shrink the data set; BENCH_SKIP_SQLITE=1 and BENCH_SKIP_POSTGRES=1 skip a dialect.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { measure, waitUp } from './lib/http.mjs';

const FEEDS = Number(process.env.BENCH_FEEDS || 1000);
const ARTICLES = Number(process.env.BENCH_ARTICLES || 1_000_000);
const SAMPLES = 200;
const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_reading';
const bin = new URL('../bin/feeder.js', import.meta.url).pathname;
const dist = new URL('../dist/server/', import.meta.url);
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));

// Twenty topic words spread evenly (5 % of articles each) and one rare word (about 1 in 10,000).
const WORDS = 'climate   economy   football  science   election  startup   research  festival  markets   software  ' +
  'energy    transport health    culture   weather   security  budget    education travel    medicine  ';
const NOW = Date.parse('2026-11-22T12:00:00.000Z');

/** The SQL of one seeding step for either dialect; `seq` is a row source of integers i = 0..n-1. */
function seedStatements(dialect, userId) {
  const sqlite = dialect === 'sqlite';
  const seq = (n) => (sqlite ? `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${n - 1})` : '');
  const from = (n) => (sqlite ? 'from s' : `from generate_series(0, ${n - 1}) as s(i)`);
  const iso = (secondsExpr) =>
    sqlite
      ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${NOW / 1000} - (${secondsExpr}), 'unixepoch')`
      : `to_char((to_timestamp(${NOW / 1000} - (${secondsExpr})) at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const word = `trim(substr('${WORDS}', (i % 20) * 10 + 1, 10))`;
  const rare = `case when i % 10007 = 0 then ' zephyr' else '' end`;
  const cat = (...parts) => parts.join(' || ');
  const now = `'${new Date(NOW).toISOString()}'`;
  return [
    `${seq(FEEDS)} insert into feeds (id, url, title, site_url, description, next_check_at, error_count, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, ${cat(`'https://site.example/'`, 'i')},
              ${cat(`'Bench feed number '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, created_at)
       select ${userId}, i + 1, i, ${now} ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, content, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${sqlite ? `printf('%064d', i)` : `lpad(i::text, 64, '0')`}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Headline '`, 'i', `' on '`, word, rare)},
              ${cat(`'<p>Article '`, 'i', `' reports on '`, word, `'. A second sentence follows here. And a third one closes the summary.</p>'`)},
              'x', ${iso('i * 30')}, ${now}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read, is_favorite)
       select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end, case when id % 500 = 0 then 1 else 0 end from articles`,
    sqlite
      ? `insert into articles_fts (rowid, title, body) select id, title, replace(replace(content, '<p>', ''), '</p>', '') from articles`
      : `update articles set search_vector = to_tsvector('simple', title || ' ' || replace(replace(content, '<p>', ''), '</p>', ''))`,
    `update subscriptions set
       unread_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_read = 0 and ua.is_hidden = 0),
       article_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_hidden = 0)`,
    // SQLite gathers its statistics itself when feeder opens the database (PRAGMA optimize); PostgreSQL's
    // autovacuum would analyse the new rows within a minute, so the benchmark does that at once.
    ...(sqlite ? [] : [`select setval(pg_get_serial_sequence('articles', 'id'), ${ARTICLES})`, `select setval(pg_get_serial_sequence('feeds', 'id'), ${FEEDS})`, 'analyze']),
  ];
}

async function run(dialect, env) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  await database.destroy();
  const created = spawnSync(process.execPath, [bin, 'user', 'create', '--email', 'bench@example.com', '--password', 'bench-password', '--name', 'Bench', '--verified'], {
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
      for (const s of seedStatements(dialect, userId)) db.exec(s);
    })();
    db.close();
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const userId = (await client.query('select id from users')).rows[0].id;
    for (const s of seedStatements(dialect, userId)) await client.query(s);
    await client.end();
  }
  console.log(JSON.stringify({ bench: `reading-seed-${dialect}`, feeds: FEEDS, articles: ARTICLES, seconds: +((performance.now() - t0) / 1000).toFixed(1) }));

  const server = spawn(process.execPath, [bin, 'web'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUp(env.PUBLIC_URL);
    const base = env.PUBLIC_URL;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }),
    });
    const { access_token } = await login.json();
    const headers = { authorization: `Bearer ${access_token}` };
    const get = (path) => () => fetch(`${base}${path}`, { headers });
    const post = (path, body) => fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    const tag = { dialect };
    const feedOf = (n) => (n * 7919) % FEEDS + 1;

    await measure(`reading-warmup-${dialect}`, 20, 1, get('/api/articles?page=1&per_page=20'), tag);
    await measure(`reading-list-page1-${dialect}`, SAMPLES, 1, get('/api/articles?page=1&per_page=20'), tag);
    await measure(`reading-list-page10-${dialect}`, SAMPLES, 1, get('/api/articles?page=10&per_page=20'), tag);
    await measure(`reading-list-with-read-${dialect}`, SAMPLES, 1, get('/api/articles?page=1&per_page=20&show_read=true'), tag);
    await measure(`reading-list-feed-${dialect}`, SAMPLES, 1, (n) => fetch(`${base}/api/feeds/${feedOf(n)}/articles?page=1&per_page=20`, { headers }), tag);
    await measure(`reading-favorites-${dialect}`, SAMPLES, 1, get('/api/articles/favorites?page=1&per_page=20'), tag);
    await measure(`reading-unread-counts-${dialect}`, SAMPLES, 1, get('/api/feeds/unread_counts'), tag);
    await measure(`reading-search-common-${dialect}`, SAMPLES, 1, (n) => fetch(`${base}/api/articles/search?q=${WORDS.split(/\s+/)[n % 20]}&page=1&per_page=20`, { headers }), tag);
    await measure(`reading-search-rare-${dialect}`, SAMPLES, 1, get('/api/articles/search?q=zephyr&page=1&per_page=20'), tag);
    // Unread articles have ids with id % 10 >= 7 (see the seed); each one is marked once.
    await measure(`reading-mark-one-${dialect}`, SAMPLES, 1, (n) => post(`/api/articles/${n * 10 + 7}/read`), tag);
    await measure(`reading-read-all-feed-${dialect}`, 100, 1, (n) => post('/api/articles/read/all', { feed_id: feedOf(n) }), tag);
    await measure(`reading-read-all-everything-${dialect}`, 1, 1, () => post('/api/articles/read/all'), tag);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

async function postgresReady() {
  if (process.env.BENCH_SKIP_POSTGRES) return false;
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query(`drop schema if exists ${SCHEMA} cascade`);
    await client.query(`create schema ${SCHEMA}`);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const port = 3900 + Math.floor(Math.random() * 90);
const common = { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'error', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };

if (!process.env.BENCH_SKIP_SQLITE) {
  // BENCH_DATA_DIR keeps the seeded SQLite database there for a closer look (EXPLAIN, sqlite3).
  const sqliteDir = process.env.BENCH_DATA_DIR || mkdtempSync(join(tmpdir(), 'feeder-bench-reading-'));
  try {
    await run('sqlite', { ...common, DATA_DIR: sqliteDir });
  } finally {
    if (!process.env.BENCH_DATA_DIR) rmSync(sqliteDir, { recursive: true, force: true });
  }
}

if (await postgresReady()) {
  const pgDir = mkdtempSync(join(tmpdir(), 'feeder-bench-reading-pg-'));
  try {
    await run('postgres', {
      ...common,
      DATA_DIR: pgDir,
      DATABASE_URL: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${SCHEMA}`,
    });
  } finally {
    rmSync(pgDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema if exists ${SCHEMA} cascade`);
    await client.end();
  }
}
