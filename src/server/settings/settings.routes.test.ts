import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPasswordCipher } from '../apis/app-password.js';
import { DIALECTS } from '../test/dialects.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Reader-apps settings (dashboard.md §2 section 4, §4 "Fever API", §7 "Fever API") through HTTP on both dialects,
 * checked against what a Fever client then gets at /api/fever.php.
 */
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

for (const dialect of DIALECTS) {
  describe(`reader-apps settings (${dialect})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ dialect });
    });
    afterAll(async () => {
      await t.close();
    });

    async function user() {
      const s = await t.signUp();
      const headers = t.bearer(s.access_token);
      return {
        ...s,
        headers,
        call: (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) }),
      };
    }
    const fever = async (apiKey: string) =>
      (
        await t.app.inject({ method: 'POST', url: '/api/fever.php?api', payload: `api_key=${apiKey}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      ).json();

    it('enabling returns a password whose md5 key signs in to Fever; the user shows the flag', async () => {
      const u = await user();
      expect((await u.call('GET', '/auth/me')).json().user.fever_api_enabled).toBe(false);

      const on = await u.call('PUT', '/api/user/fever-api', { enabled: true });
      expect(on.statusCode, on.body).toBe(200);
      const { enabled, password } = on.json();
      expect(enabled).toBe(true);
      expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
      expect((await u.call('GET', '/auth/me')).json().user.fever_api_enabled).toBe(true);

      expect(await fever(md5(`${u.email}:${password}`))).toMatchObject({ api_version: 3, auth: 1 });
      expect(await fever(md5(`${u.email}:${password}`).toUpperCase())).toMatchObject({ auth: 1 });

      // Reveal shows the same password; enabling again keeps it.
      expect((await u.call('GET', '/api/user/fever-api/password')).json()).toEqual({ success: true, password });
      expect((await u.call('PUT', '/api/user/fever-api', { enabled: true })).json()).toEqual({ enabled: true, password });

      // It is stored encrypted, never in plain text.
      const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', u.user.id).executeTakeFirstOrThrow();
      expect(row.app_password_enc).not.toContain(password);
      expect(new AppPasswordCipher(t.config.secret).decrypt(row.app_password_enc!)).toBe(password);
    });

    it('disabling keeps the password but Fever refuses it; enabling again brings the same one back', async () => {
      const u = await user();
      const { password } = (await u.call('PUT', '/api/user/fever-api', { enabled: true })).json();
      const key = md5(`${u.email}:${password}`);
      const off = await u.call('PUT', '/api/user/fever-api', { enabled: false });
      expect(off.json()).toEqual({ enabled: false });
      expect(await fever(key)).toEqual({ api_version: 3, auth: 0 });
      expect((await u.call('GET', '/auth/me')).json().user.fever_api_enabled).toBe(false);
      expect((await u.call('PUT', '/api/user/fever-api', { enabled: true })).json()).toEqual({ enabled: true, password });
      expect(await fever(key)).toMatchObject({ auth: 1 });
    });

    it('regenerating changes the password and the api_key at once', async () => {
      const u = await user();
      const { password: old } = (await u.call('PUT', '/api/user/fever-api', { enabled: true })).json();
      const res = await u.call('POST', '/api/user/fever-api/password', { regenerate: true });
      expect(res.statusCode).toBe(200);
      const { success, password } = res.json();
      expect(success).toBe(true);
      expect(password).not.toBe(old);
      expect(await fever(md5(`${u.email}:${old}`))).toEqual({ api_version: 3, auth: 0 });
      expect(await fever(md5(`${u.email}:${password}`))).toMatchObject({ auth: 1 });
      expect((await u.call('GET', '/api/user/fever-api/password')).json()).toEqual({ success: true, password });
    });

    it('reading the password before ever enabling creates one, which signs in only after enabling', async () => {
      const u = await user();
      const { password } = (await u.call('GET', '/api/user/fever-api/password')).json();
      expect(password).toMatch(/^[a-z2-9-]{23}$/);
      expect(await fever(md5(`${u.email}:${password}`))).toEqual({ api_version: 3, auth: 0 });
      expect((await u.call('PUT', '/api/user/fever-api', { enabled: true })).json()).toEqual({ enabled: true, password });
      expect(await fever(md5(`${u.email}:${password}`))).toMatchObject({ auth: 1 });
    });

    it('a password stored under another secret is replaced, not shown as garbage', async () => {
      const u = await user();
      await t.database.db
        .updateTable('users')
        .set({ app_password_enc: new AppPasswordCipher('some-other-secret-0123456789').encrypt('old-one'), app_password_key: md5(`${u.email}:old-one`) })
        .where('id', '=', u.user.id)
        .execute();
      const { password } = (await u.call('PUT', '/api/user/fever-api', { enabled: true })).json();
      expect(password).not.toBe('old-one');
      expect(await fever(md5(`${u.email}:old-one`))).toMatchObject({ auth: 0 });
      expect(await fever(md5(`${u.email}:${password}`))).toMatchObject({ auth: 1 });
    });

    it('keeps each user to their own password', async () => {
      const a = await user();
      const b = await user();
      const pa = (await a.call('PUT', '/api/user/fever-api', { enabled: true })).json().password;
      const pb = (await b.call('PUT', '/api/user/fever-api', { enabled: true })).json().password;
      expect(pa).not.toBe(pb);
      expect((await a.call('GET', '/api/user/fever-api/password')).json().password).toBe(pa);
      expect(await fever(md5(`${a.email}:${pb}`))).toMatchObject({ auth: 0 });
    });

    it('answers 401 without sign-in and 400 for bodies that are not the documented ones', async () => {
      for (const [method, url, payload] of [
        ['GET', '/api/user/fever-api/password', undefined],
        ['PUT', '/api/user/fever-api', { enabled: true }],
        ['POST', '/api/user/fever-api/password', { regenerate: true }],
      ] as const) {
        const res = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      }
      const u = await user();
      for (const body of [{}, { enabled: 'yes' }, { enabled: 1 }, { enabled: true, extra: 1 }]) {
        const res = await u.call('PUT', '/api/user/fever-api', body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      }
      for (const body of [{}, { regenerate: false }, { regenerate: 'true' }]) {
        expect((await u.call('POST', '/api/user/fever-api/password', body)).statusCode).toBe(400);
      }
      expect(
        (await t.app.inject({ method: 'PUT', url: '/api/user/fever-api', headers: { ...u.headers, 'content-type': 'application/json' }, payload: '{bad' })).statusCode,
      ).toBe(400);
      expect((await u.call('GET', '/auth/me')).json().user.fever_api_enabled).toBe(false);
    });
  });
}
