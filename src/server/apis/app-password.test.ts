import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createTestDatabase, DIALECTS } from '../test/dialects.js';
import { createTestUser } from '../test/test-app.js';
import {
  AppPasswordCipher,
  appPasswordKey,
  enableReaderAppsWithNewPassword,
  findUserByApiKey,
  generateAppPassword,
  normalizeApiKey,
  setReaderAppsEnabled,
  storeAppPassword,
  verifyAppPassword,
} from './app-password.js';

const SECRET = 'a-test-secret-of-enough-length';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

describe('reader-apps password primitives', () => {
  it('generates readable, unique passwords of four groups of five', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generateAppPassword();
      expect(p).toMatch(/^[a-hj-km-np-z2-9]{5}(-[a-hj-km-np-z2-9]{5}){3}$/);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });

  it('keys are md5(lower(email):password), lower-case hex; the password keeps its case', () => {
    expect(appPasswordKey('Ann@Example.COM ', 'Secret-1')).toBe(md5('ann@example.com:Secret-1'));
    expect(appPasswordKey('ann@example.com', 'secret-1')).not.toBe(appPasswordKey('ann@example.com', 'Secret-1'));
    expect(normalizeApiKey(' ' + md5('x').toUpperCase() + ' ')).toBe(md5('x'));
    for (const junk of [undefined, null, 42, '', 'xyz', md5('x') + '0', ['a'], { a: 1 }]) expect(normalizeApiKey(junk)).toBeNull();
  });

  it('encrypts with AES-256-GCM: round-trips, differs each time, refuses other secrets and tampering', () => {
    const cipher = new AppPasswordCipher(SECRET);
    const a = cipher.encrypt('abcde-fghjk-mnpqr-stuvw');
    const b = cipher.encrypt('abcde-fghjk-mnpqr-stuvw');
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b); // a fresh IV every time
    expect(a).not.toContain('abcde');
    expect(cipher.decrypt(a)).toBe('abcde-fghjk-mnpqr-stuvw');
    expect(cipher.decrypt(b)).toBe('abcde-fghjk-mnpqr-stuvw');
    expect(new AppPasswordCipher('another-secret-of-enough-length').decrypt(a)).toBeNull();
    const raw = Buffer.from(a.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(cipher.decrypt(`v1:${raw.toString('base64url')}`)).toBeNull();
    for (const junk of ['', 'v1:', 'v1:abc', 'v2:' + a.slice(3), 'plain-password']) expect(cipher.decrypt(junk)).toBeNull();
    expect(cipher.decrypt(cipher.encrypt('ümläut ✓'))).toBe('ümläut ✓');
  });
});

for (const dialect of DIALECTS) {
  describe(`reader-apps password look-ups (${dialect})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await database.destroy();
    });

    it('verifies e-mail and password only while enabled, and api keys in any case', async () => {
      const db = database.db;
      const { user, email } = await createTestUser(db);
      expect(await verifyAppPassword(db, email, 'anything')).toBeUndefined();

      const password = await enableReaderAppsWithNewPassword(db, SECRET, user);
      const row = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row.fever_api_enabled).toBe(1);
      expect(row.app_password_key).toBe(md5(`${email}:${password}`));
      expect(row.app_password_enc).not.toContain(password);
      expect(new AppPasswordCipher(SECRET).decrypt(row.app_password_enc!)).toBe(password);

      expect(await verifyAppPassword(db, email, password)).toEqual({ id: user.id, email });
      expect(await verifyAppPassword(db, ` ${email.toUpperCase()} `, password)).toEqual({ id: user.id, email });
      expect(await verifyAppPassword(db, email, password.toUpperCase())).toBeUndefined();
      expect(await verifyAppPassword(db, email, 'correct horse battery')).toBeUndefined(); // the account password is not it
      expect(await verifyAppPassword(db, 'nobody@example.com', password)).toBeUndefined();

      const key = md5(`${email}:${password}`);
      expect(await findUserByApiKey(db, key)).toEqual({ id: user.id, email });
      expect(await findUserByApiKey(db, key.toUpperCase())).toEqual({ id: user.id, email });
      expect(await findUserByApiKey(db, md5('x'))).toBeUndefined();
      expect(await findUserByApiKey(db, undefined)).toBeUndefined();

      // Disabled: the password is kept, but nothing signs in with it.
      await setReaderAppsEnabled(db, user.id, false, new Date().toISOString());
      expect(await verifyAppPassword(db, email, password)).toBeUndefined();
      expect(await findUserByApiKey(db, key)).toBeUndefined();
      const kept = await db.selectFrom('users').select(['app_password_key']).where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(kept.app_password_key).toBe(key);

      // A new password replaces the old key.
      await setReaderAppsEnabled(db, user.id, true, new Date().toISOString());
      await storeAppPassword(db, new AppPasswordCipher(SECRET), user, 'other-password', new Date().toISOString());
      expect(await findUserByApiKey(db, key)).toBeUndefined();
      expect(await verifyAppPassword(db, email, 'other-password')).toEqual({ id: user.id, email });
    });

    it('keeps users apart', async () => {
      const db = database.db;
      const a = await createTestUser(db);
      const b = await createTestUser(db);
      const pa = await enableReaderAppsWithNewPassword(db, SECRET, a.user);
      const pb = await enableReaderAppsWithNewPassword(db, SECRET, b.user);
      expect(await verifyAppPassword(db, a.email, pb)).toBeUndefined();
      expect(await verifyAppPassword(db, b.email, pa)).toBeUndefined();
      expect((await findUserByApiKey(db, md5(`${b.email}:${pb}`)))?.id).toBe(b.user.id);
    });
  });
}
