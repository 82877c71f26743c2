import { describe, expect, it } from 'vitest';
import { validateName, validatePasswordChange } from './validation.js';

describe('profile name (dashboard.md §5)', () => {
  it('must not be blank after trimming', () => {
    expect(validateName('')).toBe('settings.account.enterName');
    expect(validateName('   \t ')).toBe('settings.account.enterName');
    expect(validateName(' Dana ')).toBeNull();
  });
});

describe('password change (dashboard.md §5)', () => {
  it('needs the current password', () => {
    expect(validatePasswordChange({ current: '', next: 'longenough', confirm: 'longenough' })).toEqual({
      current: 'settings.password.currentRequired',
    });
  });

  it('needs at least 8 characters for the new password', () => {
    expect(validatePasswordChange({ current: 'old', next: '1234567', confirm: '1234567' })).toEqual({
      next: 'settings.password.tooShort',
    });
    expect(validatePasswordChange({ current: 'old', next: '12345678', confirm: '12345678' })).toEqual({});
  });

  it('needs the confirmation to match', () => {
    expect(validatePasswordChange({ current: 'old', next: 'longenough', confirm: 'longenougH' })).toEqual({
      confirm: 'settings.password.mismatch',
    });
  });
});
