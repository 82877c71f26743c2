import type { FeverApiState, FeverPasswordResponse } from '../../common/api.js';
import { AppPasswordCipher, generateAppPassword, setReaderAppsEnabled, storeAppPassword, type AppUser } from '../apis/app-password.js';
import type { Db } from '../db/database.js';
import { unauthorized } from '../errors.js';

/**
 * The reader-apps switch and password of account settings section 4 (dashboard.md §2, §4 "Fever API", §7;
 * decisions.md "External apps"). One password serves the Fever and the Google Reader API (apis/app-password.ts).
 *
 * - Enabling creates a password when the user has none (or when the stored one cannot be read any more, e.g.
 *   after the server secret changed) and returns it; disabling keeps it, but every reader API refuses it.
 * - Reading the password (first reveal or copy in settings) returns the stored one, creating it when there is
 *   none yet, so the settings never show an empty field.
 * - Regenerating replaces it at once: apps signed in with the old one must be given the new one.
 */
export interface FeverSettingsDeps {
  db: Db;
  secret: string;
  now: () => Date;
}

export class FeverSettingsService {
  private readonly cipher: AppPasswordCipher;

  constructor(private readonly deps: FeverSettingsDeps) {
    this.cipher = new AppPasswordCipher(deps.secret);
  }

  private async user(userId: number) {
    const row = await this.deps.db.selectFrom('users').select(['id', 'email', 'fever_api_enabled', 'app_password_enc']).where('id', '=', userId).executeTakeFirst();
    // requireUser checked the account a moment ago; it can only be gone if deleted in between.
    if (!row) throw unauthorized('USER_NOT_FOUND', 'User not found.');
    return row;
  }

  /** The stored password, or a new one stored now when there is none that can be read. */
  private async passwordOf(user: AppUser & { app_password_enc: string | null }, now: string): Promise<string> {
    const stored = user.app_password_enc === null ? null : this.cipher.decrypt(user.app_password_enc);
    if (stored !== null) return stored;
    return this.replacePassword(user, now);
  }

  private async replacePassword(user: AppUser, now: string): Promise<string> {
    const password = generateAppPassword();
    await storeAppPassword(this.deps.db, this.cipher, user, password, now);
    return password;
  }

  /** PUT /api/user/fever-api {enabled}: the password comes back when enabling. */
  async setEnabled(userId: number, enabled: boolean): Promise<FeverApiState> {
    const now = this.deps.now().toISOString();
    return this.deps.db.transaction().execute(async (trx) => {
      const scoped = new FeverSettingsService({ ...this.deps, db: trx });
      const user = await scoped.user(userId);
      await setReaderAppsEnabled(trx, userId, enabled, now);
      if (!enabled) return { enabled: false };
      return { enabled: true, password: await scoped.passwordOf(user, now) };
    });
  }

  /** GET /api/user/fever-api/password. */
  async password(userId: number): Promise<FeverPasswordResponse> {
    const now = this.deps.now().toISOString();
    return this.deps.db.transaction().execute(async (trx) => {
      const scoped = new FeverSettingsService({ ...this.deps, db: trx });
      return { success: true, password: await scoped.passwordOf(await scoped.user(userId), now) };
    });
  }

  /** POST /api/user/fever-api/password {regenerate: true}. */
  async regenerate(userId: number): Promise<FeverPasswordResponse> {
    const now = this.deps.now().toISOString();
    return this.deps.db.transaction().execute(async (trx) => {
      const scoped = new FeverSettingsService({ ...this.deps, db: trx });
      return { success: true, password: await scoped.replacePassword(await scoped.user(userId), now) };
    });
  }
}
