// Feed refresh under load (bench/README.md "Budgets", "Reading the refresh figures"): `feeder all` on SQLite (and on
// PostgreSQL when BENCH_POSTGRES_URL or the test database is reachable) refreshes N subscribed feeds × 50 items from
// a local feed server, for N = 500, 1,000, 2,000 and 4,000 (BENCH_SIZES=2000 or BENCH_FEEDS=2000 picks sizes).
// Measured per round (the first fetch: fetch, parse, sanitise, store; then a 304 round): feeds/s, the CPU each feed
// cost (user + system time of the feeder process, all its threads, from /proc/PID/stat; on PostgreSQL also of the
// server's backends serving the benchmark's own database), the peak RSS (VmHWM) of the feeder process, and the idle
// RSS of `feeder all` after start before any work. Every feed has its own host name on the loopback range
// (127.0.x.y), as real feeds would, so the per-host limit does not serialise the run.
//
// BENCH_REST_S=70 also reports the RSS of the first round's process after it sat idle that long once the round was
// done (`rest_rss_mb`, with its thread count): the parse thread ends after a minute without work
// (document-pool.ts) and V8 gives back what the round's heap no longer needs.
//
// BENCH_304_ROUNDS=5 runs the 304 round five times after one first round (more samples for less waiting).
//
// BENCH_304_WARM=1 also measures a warm 304 round: one process runs a 304 round unmeasured, then the measured one (a
// long-running server's state: its modules loaded and its code compiled; the other rounds each start a fresh process,
// and a 304 round is short enough for that start to weigh). Its peak RSS is that of both rounds.
//
// BENCH_NEW_WARM=1 also measures a warm round of new items: after the other rounds, one process stores 50 new items
// in every feed unmeasured (the feed server's next generation: startFeedServer's setGeneration), then 50 more,
// measured (`refresh-new-warm-…`). That is the work of a server that has been up a while, whose code is compiled:
// the first round's process compiles it while the round runs. Its database holds two generations' articles before
// the measured round. Its peak RSS is that of both rounds.
//
// FEEDER_DIST=/path/to/other/checkout runs another build (its bin/feeder.js and dist/, seeded with its own
// migrations), so two commits can be measured back to back on the same machine.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { loopbackHost, startFeedServer } from './lib/feed-server.mjs';
import { percentile } from './lib/http.mjs';
import { coreSpeedsMs } from './lib/machine-speed.mjs';
import { cpuMs, feederEnv, feederRoot, loadAverage, sleep, startFeeder, statusKb, stopFeeder, waitHealthy } from './lib/feeder-process.mjs';

const ITEMS = 50;
// BENCH_ITEMS_MIXED=1: feed i has 1 + (i × 37 mod 100) items (1–100, 50.5 on average) instead of 50 each, as real feeds
// differ: the refresh's multi-row inserts then come in every size, as they do on a server that runs for weeks.
const MIXED = process.env.BENCH_ITEMS_MIXED === '1';
const itemsOf = (i) => (MIXED ? 1 + ((i * 37) % 100) : ITEMS);
const SIZES = (process.env.BENCH_SIZES || process.env.BENCH_FEEDS || '500,1000,2000,4000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const MAX_FEEDS = Math.max(...SIZES);
const dist = pathToFileURL(join(feederRoot, 'dist/server/'));
const { loadConfig } = await import(new URL('config.js', dist));
const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));
const { ensureFeed } = await import(new URL('feeds/feeds.repository.js', dist));
const { subscribe } = await import(new URL('feeds/subscriptions.repository.js', dist));
const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REST_S = Number(process.env.BENCH_REST_S) || 0;
const ROUNDS_304 = Math.max(1, Number(process.env.BENCH_304_ROUNDS) || 1);
const WARM_304 = process.env.BENCH_304_WARM === '1';
const NEW_WARM = process.env.BENCH_NEW_WARM === '1';

/** CPU of this process (the feed server and the monitor), ms. */
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Where a process's resident memory is (BENCH_MEM_LOG): /proc/PID/smaps summed by kind of mapping, in KB. `files`:
 * mapped files (the node binary, libraries); `mainArena`: the main malloc arena ([heap], where the main thread's
 * malloc goes: SQLite's page cache, Buffers, undici's and V8's off-heap data); `arenas`: the other threads' malloc
 * arenas (anonymous mappings that start at a 64 MB boundary, glibc's heap size: a heuristic, a V8 page that happens to
 * start there is counted too); `anon`: every other anonymous mapping (V8's
 * heaps of all threads, thread stacks, large mallocs).
 */
function smapsKb(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return null;
  }
  const kinds = { files: 0, mainArena: 0, arenas: 0, anon: 0 };
  let kind = 'anon';
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[3];
      const start = BigInt(`0x${head[1]}`);
      kind =
        path === '[heap]' ? 'mainArena' : path && !path.startsWith('[anon') ? (path.startsWith('[') ? 'anon' : 'files') : start % 0x4000000n === 0n ? 'arenas' : 'anon';
      continue;
    }
    if (line.startsWith('Rss:')) kinds[kind] += Number(line.slice(4).trim().split(' ')[0]);
  }
  return kinds;
}

// Read at the feeder's first request of a round: the CPU its start cost is not the round's.
let onFirstRequest = null;
// Each feed's site is its own host on this server too, so the first round's icon look-ups are answered (404)
// locally, as a real site would answer, instead of waiting on DNS for names that do not exist.
const server = await startFeedServer({
  feeds: MAX_FEEDS,
  items: itemsOf,
  format: 'mixed',
  host: '0.0.0.0',
  site: (i, port) => `http://${loopbackHost(i, port)}`,
  onRequest: () => {
    if (onFirstRequest) {
      const f = onFirstRequest;
      onFirstRequest = null;
      f();
    }
  },
});
const feedUrl = (i) => `http://${loopbackHost(i, server.port)}/feed/${i}.xml`;

/**
 * PostgreSQL: a database of its own per run, so its backends are the feeder's and the monitor's (the tests share
 * the `test` database with other schemas and processes). Null when PostgreSQL is not reachable.
 */
async function createPgDatabase() {
  const name = `feeder_bench_refresh_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    return { name, url: url.toString() };
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => {});
  }
}

async function dropPgDatabase(name) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

async function seed(env, feeds) {
  const config = loadConfig(env);
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  const now = new Date().toISOString();
  const user = await database.db
    .insertInto('users')
    .values({ email: 'bench@example.com', name: 'Bench', password_hash: 'x', is_verified: 1, language_preference: 'en', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < feeds; i++) {
    const { feed } = await ensureFeed(database.db, feedUrl(i), now);
    await subscribe(database.db, user.id, feed.id, now);
  }
  return database;
}

/**
 * What a round reads of the database. SQLite: the benchmark's own connection. PostgreSQL: one client whose
 * backend is left out of the CPU sum; the feeder's backends are every other client backend of the database.
 */
async function monitorFor(database, pgDb) {
  if (!pgDb) {
    return {
      count: async (column, since) =>
        Number(
          (
            await database.db
              .selectFrom('feeds')
              .select((eb) => eb.fn.countAll().as('n'))
              .where(column, '>=', since)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      scalar: async (table) =>
        Number(
          (
            await database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      makeDue: async (at) => void (await database.db.updateTable('feeds').set({ next_check_at: at }).execute()),
      backends: async () => [],
      close: () => database.destroy(),
    };
  }
  await database.destroy();
  const client = new pg.Client({ connectionString: pgDb.url });
  await client.connect();
  return {
    count: async (column, since) => Number((await client.query(`select count(*) as n from feeds where ${column} >= $1`, [since])).rows[0].n),
    scalar: async (table) => Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n),
    makeDue: async (at) => void (await client.query('update feeds set next_check_at = $1', [at])),
    backends: async () =>
      (await client.query(`select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'`, [pgDb.name])).rows.map(
        (r) => r.pid,
      ),
    close: () => client.end(),
  };
}

/** RSS of `feeder all` once it answers /healthz and has settled, with nothing due (every feed checked far ahead). */
async function idleRss(env, monitor) {
  await monitor.makeDue('2999-01-01T00:00:00.000Z');
  const child = startFeeder(env);
  try {
    await waitHealthy(child, env, 50);
    await sleep(2000);
    return Math.round(statusKb(child.pid, 'VmRSS') / 1024);
  } finally {
    await stopFeeder(child);
  }
}

/**
 * Runs `feeder all` until every feed was fetched since `since`; prints feeds/s, CPU per feed and peak RSS (and, with
 * `restAfter` and BENCH_REST_S, the RSS once the process sat idle after the round).
 */
async function round(name, env, monitor, feeds, column, extra, restAfter = false, warmUp = 0, beforeMeasured = () => {}) {
  // Each core's speed right before the round (lib/machine-speed.mjs; about a second): what its CPU figures compare at.
  const coreSpeed = coreSpeedsMs();
  let since = new Date().toISOString();
  const loadBefore = loadAverage();
  let before = server.requests;
  const child = startFeeder(env);
  let start = null;
  // A warm round (BENCH_304_WARM): the same process runs `warmUp` rounds unmeasured first, as a server that has been
  // up for a while would have; each next round starts when the scheduler sees the feeds due again (its next step).
  for (let w = 0; w < warmUp; w++) {
    while ((await monitor.count(column, since)) < feeds) {
      if (child.exitCode !== null) throw new Error(`feeder exited with ${child.exitCode}`);
      await sleep(50);
    }
    if (w === warmUp - 1) beforeMeasured();
    since = new Date().toISOString();
    before = server.requests;
    await monitor.makeDue(since);
  }
  // PostgreSQL backends: CPU at the round's start (0 for those that connect later) and as last seen. The pool closes
  // idle connections, and an ended backend's figures leave /proc with it, so they are sampled during the round.
  const backendStart = new Map();
  const backendLast = new Map();
  const sampleBackends = async (atStart) => {
    for (const p of await monitor.backends()) {
      const cpu = cpuMs(p);
      if (cpu === null) continue;
      if (!backendStart.has(p)) backendStart.set(p, atStart ? cpu : 0);
      backendLast.set(p, cpu);
    }
  };
  let sampling = null;
  onFirstRequest = () => {
    start = { at: performance.now(), cpu: cpuMs(child.pid), main: cpuMs(child.pid, true), own: ownCpuMs() };
    sampling = sampleBackends(true);
  };
  // What a request waits while the round runs: GET /healthz (one database query) every 100 ms from the round's first
  // feed request to its end. On SQLite it waits for the write group under way and for a checkpoint in its commit.
  const healthz = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      if (start) {
        const t = performance.now();
        const ok = await fetch(`http://127.0.0.1:${env.PORT}/healthz`).then(
          (r) => r.arrayBuffer().then(() => r.ok),
          () => false,
        );
        if (ok && probing) healthz.push(performance.now() - t);
      }
      await sleep(100);
    }
  })();
  let peakKb = 0;
  // BENCH_MEM_LOG=file: the RSS and where it is (smapsKb) every 50 ms of the round, one JSON line each, and the
  // breakdown at the highest sample in the round's line.
  let atPeak = null;
  const memLog = process.env.BENCH_MEM_LOG;
  try {
    for (let tick = 0; ; tick++) {
      await sleep(50);
      peakKb = Math.max(peakKb, statusKb(child.pid, 'VmHWM'));
      if (memLog) {
        const rss = statusKb(child.pid, 'VmRSS');
        const kinds = smapsKb(child.pid);
        if (kinds) {
          appendFileSync(memLog, JSON.stringify({ bench: name, feeds, pid: child.pid, t: Date.now(), rss, ...kinds }) + '\n');
          if (!atPeak || rss > atPeak.rss) atPeak = { rss, ...kinds };
        }
      }
      if (child.exitCode !== null) throw new Error(`feeder exited with ${child.exitCode}`);
      if (start && tick % 5 === 0) await (sampling = sampling.then(() => sampleBackends(false)));
      if ((await monitor.count(column, since)) >= feeds) break;
    }
    const end = { at: performance.now(), cpu: cpuMs(child.pid), main: cpuMs(child.pid, true), own: ownCpuMs() };
    probing = false;
    await probe;
    healthz.sort((a, b) => a - b);
    await sampling;
    await sampleBackends(false);
    let pgCpu = 0;
    for (const [p, last] of backendLast) pgCpu += Math.max(0, last - (backendStart.get(p) ?? 0));
    const pids = [...backendLast.keys()];
    peakKb = Math.max(peakKb, statusKb(child.pid, 'VmHWM'));
    const seconds = (end.at - start.at) / 1000;
    const feederCpu = end.cpu - start.cpu;
    const rest = {};
    if (restAfter && REST_S > 0) {
      await sleep(REST_S * 1000);
      rest.rest_rss_mb = Math.round(statusKb(child.pid, 'VmRSS') / 1024);
      rest.rest_threads = statusKb(child.pid, 'Threads');
      rest.rest_after_s = REST_S;
    }
    console.log(
      JSON.stringify({
        bench: name,
        feeds,
        items_per_feed: MIXED ? 'mixed' : ITEMS,
        seconds: +seconds.toFixed(2),
        feeds_per_s: Math.round(feeds / seconds),
        cpu_ms_per_feed: +(feederCpu / feeds).toFixed(2),
        main_thread_cpu_ms_per_feed: +((end.main - start.main) / feeds).toFixed(2),
        ...(pids.length ? { pg_cpu_ms_per_feed: +(pgCpu / feeds).toFixed(2), total_cpu_ms_per_feed: +((feederCpu + pgCpu) / feeds).toFixed(2) } : {}),
        // The feed server and this monitor share the two cores with Feeder: with them, how many cores the round kept
        // busy (2 means the machine was saturated; less, that Feeder waited on something other than CPU).
        bench_cpu_ms_per_feed: +((end.own - start.own) / feeds).toFixed(2),
        cores_busy: +((feederCpu + pgCpu + end.own - start.own) / (seconds * 1000)).toFixed(2),
        requests: server.requests - before,
        articles: await monitor.scalar('articles'),
        peak_rss_mb: Math.round(peakKb / 1024),
        // p50, p99 and the longest wait of /healthz during the round (none in a round shorter than its first probe).
        ...(healthz.length ? { healthz_ms: [percentile(healthz, 0.5), percentile(healthz, 0.99), percentile(healthz, 1)], healthz_requests: healthz.length } : {}),
        ...(atPeak ? { at_peak_mb: Object.fromEntries(Object.entries(atPeak).map(([k, v]) => [k, Math.round(v / 1024)])) } : {}),
        ...extra,
        ...rest,
        load: `${loadBefore} → ${loadAverage()}`,
        core_speed_ms: coreSpeed,
      }),
    );
  } finally {
    probing = false;
    await probe;
    onFirstRequest = null;
    await stopFeeder(child);
  }
}

async function run(dialect, feeds, pgDb) {
  const dataDir = mkdtempSync(join(tmpdir(), 'feeder-bench-refresh-'));
  const env = feederEnv(dataDir, pgDb?.url, {
    ALLOW_PRIVATE_FEED_HOSTS: 'true',
    ...(process.env.REFRESH_PARSE_THREADS ? { REFRESH_PARSE_THREADS: process.env.REFRESH_PARSE_THREADS } : {}),
    ...(process.env.REFRESH_CONCURRENCY ? { REFRESH_CONCURRENCY: process.env.REFRESH_CONCURRENCY } : {}),
    ...(process.env.SQLITE_CACHE_MB ? { SQLITE_CACHE_MB: process.env.SQLITE_CACHE_MB } : {}),
  });
  const monitor = await monitorFor(await seed(env, feeds), pgDb);
  try {
    const idle = await idleRss(env, monitor);
    await monitor.makeDue(new Date().toISOString());
    await round(`refresh-first-${dialect}`, env, monitor, feeds, 'last_success_at', { idle_rss_mb: idle }, true);
    // Every feed due again: the server answers 304 to the stored validators. BENCH_304_ROUNDS=n runs that round n
    // times (each in a fresh process) after one first round: more samples of the 304 round per seeded database.
    for (let r = 0; r < ROUNDS_304; r++) {
      await monitor.makeDue(new Date().toISOString());
      await round(`refresh-304-${dialect}`, env, monitor, feeds, 'last_fetched_at', ROUNDS_304 > 1 ? { repeat: r + 1 } : {});
    }
    if (WARM_304) {
      await monitor.makeDue(new Date().toISOString());
      await round(`refresh-304-warm-${dialect}`, env, monitor, feeds, 'last_fetched_at', { warm_up_rounds: 1 }, false, 1);
    }
    if (NEW_WARM) {
      server.setGeneration(1);
      await monitor.makeDue(new Date().toISOString());
      await round(`refresh-new-warm-${dialect}`, env, monitor, feeds, 'last_success_at', { warm_up_rounds: 1 }, false, 1, () => server.setGeneration(2));
    }
  } finally {
    if (NEW_WARM) server.setGeneration(0);
    await monitor.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Each core's speed before and after the rounds (lib/machine-speed.mjs): a lower figure is a faster core.
console.log(JSON.stringify({ bench: 'refresh', build: feederRoot, sizes: SIZES, load: loadAverage(), core_speed_ms: coreSpeedsMs() }));
try {
  if (!process.env.BENCH_SKIP_SQLITE) for (const n of SIZES) await run('sqlite', n, null);
  if (!process.env.BENCH_SKIP_POSTGRES) {
    for (const n of SIZES) {
      const pgDb = await createPgDatabase();
      if (!pgDb) {
        console.log(JSON.stringify({ bench: 'refresh-postgres', skipped: 'PostgreSQL not reachable' }));
        break;
      }
      try {
        await run('postgres', n, pgDb);
      } finally {
        await dropPgDatabase(pgDb.name);
      }
    }
  }
} finally {
  await server.close();
}
console.log(JSON.stringify({ bench: 'refresh-machine', when: 'after the rounds', load: loadAverage(), core_speed_ms: coreSpeedsMs() }));
