import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createTestApp, uniqueEmail, type TestApp } from '../test/test-app.js';
import { createMailer, OutboxMailer, SmtpMailer } from './mailer.js';
import { alreadyVerifiedMail, passwordResetMail, verificationMail } from './templates.js';

describe('mail templates', () => {
  it('are written in the recipient’s language, escape the name in HTML and carry the link in both parts', () => {
    const link = 'http://feeder.test/verify-email?token=abc';
    for (const make of [verificationMail, alreadyVerifiedMail, passwordResetMail]) {
      const de = make('de', '<b>Jörg</b>', link);
      const en = make('en', '<b>Jörg</b>', link);
      expect(de.subject).not.toBe(en.subject);
      expect(de.subject + en.subject).toMatch(/Feeder.*Feeder/);
      expect(de.text).toContain('Hallo <b>Jörg</b>');
      expect(en.text).toContain('Hello <b>Jörg</b>');
      for (const m of [de, en]) {
        expect(m.text).toContain(link);
        expect(m.html).toContain(`href="${link}"`);
        expect(m.html).toContain('&lt;b&gt;Jörg&lt;/b&gt;');
        expect(m.html).not.toContain('<b>Jörg');
      }
    }
  });

  it('keeps a name with line breaks on one line', () => {
    expect(verificationMail('en', 'Eve\r\nBcc: x@evil.test', 'http://x/').text.split('\n')[0]).toBe('Hello Eve Bcc: x@evil.test,');
  });
});

describe('outbox mailer (no SMTP_URL)', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ innerMailer: undefined });
  });
  afterAll(() => t.close());

  it('is what the configuration gives without SMTP_URL', () => {
    expect(createMailer(t.config, () => {})).toBeInstanceOf(OutboxMailer);
    const smtpConfig = loadConfig({ DATA_DIR: t.dataDir, SMTP_URL: 'smtp://127.0.0.1:2525' });
    expect(createMailer(smtpConfig, () => {})).toBeInstanceOf(SmtpMailer);
    expect(() => loadConfig({ DATA_DIR: t.dataDir, SMTP_URL: 'mail.example.com:25' })).toThrow(ConfigError);
  });

  it('writes each mail as an .eml file in DATA_DIR/outbox and logs its link', async () => {
    const outbox = createMailer(t.config, (line) => lines.push(line)) as OutboxMailer;
    const app = await createTestApp({ database: t.database, innerMailer: outbox, env: { DATA_DIR: t.dataDir } });
    try {
      const email = uniqueEmail('Outbox');
      const res = await app.app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Otto Outbox', email, password: 'password123', language: 'de' } });
      expect(res.statusCode).toBe(201);
      expect(res.json().email_sent).toBe(true);
      await app.mailer.settle();

      const dir = join(t.dataDir, 'outbox');
      expect(outbox.dir).toBe(dir);
      const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      // It holds a sign-in link: readable by the owner only.
      expect(statSync(join(dir, files[0])).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o077).toBe(0);
      const raw = readFileSync(join(dir, files[0]), 'utf8');
      const parsed = await simpleParser(raw);
      expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0].address : null).toBe(email.toLowerCase());
      expect(parsed.subject).toBe('Bitte bestätige deine E-Mail-Adresse für Feeder');
      const token = await app.mailer.lastToken(email.toLowerCase(), 'verification');
      expect(parsed.text).toContain(`http://feeder.test/verify-email?token=${token}`);
      // The raw file keeps the link findable (quoted-printable, never base64), as the browser tests read it.
      expect(raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=')).toContain(`verify-email?token=${token}`);

      expect(lines).toEqual([`[mail] verification link for ${email.toLowerCase()}: http://feeder.test/verify-email?token=${token}`]);
    } finally {
      await app.close();
    }
  });
});

describe('SMTP mailer (SMTP_URL) against a real SMTP sink', () => {
  let server: SMTPServer;
  let port: number;
  const received: Array<{ envelopeTo: string[]; mail: ParsedMail }> = [];
  let t: TestApp;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
    const env = { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Feeder <noreply@feeder.test>' };
    const probe = await createTestApp({ env });
    const smtp = createMailer(probe.config, () => {});
    await probe.close();
    expect(smtp).toBeInstanceOf(SmtpMailer);
    t = await createTestApp({ env, innerMailer: smtp });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const mailFor = async (to: string) => {
    await t.mailer.settle();
    const hit = received.filter((r) => r.envelopeTo.includes(to)).at(-1);
    if (!hit) throw new Error(`no mail to ${to}`);
    return hit.mail;
  };

  it('delivers the verification mail in English with the verification link', async () => {
    const email = uniqueEmail('smtp-en');
    const res = await t.app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'Sam', email, password: 'password123', language: 'en' } });
    expect(res.json().email_sent).toBe(true);
    const mail = await mailFor(email);
    expect(mail.from?.value[0].address).toBe('noreply@feeder.test');
    expect(mail.subject).toBe('Confirm your e-mail address for Feeder');
    const token = await t.mailer.lastToken(email, 'verification');
    expect(mail.text).toContain(`http://feeder.test/verify-email?token=${token}`);
    expect(mail.html).toContain(`href="http://feeder.test/verify-email?token=${token}"`);
    // The link from the mail confirms the account.
    expect((await t.app.inject({ method: 'GET', url: `/auth/verify-email?token=${token}` })).statusCode).toBe(200);
  });

  it('delivers the password reset mail in German with the reset link', async () => {
    const { email } = await t.createUser({ language: 'de', name: 'Grete' });
    await t.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
    const mail = await mailFor(email);
    expect(mail.subject).toBe('Passwort für Feeder zurücksetzen');
    expect(mail.text).toContain('Hallo Grete');
    const token = await t.mailer.lastToken(email, 'password-reset');
    expect(mail.text).toContain(`http://feeder.test/reset-password?token=${token}`);
  });

  it('reports email_sent: false when the SMTP server refuses, and keeps the account', async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(new Error('mailbox unavailable'));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const refusingPort = (refusing.server.address() as AddressInfo).port;
    const app = await createTestApp({ database: t.database, innerMailer: new SmtpMailer(`smtp://127.0.0.1:${refusingPort}`, 'Feeder <noreply@feeder.test>') });
    try {
      const email = uniqueEmail('refused');
      const res = await app.app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'R', email, password: 'password123' } });
      expect(res.statusCode).toBe(201);
      expect(res.json().email_sent).toBe(false);
      expect((await app.app.inject({ method: 'POST', url: '/auth/register', payload: { name: 'R', email, password: 'password123' } })).statusCode).toBe(409);
    } finally {
      await app.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
