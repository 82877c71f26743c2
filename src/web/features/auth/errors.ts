import type { i18n as I18n } from 'i18next';
import { ApiError } from '../../lib/api.js';

/**
 * Error and status texts of the account screens (public-area-and-api.md §8). Every helper returns a translation
 * key, so a message can be stored (the login error survives a reload) and still follows a language switch.
 *
 * Lookup order: the server's code (auth.errorCodes.<CODE>), then a key derived from the HTTP status
 * (auth.errorCodes.AUTH_<status>_<variant>), then the screen's own fallback. Only keys that exist count:
 * an unknown code must not surface as its readable key name.
 */
type Translator = Pick<I18n, 'exists'>;

const codeKey = (code: string) => `auth.errorCodes.${code}`;

export function errorKey(i18n: Translator, err: unknown, fallbackKey: string, variant: 0 | 1 = 0): string {
  if (err instanceof ApiError) {
    if (err.code && i18n.exists(codeKey(err.code))) return codeKey(err.code);
    if (err.status > 0) {
      const byStatus = codeKey(`AUTH_${err.status}_${variant}`);
      if (i18n.exists(byStatus)) return byStatus;
    }
  }
  return fallbackKey;
}

/** Login (§8): code, else AUTH_{status}_1, else the generic login error. */
export const loginErrorKey = (i18n: Translator, err: unknown) => errorKey(i18n, err, 'auth.login.error', 1);

/** The key that means "e-mail not confirmed yet": the screen then offers /resend-verification. */
export const NOT_VERIFIED_KEY = codeKey('AUTH_403_1');

/** Forgot password failures (§8): code, else AUTH_{status}_0, else auth.resetError. */
export const forgotErrorKey = (i18n: Translator, err: unknown) => errorKey(i18n, err, 'auth.resetError');

/** Reset password failures (§8): code, else AUTH_{status}_0, else auth.passwordResetError. */
export const resetErrorKey = (i18n: Translator, err: unknown) => errorKey(i18n, err, 'auth.passwordResetError');

/** Verification failures (§8): code, else the generic verification error. */
export const verifyErrorKey = (i18n: Translator, err: unknown) => errorKey(i18n, err, 'auth.verify.error');

/** Resend failures (§8): code, else AUTH_{status}_0, else the common error. */
export const resendErrorKey = (i18n: Translator, err: unknown) => errorKey(i18n, err, 'common.error');

/** Registration failures (§8): a translated code, else the server's message, else the generic registration error. */
export function registerError(i18n: Translator, err: unknown): { key: string } | { text: string } {
  if (err instanceof ApiError) {
    if (err.code && i18n.exists(codeKey(err.code))) return { key: codeKey(err.code) };
    if (!err.isNetwork && err.message && !err.message.startsWith('HTTP ')) return { text: err.message };
  }
  return { key: 'auth.register.error' };
}

/**
 * A 200 answer of the {status, code} kind (§8): a success code shows its own text when it has one, else the
 * screen's generic success text; a non-success status inside a 200 is the common error.
 */
export function statusResultKey(i18n: Translator, body: { status?: string; code?: string } | null | undefined, successFallbackKey: string): { ok: boolean; key: string } {
  if (!body || body.status !== 'success') return { ok: false, key: 'common.error' };
  if (body.code && i18n.exists(codeKey(body.code))) return { ok: true, key: codeKey(body.code) };
  return { ok: true, key: successFallbackKey };
}

/** Shows a stored login error: a translation key is translated, anything else (older text) is shown as is. */
export function storedMessage(i18n: Translator & Pick<I18n, 't'>, stored: string): string {
  return i18n.exists(stored) ? i18n.t(stored) : stored;
}
