import type { FastifyBaseLogger } from 'fastify';
import type { LoginResponse, PublicConfig, RefreshResponse, StatusResponse, UpdateMeResponse, User } from '../../common/api.js';
import { CODES } from '../../common/codes.js';
import {
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  REFRESH_TOKEN_TTL_DAYS,
  RESET_TOKEN_TTL_HOURS,
  VERIFICATION_TOKEN_TTL_HOURS,
  type Language,
} from '../../common/constants.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../errors.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { BackgroundWork } from '../background.js';
import { refuseNul } from '../nul.js';
import { alreadyVerifiedMail, passwordResetMail, verificationMail, type MailContent } from '../mail/templates.js';
import * as repo from './accounts.repository.js';
import { presentUser } from './accounts.presenter.js';
import { PasswordHasher, type PasswordHashingOptions } from './passwords.js';
import { AccessTokens, REFRESH_REUSE_GRACE_SECONDS, RefreshTokenChain, generateFamilyId, generateOpaqueToken, hashToken } from './tokens.js';

/**
 * Accounts: registration, e-mail verification, sign-in sessions, profile and password recovery
 * (public-area-and-api.md §3–§9, decisions.md "Product and accounts").
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The WHATWG definition of a valid e-mail address (what `<input type=email>` accepts), with a dot in the domain. */
const EMAIL_RE = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Addresses are compared and stored trimmed and in lower case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_RE.test(email);
}

const statusError = (code: 'INVALID_TOKEN' | 'TOKEN_EXPIRED' | 'PASSWORD_TOO_SHORT') =>
  badRequest(code, CODES[code], { status: 'error' });

const success = (code: keyof typeof CODES): StatusResponse => ({ status: 'success', code, message: CODES[code] });

function validName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest('NAME_REQUIRED', CODES.NAME_REQUIRED);
  if (name.length > MAX_NAME_LENGTH) throw badRequest('VALIDATION_ERROR', `The name may be at most ${MAX_NAME_LENGTH} characters long.`);
  return name;
}

function checkNewPassword(password: string, extra?: Record<string, unknown>): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest('PASSWORD_TOO_SHORT', CODES.PASSWORD_TOO_SHORT, extra);
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest('VALIDATION_ERROR', `The password may be at most ${MAX_PASSWORD_LENGTH} characters long.`, extra);
}

function validNewEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (!isValidEmail(email)) throw badRequest('INVALID_EMAIL', CODES.INVALID_EMAIL);
  return email;
}

/** Both drivers' spelling of "unique constraint violated". */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const emailTaken = () => conflict('EMAIL_ALREADY_REGISTERED', CODES.EMAIL_ALREADY_REGISTERED);

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  language?: Language;
}

export interface UpdateMeInput {
  name?: string;
  language_preference?: Language;
  password?: string;
  old_password?: string;
  email?: string;
}

export interface AccountsServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'registrationDomains' | 'secret'>;
  mailer: Mailer;
  hasher: PasswordHasher;
  accessTokens: AccessTokens;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The clock; tests move it to expire tokens. */
  now?: () => Date;
  /** Where work after the answer runs (mail); default: a set of its own. */
  background?: BackgroundWork;
}

/** Creates a user row after the checks every way of creating an account shares. */
async function insertNewUser(
  db: Db,
  hasher: PasswordHasher,
  input: { name: string; email: string; password: string; language: Language; verified: boolean },
  now: string,
  afterInsert?: (trx: repo.Executor, user: repo.UserRow) => Promise<void>,
): Promise<repo.UserRow> {
  // The HTTP layer refuses U+0000 already; the command line comes here directly (decisions.md "No NUL characters").
  refuseNul(input);
  if (await repo.findUserByEmail(db, input.email)) throw emailTaken();
  const password_hash = await hasher.hash(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await repo.insertUser(trx, {
        email: input.email,
        name: input.name,
        password_hash,
        is_verified: input.verified ? 1 : 0,
        language_preference: input.language,
        created_at: now,
        updated_at: now,
      });
      await afterInsert?.(trx, user);
      return user;
    });
  } catch (err) {
    // Two registrations of one address at the same moment: the database's unique index decides.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

export class AccountsService {
  private readonly db: Db;
  private readonly now: () => Date;
  /** Work done after the answer went out (so answer times do not reveal whether an address exists). */
  private readonly background: BackgroundWork;
  private readonly refreshChain: RefreshTokenChain;

  constructor(private readonly deps: AccountsServiceDeps) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
    this.background = deps.background ?? new BackgroundWork();
    this.refreshChain = new RefreshTokenChain(deps.config.secret);
  }

  private nowIso(): string {
    return this.now().toISOString();
  }

  private inFuture(ms: number): string {
    return new Date(this.now().getTime() + ms).toISOString();
  }

  private link(path: string, token?: string): string {
    return `${this.deps.config.publicUrl}${path}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  }

  private message(user: repo.UserRow, content: MailContent): MailMessage {
    return { to: user.email, ...content };
  }

  /** Sends now and waits; false (and a logged error) when the mail could not be handed over. */
  private async sendNow(message: MailMessage): Promise<boolean> {
    try {
      await this.deps.mailer.send(message);
      return true;
    } catch (err) {
      this.deps.log.error({ err, to: message.to, kind: message.kind }, 'sending mail failed');
      return false;
    }
  }

  /**
   * Runs the whole of an address's mail work after the answer: looking the account up, issuing its token and
   * sending. The answer is the same, after the same work, whether or not the address has an account (decisions.md
   * "Unknown accounts cost the same time"); failures are logged.
   */
  private afterAnswer(kind: string, task: () => Promise<void>): void {
    this.background.run(task, (err) => this.deps.log.error({ err, kind }, 'mail work after the answer failed'));
  }

  /** Waits for mails still being sent (on shutdown, and in tests). */
  async drain(): Promise<void> {
    await this.background.drain();
  }

  /** Issues a new mail token of `kind`, spending the user's older ones, inside the caller's transaction. */
  private async newEmailToken(trx: repo.Executor, userId: number, kind: repo.EmailTokenKind, ttlMs: number): Promise<string> {
    const token = generateOpaqueToken();
    const now = this.nowIso();
    await repo.invalidateEmailTokens(trx, userId, kind, now);
    await repo.insertEmailToken(trx, { userId, kind, tokenHash: hashToken(token), createdAt: now, expiresAt: this.inFuture(ttlMs) });
    return token;
  }

  /**
   * The stored mail token of `kind` that `token` names, when it can still be used; else the 400 the token
   * screens expect (INVALID_TOKEN for unknown or spent, TOKEN_EXPIRED for expired).
   */
  private async usableEmailToken(kind: repo.EmailTokenKind, token: string | undefined): Promise<repo.EmailTokenRow> {
    if (!token) throw statusError('INVALID_TOKEN');
    const row = await repo.findEmailToken(this.db, kind, hashToken(token));
    if (!row || row.used_at !== null) throw statusError('INVALID_TOKEN');
    if (row.expires_at <= this.nowIso()) throw statusError('TOKEN_EXPIRED');
    return row;
  }

  /** Spends a mail token inside the caller's transaction; a concurrent use that got there first makes it invalid. */
  private async spendEmailToken(trx: repo.Executor, row: repo.EmailTokenRow, now: string): Promise<void> {
    if (!(await repo.markEmailTokenUsed(trx, row.user_id, row.id, now))) throw statusError('INVALID_TOKEN');
  }

  /**
   * A new refresh token and a fresh access token: a random token in a new family (a new sign-in), or, for a
   * rotation, the successor of the spent token in its family.
   */
  private async newSession(trx: repo.Executor, userId: number, rotation?: { familyId: string; spent: string }): Promise<RefreshResponse> {
    const familyId = rotation?.familyId ?? generateFamilyId();
    const refresh = rotation ? this.refreshChain.successor(rotation.spent) : generateOpaqueToken();
    await repo.insertRefreshToken(trx, {
      userId,
      familyId,
      tokenHash: hashToken(refresh),
      createdAt: this.nowIso(),
      expiresAt: this.inFuture(REFRESH_TOKEN_TTL_DAYS * DAY_MS),
    });
    const epoch = (await repo.userSessionEpoch(trx, userId)) ?? 0;
    return { access_token: await this.deps.accessTokens.sign(userId, epoch), refresh_token: refresh };
  }

  private async requireUserRow(userId: number): Promise<repo.UserRow> {
    const user = await repo.findUserById(this.db, userId);
    if (!user) throw unauthorized('USER_NOT_FOUND', CODES.USER_NOT_FOUND);
    return user;
  }

  // ---- registration and verification ----

  async register(input: RegisterInput): Promise<{ user: User; email_sent: boolean }> {
    const name = validName(input.name);
    const email = validNewEmail(input.email);
    checkNewPassword(input.password);
    const domains = this.deps.config.registrationDomains;
    if (domains.length > 0 && !domains.includes(email.slice(email.lastIndexOf('@') + 1))) {
      throw forbidden('REGISTRATION_DOMAIN_NOT_ALLOWED', CODES.REGISTRATION_DOMAIN_NOT_ALLOWED);
    }
    let token = '';
    const user = await insertNewUser(
      this.db,
      this.deps.hasher,
      { name, email, password: input.password, language: input.language ?? 'de', verified: false },
      this.nowIso(),
      async (trx, row) => {
        token = await this.newEmailToken(trx, row.id, 'verify', VERIFICATION_TOKEN_TTL_HOURS * HOUR_MS);
      },
    );
    // Registration already says whether the address was free, so the answer may wait for the mail.
    const email_sent = await this.sendNow(this.message(user, verificationMail(this.lang(user), user.name, this.link('/verify-email', token))));
    return { user: presentUser(user), email_sent };
  }

  private lang(user: repo.UserRow): Language {
    return user.language_preference === 'en' ? 'en' : 'de';
  }

  async verifyEmail(token: string | undefined): Promise<StatusResponse> {
    const row = await this.usableEmailToken('verify', token);
    const now = this.nowIso();
    await this.db.transaction().execute(async (trx) => {
      await this.spendEmailToken(trx, row, now);
      await repo.updateUser(trx, row.user_id, { is_verified: 1, updated_at: now });
    });
    return success('EMAIL_VERIFIED');
  }

  /** Same answer whether the address is unknown, unconfirmed or confirmed (no account enumeration). */
  async resendVerification(rawEmail: string): Promise<StatusResponse> {
    const email = normalizeEmail(rawEmail);
    if (isValidEmail(email)) this.afterAnswer('verification', () => this.mailVerification(email));
    return success('VERIFICATION_EMAIL_SENT');
  }

  private async mailVerification(email: string): Promise<void> {
    const user = await repo.findUserByEmail(this.db, email);
    if (!user) return;
    if (user.is_verified === 1) {
      await this.sendNow(this.message(user, alreadyVerifiedMail(this.lang(user), user.name, this.link('/login'))));
      return;
    }
    const token = await this.db
      .transaction()
      .execute((trx) => this.newEmailToken(trx, user.id, 'verify', VERIFICATION_TOKEN_TTL_HOURS * HOUR_MS));
    await this.sendNow(this.message(user, verificationMail(this.lang(user), user.name, this.link('/verify-email', token))));
  }

  // ---- sessions ----

  async login(rawEmail: string, password: string): Promise<LoginResponse> {
    const email = normalizeEmail(rawEmail);
    const user = await repo.findUserByEmail(this.db, email);
    const ok = user ? await this.deps.hasher.verify(user.password_hash, password) : await this.deps.hasher.verifyAgainstDummy(password);
    if (!user || !ok) throw unauthorized('AUTH_401_1', CODES.AUTH_401_1);
    // Only someone who knows the password learns that the address is unconfirmed.
    if (user.is_verified !== 1) throw forbidden('AUTH_403_1', CODES.AUTH_403_1);
    const session = await this.newSession(this.db, user.id);
    return { user: presentUser(user), ...session };
  }

  /**
   * Exchanges a refresh token for a new pair. The old token is spent by one conditional UPDATE, so of two
   * concurrent exchanges exactly one rotates. The same token presented again within REFRESH_REUSE_GRACE_SECONDS
   * (a retry after a lost answer, the loser of such a race) gets the same rotation again: the same new refresh
   * token and a fresh access token, as long as that new token is still unused. Any other reuse (later, or after
   * the new token was used) is taken for a stolen copy and revokes the token's whole family: everyone holding a
   * token of that sign-in must sign in again (decisions.md "Refresh-token grace window").
   */
  async refresh(token: string | null): Promise<RefreshResponse> {
    const invalid = () => unauthorized('INVALID_REFRESH_TOKEN', CODES.INVALID_REFRESH_TOKEN);
    if (!token) throw invalid();
    const tokenHash = hashToken(token);
    const now = this.nowIso();
    const session = await this.db.transaction().execute(async (trx) => {
      const spent = await repo.markRefreshTokenUsed(trx, tokenHash, now);
      return spent ? this.newSession(trx, spent.user_id, { familyId: spent.family_id, spent: token }) : null;
    });
    if (session) return session;
    const row = await repo.findRefreshToken(this.db, tokenHash);
    if (row && row.used_at !== null && row.revoked_at === null) {
      const again = await this.sameRotation(row, token, now);
      if (again) return again;
      const revoked = await repo.revokeRefreshFamily(this.db, row.user_id, row.family_id, now);
      this.deps.log.warn({ userId: row.user_id, revoked }, 'a spent refresh token was presented again; its sign-in was revoked');
    }
    throw invalid();
  }

  /** The answer of `row`'s rotation once more, when it was spent within the grace window and its successor is unused. */
  private async sameRotation(row: repo.RefreshTokenRow, token: string, now: string): Promise<RefreshResponse | null> {
    if (Date.parse(now) - Date.parse(row.used_at!) > REFRESH_REUSE_GRACE_SECONDS * 1000) return null;
    const successor = this.refreshChain.successor(token);
    const next = await repo.findRefreshToken(this.db, hashToken(successor));
    if (!next || next.user_id !== row.user_id || next.family_id !== row.family_id) return null;
    if (next.used_at !== null || next.revoked_at !== null || next.expires_at <= now) return null;
    const epoch = (await repo.userSessionEpoch(this.db, row.user_id)) ?? 0;
    return { access_token: await this.deps.accessTokens.sign(row.user_id, epoch), refresh_token: successor };
  }

  /** Ends one sign-in (the refresh token's family). Unknown tokens are ignored: logging out always works. */
  async logout(token: string | null): Promise<void> {
    if (!token) return;
    const row = await repo.findRefreshToken(this.db, hashToken(token));
    if (row) await repo.revokeRefreshFamily(this.db, row.user_id, row.family_id, this.nowIso());
  }

  // ---- profile ----

  async me(userId: number): Promise<User> {
    return presentUser(await this.requireUserRow(userId));
  }

  async updateMe(userId: number, input: UpdateMeInput): Promise<UpdateMeResponse> {
    const user = await this.requireUserRow(userId);
    if (input.email !== undefined && normalizeEmail(input.email) !== user.email) {
      throw badRequest('VALIDATION_ERROR', 'The e-mail address cannot be changed.');
    }
    const patch: { name?: string; language_preference?: Language; password_hash?: string } = {};
    if (input.name !== undefined) patch.name = validName(input.name);
    if (input.language_preference !== undefined) patch.language_preference = input.language_preference;
    const changesPassword = input.password !== undefined;
    if (changesPassword) {
      checkNewPassword(input.password!);
      if (!input.old_password || !(await this.deps.hasher.verify(user.password_hash, input.old_password))) {
        throw badRequest('INVALID_CURRENT_PASSWORD', CODES.INVALID_CURRENT_PASSWORD);
      }
      patch.password_hash = await this.deps.hasher.hash(input.password!);
    }
    if (Object.keys(patch).length === 0) {
      throw badRequest('VALIDATION_ERROR', 'Nothing to update: send name, language_preference, or password with old_password.');
    }
    const now = this.nowIso();
    return this.db.transaction().execute(async (trx) => {
      const updated = await repo.updateUser(trx, userId, { ...patch, updated_at: now });
      if (!updated) throw unauthorized('USER_NOT_FOUND', CODES.USER_NOT_FOUND);
      if (!changesPassword) return { user: presentUser(updated), message: CODES.PROFILE_UPDATED, code: 'PROFILE_UPDATED' as const };
      // A new password ends every sign-in, this one included; this session continues with a fresh pair.
      await repo.revokeAllRefreshTokens(trx, userId, now);
      const session = await this.newSession(trx, userId);
      return { user: presentUser(updated), message: CODES.PASSWORD_UPDATED, code: 'PASSWORD_UPDATED' as const, ...session };
    });
  }

  async verifyPassword(userId: number, password: string): Promise<{ valid: boolean }> {
    const user = await this.requireUserRow(userId);
    return { valid: await this.deps.hasher.verify(user.password_hash, password) };
  }

  async updateLanguage(userId: number, language: Language): Promise<User> {
    const updated = await repo.updateUser(this.db, userId, { language_preference: language, updated_at: this.nowIso() });
    if (!updated) throw unauthorized('USER_NOT_FOUND', CODES.USER_NOT_FOUND);
    return presentUser(updated);
  }

  // ---- password recovery ----

  /** Same answer whether or not the address has an account (decisions.md: no account enumeration). */
  async forgotPassword(rawEmail: string): Promise<StatusResponse> {
    const email = normalizeEmail(rawEmail);
    if (isValidEmail(email)) this.afterAnswer('password-reset', () => this.mailResetLink(email));
    return success('PASSWORD_RESET_MAIL_SENT');
  }

  private async mailResetLink(email: string): Promise<void> {
    const user = await repo.findUserByEmail(this.db, email);
    if (!user) return;
    const token = await this.db.transaction().execute((trx) => this.newEmailToken(trx, user.id, 'reset', RESET_TOKEN_TTL_HOURS * HOUR_MS));
    await this.sendNow(this.message(user, passwordResetMail(this.lang(user), user.name, this.link('/reset-password', token))));
  }

  /** Sets a new password with a reset token; also confirms the address (the mail proved it) and ends every sign-in. */
  async resetPassword(token: string | undefined, password: string): Promise<StatusResponse> {
    const row = await this.usableEmailToken('reset', token);
    checkNewPassword(password, { status: 'error' });
    const password_hash = await this.deps.hasher.hash(password);
    const now = this.nowIso();
    await this.db.transaction().execute(async (trx) => {
      await this.spendEmailToken(trx, row, now);
      await repo.updateUser(trx, row.user_id, { password_hash, is_verified: 1, updated_at: now });
      await repo.revokeAllRefreshTokens(trx, row.user_id, now);
    });
    return success('PASSWORD_RESET_SUCCESS');
  }

  publicConfig(): PublicConfig {
    const domains = [...this.deps.config.registrationDomains];
    return { registration_email_domains: domains, registration_restricted: domains.length > 0 };
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
export async function createUserFromCli(
  db: Db,
  input: CliUserInput,
  options: { hashing?: PasswordHashingOptions; now?: () => Date } = {},
): Promise<User> {
  try {
    const name = validName(input.name);
    const email = validNewEmail(input.email);
    checkNewPassword(input.password);
    const now = (options.now?.() ?? new Date()).toISOString();
    const row = await insertNewUser(db, new PasswordHasher(options.hashing), { name, email, password: input.password, language: input.language, verified: input.verified }, now);
    return presentUser(row);
  } catch (err) {
    if (err instanceof AppError && err.code === 'EMAIL_ALREADY_REGISTERED') {
      throw new Error(`An account with the e-mail address ${normalizeEmail(input.email)} already exists.`);
    }
    if (err instanceof AppError) throw new Error(err.message);
    throw err;
  }
}
