import type { Static } from 'typebox';
import type { PublicConfig, StatusResponse, User } from '../../common/api.js';
import { CODES } from '../../common/codes.js';
import { VERIFICATION_TOKEN_TTL_HOURS, type Language } from '../../common/constants.js';
import type { RegisterBody } from '../../common/schemas/accounts.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { AppError, forbidden } from '../errors.js';
import { alreadyVerifiedMail, verificationMail } from '../mail/templates.js';
import type { AccountMail } from './account-mail.js';
import { HOUR_MS, checkNewPassword, insertNewUser, isValidEmail, normalizeEmail, success, validName, validNewEmail } from './account-rules.js';
import * as repo from './accounts.repository.js';
import { presentUser } from './accounts.presenter.js';
import { PasswordHasher, type PasswordHashingOptions } from './passwords.js';

/**
 * Registration and e-mail verification (public-area-and-api.md §3, §5 and §7 "/auth/register", "/auth/verify-email",
 * "/auth/resend-verification", decisions.md "Product and accounts"), the public configuration the registration
 * screen needs, and `feeder user create`.
 */
export type RegisterInput = Static<typeof RegisterBody>;

export interface RegistrationServiceDeps {
  db: Db;
  config: Pick<Config, 'registrationDomains' | 'legal'>;
  hasher: PasswordHasher;
  mail: AccountMail;
  now: () => Date;
}

export class RegistrationService {
  constructor(private readonly deps: RegistrationServiceDeps) {}

  private nowIso(): string {
    return this.deps.now().toISOString();
  }

  async register(input: RegisterInput): Promise<{ user: User; email_sent: boolean }> {
    const { mail } = this.deps;
    const name = validName(input.name);
    const email = validNewEmail(input.email);
    checkNewPassword(input.password);
    const domains = this.deps.config.registrationDomains;
    if (domains.length > 0 && !domains.includes(email.slice(email.lastIndexOf('@') + 1))) {
      throw forbidden('REGISTRATION_DOMAIN_NOT_ALLOWED', CODES.REGISTRATION_DOMAIN_NOT_ALLOWED);
    }
    let token = '';
    const user = await insertNewUser(
      this.deps.db,
      this.deps.hasher,
      { name, email, password: input.password, language: input.language ?? 'de', verified: false },
      this.nowIso(),
      async (trx, row) => {
        token = await mail.newToken(trx, row.id, 'verify', VERIFICATION_TOKEN_TTL_HOURS * HOUR_MS);
      },
    );
    // Registration already says whether the address was free, so the answer may wait for the mail.
    const email_sent = await mail.sendNow(mail.message(user, verificationMail(mail.lang(user), user.name, mail.link('/verify-email', token))));
    return { user: presentUser(user), email_sent };
  }

  async verifyEmail(token: string | undefined): Promise<StatusResponse> {
    const row = await this.deps.mail.usableToken('verify', token);
    const now = this.nowIso();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.mail.spendToken(trx, row, now);
      await repo.updateUser(trx, row.user_id, { is_verified: 1, updated_at: now });
    });
    return success('EMAIL_VERIFIED');
  }

  /** Same answer whether the address is unknown, unconfirmed or confirmed (no account enumeration). */
  async resendVerification(rawEmail: string): Promise<StatusResponse> {
    const email = normalizeEmail(rawEmail);
    if (isValidEmail(email)) this.deps.mail.afterAnswer('verification', () => this.mailVerification(email));
    return success('VERIFICATION_EMAIL_SENT');
  }

  private async mailVerification(email: string): Promise<void> {
    const { mail } = this.deps;
    const user = await repo.findUserByEmail(this.deps.db, email);
    if (!user) return;
    if (user.is_verified === 1) {
      await mail.sendNow(mail.message(user, alreadyVerifiedMail(mail.lang(user), user.name, mail.link('/login'))));
      return;
    }
    const token = await this.deps.db.transaction().execute((trx) => mail.newToken(trx, user.id, 'verify', VERIFICATION_TOKEN_TTL_HOURS * HOUR_MS));
    await mail.sendNow(mail.message(user, verificationMail(mail.lang(user), user.name, mail.link('/verify-email', token))));
  }

  publicConfig(): PublicConfig {
    const domains = [...this.deps.config.registrationDomains];
    // The legal pages' operator (docs/decisions.md "Legal pages: the operator from configuration").
    return { registration_email_domains: domains, registration_restricted: domains.length > 0, legal: this.deps.config.legal };
  }
}

export interface CliUserInput {
  email: string;
  password: string;
  name: string;
  verified: boolean;
  language: Language;
}

/**
 * `feeder user create` (decisions.md): an administrator creates an account directly, optionally already confirmed.
 * The domain list does not apply; every other registration rule does. Throws an Error with a clear message.
 */
export async function createUserFromCli(db: Db, input: CliUserInput, options: { hashing?: PasswordHashingOptions; now?: () => Date } = {}): Promise<User> {
  try {
    const name = validName(input.name);
    const email = validNewEmail(input.email);
    checkNewPassword(input.password);
    const now = (options.now?.() ?? new Date()).toISOString();
    const row = await insertNewUser(
      db,
      new PasswordHasher(options.hashing),
      { name, email, password: input.password, language: input.language, verified: input.verified },
      now,
    );
    return presentUser(row);
  } catch (err) {
    if (err instanceof AppError && err.code === 'EMAIL_ALREADY_REGISTERED') {
      throw new Error(`An account with the e-mail address ${normalizeEmail(input.email)} already exists.`);
    }
    if (err instanceof AppError) throw new Error(err.message);
    throw err;
  }
}
