import { describe, expect, it } from 'vitest';
import { domainAllowed, validateEmailOnly, validateLogin, validateRegister, validateReset } from './validation.js';

const good = { name: 'Erika', email: 'erika@feeder.test', password: 'long-enough', confirm: 'long-enough' };

describe('register form (public-area-and-api.md §5)', () => {
  it('accepts a complete, consistent form', () => {
    expect(validateRegister(good, [])).toEqual({ errors: {}, domainClosed: false });
  });

  it('requires all four fields', () => {
    const { errors } = validateRegister({ name: ' ', email: '', password: '', confirm: '' }, []);
    expect(errors).toEqual({ name: 'auth.fieldRequired', email: 'auth.fieldRequired', password: 'auth.fieldRequired', confirm: 'auth.fieldRequired' });
  });

  it('wants at least 8 characters and equal passwords', () => {
    expect(validateRegister({ ...good, password: 'short77', confirm: 'short77' }, []).errors).toEqual({ password: 'auth.passwordTooShort' });
    expect(validateRegister({ ...good, password: '12345678' }, []).errors).toEqual({ confirm: 'auth.passwordsDontMatch' });
    expect(validateRegister({ ...good, password: '12345678', confirm: '12345678' }, []).errors).toEqual({});
  });

  it('rejects an address that is not one', () => {
    expect(validateRegister({ ...good, email: 'erika' }, []).errors).toEqual({ email: 'auth.errorCodes.INVALID_EMAIL' });
  });

  it('closes registration for domains outside the configured list', () => {
    expect(validateRegister({ ...good, email: 'erika@gmail.com' }, ['feeder.test', 'example.org'])).toEqual({ errors: {}, domainClosed: true });
    expect(validateRegister({ ...good, email: 'Erika@Example.ORG ' }, ['feeder.test', 'example.org']).domainClosed).toBe(false);
    // A malformed address gets the field error, not the closed message.
    expect(validateRegister({ ...good, email: 'nope' }, ['feeder.test']).domainClosed).toBe(false);
  });

  it('matches whole domains only', () => {
    expect(domainAllowed('a@evilfeeder.test', ['feeder.test'])).toBe(false);
    expect(domainAllowed('a@sub.feeder.test', ['feeder.test'])).toBe(false);
    expect(domainAllowed('a@feeder.test', ['@feeder.test'])).toBe(true);
    expect(domainAllowed('a@anything.com', [])).toBe(true);
  });
});

describe('reset password form (§5)', () => {
  it('requires both fields', () => {
    expect(validateReset({ password: '', confirm: '' })).toEqual({ password: 'auth.fieldRequired', confirm: 'auth.fieldRequired' });
  });
  it('needs 8 characters (auth.passwordTooShort)', () => {
    expect(validateReset({ password: '1234567', confirm: '1234567' })).toEqual({ password: 'auth.passwordTooShort' });
  });
  it('needs equal passwords (auth.passwordsDontMatch)', () => {
    expect(validateReset({ password: '12345678', confirm: '12345679' })).toEqual({ confirm: 'auth.passwordsDontMatch' });
  });
  it('passes a good pair', () => {
    expect(validateReset({ password: 'a long one', confirm: 'a long one' })).toEqual({});
  });
});

describe('login and e-mail-only forms', () => {
  it('require their fields', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({ email: 'auth.fieldRequired', password: 'auth.fieldRequired' });
    expect(validateLogin({ email: 'a@b.c', password: 'x' })).toEqual({});
    expect(validateEmailOnly({ email: '  ' })).toEqual({ email: 'auth.fieldRequired' });
    expect(validateEmailOnly({ email: 'a@b' })).toEqual({});
  });
});
