// Feed refresh under load (bench/README.md "Budgets"): `feeder all` on SQLite (and on PostgreSQL when BENCH_POSTGRES_URL or
// the test database is reachable) refreshes 2,000 subscribed feeds × 50 items from a local feed server.
// Measured: feeds/s of the first fetch (fetch, parse, sanitise, store) and of a 304 round, and the peak RSS
// (VmHWM) of the feeder process. Every feed has its own host name on the loopback range (127.0.x.y), as
// 2,000 real feeds would, so the per-host limit does not serialise the run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startFeedServer } from './lib/feed-server.mjs';

const FEEDS = Number(process.env.BENCH_FEEDS || 2000);
const ITEMS = 50;
const dist = new URL('../dist/server/', import.meta.url);
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));
const { ensureFeed } = await import(new URL('feeds/feeds.repository.js', dist));
const { subscribe } = await import(new URL('feeds/subscriptions.repository.js', dist));
const bin = new URL('../bin/feeder.js', import.meta.url).pathname;

const hostOf = (i, port) => `127.0.${Math.floor(i / 250)}.${(i % 250) + 1}:${port}`;
// Each feed's site is its own host on this server too, so the first round's icon look-ups are answered (404)
// locally, as a real site would answer, instead of waiting on DNS for names that do not exist.
const server = await startFeedServer({ feeds: FEEDS, items: ITEMS, format: 'mixed', host: '0.0.0.0', site: (i, port) => `http://${hostOf(i, port)}` });
const feedUrl = (i) => `http://${hostOf(i, server.port)}/feed/${i}.xml`;

const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function dropSchema() {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query('drop schema if exists bench_refresh cascade');
  await client.end();
}

async function postgresUrl() {
  const url = PG_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('drop schema if exists bench_refresh cascade');
    await client.query('create schema bench_refresh');
    return `${url}${url.includes('?') ? '&' : '?'}options=-c%20search_path%3Dbench_refresh`;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function seed(env) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  const now = new Date().toISOString();
  const user = await database.db
    .insertInto('users')
    .values({ email: 'bench@example.com', name: 'Bench', password_hash: 'x', is_verified: 1, language_preference: 'en', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < FEEDS; i++) {
    const { feed } = await ensureFeed(database.db, feedUrl(i), now);
    await subscribe(database.db, user.id, feed.id, now);
  }
  return database;
}

/** Runs `feeder all` until every feed was fetched since `since`; returns feeds/s and the process's peak RSS. */
async function round(name, env, database, column) {
  const since = new Date().toISOString();
  const before = server.requests;
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), bin, 'all'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peakKb = 0;
  let firstRequestAt = 0;
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        const m = readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/);
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // the process has just exited: its last figure stands
      }
      if (!firstRequestAt && server.requests > before) firstRequestAt = performance.now();
      if (child.exitCode !== null) throw new Error(`feeder exited with ${child.exitCode}`);
      const row = await database.db
        .selectFrom('feeds')
        .select((eb) => eb.fn.countAll().as('n'))
        .where(column, '>=', since)
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= FEEDS) break;
    }
    const seconds = (performance.now() - firstRequestAt) / 1000;
    const articles = await database.db
      .selectFrom('articles')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      JSON.stringify({
        bench: name,
        feeds: FEEDS,
        items_per_feed: ITEMS,
        seconds: +seconds.toFixed(2),
        feeds_per_s: Math.round(FEEDS / seconds),
        requests: server.requests - before,
        articles: Number(articles.n),
        peak_rss_mb: Math.round(peakKb / 1024),
      }),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
}

async function run(dialect, databaseUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), 'feeder-bench-refresh-'));
  const env = {
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    PORT: String(3900 + Math.floor(Math.random() * 90)),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    ALLOW_PRIVATE_FEED_HOSTS: 'true',
    ...(process.env.REFRESH_PARSE_THREADS ? { REFRESH_PARSE_THREADS: process.env.REFRESH_PARSE_THREADS } : {}),
    ...(process.env.REFRESH_CONCURRENCY ? { REFRESH_CONCURRENCY: process.env.REFRESH_CONCURRENCY } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const database = await seed(env);
  try {
    await round(`refresh-first-${dialect}`, env, database, 'last_success_at');
    // Every feed due again: the server answers 304 to the stored validators.
    await database.db.updateTable('feeds').set({ next_check_at: new Date().toISOString() }).execute();
    await round(`refresh-304-${dialect}`, env, database, 'last_fetched_at');
  } finally {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await run('sqlite', null);
  const pgUrl = process.env.BENCH_SKIP_POSTGRES ? null : await postgresUrl();
  if (pgUrl) {
    try {
      await run('postgres', pgUrl);
    } finally {
      await dropSchema();
    }
  } else console.log(JSON.stringify({ bench: 'refresh-postgres', skipped: 'PostgreSQL not reachable' }));
} finally {
  await server.close();
}
