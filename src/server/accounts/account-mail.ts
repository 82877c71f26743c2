import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '../../common/constants.js';
import type { BackgroundWork } from '../background.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import type { MailContent } from '../mail/templates.js';
import { statusError } from './account-rules.js';
import * as repo from './accounts.repository.js';
import { generateOpaqueToken, hashToken } from './tokens.js';

/**
 * The mails of registration and password recovery and the one-time tokens they carry (public-area-and-api.md §4:
 * verification and reset links): issuing, checking and spending a token, building links, and sending, either
 * while the caller waits or after the answer went out.
 */
export interface AccountMailDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, 'error'>;
  now: () => Date;
  /** Work done after the answer went out (so answer times do not reveal whether an address exists). */
  background: BackgroundWork;
}

export class AccountMail {
  constructor(private readonly deps: AccountMailDeps) {}

  link(path: string, token?: string): string {
    return `${this.deps.config.publicUrl}${path}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  }

  message(user: repo.UserRow, content: MailContent): MailMessage {
    return { to: user.email, ...content };
  }

  lang(user: repo.UserRow): Language {
    return user.language_preference === 'en' ? 'en' : 'de';
  }

  /** Sends now and waits; false (and a logged error) when the mail could not be handed over. */
  async sendNow(message: MailMessage): Promise<boolean> {
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
  afterAnswer(kind: string, task: () => Promise<void>): void {
    this.deps.background.run(task, (err) => this.deps.log.error({ err, kind }, 'mail work after the answer failed'));
  }

  /** Waits for mails still being sent (on shutdown, and in tests). */
  async drain(): Promise<void> {
    await this.deps.background.drain();
  }

  /** Issues a new mail token of `kind`, spending the user's older ones, inside the caller's transaction. */
  async newToken(trx: repo.Executor, userId: number, kind: repo.EmailTokenKind, ttlMs: number): Promise<string> {
    const token = generateOpaqueToken();
    const now = this.deps.now().toISOString();
    await repo.invalidateEmailTokens(trx, userId, kind, now);
    const expiresAt = new Date(this.deps.now().getTime() + ttlMs).toISOString();
    await repo.insertEmailToken(trx, { userId, kind, tokenHash: hashToken(token), createdAt: now, expiresAt });
    return token;
  }

  /**
   * The stored mail token of `kind` that `token` names, when it can still be used; else the 400 the token
   * screens expect (INVALID_TOKEN for unknown or spent, TOKEN_EXPIRED for expired).
   */
  async usableToken(kind: repo.EmailTokenKind, token: string | undefined): Promise<repo.EmailTokenRow> {
    if (!token) throw statusError('INVALID_TOKEN');
    const row = await repo.findEmailToken(this.deps.db, kind, hashToken(token));
    if (!row || row.used_at !== null) throw statusError('INVALID_TOKEN');
    if (row.expires_at <= this.deps.now().toISOString()) throw statusError('TOKEN_EXPIRED');
    return row;
  }

  /** Spends a mail token inside the caller's transaction; a concurrent use that got there first makes it invalid. */
  async spendToken(trx: repo.Executor, row: repo.EmailTokenRow, now: string): Promise<void> {
    if (!(await repo.markEmailTokenUsed(trx, row.user_id, row.id, now))) throw statusError('INVALID_TOKEN');
  }
}
