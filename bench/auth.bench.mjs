// Account API under load on SQLite: GET /auth/me (token check + one query) and POST /auth/login (argon2id-bound),
// over real HTTP against `feeder all`. GET /auth/me is driven by wrk (-t2 -c4, as design.md §5 measures APIs) when
// it is installed (apt-get install wrk), else by a fetch loop in this process (which costs the server CPU).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dataDir = mkdtempSync(join(tmpdir(), 'feeder-bench-'));
const port = 3700 + Math.floor(Math.random() * 200);
const base = `http://127.0.0.1:${port}`;
const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', PUBLIC_URL: base };
const bin = new URL('../bin/feeder.js', import.meta.url).pathname;

spawnSync(process.execPath, [bin, 'user', 'create', '--email', 'bench@example.com', '--password', 'bench-password', '--name', 'Bench', '--verified'], { env, stdio: 'ignore' });
const server = spawn(process.execPath, [bin, 'all'], { env, stdio: 'ignore' });

async function waitUp() {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

async function measure(name, total, concurrency, request) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const res = await request();
        if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => +latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(2);
  console.log(JSON.stringify({ bench: name, requests: total, concurrency, req_per_s: Math.round(total / seconds), p50_ms: pct(0.5), p95_ms: pct(0.95), p99_ms: pct(0.99) }));
}

function measureWrk(name, path, headers) {
  const args = ['-t2', '-c4', '-d8s', '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), `${base}${path}`];
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  if (r.status !== 0) return false;
  const num = (re) => Number((r.stdout.match(re) ?? [])[1]);
  const ms = (re) => {
    const m = r.stdout.match(re);
    if (!m) return null;
    const v = Number(m[1]);
    return m[2] === 'us' ? +(v / 1000).toFixed(2) : m[2] === 's' ? v * 1000 : v;
  };
  console.log(JSON.stringify({ bench: name, tool: 'wrk -t2 -c4 -d8s', req_per_s: Math.round(num(/Requests\/sec:\s+([\d.]+)/)), p50_ms: ms(/50%\s+([\d.]+)(us|ms|s)/), p99_ms: ms(/99%\s+([\d.]+)(us|ms|s)/) }));
  return true;
}

try {
  await waitUp();
  const login = () => fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '' }, body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }) });
  const first = await (await login()).json();
  const auth = { authorization: `Bearer ${first.access_token}` };
  if (!measureWrk('auth-me', '/auth/me', auth)) await measure('auth-me', 5000, 8, () => fetch(`${base}/auth/me`, { headers: auth }));
  measureWrk('healthz', '/healthz', {});
  await measure('auth-login', 8, 2, login);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
