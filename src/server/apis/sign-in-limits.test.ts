import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { enableReaderAppsWithNewPassword } from './app-password.js';

/**
 * Password guessing through the reader apps' doors (Fever's api_key, Google Reader's ClientLogin) is limited per
 * address like the web sign-in, in the same buckets (docs/decisions.md "Sign-in limits of the reader apps";
 * fever/README.md, greader/README.md). Small limits stand in for the real ones; the test clock moves time.
 */
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const MINUTE = 60_000;

describe('sign-in limits of the reader apps', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      authLimits: { loginPerIp: { limit: 5, windowMs: 10 * MINUTE }, loginPerEmail: { limit: 3, windowMs: 10 * MINUTE } },
    });
  });
  afterAll(() => t.close());

  async function readerUser() {
    const { user, email } = await t.createUser();
    const password = await enableReaderAppsWithNewPassword(t.database.db, t.config.secret, { id: user.id, email });
    return { email, password, apiKey: md5(`${email}:${password}`) };
  }

  const fever = (apiKey: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/fever.php?api', remoteAddress: ip, payload: `api_key=${apiKey}`, headers: FORM });
  const clientLogin = (email: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/greader.php/accounts/ClientLogin',
      remoteAddress: ip,
      headers: FORM,
      payload: `Email=${encodeURIComponent(email)}&Passwd=${encodeURIComponent(password)}`,
    });

  it('Fever: wrong api_keys from one address are refused with 429 after the limit, the right key too; other addresses and signed-in calls are not', async () => {
    const u = await readerUser();
    // Signed-in calls do not count: a client syncs many times.
    for (let i = 0; i < 8; i++) expect((await fever(u.apiKey, '10.9.0.1')).json()).toMatchObject({ auth: 1 });
    for (let i = 0; i < 5; i++) {
      const res = await fever(md5(`guess ${i}`), '10.9.0.1');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ api_version: 3, auth: 0 });
    }
    for (const key of [md5('guess 6'), u.apiKey]) {
      const refused = await fever(key, '10.9.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ api_version: 3, auth: 0 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
    }
    expect((await fever(u.apiKey, '10.9.0.2')).json()).toMatchObject({ auth: 1 });
    t.clock.advance(10 * MINUTE + 1000);
    expect((await fever(u.apiKey, '10.9.0.1')).json()).toMatchObject({ auth: 1 });
  });

  it('Google Reader: ClientLogin is limited per address and per account like the web sign-in', async () => {
    const u = await readerUser();
    for (let i = 0; i < 3; i++) expect((await clientLogin(u.email, `wrong ${i}`, `10.8.0.${i}`)).statusCode).toBe(401);
    // The account's bucket (3) is full: the right password from a fresh address is refused too.
    const refused = await clientLogin(u.email.toUpperCase(), u.password, '10.8.1.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe('Error=RateLimited\n');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);

    // Per address (5) across accounts.
    for (let i = 0; i < 5; i++) expect((await clientLogin(`nobody${i}@example.com`, 'x', '10.8.2.1')).statusCode).toBe(401);
    expect((await clientLogin('nobody9@example.com', 'x', '10.8.2.1')).statusCode).toBe(429);
  });

  it('the doors share one bucket per address: Fever guesses count against ClientLogin and the web sign-in', async () => {
    for (let i = 0; i < 5; i++) await fever(md5(`shared ${i}`), '10.7.0.1');
    expect((await clientLogin('someone@example.com', 'x', '10.7.0.1')).statusCode).toBe(429);
    const web = await t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '10.7.0.1', payload: { email: 'someone@example.com', password: 'password123' } });
    expect(web.statusCode).toBe(429);
  });
});
