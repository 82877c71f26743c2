// Account API under load on SQLite: GET /auth/me (token check + one query) and POST /auth/login (argon2id-bound),
// over real HTTP against `feeder all`, with a fixed number of requests and concurrency.
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

try {
  await waitUp();
  const login = () => fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '' }, body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }) });
  const first = await (await login()).json();
  const auth = { authorization: `Bearer ${first.access_token}` };
  await measure('auth-me', 5000, 8, () => fetch(`${base}/auth/me`, { headers: auth }));
  await measure('auth-login', 8, 2, login);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
