import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserFromCli } from '../accounts/accounts.service.js';
import { TEST_PASSWORD_HASHING } from '../accounts/passwords.js';
import { AccessTokens } from '../accounts/tokens.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { DIALECTS, createTestDatabase } from '../test/dialects.js';
import { RecordingMailer } from '../test/recording-mailer.js';
import { buildApp, type App } from './app.js';

for (const dialect of DIALECTS) {
  describe(`requireUser on a whole scope (${dialect})`, () => {
    let app: App;
    let database: Database;
    let dataDir: string;
    let tokens: AccessTokens;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'feeder-auth-'));
      const config = loadConfig({ DATA_DIR: dataDir, SECRET: 'auth-test-secret-0123456789' });
      tokens = new AccessTokens(config.secret);
      database = await createTestDatabase(dialect);
      app = await buildApp({ config, database, logger: false, mailer: new RecordingMailer(), passwordHashing: TEST_PASSWORD_HASHING, webDir: join(dataDir, 'none') });
      // How later areas protect their routes: one hook on an encapsulated scope.
      await app.register(async (api) => {
        api.addHook('onRequest', app.requireUser);
        api.get('/api/whoami', async (request) => ({ userId: request.userId }));
        api.post('/api/echo', async (request) => ({ userId: request.userId, body: request.body }));
      });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('sets request.userId for a valid access token', async () => {
      const user = await createUserFromCli(
        database.db,
        { email: 'scope@example.com', password: 'password123', name: 'S', verified: true, language: 'en' },
        { hashing: TEST_PASSWORD_HASHING },
      );
      const token = await tokens.sign(user.id, 0);
      const res = await app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ userId: user.id });
      const lower = await app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `bearer  ${token}` } });
      expect(lower.statusCode).toBe(200);
    });

    it.each([
      ['no header', {}, 'UNAUTHORIZED'],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 'UNAUTHORIZED'],
      ['an empty bearer', { authorization: 'Bearer ' }, 'UNAUTHORIZED'],
      ['a junk bearer', { authorization: 'Bearer junk' }, 'TOKEN_INVALID'],
    ])('answers 401 for %s', async (_label, headers, code) => {
      const res = await app.inject({ method: 'GET', url: '/api/whoami', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code, message: expect.any(String) });
    });

    it('answers 401 USER_NOT_FOUND for a valid token of a deleted account', async () => {
      const token = await tokens.sign(987654, 0);
      const res = await app.inject({ method: 'GET', url: '/api/whoami', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('USER_NOT_FOUND');
    });

    it('refuses before reading the body (401, not 400, for a malformed body without a token)', async () => {
      const res = await app.inject({ method: 'POST', url: '/api/echo', headers: { 'content-type': 'application/json' }, payload: '{oops' });
      expect(res.statusCode).toBe(401);
    });

    it('leaves unknown /api paths a JSON 404, with or without a token', async () => {
      for (const headers of [{}, { authorization: 'Bearer junk' }]) {
        const res = await app.inject({ method: 'GET', url: '/api/no-such-thing', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
      }
    });
  });
}
