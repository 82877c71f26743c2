import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';

/**
 * The reader-apps password (decisions.md "External apps"): one password per user serves the Fever API
 * (apis/fever, `api_key = md5(email:password)`) and the Google Reader API (apis/greader, ClientLogin with e-mail and
 * password). It is switched on by the Fever toggle in settings (dashboard.md §2 section 4).
 *
 * Storage (migration 0005):
 * - users.app_password_enc: the password, AES-256-GCM encrypted with a key derived from the server secret (HKDF),
 *   because settings must show it again on reveal (dashboard.md §4 "Fever API"); never stored in plain text.
 * - users.app_password_key: md5(lower(email) + ':' + password), lower-case hex. Fever clients send exactly this as
 *   api_key, so a Fever request is authenticated by one indexed equality look-up, never a slow hash per request
 *   (bench/README.md "Budgets" external API budget). md5 is the protocol's choice, not ours; the password is random (100 bits),
 *   so the stored md5 does not make it guessable.
 * - users.fever_api_enabled: 1 while the apps may sign in; disabling keeps the password but every API refuses it.
 *
 * The contract the API adapters rely on: a user may sign in to a reader API exactly when
 * `fever_api_enabled = 1` and `app_password_key = md5(lower(email):password)`.
 */

/** 32 letters and digits without look-alikes (0/o, 1/l/i), so a password read off a screen can be typed on a phone. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 4;
const GROUP_LENGTH = 5;

/**
 * A new random password: four groups of five characters joined by dashes ("k7pq2-…"), about 99 bits.
 * Grouped for reading it off the screen; apps accept it with the dashes as it is.
 */
export function generateAppPassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** md5(lower(trim(email)) + ':' + password) as lower-case hex: the Fever api_key and the stored look-up key. */
export function appPasswordKey(email: string, password: string): string {
  return createHash('md5').update(`${email.trim().toLowerCase()}:${password}`, 'utf8').digest('hex');
}

/** A Fever api_key as clients send it (any case, stray blanks) in its stored form, or null when it cannot be one. */
export function normalizeApiKey(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const key = raw.trim().toLowerCase();
  return /^[0-9a-f]{32}$/.test(key) ? key : null;
}

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts and decrypts the stored password with AES-256-GCM. The key is derived from the server secret with
 * HKDF under its own label, so it is independent of the access-token key (accounts/tokens.ts) derived from the
 * same secret. The stored text is `v1:` + base64url(iv ‖ tag ‖ ciphertext); GCM's tag makes a tampered or
 * foreign-secret value fail to decrypt instead of yielding garbage.
 */
export class AppPasswordCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'feeder', 'reader-apps-password-aes-256-gcm-v1', 32));
  }

  encrypt(password: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
    return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The password, or null when the value is not ours (other secret, damaged, other format). */
  decrypt(stored: string): string | null {
    if (!stored.startsWith(`${FORMAT}:`)) return null;
    const raw = Buffer.from(stored.slice(FORMAT.length + 1), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

/** The signed-in identity a reader API works as. */
export interface AppUser {
  id: number;
  email: string;
}

/**
 * E-mail and reader-apps password (Google Reader ClientLogin, Fever username/password forms): the user when the
 * reader apps are enabled for them and the password is theirs, else undefined. One indexed read by e-mail; the
 * keys are compared in constant time.
 */
export async function verifyAppPassword(db: Db, email: string, password: string): Promise<AppUser | undefined> {
  if (typeof email !== 'string' || typeof password !== 'string' || email.length > 1000 || password.length > 1000) return undefined;
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'app_password_key'])
    .where('email', '=', email.trim().toLowerCase())
    .where('fever_api_enabled', '=', 1)
    .executeTakeFirst();
  if (!row?.app_password_key) return undefined;
  if (!constantTimeEqual(appPasswordKey(email, password), row.app_password_key.toLowerCase())) return undefined;
  return { id: row.id, email: row.email };
}

/** Two secrets (keys, MACs) compared in constant time; strings of different length are simply unequal. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A Fever api_key (md5(email:password), any case): the user it belongs to when the reader apps are enabled for
 * them, else undefined. One read of users_app_password_key_idx.
 */
export async function findUserByApiKey(db: Db, apiKey: unknown): Promise<AppUser | undefined> {
  const key = normalizeApiKey(apiKey);
  if (key === null) return undefined;
  return db.selectFrom('users').select(['id', 'email']).where('app_password_key', '=', key).where('fever_api_enabled', '=', 1).executeTakeFirst();
}

/** Stores a (new) reader-apps password for the user: encrypted for reveal, and its md5 key for the look-up. */
export async function storeAppPassword(db: Db, cipher: AppPasswordCipher, user: AppUser, password: string, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ app_password_enc: cipher.encrypt(password), app_password_key: appPasswordKey(user.email, password), updated_at: now })
    .where('id', '=', user.id)
    .execute();
}

/** Switches the reader apps on or off; the password is kept either way (dashboard.md §4 "Fever API"). */
export async function setReaderAppsEnabled(db: Db, userId: number, enabled: boolean, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ fever_api_enabled: enabled ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/**
 * Turns the reader apps on for a user with a fresh password and returns it: what the settings toggle does for a
 * user without a password. For tests and tools of other adapters (greader) that need a signed-in app user.
 */
export async function enableReaderAppsWithNewPassword(db: Db, secret: string, user: AppUser, now = new Date().toISOString()): Promise<string> {
  const password = generateAppPassword();
  await db.transaction().execute(async (trx) => {
    await storeAppPassword(trx, new AppPasswordCipher(secret), user, password, now);
    await setReaderAppsEnabled(trx, user.id, true, now);
  });
  return password;
}
