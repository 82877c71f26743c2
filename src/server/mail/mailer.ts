import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Config } from '../config.js';

/**
 * nodemailer is loaded when a mail transport is first needed, not at startup: without SMTP_URL most processes
 * never send a mail, and bench/README.md "Budgets" caps `feeder all` at 150 MB. It is CommonJS, so it is required synchronously.
 */
const require = createRequire(import.meta.url);
const loadNodemailer = (): typeof import('nodemailer') => require('nodemailer');

/**
 * How Feeder sends mail (docs/ARCHITECTURE.md "Shape of the system"): over SMTP when SMTP_URL is set, otherwise as .eml files in
 * DATA_DIR/outbox with a log line carrying the link, so someone running `npm start` without a mail server can still
 * confirm an account (decisions.md "Product and accounts").
 */
export type MailKind = 'verification' | 'already-verified' | 'password-reset';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: MailKind;
  /** The link the mail carries; only the outbox mailer logs it. */
  link: string;
}

export interface Mailer {
  /** Resolves once the mail is handed over (written, or accepted by the SMTP server); rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

const LOG_LABEL: Record<MailKind, string> = {
  verification: 'verification link',
  'already-verified': 'sign-in link (account already confirmed)',
  'password-reset': 'password reset link',
};

function toNodemailer(from: string, message: MailMessage): SendMailOptions {
  return {
    from,
    // An address object, not a string: nodemailer then never parses the address as a list.
    to: { name: '', address: message.to },
    subject: message.subject,
    text: message.text,
    html: message.html,
    // Quoted-printable keeps links readable in the raw mail (tests and people grep the outbox for them).
    textEncoding: 'quoted-printable',
  };
}

/**
 * Nodemailer waits up to two minutes for an unresponsive server by default; registration waits for its mail, so
 * shorter limits apply unless SMTP_URL sets its own (`?connectionTimeout=…`).
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, value] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = loadNodemailer().createTransport(withTimeouts(smtpUrl));
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(toNodemailer(this.from, message));
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

export class OutboxMailer implements Mailer {
  /** nodemailer only builds the .eml here; created on the first mail (see loadNodemailer). */
  private transport: Transporter | null = null;

  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly log: (line: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.transport ??= loadNodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const info = (await this.transport.sendMail(toNodemailer(this.from, message))) as { message: Buffer };
    // The outbox holds sign-in and reset links: the owner's only, like the database (decisions.md "Data files are
    // the owner's only").
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(this.dir, `${stamp}-${message.kind}-${randomBytes(4).toString('hex')}.eml`);
    // Write then rename, so whoever watches the folder never reads half a mail.
    await writeFile(`${file}.tmp`, info.message, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    this.log(`[mail] ${LOG_LABEL[message.kind]} for ${message.to}: ${message.link}`);
  }

  async close(): Promise<void> {}
}

/** The mailer the configuration asks for. `log` receives the outbox's link lines. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, log: (line: string) => void): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  return new OutboxMailer(join(config.dataDir, 'outbox'), config.mailFrom, log);
}
