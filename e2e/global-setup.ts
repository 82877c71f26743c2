import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../src/server/test/wait.js';

/**
 * Starts the built Feeder (`node bin/feeder.js all`, as `npm start` does) on a free port with a fresh SQLite data
 * directory, for the browser tests. Mails go to DATA_DIR/outbox, where the tests read their links.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Feeder exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Feeder did not become healthy in time');
}

export default async function setup(project: TestProject) {
  if (!existsSync('dist/server/main.js') || !existsSync('dist/web/index.html')) {
    throw new Error('Browser tests need a build: run `npm run build` first (npm test does).');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'feeder-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, ['bin/feeder.js', 'all'], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      REGISTRATION_EMAIL_DOMAINS: 'example.com,feeder.test',
      // The reading tests subscribe to feeds served from 127.0.0.1 (a local feed server), which the SSRF guard
      // refuses by default.
      ALLOW_PRIVATE_FEED_HOSTS: 'true',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server's output goes to a log file beside the test data, for when a browser test fails.
  const log = createWriteStream(join(tmpdir(), 'feeder-e2e-server.log'));
  child.stdout?.on('data', (d) => (output.push(String(d)), log.write(d)));
  child.stderr?.on('data', (d) => (output.push(String(d)), log.write(d)));
  child.on('exit', (code, signal) => log.write(`\n[e2e] server exited with ${code ?? signal}\n`));
  try {
    await waitForHealth(baseUrl, child);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${String(err)}\n${output.join('')}`);
  }
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
