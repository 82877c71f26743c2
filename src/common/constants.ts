/** Business constants from the spec, shared by server and web (public-area-and-api.md §9, dashboard.md §9). */
/* The account limits (password and name lengths) live with the API's other limits in limits.ts. */
export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_DAYS = 30;
export const VERIFICATION_TOKEN_TTL_HOURS = 24;
export const RESET_TOKEN_TTL_HOURS = 1;

export const REDIRECT_AFTER_LOGIN_MS = 1500;
export const REDIRECT_AFTER_REGISTER_MS = 5000;
export const REDIRECT_AFTER_VERIFY_MS = 5000;
export const REDIRECT_AFTER_RESET_MS = 5000;
export const HEADER_SOLID_SCROLL_PX = 10;
export const SUCCESS_BANNER_MS = 3000;

/** Local-storage keys named by the spec (cookie banner details list them). */
export const STORAGE_KEYS = {
  cookiesAccepted: 'cookiesAccepted',
  token: 'token',
  refreshToken: 'refresh_token',
  user: 'user',
  theme: 'theme',
  language: 'language',
} as const;
/** Session-storage key of the login error that survives a reload. */
export const LOGIN_ERROR_KEY = 'loginError';
