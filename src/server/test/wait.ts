import { createServer, type AddressInfo } from 'node:net';

/** A port nobody listens on right now on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` every `stepMs` until it holds (a throw counts as "not yet"); throws after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs = 10_000, stepMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Lets every promise callback and I/O callback queued so far run (one turn of the event loop). */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
