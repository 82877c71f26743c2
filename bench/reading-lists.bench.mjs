// Reading lists at scale (design.md §5; docs/decisions.md "Organising: folders and reading lists"): one user with
// 500 feeds and 100,000 articles (BENCH_ARTICLES), on SQLite and PostgreSQL (when reachable), `feeder web` started
// as in production and timed over real HTTP. Measures: creating a smart list (its membership is computed over every
// article of the user before the answer, in steps that yield to the event loop) with a keyword rule and with a
// regex rule, and how long /healthz takes meanwhile (the server must stay responsive); then, with 10 lists, the
// reading-list endpoints (lists with counts, unread counts, a list's page 1 and 10) and the all-feeds list page,
// whose rows now carry in_reading_list. BENCH_SKIP_SQLITE=1 / BENCH_SKIP_POSTGRES=1 skip a dialect.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { measure, waitUp } from './lib/http.mjs';

const FEEDS = Number(process.env.BENCH_FEEDS || 500);
const ARTICLES = Number(process.env.BENCH_ARTICLES || 100_000);
const SAMPLES = 200;
const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_reading_lists';
const bin = new URL('../bin/feeder.js', import.meta.url).pathname;
const dist = new URL('../dist/server/', import.meta.url);
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));

const WORDS = 'climate   economy   football  science   election  startup   research  festival  markets   software  ';
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
// About 1.4 KB of text per article, as the refresh benchmark's items.
const FILLER = 'A fairly ordinary sentence about things that happen in the world and elsewhere. '.repeat(17);

function seedStatements(dialect, userId) {
  const sqlite = dialect === 'sqlite';
  const seq = (n) => (sqlite ? `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${n - 1})` : '');
  const from = (n) => (sqlite ? 'from s' : `from generate_series(0, ${n - 1}) as s(i)`);
  const iso = (secondsExpr) =>
    sqlite
      ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${NOW / 1000} - (${secondsExpr}), 'unixepoch')`
      : `to_char((to_timestamp(${NOW / 1000} - (${secondsExpr})) at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const word = `trim(substr('${WORDS}', (i % 10) * 10 + 1, 10))`;
  const cat = (...parts) => parts.join(' || ');
  const now = `'${new Date(NOW).toISOString()}'`;
  return [
    `${seq(FEEDS)} insert into feeds (id, url, title, next_check_at, error_count, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, created_at) select ${userId}, i + 1, i, ${now} ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, content, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${sqlite ? `printf('%064d', i)` : `lpad(i::text, 64, '0')`}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Headline '`, 'i', `' on '`, word)},
              ${cat(`'<p>Article '`, 'i', `' reports. '`, `'${FILLER}'`, `' More on '`, word, `'.</p>'`)},
              'x', ${iso('i * 30')}, ${now}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read) select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end from articles`,
    `update subscriptions set
       unread_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_read = 0),
       article_count = (select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id)`,
    ...(sqlite ? [] : [`select setval(pg_get_serial_sequence('articles', 'id'), ${ARTICLES})`, `select setval(pg_get_serial_sequence('feeds', 'id'), ${FEEDS})`, 'analyze']),
  ];
}

/** Times one request while /healthz is asked every 10 ms: the request's time and the worst /healthz meanwhile. */
async function whileResponsive(base, request) {
  let done = false;
  const health = [];
  const prober = (async () => {
    while (!done) {
      const t0 = performance.now();
      await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const res = await request();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`HTTP ${res.status} ${await res.text()}`);
  const body = await res.json();
  done = true;
  await prober;
  health.sort((a, b) => a - b);
  return { ms, body, healthz_max_ms: +(health.at(-1) ?? 0).toFixed(1), healthz_p95_ms: +(health[Math.floor(health.length * 0.95)] ?? 0).toFixed(1), healthz_samples: health.length };
}

async function run(dialect, env) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  await database.destroy();
  const created = spawnSync(process.execPath, [bin, 'user', 'create', '--email', 'bench@example.com', '--password', 'bench-password', '--name', 'Bench', '--verified'], { env, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(created.stderr);
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

  const server = spawn(process.execPath, [bin, 'web'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUp(env.PUBLIC_URL);
    const base = env.PUBLIC_URL;
    const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }) });
    const { access_token } = await login.json();
    const headers = { authorization: `Bearer ${access_token}` };
    const json = { ...headers, 'content-type': 'application/json' };
    const get = (path) => () => fetch(`${base}${path}`, { headers });
    const tag = { dialect, articles: ARTICLES };
    const create = (name, rules) => () => fetch(`${base}/api/reading-lists`, { method: 'POST', headers: json, body: JSON.stringify({ name, is_smart: true, rules }) });

    // Creating smart lists: membership over every article before the answer (10 % of articles match each).
    const smart = [
      ['keyword-both', [{ rule_type: 'keyword', rule_scope: 'both', rule_value: 'climate' }]],
      ['keyword-title', [{ rule_type: 'keyword', rule_scope: 'title', rule_value: 'economy' }]],
      ['regex-both', [{ rule_type: 'regex', rule_scope: 'both', rule_value: '\\b(football|science)\\b' }]],
    ];
    const ids = [];
    for (const [name, rules] of smart) {
      const r = await whileResponsive(base, create(name, rules));
      ids.push(r.body.reading_list.id);
      console.log(JSON.stringify({ bench: `reading-lists-create-smart-${name}-${dialect}`, ...tag, seconds: +(r.ms / 1000).toFixed(2), members: r.body.reading_list.article_count, healthz_p95_ms: r.healthz_p95_ms, healthz_max_ms: r.healthz_max_ms, healthz_samples: r.healthz_samples }));
    }
    // A simple list of 300 articles, and more smart lists up to 10.
    const simple = (await (await fetch(`${base}/api/reading-lists`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Later' }) })).json()).reading_list.id;
    await measure(`reading-lists-add-article-${dialect}`, 300, 1, (n) => fetch(`${base}/api/reading-lists/${simple}/articles/${n * 37 + 1}`, { method: 'POST', headers }), tag);
    for (let i = 0; i < 6; i++) {
      const r = await create(`extra-${i}`, [{ rule_type: 'keyword', rule_scope: 'title', rule_value: `headline ${i}1` }])();
      if (!r.ok) throw new Error(await r.text());
    }
    await measure(`reading-lists-warmup-${dialect}`, 20, 1, get(`/api/reading-lists/${ids[0]}/articles?page=1&per_page=20`), tag);
    await measure(`reading-lists-index-${dialect}`, SAMPLES, 1, get('/api/reading-lists'), tag);
    await measure(`reading-lists-unread-counts-${dialect}`, SAMPLES, 1, get('/api/reading-lists/unread_counts'), tag);
    await measure(`reading-lists-page1-${dialect}`, SAMPLES, 1, get(`/api/reading-lists/${ids[0]}/articles?page=1&per_page=20`), tag);
    await measure(`reading-lists-page10-${dialect}`, SAMPLES, 1, get(`/api/reading-lists/${ids[0]}/articles?page=10&per_page=20`), tag);
    await measure(`reading-lists-page1-unread-${dialect}`, SAMPLES, 1, get(`/api/reading-lists/${ids[0]}/articles?page=1&per_page=20&show_read=0`), tag);
    await measure(`reading-lists-articles-page1-${dialect}`, SAMPLES, 1, get('/api/articles?page=1&per_page=20'), tag);
    const r = await whileResponsive(base, () => fetch(`${base}/api/articles/read/all`, { method: 'POST', headers: json, body: JSON.stringify({ reading_list_id: ids[0] }) }));
    console.log(JSON.stringify({ bench: `reading-lists-mark-list-read-${dialect}`, ...tag, seconds: +(r.ms / 1000).toFixed(2), marked: r.body.marked }));
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

const port = 3800 + Math.floor(Math.random() * 90);
const common = { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'error', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };

if (!process.env.BENCH_SKIP_SQLITE) {
  const sqliteDir = mkdtempSync(join(tmpdir(), 'feeder-bench-lists-'));
  try {
    await run('sqlite', { ...common, DATA_DIR: sqliteDir });
  } finally {
    rmSync(sqliteDir, { recursive: true, force: true });
  }
}
if (await postgresReady()) {
  const pgDir = mkdtempSync(join(tmpdir(), 'feeder-bench-lists-pg-'));
  try {
    await run('postgres', { ...common, DATA_DIR: pgDir, DATABASE_URL: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${SCHEMA}` });
  } finally {
    rmSync(pgDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`drop schema if exists ${SCHEMA} cascade`);
    await client.end();
  }
}
