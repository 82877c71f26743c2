import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODES } from '../../common/codes.js';
import { BackgroundWork } from '../background.js';
import type { Database } from '../db/database.js';
import { purgeExpiredTokens } from '../maintenance.js';
import { DIALECTS, createTestDatabase } from '../test/dialects.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { RecordingMailer } from '../test/recording-mailer.js';
import { AccountsService, createUserFromCli } from './accounts.service.js';
import { PasswordHasher, TEST_PASSWORD_HASHING } from './passwords.js';
import { AccessTokens, REFRESH_REUSE_GRACE_SECONDS } from './tokens.js';

for (const dialect of DIALECTS) {
  describe(`forgot-password and resend-verification do the same work for every address (${dialect})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(() => database.destroy());

    /** The service over a database connection that counts the queries it runs. */
    function service() {
      const queries = { count: 0 };
      const counter: KyselyPlugin = {
        transformQuery: (args) => {
          queries.count++;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const mailer = new RecordingMailer();
      const accounts = new AccountsService({
        db: database.db.withPlugin(counter),
        config: { publicUrl: 'http://feeder.test', registrationDomains: [], secret: 'test-secret-0123456789abcdef', legal: { status: 'unavailable', operator: null } },
        mailer,
        hasher: new PasswordHasher(TEST_PASSWORD_HASHING),
        accessTokens: new AccessTokens('test-secret-0123456789abcdef'),
        log: { info: () => {}, warn: () => {}, error: () => {} },
        background: new BackgroundWork(),
      });
      return { accounts, mailer, queries };
    }

    // The measured gap (a lookup, a token written in a transaction, a mail composed for existing addresses only)
    // is gone when neither answer waits for any of it: both run the same steps, then answer the same.
    it.each([
      ['forgotPassword', 'password-reset', true],
      ['resendVerification', 'verification', false],
    ] as const)('%s answers known and unknown addresses alike, after the same work', async (method, kind, verified) => {
      const known = await createUserFromCli(
        database.db,
        { email: `known-${method}@example.com`, password: 'some password', name: 'Known', verified, language: 'en' },
        { hashing: TEST_PASSWORD_HASHING },
      );
      const seen = [];
      for (const email of [known.email, `unknown-${method}@example.com`]) {
        const { accounts, mailer, queries } = service();
        const answer = await accounts[method](email);
        const queriesBeforeAnswer = queries.count;
        await accounts.drain();
        seen.push({ answer, queriesBeforeAnswer, mails: (await mailer.mailsTo(email, kind)).length });
      }
      const [forKnown, forUnknown] = seen;
      expect(forKnown).toMatchObject({ answer: { status: 'success' }, mails: 1 });
      // The same answer after the same queries (at most the look-up, which has only been started).
      expect(forKnown.queriesBeforeAnswer).toBeLessThanOrEqual(1);
      expect(forUnknown).toEqual({ ...forKnown, mails: 0 });
    });
  });

  describe(`feeder user create (${dialect})`, () => {
    let database: Database;
    let t: TestApp;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      t = await createTestApp({ database });
    });
    afterAll(async () => {
      await t.close();
      await database.destroy();
    });

    const create = (input: Partial<Parameters<typeof createUserFromCli>[1]> = {}) =>
      createUserFromCli(
        database.db,
        { email: 'cli@example.com', password: 'cli password', name: 'Cli User', verified: true, language: 'en', ...input },
        { hashing: TEST_PASSWORD_HASHING },
      );

    it('creates a verified account that can sign in right away', async () => {
      const user = await create({ email: '  CLI@Example.com ' });
      expect(user).toMatchObject({ email: 'cli@example.com', name: 'Cli User', is_verified: true, language_preference: 'en' });
      const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'cli@example.com', password: 'cli password' } });
      expect(res.statusCode).toBe(200);
    });

    it('creates an unverified account without --verified (sign-in then says: confirm first)', async () => {
      const user = await create({ email: 'unverified-cli@example.com', verified: false, language: 'de' });
      expect(user).toMatchObject({ is_verified: false, language_preference: 'de' });
      const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'unverified-cli@example.com', password: 'cli password' } });
      expect(res.json().code).toBe('AUTH_403_1');
    });

    it('refuses a taken address, a bad address, a short password and an empty name with clear messages', async () => {
      await expect(create()).rejects.toThrow('An account with the e-mail address cli@example.com already exists.');
      await expect(create({ email: 'nope' })).rejects.toThrow('Please enter a valid e-mail address.');
      await expect(create({ email: 'other@example.com', password: 'short' })).rejects.toThrow('at least 8 characters');
      await expect(create({ email: 'other@example.com', name: ' ' })).rejects.toThrow('Please enter a name.');
      await expect(create({ email: 'other@example.com', name: 'a\u0000b' })).rejects.toThrow(CODES.INVALID_CHARACTERS);
      await expect(create({ email: 'other@example.com', password: 'pass\u0000word' })).rejects.toThrow(CODES.INVALID_CHARACTERS);
    });

    it('ignores the registration domain list (an administrator decides)', async () => {
      const restricted = await createTestApp({ database, env: { REGISTRATION_EMAIL_DOMAINS: 'example.org' } });
      try {
        const user = await create({ email: 'admin-made@elsewhere.net' });
        const res = await restricted.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: 'cli password' } });
        expect(res.statusCode).toBe(200);
      } finally {
        await restricted.close();
      }
    });
  });

  describe(`token clean-up (${dialect})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ dialect });
    });
    afterAll(() => t.close());

    it('purges expired and spent tokens but keeps what reuse detection and open links need', async () => {
      const s = await t.signUp();
      const rotated = (await t.app.inject({ method: 'POST', url: '/auth/refresh', headers: t.bearer(s.refresh_token) })).json();
      await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: s.email } });
      await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: s.email } }); // spends the first link
      const liveReset = await t.mailer.lastToken(s.email, 'password-reset');

      expect(await purgeExpiredTokens(t.database)).toBe(1); // the spent reset link
      // The spent refresh token is still known, so presenting it again (after the grace window) still revokes the sign-in.
      t.clock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000 + 1000);
      expect((await t.app.inject({ method: 'POST', url: '/auth/refresh', headers: t.bearer(s.refresh_token) })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/auth/refresh', headers: t.bearer(rotated.refresh_token) })).statusCode).toBe(401);

      const later = new Date(Date.now() + 31 * 24 * 60 * 60 * 1000).toISOString();
      expect(await purgeExpiredTokens(t.database, later)).toBeGreaterThanOrEqual(3);
      const left = await t.database.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', s.user.id).execute();
      expect(left).toHaveLength(0);
      const reset = await t.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: liveReset, password: 'whatever 123' } });
      expect(reset.json().code).toBe('INVALID_TOKEN');
    });
  });
}
