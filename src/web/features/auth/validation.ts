import { MIN_PASSWORD_LENGTH } from '../../../common/limits.js';

/**
 * Client-side checks of the account forms (public-area-and-api.md §5). Each returns translation keys per field;
 * an empty object means the form may be sent. The server checks the same rules again.
 */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

// Deliberately loose: one @, something on both sides, no spaces. The server has the final word.
const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

export function emailError(email: string): string | undefined {
  const value = email.trim();
  if (!value) return 'auth.fieldRequired';
  if (!EMAIL_RE.test(value)) return 'auth.errorCodes.INVALID_EMAIL';
  return undefined;
}

function compact<F extends string>(errors: Record<F, string | undefined>): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const [field, key] of Object.entries(errors) as [F, string | undefined][]) if (key) out[field] = key;
  return out;
}

export function validateLogin(v: { email: string; password: string }): FieldErrors<'email' | 'password'> {
  return compact({ email: emailError(v.email), password: v.password ? undefined : 'auth.fieldRequired' });
}

export function validateEmailOnly(v: { email: string }): FieldErrors<'email'> {
  return compact({ email: emailError(v.email) });
}

/** Password and confirmation: both required, at least MIN_PASSWORD_LENGTH, equal (§5, reset and registration). */
export function validatePasswords(v: { password: string; confirm: string }): FieldErrors<'password' | 'confirm'> {
  let password: string | undefined;
  let confirm: string | undefined;
  if (!v.password) password = 'auth.fieldRequired';
  else if (v.password.length < MIN_PASSWORD_LENGTH) password = 'auth.passwordTooShort';
  if (!v.confirm) confirm = 'auth.fieldRequired';
  else if (v.password && v.confirm !== v.password) confirm = 'auth.passwordsDontMatch';
  return compact({ password, confirm });
}

export const validateReset = validatePasswords;

/** Domain part of an address, lower-cased ('' when there is none). */
export function emailDomain(email: string): string {
  const at = email.trim().lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .trim()
        .slice(at + 1)
        .toLowerCase();
}

/**
 * Whether the address may register: with a configured domain list (GET /api/config, decisions.md) the domain
 * must be one of them; an empty list means registration is open.
 */
export function domainAllowed(email: string, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  const domain = emailDomain(email);
  return allowedDomains.some((d) => d.trim().toLowerCase().replace(/^@/, '') === domain);
}

export type RegisterField = 'name' | 'email' | 'password' | 'confirm';

export interface RegisterValidation {
  errors: FieldErrors<RegisterField>;
  /** The address is well-formed but its domain may not register: show the registration-closed message. */
  domainClosed: boolean;
}

export function validateRegister(v: { name: string; email: string; password: string; confirm: string }, allowedDomains: readonly string[]): RegisterValidation {
  const errors: FieldErrors<RegisterField> = {
    ...compact({ name: v.name.trim() ? undefined : 'auth.fieldRequired', email: emailError(v.email) }),
    ...validatePasswords(v),
  };
  const domainClosed = !errors.email && !domainAllowed(v.email, allowedDomains);
  return { errors, domainClosed };
}
