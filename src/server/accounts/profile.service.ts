import type { Static } from 'typebox';
import type { MarkReadOn, UpdateMeResponse, User } from '../../common/api.js';
import { CODES } from '../../common/codes.js';
import type { Language } from '../../common/constants.js';
import type { UpdateMeBody } from '../../common/schemas/accounts.js';
import type { Db } from '../db/database.js';
import { badRequest, unauthorized } from '../errors.js';
import { checkNewPassword, normalizeEmail, requireUserRow, validName } from './account-rules.js';
import * as repo from './accounts.repository.js';
import { presentUser } from './accounts.presenter.js';
import type { PasswordHasher } from './passwords.js';
import type { SessionsService } from './sessions.service.js';

/**
 * The signed-in user's profile (public-area-and-api.md §7 "/auth/me", dashboard.md §5 "Settings"): read it, change
 * name, language or password, check the password. A new password ends every sign-in and hands this one a fresh
 * session (sessions.service.ts).
 */
export type UpdateMeInput = Static<typeof UpdateMeBody>;

export interface ProfileServiceDeps {
  db: Db;
  hasher: PasswordHasher;
  sessions: Pick<SessionsService, 'newSession'>;
  now: () => Date;
}

export class ProfileService {
  constructor(private readonly deps: ProfileServiceDeps) {}

  async me(userId: number): Promise<User> {
    return presentUser(await requireUserRow(this.deps.db, userId));
  }

  async updateMe(userId: number, input: UpdateMeInput): Promise<UpdateMeResponse> {
    const user = await requireUserRow(this.deps.db, userId);
    if (input.email !== undefined && normalizeEmail(input.email) !== user.email) {
      throw badRequest('VALIDATION_ERROR', 'The e-mail address cannot be changed.');
    }
    const patch: { name?: string; language_preference?: Language; password_hash?: string; mark_read_on?: MarkReadOn } = {};
    if (input.name !== undefined) patch.name = validName(input.name);
    if (input.language_preference !== undefined) patch.language_preference = input.language_preference;
    // Per user, so it follows the reader across devices (docs/decisions.md "Reading flow: undo, mark-read setting, loading the original").
    if (input.mark_read_on !== undefined) patch.mark_read_on = input.mark_read_on;
    const changesPassword = input.password !== undefined;
    if (changesPassword) {
      checkNewPassword(input.password!);
      if (!input.old_password || !(await this.deps.hasher.verify(user.password_hash, input.old_password))) {
        throw badRequest('INVALID_CURRENT_PASSWORD', CODES.INVALID_CURRENT_PASSWORD);
      }
      patch.password_hash = await this.deps.hasher.hash(input.password!);
    }
    if (Object.keys(patch).length === 0) {
      throw badRequest('VALIDATION_ERROR', 'Nothing to update: send name, language_preference, mark_read_on, or password with old_password.');
    }
    const now = this.deps.now().toISOString();
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await repo.updateUser(trx, userId, { ...patch, updated_at: now });
      if (!updated) throw unauthorized('USER_NOT_FOUND', CODES.USER_NOT_FOUND);
      if (!changesPassword) return { user: presentUser(updated), message: CODES.PROFILE_UPDATED, code: 'PROFILE_UPDATED' as const };
      // A new password ends every sign-in, this one included; this session continues with a fresh pair.
      await repo.revokeAllRefreshTokens(trx, userId, now);
      const session = await this.deps.sessions.newSession(trx, userId);
      return { user: presentUser(updated), message: CODES.PASSWORD_UPDATED, code: 'PASSWORD_UPDATED' as const, ...session };
    });
  }

  async verifyPassword(userId: number, password: string): Promise<{ valid: boolean }> {
    const user = await requireUserRow(this.deps.db, userId);
    return { valid: await this.deps.hasher.verify(user.password_hash, password) };
  }

  async updateLanguage(userId: number, language: Language): Promise<User> {
    const updated = await repo.updateUser(this.deps.db, userId, { language_preference: language, updated_at: this.deps.now().toISOString() });
    if (!updated) throw unauthorized('USER_NOT_FOUND', CODES.USER_NOT_FOUND);
    return presentUser(updated);
  }
}
