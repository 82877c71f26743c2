import type { StatusResponse } from '../../common/api.js';
import { RESET_TOKEN_TTL_HOURS } from '../../common/constants.js';
import type { Db } from '../db/database.js';
import { passwordResetMail } from '../mail/templates.js';
import type { AccountMail } from './account-mail.js';
import { HOUR_MS, checkNewPassword, isValidEmail, normalizeEmail, success } from './account-rules.js';
import * as repo from './accounts.repository.js';
import type { PasswordHasher } from './passwords.js';

/**
 * Password recovery (public-area-and-api.md §5 and §7 "/auth/forgot-password", "/auth/reset-password"): a reset link
 * by mail, and a new password with its token.
 */
export interface PasswordResetServiceDeps {
  db: Db;
  hasher: PasswordHasher;
  mail: AccountMail;
  now: () => Date;
}

export class PasswordResetService {
  constructor(private readonly deps: PasswordResetServiceDeps) {}

  /** Same answer whether or not the address has an account (decisions.md: no account enumeration). */
  async forgotPassword(rawEmail: string): Promise<StatusResponse> {
    const email = normalizeEmail(rawEmail);
    if (isValidEmail(email)) this.deps.mail.afterAnswer('password-reset', () => this.mailResetLink(email));
    return success('PASSWORD_RESET_MAIL_SENT');
  }

  private async mailResetLink(email: string): Promise<void> {
    const { mail } = this.deps;
    const user = await repo.findUserByEmail(this.deps.db, email);
    if (!user) return;
    const token = await this.deps.db.transaction().execute((trx) => mail.newToken(trx, user.id, 'reset', RESET_TOKEN_TTL_HOURS * HOUR_MS));
    await mail.sendNow(mail.message(user, passwordResetMail(mail.lang(user), user.name, mail.link('/reset-password', token))));
  }

  /** Sets a new password with a reset token; also confirms the address (the mail proved it) and ends every sign-in. */
  async resetPassword(token: string | undefined, password: string): Promise<StatusResponse> {
    const row = await this.deps.mail.usableToken('reset', token);
    checkNewPassword(password, { status: 'error' });
    const password_hash = await this.deps.hasher.hash(password);
    const now = this.deps.now().toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.mail.spendToken(trx, row, now);
      await repo.updateUser(trx, row.user_id, { password_hash, is_verified: 1, updated_at: now });
      await repo.revokeAllRefreshTokens(trx, row.user_id, now);
    });
    return success('PASSWORD_RESET_SUCCESS');
  }
}
