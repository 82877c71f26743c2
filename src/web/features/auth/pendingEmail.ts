import { storage } from '../../lib/storage.js';

/**
 * The address of an account waiting for confirmation, remembered in session storage (public-area-and-api.md §2:
 * "the e-mail is remembered") so that /resend-verification opens prefilled, even after a reload.
 * Session storage, like the login error: it ends with the tab and never leaves the browser.
 */
const KEY = 'pendingVerificationEmail';

export const pendingEmail = {
  get: (): string => storage.get(KEY, globalThis.sessionStorage) ?? '',
  set: (email: string | null) => storage.set(KEY, email?.trim() || null, globalThis.sessionStorage),
};
