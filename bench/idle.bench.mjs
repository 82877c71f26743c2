// Memory of an idle `feeder all` (bench/README.md "Budgets": ≤ 80 MB idle; "Idle memory: modules on first use"):
// starts the built server BENCH_IDLE_STARTS times (default 5) on a migrated, empty database with nothing due, waits
// for /healthz and 2 s more, and reads from /proc: VmRSS, VmHWM, RssAnon (heaps, malloc arenas, stacks) and RssFile
// (mapped pages of the node binary and the native modules); also the time to the first /healthz answer and the
// CPU the start cost. On SQLite, then on PostgreSQL (a database of its own, created and dropped here) when
// BENCH_POSTGRES_URL or the test database is reachable. RSS barely moves with the machine's load; the start's time
// and CPU do.
//
// FEEDER_DIST=/path/to/other/checkout measures another build (its bin/feeder.js and dist/), so two commits can be
// compared back to back; BENCH_NODE_ARGS adds node options (e.g. `--heapsnapshot-signal=SIGUSR2`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { cpuMs, feederBin, feederEnv, feederRoot, loadAverage, sleep, startFeeder, statusKb, stopFeeder, waitHealthy } from './lib/feeder-process.mjs';

const STARTS = Number(process.env.BENCH_IDLE_STARTS) || 5;
const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const mb = (kb) => Math.round(kb / 102.4) / 10;

function status(pid) {
  const kb = (field) => statusKb(pid, field);
  return { rss_mb: mb(kb('VmRSS')), hwm_mb: mb(kb('VmHWM')), anon_mb: mb(kb('RssAnon')), file_mb: mb(kb('RssFile')), threads: kb('Threads') };
}

async function startOnce(env) {
  const child = startFeeder(env);
  try {
    const readyMs = await waitHealthy(child, env);
    await sleep(2000);
    return { ...status(child.pid), ready_ms: readyMs, start_cpu_ms: cpuMs(child.pid) };
  } finally {
    await stopFeeder(child);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function run(dialect, databaseUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), 'feeder-bench-idle-'));
  const env = feederEnv(dataDir, databaseUrl);
  try {
    // Migrated once, as every start but the first after an upgrade finds it.
    const migrate = spawnSync(process.execPath, [feederBin, 'migrate'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (migrate.status !== 0) throw new Error(`feeder migrate exited with ${migrate.status}`);
    const loadBefore = loadAverage();
    const runs = [];
    for (let i = 0; i < STARTS; i++) runs.push(await startOnce(env));
    const pick = (key) => runs.map((r) => r[key]);
    console.log(
      JSON.stringify({
        bench: `idle-${dialect}`,
        starts: STARTS,
        rss_mb: pick('rss_mb'),
        median_rss_mb: median(pick('rss_mb')),
        median_hwm_mb: median(pick('hwm_mb')),
        median_anon_mb: median(pick('anon_mb')),
        median_file_mb: median(pick('file_mb')),
        threads: median(pick('threads')),
        median_ready_ms: median(pick('ready_ms')),
        median_start_cpu_ms: median(pick('start_cpu_ms')),
        load: `${loadBefore} → ${loadAverage()}`,
      }),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function withPgDatabase(work) {
  const name = `feeder_bench_idle_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await admin.connect();
  } catch {
    console.log(JSON.stringify({ bench: 'idle-postgres', skipped: 'PostgreSQL not reachable' }));
    return;
  }
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}

console.log(JSON.stringify({ bench: 'idle', build: feederRoot, starts: STARTS, load: loadAverage() }));
if (!process.env.BENCH_SKIP_SQLITE) await run('sqlite', null);
if (!process.env.BENCH_SKIP_POSTGRES) await withPgDatabase((url) => run('postgres', url));
