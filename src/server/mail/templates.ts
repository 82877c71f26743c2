import { RESET_TOKEN_TTL_HOURS, VERIFICATION_TOKEN_TTL_HOURS, type Language } from '../../common/constants.js';
import type { MailKind } from './mailer.js';

/**
 * Feeder's mails, in German and English (the recipient's language_preference), as plain text and simple HTML.
 * Links are absolute, built from PUBLIC_URL by the caller.
 */
export interface MailContent {
  kind: MailKind;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about (logged by the outbox mailer so `npm start` users can follow it). */
  link: string;
}

const PRODUCT = 'Feeder';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Names are user input: keep them on one line in the text part. */
// eslint-disable-next-line no-control-regex -- deliberate: C0 controls and DEL are what must not reach the mail text
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

interface Parts {
  greeting: string;
  paragraphs: string[];
  action: string;
  after: string[];
}

function render(kind: MailKind, subject: string, link: string, parts: Parts): MailContent {
  const text = [parts.greeting, '', ...parts.paragraphs.flatMap((p) => [p, '']), `${parts.action}:`, link, '', ...parts.after.flatMap((p) => [p, '']), `— ${PRODUCT}`]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const href = escapeHtml(link);
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f7f6f3;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1c1917;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<p style="margin:0 0 24px;font-size:20px;font-weight:600">${PRODUCT}</p>
${p(parts.greeting)}
${parts.paragraphs.map(p).join('\n')}
<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#c2410c;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px">${escapeHtml(parts.action)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#57534e;word-break:break-all">${href}</p>
${parts.after.map(p).join('\n')}
</div>
</body></html>`;
  return { kind, subject, text, html, link };
}

export function verificationMail(language: Language, name: string, link: string): MailContent {
  const who = oneLine(name);
  if (language === 'de') {
    return render('verification', `Bitte bestätige deine E-Mail-Adresse für ${PRODUCT}`, link, {
      greeting: `Hallo ${who},`,
      paragraphs: [`willkommen bei ${PRODUCT}! Bitte bestätige deine E-Mail-Adresse, damit du dich anmelden kannst.`],
      action: 'E-Mail-Adresse bestätigen',
      after: [
        `Der Link ist ${VERIFICATION_TOKEN_TTL_HOURS} Stunden gültig und funktioniert einmal. Wenn du dich nicht registriert hast, ignoriere diese E-Mail einfach.`,
      ],
    });
  }
  return render('verification', `Confirm your e-mail address for ${PRODUCT}`, link, {
    greeting: `Hello ${who},`,
    paragraphs: [`welcome to ${PRODUCT}! Please confirm your e-mail address so you can sign in.`],
    action: 'Confirm e-mail address',
    after: [`The link is valid for ${VERIFICATION_TOKEN_TTL_HOURS} hours and works once. If you did not sign up, simply ignore this mail.`],
  });
}

export function alreadyVerifiedMail(language: Language, name: string, link: string): MailContent {
  const who = oneLine(name);
  if (language === 'de') {
    return render('already-verified', `Dein ${PRODUCT}-Konto ist bereits bestätigt`, link, {
      greeting: `Hallo ${who},`,
      paragraphs: [`jemand hat eine neue Bestätigungs-E-Mail für dieses Konto angefordert. Deine E-Mail-Adresse ist bereits bestätigt – du kannst dich direkt anmelden.`],
      action: 'Anmelden',
      after: ['Wenn du dein Passwort vergessen hast, kannst du es auf der Anmeldeseite zurücksetzen.'],
    });
  }
  return render('already-verified', `Your ${PRODUCT} account is already confirmed`, link, {
    greeting: `Hello ${who},`,
    paragraphs: ['Someone asked for a new confirmation mail for this account. Your e-mail address is already confirmed, so you can sign in right away.'],
    action: 'Sign in',
    after: ['If you forgot your password, you can reset it from the sign-in page.'],
  });
}

export function passwordResetMail(language: Language, name: string, link: string): MailContent {
  const who = oneLine(name);
  if (language === 'de') {
    return render('password-reset', `Passwort für ${PRODUCT} zurücksetzen`, link, {
      greeting: `Hallo ${who},`,
      paragraphs: ['du hast angefordert, dein Passwort zurückzusetzen. Über den folgenden Link kannst du ein neues Passwort festlegen.'],
      action: 'Neues Passwort festlegen',
      after: [
        `Der Link ist ${RESET_TOKEN_TTL_HOURS} Stunde gültig und funktioniert einmal. Wenn du das nicht angefordert hast, ignoriere diese E-Mail – dein Passwort bleibt unverändert.`,
      ],
    });
  }
  return render('password-reset', `Reset your ${PRODUCT} password`, link, {
    greeting: `Hello ${who},`,
    paragraphs: ['You asked to reset your password. Use the link below to choose a new one.'],
    action: 'Choose a new password',
    after: [`The link is valid for ${RESET_TOKEN_TTL_HOURS} hour and works once. If you did not ask for this, ignore this mail; your password stays as it is.`],
  });
}
