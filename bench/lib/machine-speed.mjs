// How fast this machine runs right now: the CPU time of a fixed piece of work, the same for every build, so that
// figures from different hours and machines can be compared (bench/README.md "Reading the refresh figures"). The
// 2-core machines the benchmarks run on change speed by up to half within an hour (noisy neighbours, no steal time
// reported), and every CPU-per-feed figure moves with them. The work is of the refresh's kind: feed documents read
// as text, split into tags and texts by a regular expression, sorted, serialised, parsed and hashed. It depends on
// nothing of Feeder's, so a change to Feeder cannot change it.
//
// The cores need not be alike: on the 2-core AMD EPYC machines one core ran the work in 39–41 ms while the other
// took 55–63 ms at the same time (bench/README.md "The seventeenth round"). So each core is measured on its own
// (`taskset -c N`, util-linux), and the figures are reported per core; without taskset, one figure for wherever the
// scheduler put the process.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { generateFeed } from './feed-server.mjs';
import { percentile } from './http.mjs';

const DOCUMENTS = Array.from({ length: 20 }, (_, i) => generateFeed(i, { format: 'mixed' }).body);
const TOKEN = /<\/?([A-Za-z][\w:-]*)[^>]*>|[^<]+/g;

function work() {
  let n = 0;
  for (const body of DOCUMENTS) {
    const tokens = [];
    for (const m of body.toString('utf8').matchAll(TOKEN)) tokens.push(m[1] === undefined ? m[0].trim() : m[1].toLowerCase());
    tokens.sort();
    const json = JSON.stringify(tokens);
    n += JSON.parse(json).length + createHash('sha256').update(json).digest()[0];
  }
  return n;
}

/** The median CPU time (user + system, ms) of the work over `repeats` runs after one to warm up. */
export function machineSpeedMs(repeats = 9) {
  work();
  const times = [];
  for (let r = 0; r < repeats; r++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 0.5);
}

/**
 * machineSpeedMs of each core, measured in a process pinned to it (`taskset -c N`), in core order; one figure from
 * an unpinned process when taskset is missing or refuses.
 */
export function coreSpeedsMs() {
  const self = fileURLToPath(import.meta.url);
  const speeds = [];
  for (let core = 0; core < availableParallelism(); core++) {
    const r = spawnSync('taskset', ['-c', String(core), process.execPath, self, '--print'], { encoding: 'utf8' });
    const ms = Number(r.stdout?.trim());
    if (r.status !== 0 || !Number.isFinite(ms) || ms <= 0) return [machineSpeedMs()];
    speeds.push(ms);
  }
  return speeds;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--print')) console.log(machineSpeedMs());
