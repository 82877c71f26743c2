import type { TFunction, i18n as I18n } from 'i18next';
import { ApiError } from '../../lib/api.js';

/**
 * Turns a failed account call into a message for the user (dashboard.md §8 "Account",
 * public-area-and-api.md §8 "Profile update"): a known error code in the user's language, else the
 * server's message for a client error, else the given generic failure text.
 */
export function accountErrorText(t: TFunction, i18n: I18n, err: unknown, fallbackKey: string): string {
  if (err instanceof ApiError) {
    if (err.isNetwork) return t('settings.errors.network');
    if (err.code) {
      for (const key of [`settings.errorCodes.${err.code}`, `auth.errorCodes.${err.code}`]) {
        if (i18n.exists(key)) return t(key);
      }
    }
    if (err.status < 500 && err.message && !/^HTTP \d+$/.test(err.message)) return err.message;
  }
  return t(fallbackKey);
}
