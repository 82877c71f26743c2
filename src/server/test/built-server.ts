import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where bin/feeder.js runs the build (dist/). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface BuiltServer {
  child: ChildProcess;
  /** What the server printed so far (stdout and stderr). */
  output: string[];
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the built server (`node [nodeArgs] bin/feeder.js all`, as `npm start` runs it after `npm run build`) with
 * `env` and waits until `baseUrl`/healthz answers; throws with the server's output if it exits or does not answer
 * within `timeoutMs`.
 */
export async function startBuiltServer(env: NodeJS.ProcessEnv, baseUrl: string, nodeArgs: string[] = [], timeoutMs = 15_000): Promise<BuiltServer> {
  if (!existsSync(join(ROOT, 'dist/server/main.js'))) throw new Error('This test runs the built server: run `npm run build` first.');
  const child = spawn(process.execPath, [...nodeArgs, 'bin/feeder.js', 'all'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Feeder exited early: ${output.join('')}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Feeder did not become healthy: ${output.join('')}`);
    }
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { child, output, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
}
