// Fever API throughput (design.md §5 "External APIs": `?api&items` ≥ 1,700 req/s with 100,000 articles under
// `wrk -t2 -c4` on 2 cores), on SQLite and on PostgreSQL (when reachable). One user with 100 feeds in 10 folders and
// 100,000 articles (30 % unread, 1 in 500 saved, about 1 KB of HTML each) is generated in SQL, the reader apps are
// switched on (api_key = md5(email:password), as the settings store it), `feeder web` is started as in production,
// and wrk drives GET /api/fever.php with the api_key in the query string:
//   auth-only        ?api                        (the key look-up alone: the floor of a Fever request)
//   items            ?api&items                  (the oldest 50: a sync client's first page)
//   items-since      ?api&items&since_id=50000   (a page in the middle of since_id paging)
//   items-newest     ?api&items&max_id=0         (the newest 50)
//   unread-ids       ?api&unread_item_ids        (30,000 ids)
//   groups-feeds     ?api&groups&feeds
// Without wrk a fetch loop measures instead (lower figures: the generator shares the two cores).
// BENCH_ARTICLES shrinks the data set; BENCH_SKIP_SQLITE=1 and BENCH_SKIP_POSTGRES=1 skip a dialect.
// BENCH_ROOT runs the server from a copy of the build (a directory with package.json, bin/, dist/ and node_modules),
// so a benchmark can run while dist/ is being rebuilt.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { measure, measureWrk, waitUp } from './lib/http.mjs';

const FEEDS = 100;
const FOLDERS = 10;
const ARTICLES = Number(process.env.BENCH_ARTICLES || 100_000);
const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_fever';
const root = process.env.BENCH_ROOT ? pathToFileURL(process.env.BENCH_ROOT.replace(/\/?$/, '/')) : new URL('../', import.meta.url);
const bin = new URL('bin/feeder.js', root).pathname;
const dist = new URL('dist/server/', root);
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));

const EMAIL = 'bench@example.com';
const APP_PASSWORD = 'bench-appsx-passw-ordxx-fever';
const API_KEY = createHash('md5').update(`${EMAIL}:${APP_PASSWORD}`).digest('hex');
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
// About 1 KB of article HTML: a headline paragraph, three body paragraphs and a link.
const BODY =
  '<p>The council met on Tuesday evening to discuss the new cycle lanes along the river, the budget for the coming year and the plans for the old railway station.</p>' +
  '<p>Residents had asked for safer crossings near the schools; the transport committee presented three options, each with its costs, its timetable and the trees it would keep or lose.</p>' +
  '<p>After a long debate the members agreed to consult the neighbourhoods again in spring, to publish the full study online and to return to the question before the summer break.</p>' +
  '<p>Read the <a href="https://site.example/council">full minutes</a> and the <a href="https://site.example/study">transport study</a> on the city website.</p>';

function seedStatements(dialect, userId) {
  const sqlite = dialect === 'sqlite';
  const seq = (n) => (sqlite ? `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${n - 1})` : '');
  const from = (n) => (sqlite ? 'from s' : `from generate_series(0, ${n - 1}) as s(i)`);
  const iso = (secondsExpr) =>
    sqlite
      ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${NOW / 1000} - (${secondsExpr}), 'unixepoch')`
      : `to_char((to_timestamp(${NOW / 1000} - (${secondsExpr})) at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const cat = (...parts) => parts.join(' || ');
  const now = `'${new Date(NOW).toISOString()}'`;
  return [
    `update users set fever_api_enabled = 1, app_password_key = '${API_KEY}' where id = ${userId}`,
    `${seq(FOLDERS)} insert into folders (id, user_id, name, sort_order, created_at) select i + 1, ${userId}, ${cat(`'Folder '`, 'i')}, i, ${now} ${from(FOLDERS)}`,
    `${seq(FEEDS)} insert into feeds (id, url, title, site_url, description, next_check_at, error_count, last_fetched_at, last_success_at, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, ${cat(`'https://site.example/'`, 'i')},
              ${cat(`'Bench feed number '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now}, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, folder_id, created_at)
       select ${userId}, i + 1, i, i % ${FOLDERS} + 1, ${now} ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, author, content, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${sqlite ? `printf('%064d', i)` : `lpad(i::text, 64, '0')`}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Council agrees to consult on cycle lanes, part '`, 'i')}, 'City Desk',
              ${cat(`'<p>Article '`, 'i', `'</p>'`, `'${BODY}'`)}, 'x', ${iso('i * 30')}, ${now}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read, is_favorite)
       select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end, case when id % 500 = 0 then 1 else 0 end from articles`,
    `update subscriptions set
       unread_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_read = 0 and ua.is_hidden = 0),
       article_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_hidden = 0)`,
    ...(sqlite
      ? []
      : [
          `select setval(pg_get_serial_sequence('articles', 'id'), ${ARTICLES})`,
          `select setval(pg_get_serial_sequence('feeds', 'id'), ${FEEDS})`,
          `select setval(pg_get_serial_sequence('folders', 'id'), ${FOLDERS})`,
          // Autovacuum would vacuum and analyse the bulk load within a minute; until it has, index-only scans of
          // the unread index still visit every row.
          'vacuum analyze',
        ]),
  ];
}

async function run(dialect, env) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  await database.destroy();
  const created = spawnSync(process.execPath, [bin, 'user', 'create', '--email', EMAIL, '--password', 'bench-password', '--name', 'Bench', '--verified'], {
    env,
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(created.stderr);

  const t0 = performance.now();
  if (dialect === 'sqlite') {
    const db = new Sqlite(join(env.DATA_DIR, 'feeder.db'));
    const userId = db.prepare('select id from users').get().id;
    db.pragma('synchronous = off');
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
  console.log(JSON.stringify({ bench: `fever-seed-${dialect}`, feeds: FEEDS, articles: ARTICLES, seconds: +((performance.now() - t0) / 1000).toFixed(1) }));

  const server = spawn(process.execPath, [bin, 'web'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUp(env.PUBLIC_URL);
    const url = (query) => `${env.PUBLIC_URL}/api/fever.php?${query}&api_key=${API_KEY}`;

    // The answers are what a client expects before anything is timed.
    const first = await (await fetch(url('api&items'))).json();
    if (first.auth !== 1 || first.items.length !== 50 || first.total_items !== ARTICLES) throw new Error(`unexpected Fever answer: ${JSON.stringify(first).slice(0, 300)}`);
    const bytes = (await (await fetch(url('api&items'))).arrayBuffer()).byteLength;
    console.log(JSON.stringify({ bench: `fever-items-response-${dialect}`, bytes }));

    const cases = [
      // The floor of a Fever request (key look-up, nothing else), as a reference for the machine's load.
      ['auth-only', 'api'],
      ['items', 'api&items'],
      ['items-since', `api&items&since_id=${Math.floor(ARTICLES / 2)}`],
      ['items-newest', 'api&items&max_id=0'],
      ['unread-ids', 'api&unread_item_ids'],
      ['groups-feeds', 'api&groups&feeds'],
    ];
    for (const [name, query] of cases) {
      // A short warm-up fills the statement caches and the JIT before wrk's 8 seconds.
      for (let i = 0; i < 200; i++) await (await fetch(url(query))).arrayBuffer();
      if (!measureWrk(`fever-${name}-${dialect}`, url(query), {})) {
        await measure(`fever-${name}-${dialect}`, 4000, 4, () => fetch(url(query)), { dialect, tool: 'fetch loop (no wrk)' });
      }
    }
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

const port = 3990 + Math.floor(Math.random() * 9);
const common = { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'error', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };

if (!process.env.BENCH_SKIP_SQLITE) {
  const sqliteDir = process.env.BENCH_DATA_DIR || mkdtempSync(join(tmpdir(), 'feeder-bench-fever-'));
  try {
    await run('sqlite', { ...common, DATA_DIR: sqliteDir });
  } finally {
    if (!process.env.BENCH_DATA_DIR) rmSync(sqliteDir, { recursive: true, force: true });
  }
}

if (await postgresReady()) {
  const pgDir = mkdtempSync(join(tmpdir(), 'feeder-bench-fever-pg-'));
  try {
    await run('postgres', {
      ...common,
      DATA_DIR: pgDir,
      DATABASE_URL: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${SCHEMA}`,
    });
  } finally {
    rmSync(pgDir, { recursive: true, force: true });
  }
  // BENCH_KEEP_POSTGRES=1 keeps the seeded schema bench_fever for a closer look (EXPLAIN in psql).
  if (!process.env.BENCH_KEEP_POSTGRES) {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema if exists ${SCHEMA} cascade`);
    await client.end();
  }
}
