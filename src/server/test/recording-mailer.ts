import type { Mailer, MailKind, MailMessage } from '../mail/mailer.js';

/**
 * A Mailer for tests: keeps every mail in `sent` (and hands it on to `inner`, e.g. an OutboxMailer or an
 * SmtpMailer, when given). `failing = true` makes sending fail, as an unreachable SMTP server would.
 */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failing = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly inner?: Mailer,
    /** The app's work after answers, which may still be on its way to sending a mail. */
    private readonly background?: { drain(): Promise<void> },
  ) {}

  send(message: MailMessage): Promise<void> {
    const p = (async () => {
      if (this.failing) throw new Error('mail server unreachable (test)');
      this.sent.push(message);
      await this.inner?.send(message);
    })();
    this.inFlight.add(p);
    void p.catch(() => {}).finally(() => this.inFlight.delete(p));
    return p;
  }

  /** Waits until the app's work after answers is done and every mail it started is handed over. */
  async settle(): Promise<void> {
    await this.background?.drain();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Mails to `to` (any case), optionally of one kind, oldest first; waits for mails in flight first. */
  async mailsTo(to: string, kind?: MailKind): Promise<MailMessage[]> {
    await this.settle();
    return this.sent.filter((m) => m.to.toLowerCase() === to.toLowerCase() && (!kind || m.kind === kind));
  }

  /** The newest mail to `to` of `kind`; throws when there is none. */
  async lastMail(to: string, kind?: MailKind): Promise<MailMessage> {
    const mails = await this.mailsTo(to, kind);
    const mail = mails.at(-1);
    if (!mail) throw new Error(`no ${kind ?? ''} mail to ${to}`);
    return mail;
  }

  /** The token of the newest mail's link (`…?token=…`). */
  async lastToken(to: string, kind: 'verification' | 'password-reset'): Promise<string> {
    const mail = await this.lastMail(to, kind);
    const token = new URL(mail.link).searchParams.get('token');
    if (!token) throw new Error(`the ${kind} mail to ${to} has no token`);
    return token;
  }

  async close(): Promise<void> {
    await this.settle();
    await this.inner?.close();
  }
}
