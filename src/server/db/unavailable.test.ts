import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, openPostgres, ping } from './database.js';
import { createTestApp } from '../test/test-app.js';

/**
 * Every wait for PostgreSQL is bounded (docs/decisions.md "Threat model"): a server that accepts connections and
 * then says nothing (a hung database, a half-open network path) must give an error within the bound, and the
 * HTTP layer must answer it as a retryable 503 `{message, code}`, never hang and never 500.
 */
let silent: Server;
const sockets = new Set<Socket>();
let url: string;

beforeAll(async () => {
  silent = createServer((socket) => {
    // Accept and read, never answer: the startup message waits forever.
    sockets.add(socket);
    socket.on('data', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  url = `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/test`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('a PostgreSQL server that does not answer', () => {
  it('turns into an error within the connection bound instead of a wait forever', async () => {
    const database = openPostgres(url, { timeouts: { connectMs: 300 } });
    try {
      const started = Date.now();
      const err = await ping(database.db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(err)).toBe(true);
      // Generous: the point is "bounded", not how fast the machine is.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await database.destroy().catch(() => {});
    }
  });

  it('is answered 503 DATABASE_UNAVAILABLE by the HTTP layer (health check and API)', async () => {
    const database = openPostgres(url, { timeouts: { connectMs: 300 } });
    const t = await createTestApp({ database });
    try {
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'a@example.com', password: 'whatever it is' } });
      expect(login.statusCode).toBe(503);
      expect(login.json().code).toBe('DATABASE_UNAVAILABLE');
    } finally {
      await t.close();
      await database.destroy().catch(() => {});
    }
  });
});

describe('isDatabaseUnavailable', () => {
  it('tells unavailability from a wrong query', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('UNIQUE constraint failed'))).toBe(false);
  });
});
