/**
 * Every `code` the server sends in `{message, code}` or `{status, code}` bodies, in one place
 * (decisions.md "Product and accounts"). The web app translates each under `auth.errorCodes.<CODE>`
 * (de and en); the server's `message` is the English text, for scripts and logs.
 */
export const CODES = {
  // login (public-area-and-api.md §8: AUTH_{status}_1)
  AUTH_401_1: 'E-mail or password is wrong.',
  AUTH_403_1: 'Please confirm your e-mail address first.',
  // registration
  EMAIL_ALREADY_REGISTERED: 'An account with this e-mail address already exists.',
  REGISTRATION_DOMAIN_NOT_ALLOWED: 'Registration is closed for this e-mail domain.',
  INVALID_EMAIL: 'Please enter a valid e-mail address.',
  // verification
  VERIFICATION_EMAIL_SENT: 'If an unconfirmed account exists for this address, a new confirmation mail is on its way.',
  ACCOUNT_ALREADY_VERIFIED: 'This account is already confirmed.',
  EMAIL_VERIFIED: 'Your e-mail address is confirmed.',
  INVALID_TOKEN: 'This link is invalid or has already been used.',
  TOKEN_EXPIRED: 'This link has expired.',
  // password reset
  PASSWORD_RESET_MAIL_SENT: 'If an account exists for this address, a mail with a reset link is on its way.',
  PASSWORD_RESET_SUCCESS: 'Your password has been changed. You can sign in now.',
  // profile
  PROFILE_UPDATED: 'Profile updated.',
  PASSWORD_UPDATED: 'Password updated.',
  INVALID_CURRENT_PASSWORD: 'The current password is incorrect.',
  PASSWORD_TOO_SHORT: 'The password must be at least 8 characters long.',
  NAME_REQUIRED: 'Please enter a name.',
  // sessions
  UNAUTHORIZED: 'Please sign in.',
  TOKEN_INVALID: 'The session is invalid or has expired.',
  INVALID_REFRESH_TOKEN: 'The session has expired. Please sign in again.',
  USER_NOT_FOUND: 'The account no longer exists.',
  // generic
  VALIDATION_ERROR: 'The request is invalid.',
  INVALID_JSON: 'The request body is not valid JSON.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'This content type is not supported here.',
  INVALID_CHARACTERS: 'The request contains a NUL character (U+0000), which is not allowed.',
  RATE_LIMITED: 'Too many attempts. Please wait a moment and try again.',
  NOT_FOUND: 'Not found.',
  INTERNAL_ERROR: 'Internal server error.',
  DATABASE_UNAVAILABLE: 'The database is not answering right now. Please try again in a moment.',
} as const;

export type Code = keyof typeof CODES;
