import type { StatusResponse } from '../../common/api.js';
import { CODES } from '../../common/codes.js';
import type { Language } from '../../common/constants.js';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../common/limits.js';
import type { Db } from '../db/database.js';
import { badRequest, conflict, unauthorized } from '../errors.js';
import { refuseNul } from '../nul.js';
import * as repo from './accounts.repository.js';
import type { PasswordHasher } from './passwords.js';

/**
 * The rules every account service shares (public-area-and-api.md §5 and §9, decisions.md "Product and accounts"):
 * how addresses, names and passwords are checked, the `{status, code, message}` answers, and how a user row is
 * created. The services themselves: sessions.service.ts, registration.service.ts, profile.service.ts,
 * password-reset.service.ts.
 */

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** The WHATWG definition of a valid e-mail address (what `<input type=email>` accepts), with a dot in the domain. */
const EMAIL_RE = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Addresses are compared and stored trimmed and in lower case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_RE.test(email);
}

export const statusError = (code: 'INVALID_TOKEN' | 'TOKEN_EXPIRED' | 'PASSWORD_TOO_SHORT') => badRequest(code, CODES[code], { status: 'error' });

export const success = (code: keyof typeof CODES): StatusResponse => ({ status: 'success', code, message: CODES[code] });

export function validName(raw: string): string {
  const name = raw.trim();
  if (!name) throw badRequest('NAME_REQUIRED', CODES.NAME_REQUIRED);
  if (name.length > MAX_NAME_LENGTH) throw badRequest('VALIDATION_ERROR', `The name may be at most ${MAX_NAME_LENGTH} characters long.`);
  return name;
}

export function checkNewPassword(password: string, extra?: Record<string, unknown>): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest('PASSWORD_TOO_SHORT', CODES.PASSWORD_TOO_SHORT, extra);
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest('VALIDATION_ERROR', `The password may be at most ${MAX_PASSWORD_LENGTH} characters long.`, extra);
}

export function validNewEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (!isValidEmail(email)) throw badRequest('INVALID_EMAIL', CODES.INVALID_EMAIL);
  return email;
}

/** Both drivers' spelling of "unique constraint violated". */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const emailTaken = () => conflict('EMAIL_ALREADY_REGISTERED', CODES.EMAIL_ALREADY_REGISTERED);

/** The signed-in user's row; a 401 when the account is gone since the token was issued. */
export async function requireUserRow(db: Db, userId: number): Promise<repo.UserRow> {
  const user = await repo.findUserById(db, userId);
  if (!user) throw unauthorized('USER_NOT_FOUND', CODES.USER_NOT_FOUND);
  return user;
}

/** Creates a user row after the checks every way of creating an account shares. */
export async function insertNewUser(
  db: Db,
  hasher: PasswordHasher,
  input: { name: string; email: string; password: string; language: Language; verified: boolean },
  now: string,
  afterInsert?: (trx: repo.Executor, user: repo.UserRow) => Promise<void>,
): Promise<repo.UserRow> {
  // The HTTP layer refuses U+0000 already; the command line comes here directly (decisions.md "No NUL characters").
  refuseNul(input);
  if (await repo.findUserByEmail(db, input.email)) throw emailTaken();
  const password_hash = await hasher.hash(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await repo.insertUser(trx, {
        email: input.email,
        name: input.name,
        password_hash,
        is_verified: input.verified ? 1 : 0,
        language_preference: input.language,
        created_at: now,
        updated_at: now,
      });
      await afterInsert?.(trx, user);
      return user;
    });
  } catch (err) {
    // Two registrations of one address at the same moment: the database's unique index decides.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}
