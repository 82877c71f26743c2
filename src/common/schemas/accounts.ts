import { Type } from 'typebox';
import { MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MAX_TOKEN_LENGTH } from '../limits.js';
import { Nullable } from './builders.js';
import { NullableString } from './common.js';

/**
 * Request and response schemas of the account API (public-area-and-api.md §3 and §7; TypeBox → JSON Schema;
 * Fastify validates requests and serialises responses with them, so a response can never carry a field that is
 * not listed here). Length checks whose failure has its own code (NAME_REQUIRED, PASSWORD_TOO_SHORT,
 * INVALID_EMAIL) are done by the service; the schemas only bound the input's size.
 */

// Generous outer bounds: the service applies the real rules after trimming.
const Email = Type.String({ maxLength: 1000 });
const Name = Type.String({ maxLength: MAX_NAME_LENGTH * 4 });
const Password = Type.String({ maxLength: MAX_PASSWORD_LENGTH });
const Token = Type.String({ maxLength: MAX_TOKEN_LENGTH });
/** The languages of constants.ts LANGUAGES. */
export const LanguageSchema = Type.Union([Type.Literal('de'), Type.Literal('en')]);

/** users.mark_read_on (docs/decisions.md "Reading flow: undo, mark-read setting, loading the original"). */
export const MarkReadOnSchema = Type.Union([Type.Literal('open'), Type.Literal('scroll'), Type.Literal('manual')]);

export const UserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  is_verified: Type.Boolean(),
  language_preference: LanguageSchema,
  created_at: Type.String(),
  /** Reader apps (Fever and Google Reader API) switched on in settings (dashboard.md §3 "User"). */
  fever_api_enabled: Type.Boolean(),
  /** When the web app marks an article read: on opening it (default), when scrolled past, or only by hand. */
  mark_read_on: MarkReadOnSchema,
});

/** The `{status, code, message}` answers of verification and password reset (public-area-and-api.md §8). */
export const StatusSchema = Type.Object({
  status: Type.Union([Type.Literal('success'), Type.Literal('error')]),
  code: Type.String(),
  message: Type.String(),
});

export const RegisterBody = Type.Object({
  name: Name,
  email: Email,
  password: Password,
  language: Type.Optional(LanguageSchema),
});
export const RegisterReply = Type.Object({ user: UserSchema, email_sent: Type.Boolean() });

export const LoginBody = Type.Object({ email: Email, password: Password });
export const LoginReply = Type.Object({ user: UserSchema, access_token: Type.String(), refresh_token: Type.String() });

/** Refresh and logout: the token may come as a bearer header instead, so the body is optional (see routes). */
export const RefreshBody = Type.Object({ refresh_token: Type.Optional(Token) });
/** POST /auth/refresh: the refresh token rotates on every use, so a new one comes back too. */
export const RefreshReply = Type.Object({ access_token: Type.String(), refresh_token: Type.String() });

export const MeReply = Type.Object({ user: UserSchema });

export const UpdateMeBody = Type.Object({
  name: Type.Optional(Name),
  language_preference: Type.Optional(LanguageSchema),
  password: Type.Optional(Password),
  old_password: Type.Optional(Password),
  /** Accepted only when it equals the account's address (clients may send the whole user back); see the service. */
  email: Type.Optional(Email),
  mark_read_on: Type.Optional(MarkReadOnSchema),
});
/** PUT /auth/me; a password change revokes every refresh token and hands this session a fresh pair. */
export const UpdateMeReply = Type.Object({
  user: UserSchema,
  message: Type.String(),
  code: Type.Union([Type.Literal('PROFILE_UPDATED'), Type.Literal('PASSWORD_UPDATED')]),
  access_token: Type.Optional(Type.String()),
  refresh_token: Type.Optional(Type.String()),
});

export const PasswordBody = Type.Object({ password: Password });
export const VerifyPasswordReply = Type.Object({ valid: Type.Boolean() });

export const VerifyEmailQuery = Type.Object({ token: Type.Optional(Token) });
export const EmailBody = Type.Object({ email: Email });
export const ResetPasswordBody = Type.Object({ token: Type.Optional(Token), password: Password });

export const UpdateLanguageBody = Type.Object({ language: LanguageSchema });

/** The operator named on the imprint, privacy notice and terms (OPERATOR_* variables, README "Configuration"). */
export const OperatorSchema = Type.Object({
  name: Type.String(),
  /** Address lines, in order (OPERATOR_ADDRESS split at `|`). */
  address: Type.Array(Type.String()),
  email: Type.String(),
  phone: NullableString,
  representative: NullableString,
});

/**
 * What the legal pages may show (docs/decisions.md "Legal pages: the operator from configuration"): 'configured'
 * (name, address and e-mail set: operator given), 'example' (not set, PUBLIC_URL on this machine: the web app's
 * example operator, marked as such) or 'unavailable' (not set on a public address: no placeholder, only a notice).
 */
export const LegalSchema = Type.Object({
  status: Type.Union([Type.Literal('configured'), Type.Literal('example'), Type.Literal('unavailable')]),
  operator: Nullable(OperatorSchema),
});

/** GET /api/config: what the public screens need before sign-in. */
export const PublicConfigReply = Type.Object({
  registration_email_domains: Type.Array(Type.String()),
  /** false when no domain list is configured, i.e. every domain may register. */
  registration_restricted: Type.Boolean(),
  legal: LegalSchema,
});
