import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '../../i18n/index.js';
import { ApiError } from '../../lib/api.js';
import { forgotErrorKey, loginErrorKey, registerError, resendErrorKey, resetErrorKey, statusResultKey, storedMessage, verifyErrorKey } from './errors.js';

const http = (status: number, code?: string, message = 'Server says no.') => new ApiError(status, code, message);

beforeAll(() => i18n.changeLanguage('en'));

describe('login error (public-area-and-api.md §8)', () => {
  it('looks the code up first', () => {
    expect(loginErrorKey(i18n, http(401, 'AUTH_401_1'))).toBe('auth.errorCodes.AUTH_401_1');
    expect(loginErrorKey(i18n, http(429, 'RATE_LIMITED'))).toBe('auth.errorCodes.RATE_LIMITED');
    expect(i18n.t(loginErrorKey(i18n, http(403, 'AUTH_403_1')))).toMatch(/confirm your e-mail/);
  });

  it('falls back to AUTH_{status}_1 when there is no code or an unknown one', () => {
    expect(loginErrorKey(i18n, http(500))).toBe('auth.errorCodes.AUTH_500_1');
    expect(loginErrorKey(i18n, http(400, 'SOMETHING_NEW'))).toBe('auth.errorCodes.AUTH_400_1');
  });

  it('ends with the generic login error', () => {
    expect(loginErrorKey(i18n, http(418, 'TEAPOT'))).toBe('auth.login.error');
    expect(loginErrorKey(i18n, new Error('boom'))).toBe('auth.login.error');
  });

  it('names a network failure', () => {
    expect(loginErrorKey(i18n, new ApiError(0, 'NETWORK_ERROR', 'No response'))).toBe('auth.errorCodes.NETWORK_ERROR');
  });
});

describe('forgot and reset password errors (§8: code, AUTH_{status}_0, default)', () => {
  it('uses the code, then the _0 status key', () => {
    expect(resetErrorKey(i18n, http(400, 'TOKEN_EXPIRED'))).toBe('auth.errorCodes.TOKEN_EXPIRED');
    expect(resetErrorKey(i18n, http(400, 'PASSWORD_TOO_SHORT'))).toBe('auth.errorCodes.PASSWORD_TOO_SHORT');
    expect(forgotErrorKey(i18n, http(404))).toBe('auth.errorCodes.AUTH_404_0');
    expect(forgotErrorKey(i18n, http(429))).toBe('auth.errorCodes.AUTH_429_0');
  });

  it('falls back to each screen’s own default', () => {
    expect(forgotErrorKey(i18n, http(418, 'UNKNOWN'))).toBe('auth.resetError');
    expect(resetErrorKey(i18n, http(418, 'UNKNOWN'))).toBe('auth.passwordResetError');
    expect(resetErrorKey(i18n, new TypeError('x'))).toBe('auth.passwordResetError');
  });

  it('tells the user what a 429 means', () => {
    expect(i18n.t(forgotErrorKey(i18n, http(429, 'RATE_LIMITED')))).toMatch(/Too many attempts/);
  });
});

describe('verification and resend errors', () => {
  it('maps the server code, else the verification error', () => {
    expect(verifyErrorKey(i18n, http(400, 'INVALID_TOKEN'))).toBe('auth.errorCodes.INVALID_TOKEN');
    expect(verifyErrorKey(i18n, http(418))).toBe('auth.verify.error');
  });

  it('resend: code, then AUTH_{status}_0, then the common error', () => {
    expect(resendErrorKey(i18n, http(400, 'INVALID_EMAIL'))).toBe('auth.errorCodes.INVALID_EMAIL');
    expect(resendErrorKey(i18n, http(500))).toBe('auth.errorCodes.AUTH_500_0');
    expect(resendErrorKey(i18n, http(418))).toBe('common.error');
  });
});

describe('{status, code} answers (§8)', () => {
  it('a success code shows its own text', () => {
    expect(statusResultKey(i18n, { status: 'success', code: 'PASSWORD_RESET_SUCCESS' }, 'auth.reset.success')).toEqual({
      ok: true,
      key: 'auth.errorCodes.PASSWORD_RESET_SUCCESS',
    });
  });
  it('an unknown success code shows the generic success text', () => {
    expect(statusResultKey(i18n, { status: 'success', code: 'NEW_THING' }, 'auth.reset.success')).toEqual({ ok: true, key: 'auth.reset.success' });
    expect(statusResultKey(i18n, { status: 'success' }, 'auth.forgot.success')).toEqual({ ok: true, key: 'auth.forgot.success' });
  });
  it('a non-success status inside a 200 is the common error', () => {
    expect(statusResultKey(i18n, { status: 'error', code: 'PASSWORD_RESET_SUCCESS' }, 'x')).toEqual({ ok: false, key: 'common.error' });
    expect(statusResultKey(i18n, undefined, 'x')).toEqual({ ok: false, key: 'common.error' });
  });
});

describe('registration error (§8: server message or generic)', () => {
  it('prefers a translated code, then the server message, then the generic text', () => {
    expect(registerError(i18n, http(409, 'EMAIL_ALREADY_REGISTERED'))).toEqual({ key: 'auth.errorCodes.EMAIL_ALREADY_REGISTERED' });
    expect(registerError(i18n, http(400, 'ODD', 'Name is too long.'))).toEqual({ text: 'Name is too long.' });
    expect(registerError(i18n, http(502, undefined, 'HTTP 502'))).toEqual({ key: 'auth.register.error' });
    expect(registerError(i18n, new ApiError(0, 'SOMETHING', 'No response from the server.'))).toEqual({ key: 'auth.register.error' });
  });
});

describe('stored login error', () => {
  it('translates a stored key in the current language and shows other text as it is', async () => {
    await i18n.changeLanguage('de');
    expect(storedMessage(i18n, 'auth.errorCodes.AUTH_401_1')).toBe('E-Mail-Adresse oder Passwort ist falsch.');
    await i18n.changeLanguage('en');
    expect(storedMessage(i18n, 'auth.errorCodes.AUTH_401_1')).toBe('E-mail or password is wrong.');
    expect(storedMessage(i18n, 'Session expired.')).toBe('Session expired.');
  });
});
