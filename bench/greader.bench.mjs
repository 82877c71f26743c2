// Google Reader API under load (design.md §5 "External APIs": stream/contents with n=20 ≥ 750 req/s under
// `wrk -t2 -c4` with 100,000 articles), on SQLite and on PostgreSQL (when reachable). One user reads 100 feeds
// (20 of them in folders) holding 100,000 articles of about 1 KB of HTML each, 30 % unread; the reader-apps
// password is on. The data is generated in SQL, `feeder web` is started as in production, the benchmark signs in
// with ClientLogin as a client does, and wrk drives the stream calls a client makes most:
// the reading list with read items (n=20), the unread reading list (xt=read, n=20), and stream/items/ids of the
// unread items (n=1000, as NetNewsWire and Reeder ask). Then, one request at a time: unread-count, a second page by
// continuation, stream/items/contents of 100 ids, and edit-tag of one item.
// BENCH_ARTICLES and BENCH_FEEDS shrink the data set; BENCH_SKIP_SQLITE=1 and BENCH_SKIP_POSTGRES=1 skip a dialect.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { measure, waitUp } from './lib/http.mjs';

const FEEDS = Number(process.env.BENCH_FEEDS || 100);
const ARTICLES = Number(process.env.BENCH_ARTICLES || 100_000);
const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_greader';
const EMAIL = 'bench@example.com';
const APP_PASSWORD = 'bench-apps-passw-ord00';
const bin = new URL('../bin/feeder.js', import.meta.url).pathname;
const dist = new URL('../dist/server/', import.meta.url);
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const PARAGRAPH = 'The committee met on Tuesday and discussed the budget for the coming year, the state of the roads, and the new library. ';

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
  const body = `'<p>${PARAGRAPH.repeat(4)}</p><p>${PARAGRAPH.repeat(4)}</p>'`;
  const key = createHash('md5').update(`${EMAIL}:${APP_PASSWORD}`).digest('hex');
  return [
    `update users set fever_api_enabled = 1, app_password_key = '${key}' where id = ${userId}`,
    `insert into folders (user_id, name, sort_order, created_at) values (${userId}, 'News', 0, ${now}), (${userId}, 'Tech', 1, ${now})`,
    `${seq(FEEDS)} insert into feeds (id, url, title, site_url, description, next_check_at, error_count, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, ${cat(`'https://site.example/'`, 'i')},
              ${cat(`'Bench feed number '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, created_at, folder_id)
       select ${userId}, i + 1, i, ${now}, case when i < 10 then (select min(id) from folders) when i < 20 then (select max(id) from folders) end ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, author, content, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${sqlite ? `printf('%064d', i)` : `lpad(i::text, 64, '0')`}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Headline number '`, 'i')}, 'A. Writer', ${body},
              'x', ${iso('i * 30')}, ${iso('i * 30 - 60')}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read, is_favorite)
       select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end, case when id % 500 = 0 then 1 else 0 end from articles`,
    `update subscriptions set
       unread_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_read = 0 and ua.is_hidden = 0),
       article_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_hidden = 0)`,
    ...(sqlite ? [] : [`select setval(pg_get_serial_sequence('articles', 'id'), ${ARTICLES})`, `select setval(pg_get_serial_sequence('feeds', 'id'), ${FEEDS})`, 'analyze']),
  ];
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * wrk -t2 -c4 as design.md §5 measures, plus the server's own CPU per request. On a machine shared with other work
 * the throughput swings with their load; the CPU the server spends per request barely does, and 2 cores divided by
 * it is what the server alone could serve (with PostgreSQL its backends' CPU comes on top).
 */
function wrkWithCpu(name, url, headers, pid, extra) {
  const args = ['-t2', '-c4', '-d8s', '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const before = cpuSeconds(pid);
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  if (r.status !== 0) return false;
  const cpu = cpuSeconds(pid) - before;
  const requests = Number((r.stdout.match(/(\d+) requests in/) ?? [])[1]);
  const errors = Number((r.stdout.match(/Non-2xx or 3xx responses: (\d+)/) ?? [0, 0])[1]);
  const ms = (re) => {
    const m = r.stdout.match(re);
    if (!m) return null;
    const v = Number(m[1]);
    return m[2] === 'us' ? +(v / 1000).toFixed(2) : m[2] === 's' ? v * 1000 : v;
  };
  const cpuMs = (cpu * 1000) / requests;
  console.log(
    JSON.stringify({
      bench: name,
      ...extra,
      tool: 'wrk -t2 -c4 -d8s',
      req_per_s: Math.round(Number((r.stdout.match(/Requests\/sec:\s+([\d.]+)/) ?? [])[1])),
      p50_ms: ms(/50%\s+([\d.]+)(us|ms|s)/),
      p99_ms: ms(/99%\s+([\d.]+)(us|ms|s)/),
      server_cpu_ms_per_req: +cpuMs.toFixed(3),
      server_alone_req_per_s_on_2_cores: Math.round(2000 / cpuMs),
      errors,
      load_avg: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
    }),
  );
  return true;
}

async function run(dialect, env) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  await database.destroy();
  const created = spawnSync(process.execPath, [bin, 'user', 'create', '--email', EMAIL, '--password', 'bench-password', '--name', 'Bench', '--verified'], { env, encoding: 'utf8' });
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
  console.log(JSON.stringify({ bench: `greader-seed-${dialect}`, feeds: FEEDS, articles: ARTICLES, seconds: +((performance.now() - t0) / 1000).toFixed(1) }));

  const server = spawn(process.execPath, [bin, 'web'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const base = env.PUBLIC_URL;
    await waitUp(base);
    const login = await fetch(`${base}/api/greader.php/accounts/ClientLogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ Email: EMAIL, Passwd: APP_PASSWORD }),
    });
    const auth = /Auth=(.+)/.exec(await login.text())?.[1];
    if (!auth) throw new Error(`ClientLogin failed: ${login.status}`);
    const headers = { authorization: `GoogleLogin auth=${auth}` };
    const api = `${base}/api/greader.php/reader/api/0`;
    const tag = { dialect };
    const calls = {
      [`greader-contents-${dialect}`]: `${api}/stream/contents/user/-/state/com.google/reading-list?n=20`,
      [`greader-contents-unread-${dialect}`]: `${api}/stream/contents/user/-/state/com.google/reading-list?n=20&xt=user/-/state/com.google/read`,
      [`greader-ids-unread-${dialect}`]: `${api}/stream/items/ids?s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read&n=1000`,
    };
    // Each call answers a full page before it is timed (wrk counts any answer).
    for (const url of Object.values(calls)) {
      const res = await fetch(url, { headers });
      const body = await res.json();
      const count = (body.items ?? body.itemRefs).length;
      if (!res.ok || count !== (url.includes('n=1000') ? 1000 : 20)) throw new Error(`${url}: HTTP ${res.status}, ${count} items`);
    }
    for (const [name, url] of Object.entries(calls)) {
      if (!wrkWithCpu(name, url, headers, server.pid, tag)) await measure(name, 3000, 4, () => fetch(url, { headers }), tag);
    }
    const get = (url) => () => fetch(url, { headers });
    await measure(`greader-unread-count-${dialect}`, 200, 1, get(`${api}/unread-count?output=json`), tag);
    const first = await (await fetch(calls[`greader-contents-${dialect}`], { headers })).json();
    await measure(`greader-contents-page2-${dialect}`, 200, 1, get(`${calls[`greader-contents-${dialect}`]}&c=${first.continuation}`), tag);
    const ids = (await (await fetch(calls[`greader-ids-unread-${dialect}`], { headers })).json()).itemRefs.map((r) => r.id);
    const contentsBody = (n) => ids.slice((n % 10) * 100, (n % 10) * 100 + 100).map((id) => `i=${id}`).join('&');
    const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
    await measure(`greader-items-contents-100-${dialect}`, 100, 1, (n) => fetch(`${api}/stream/items/contents`, { method: 'POST', headers: form, body: contentsBody(n) }), tag);
    await measure(`greader-edit-tag-${dialect}`, 200, 1, (n) => fetch(`${api}/edit-tag`, { method: 'POST', headers: form, body: `i=${ids[n]}&a=user/-/state/com.google/read` }), tag);
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

const port = 4100 + Math.floor(Math.random() * 90);
const common = { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'error', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };

if (!process.env.BENCH_SKIP_SQLITE) {
  const sqliteDir = process.env.BENCH_DATA_DIR || mkdtempSync(join(tmpdir(), 'feeder-bench-greader-'));
  try {
    await run('sqlite', { ...common, DATA_DIR: sqliteDir });
  } finally {
    if (!process.env.BENCH_DATA_DIR) rmSync(sqliteDir, { recursive: true, force: true });
  }
}

if (await postgresReady()) {
  const pgDir = mkdtempSync(join(tmpdir(), 'feeder-bench-greader-pg-'));
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
