import { LOGIN_ERROR_KEY, STORAGE_KEYS } from '../../common/constants.js';
import type { User } from '../../common/api.js';

/**
 * Browser storage, under the keys the spec names (public-area-and-api.md §3): local storage holds token,
 * refresh_token, user, theme, language and cookiesAccepted; session storage holds the login error.
 * Every access is guarded: storage can be disabled or full, and the app must still work.
 */
function get(key: string, store: Storage | undefined = globalThis.localStorage): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
function set(key: string, value: string | null, store: Storage | undefined = globalThis.localStorage): void {
  try {
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch {
    /* storage unavailable: keep working in memory */
  }
}

/** Local storage key of the sidebar's width; a preference of this browser, like the collapsed folders. */
export const SIDEBAR_WIDTH_KEY = 'sidebarWidth';

export const storage = {
  get,
  set,
  getToken: () => get(STORAGE_KEYS.token),
  getRefreshToken: () => get(STORAGE_KEYS.refreshToken),
  setTokens(access: string, refresh?: string) {
    set(STORAGE_KEYS.token, access);
    if (refresh) set(STORAGE_KEYS.refreshToken, refresh);
  },
  getUser(): User | null {
    const raw = get(STORAGE_KEYS.user);
    if (!raw) return null;
    try {
      const user = JSON.parse(raw) as User;
      return user && typeof user === 'object' && typeof user.email === 'string' ? user : null;
    } catch {
      return null;
    }
  },
  setUser: (user: User | null) => set(STORAGE_KEYS.user, user ? JSON.stringify(user) : null),
  clearAuth() {
    set(STORAGE_KEYS.token, null);
    set(STORAGE_KEYS.refreshToken, null);
    set(STORAGE_KEYS.user, null);
  },
  /** The width of the sidebar the user dragged (px), or null when never set (dashboard.md §2 "Sidebar"). */
  getSidebarWidth(): number | null {
    const value = Number(get(SIDEBAR_WIDTH_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  },
  setSidebarWidth: (width: number | null) => set(SIDEBAR_WIDTH_KEY, width === null ? null : String(Math.round(width))),
  getLoginError: () => get(LOGIN_ERROR_KEY, globalThis.sessionStorage),
  setLoginError: (message: string | null) => set(LOGIN_ERROR_KEY, message, globalThis.sessionStorage),
};
