// Account API under load on SQLite: GET /auth/me (token check + one query) and POST /auth/login (argon2id-bound),
// over real HTTP against `feeder all`. GET /auth/me is driven by wrk (-t2 -c4, as bench/README.md "Budgets" measures APIs) when
// it is installed (apt-get install wrk), else by a fetch loop in this process (which costs the server CPU).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, measureWrk, waitUp } from './lib/http.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'feeder-bench-'));
const port = 3700 + Math.floor(Math.random() * 200);
const base = `http://127.0.0.1:${port}`;
const env = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', PUBLIC_URL: base };
const bin = new URL('../bin/feeder.js', import.meta.url).pathname;

spawnSync(process.execPath, [bin, 'user', 'create', '--email', 'bench@example.com', '--password', 'bench-password', '--name', 'Bench', '--verified'], {
  env,
  stdio: 'ignore',
});
const server = spawn(process.execPath, [bin, 'all'], { env, stdio: 'ignore' });

try {
  await waitUp(base);
  const login = () =>
    fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }),
    });
  const first = await (await login()).json();
  const auth = { authorization: `Bearer ${first.access_token}` };
  if (!measureWrk('auth-me', `${base}/auth/me`, auth)) await measure('auth-me', 5000, 8, () => fetch(`${base}/auth/me`, { headers: auth }));
  measureWrk('healthz', `${base}/healthz`, {});
  await measure('auth-login', 8, 2, login);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
