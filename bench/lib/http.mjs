// Shared by the HTTP benchmarks: wait for a started feeder, time requests (p50/p95/p99), and drive wrk.
import { spawnSync } from 'node:child_process';

export async function waitUp(base, tries = 300) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

const percentile = (sorted, p) => +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2);

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

/** wrk -t2 -c4 (design.md §5); false when wrk is not installed. */
export function measureWrk(name, url, headers) {
  const args = ['-t2', '-c4', '-d8s', '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  if (r.status !== 0) return false;
  const num = (re) => Number((r.stdout.match(re) ?? [])[1]);
  const ms = (re) => {
    const m = r.stdout.match(re);
    if (!m) return null;
    const v = Number(m[1]);
    return m[2] === 'us' ? +(v / 1000).toFixed(2) : m[2] === 's' ? v * 1000 : v;
  };
  console.log(
    JSON.stringify({ bench: name, tool: 'wrk -t2 -c4 -d8s', req_per_s: Math.round(num(/Requests\/sec:\s+([\d.]+)/)), p50_ms: ms(/50%\s+([\d.]+)(us|ms|s)/), p99_ms: ms(/99%\s+([\d.]+)(us|ms|s)/) }),
  );
  return true;
}
