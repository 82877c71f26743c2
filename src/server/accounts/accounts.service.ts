import type { FastifyBaseLogger } from 'fastify';
import type { LoginResponse, PublicConfig, RefreshResponse, StatusResponse, UpdateMeResponse, User } from '../../common/api.js';
import type { Language } from '../../common/constants.js';
import { BackgroundWork } from '../background.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import { AccountMail } from './account-mail.js';
import { PasswordResetService } from './password-reset.service.js';
import type { PasswordHasher } from './passwords.js';
import { ProfileService, type UpdateMeInput } from './profile.service.js';
import { RegistrationService, type RegisterInput } from './registration.service.js';
import { SessionsService } from './sessions.service.js';
import type { AccessTokens } from './tokens.js';

/**
 * Accounts (public-area-and-api.md §3–§9, decisions.md "Product and accounts"): one entry for the account routes
 * over the services that each do one job: sessions.service.ts (sign-in, refresh, sign-out), registration.service.ts
 * (registration, e-mail verification, `feeder user create`), profile.service.ts (the user's own data and password)
 * and password-reset.service.ts (recovery by mail). They share the rules of account-rules.ts and the mails and
 * one-time tokens of account-mail.ts. This class only builds them from one set of dependencies and passes calls on.
 */

export { createUserFromCli, type CliUserInput, type RegisterInput } from './registration.service.js';
export { isValidEmail, normalizeEmail } from './account-rules.js';
export type { UpdateMeInput } from './profile.service.js';

export interface AccountsServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'registrationDomains' | 'secret' | 'legal'>;
  mailer: Mailer;
  hasher: PasswordHasher;
  accessTokens: AccessTokens;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The clock; tests move it to expire tokens. */
  now?: () => Date;
  /** Where work after the answer runs (mail); default: a set of its own. */
  background?: BackgroundWork;
}

export class AccountsService {
  readonly sessions: SessionsService;
  readonly registration: RegistrationService;
  readonly profile: ProfileService;
  readonly passwordReset: PasswordResetService;
  private readonly mail: AccountMail;

  constructor(deps: AccountsServiceDeps) {
    const { db, config, hasher, log } = deps;
    const now = deps.now ?? (() => new Date());
    this.mail = new AccountMail({ db, config, mailer: deps.mailer, log, now, background: deps.background ?? new BackgroundWork() });
    this.sessions = new SessionsService({ db, config, hasher, accessTokens: deps.accessTokens, log, now });
    this.registration = new RegistrationService({ db, config, hasher, mail: this.mail, now });
    this.profile = new ProfileService({ db, hasher, sessions: this.sessions, now });
    this.passwordReset = new PasswordResetService({ db, hasher, mail: this.mail, now });
  }

  /** Waits for mails still being sent (on shutdown, and in tests). */
  drain(): Promise<void> {
    return this.mail.drain();
  }

  // ---- registration and verification ----
  register(input: RegisterInput): Promise<{ user: User; email_sent: boolean }> {
    return this.registration.register(input);
  }
  verifyEmail(token: string | undefined): Promise<StatusResponse> {
    return this.registration.verifyEmail(token);
  }
  resendVerification(rawEmail: string): Promise<StatusResponse> {
    return this.registration.resendVerification(rawEmail);
  }
  publicConfig(): PublicConfig {
    return this.registration.publicConfig();
  }

  // ---- sessions ----
  login(rawEmail: string, password: string): Promise<LoginResponse> {
    return this.sessions.login(rawEmail, password);
  }
  refresh(token: string | null): Promise<RefreshResponse> {
    return this.sessions.refresh(token);
  }
  logout(token: string | null): Promise<void> {
    return this.sessions.logout(token);
  }

  // ---- profile ----
  me(userId: number): Promise<User> {
    return this.profile.me(userId);
  }
  updateMe(userId: number, input: UpdateMeInput): Promise<UpdateMeResponse> {
    return this.profile.updateMe(userId, input);
  }
  verifyPassword(userId: number, password: string): Promise<{ valid: boolean }> {
    return this.profile.verifyPassword(userId, password);
  }
  updateLanguage(userId: number, language: Language): Promise<User> {
    return this.profile.updateLanguage(userId, language);
  }

  // ---- password recovery ----
  forgotPassword(rawEmail: string): Promise<StatusResponse> {
    return this.passwordReset.forgotPassword(rawEmail);
  }
  resetPassword(token: string | undefined, password: string): Promise<StatusResponse> {
    return this.passwordReset.resetPassword(token, password);
  }
}
