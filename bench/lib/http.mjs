// Shared by the HTTP benchmarks: wait for a started feeder, time requests (p50/p95/p99), and drive wrk.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export async function waitUp(base, tries = 300) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet: try again
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

/** The p-quantile (0–1) of ascending `sorted` values, to 0.01. */
export const percentile = (sorted, p) => +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2);

/** `total` requests, `concurrency` at a time; prints one JSON line and returns it. */
export async function measure(name, total, concurrency, request, extra = {}) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const n = next++;
        const t0 = performance.now();
        const res = await request(n);
        if (!res.ok) throw new Error(`${name}: HTTP ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const line = {
    bench: name,
    ...extra,
    requests: total,
    concurrency,
    req_per_s: Math.round(total / seconds),
    p50_ms: percentile(latencies, 0.5),
    p95_ms: percentile(latencies, 0.95),
    p99_ms: percentile(latencies, 0.99),
  };
  console.log(JSON.stringify(line));
  return line;
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
 * wrk -t2 -c4 (bench/README.md "Budgets"); false when wrk is not installed. With `pid` (the server's process) the line also
 * gives the server's own CPU per request: on a machine shared with other work the throughput swings with their
 * load, the CPU the server spends per request barely does, and 2 cores divided by it is what the server alone could
 * serve (with PostgreSQL its backends' CPU comes on top).
 */
export function measureWrk(name, url, headers, { pid, extra = {} } = {}) {
  const args = ['-t2', '-c4', '-d8s', '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const before = pid ? cpuSeconds(pid) : 0;
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  if (r.status !== 0) return false;
  const num = (re) => Number((r.stdout.match(re) ?? [])[1]);
  const ms = (re) => {
    const m = r.stdout.match(re);
    if (!m) return null;
    const v = Number(m[1]);
    return m[2] === 'us' ? +(v / 1000).toFixed(2) : m[2] === 's' ? v * 1000 : v;
  };
  const line = {
    bench: name,
    ...extra,
    tool: 'wrk -t2 -c4 -d8s',
    req_per_s: Math.round(num(/Requests\/sec:\s+([\d.]+)/)),
    p50_ms: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99_ms: ms(/99%\s+([\d.]+)(us|ms|s)/),
  };
  if (pid) {
    const cpuMs = ((cpuSeconds(pid) - before) * 1000) / num(/(\d+) requests in/);
    Object.assign(line, {
      server_cpu_ms_per_req: +cpuMs.toFixed(3),
      server_alone_req_per_s_on_2_cores: Math.round(2000 / cpuMs),
      errors: Number((r.stdout.match(/Non-2xx or 3xx responses: (\d+)/) ?? [0, 0])[1]),
      load_avg: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
    });
  }
  console.log(JSON.stringify(line));
  return true;
}
