// A built `feeder all` as the process benchmarks start it (refresh, idle): which build (FEEDER_DIST), its
// environment, starting it with BENCH_NODE_ARGS, waiting for /healthz, and reading its CPU and memory from /proc.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The checkout whose bin/ and dist/ run: FEEDER_DIST (another build, for before/after runs) or this one. */
export const feederRoot = resolve(process.env.FEEDER_DIST || new URL('../..', import.meta.url).pathname);
export const feederBin = join(feederRoot, 'bin/feeder.js');

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * The environment of a benchmark's server: its own data directory and a random port on the loopback, quiet logs,
 * the database (SQLite in DATA_DIR unless a URL is given), and whatever the benchmark adds. glibc's allocator settings
 * (MALLOC_*) pass through, to measure a server started with them (README "Memory on a small machine").
 */
export function feederEnv(dataDir, databaseUrl, extra = {}) {
  return {
    PATH: process.env.PATH,
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_'))),
    DATA_DIR: dataDir,
    PORT: String(3900 + Math.floor(Math.random() * 90)),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  };
}

/** Starts `feeder all` with BENCH_NODE_ARGS; BENCH_CHILD_STDOUT=1 passes its stdout through (e.g. `--trace-gc`). */
export function startFeeder(env) {
  return spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), feederBin, 'all'], {
    env,
    stdio: ['ignore', process.env.BENCH_CHILD_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
}

export async function stopFeeder(child) {
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
}

/** Waits until the server answers /healthz (polling every `everyMs`); how long that took, in ms. */
export async function waitHealthy(child, env, everyMs = 20, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`feeder exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${env.PORT}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error('feeder did not start');
    await sleep(everyMs);
  }
}

/**
 * user + system CPU of a process (all its threads), in ms; null when it is gone. `/proc/PID/task/PID` is the main
 * thread alone (where the storing runs; the parse threads are the others).
 */
export function cpuMs(pid, mainThreadOnly = false) {
  try {
    const stat = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * CLOCK_TICK_MS;
  } catch {
    return null;
  }
}

/** A field of /proc/PID/status in KB (VmRSS, VmHWM, RssAnon, RssFile; Threads is a count); 0 when it is gone. */
export function statusKb(pid, field) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
