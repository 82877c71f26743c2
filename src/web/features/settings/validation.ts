import { MIN_PASSWORD_LENGTH } from '../../../common/limits.js';

/**
 * Client-side checks of the account forms (dashboard.md §5). They return translation keys, so the
 * components (and tests) decide how to show them.
 */
export function validateName(name: string): string | null {
  return name.trim() ? null : 'settings.account.enterName';
}

export interface PasswordChangeValues {
  current: string;
  next: string;
  confirm: string;
}

export type PasswordChangeErrors = Partial<Record<keyof PasswordChangeValues, string>>;

export function validatePasswordChange({ current, next, confirm }: PasswordChangeValues): PasswordChangeErrors {
  const errors: PasswordChangeErrors = {};
  if (!current) errors.current = 'settings.password.currentRequired';
  if (next.length < MIN_PASSWORD_LENGTH) errors.next = 'settings.password.tooShort';
  if (!errors.next && next !== confirm) errors.confirm = 'settings.password.mismatch';
  return errors;
}
