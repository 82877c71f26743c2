import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { EmailTokensTable, RefreshTokensTable, Tables, UsersTable } from '../db/tables.js';
import { dialectOf } from '../db/database.js';

/**
 * SQL of the accounts area: plain functions taking a Kysely instance or a transaction (docs/ARCHITECTURE.md "Rules" 1–2).
 * Queries on a user's rows take the user id; token look-ups go by the token's hash, which identifies the user.
 */
export type Executor = Kysely<Tables> | Transaction<Tables>;
export type UserRow = Selectable<UsersTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type EmailTokenRow = Selectable<EmailTokensTable>;
export type EmailTokenKind = 'verify' | 'reset';

// ---- users ----

export function findUserById(db: Executor, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The user's current session epoch, or undefined when the account does not exist. */
export async function userSessionEpoch(db: Executor, userId: number): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('session_epoch').where('id', '=', userId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.session_epoch);
}

/** `email` must already be normalised (trimmed, lower case): addresses are stored that way. */
export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function insertUser(db: Executor, row: Insertable<UsersTable>): Promise<UserRow> {
  return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateUser(
  db: Executor,
  userId: number,
  patch: Pick<Updateable<UsersTable>, 'name' | 'language_preference' | 'password_hash' | 'is_verified' | 'mark_read_on'> & { updated_at: string },
): Promise<UserRow | undefined> {
  return db.updateTable('users').set(patch).where('id', '=', userId).returningAll().executeTakeFirst();
}

// ---- refresh tokens ----

export async function insertRefreshToken(
  db: Executor,
  row: { userId: number; familyId: string; tokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({ user_id: row.userId, family_id: row.familyId, token_hash: row.tokenHash, created_at: row.createdAt, expires_at: row.expiresAt })
    .execute();
}

/**
 * Marks a live refresh token as used, in one conditional statement, and returns its owner and family; undefined
 * when the token is unknown, already used, revoked or expired. Because the condition and the write are one
 * statement, two concurrent exchanges of the same token cannot both succeed (PostgreSQL re-checks the WHERE
 * clause after waiting for the row lock; SQLite serialises writers).
 */
export function markRefreshTokenUsed(db: Executor, tokenHash: string, now: string): Promise<{ user_id: number; family_id: string } | undefined> {
  return db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'family_id'])
    .executeTakeFirst();
}

export function findRefreshToken(db: Executor, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function revokeRefreshFamily(db: Executor, userId: number, familyId: string, now: string): Promise<number> {
  const r = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Ends every sign-in of the user: revokes all refresh tokens and moves the session epoch on, so access tokens
 * issued before are refused too. Returns how many refresh tokens were revoked.
 */
export async function revokeAllRefreshTokens(db: Executor, userId: number, now: string): Promise<number> {
  await db
    .updateTable('users')
    .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1) }))
    .where('id', '=', userId)
    .execute();
  const r = await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

// ---- mail tokens (verification, password reset) ----

export async function insertEmailToken(
  db: Executor,
  row: { userId: number; kind: EmailTokenKind; tokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('email_tokens')
    .values({ user_id: row.userId, kind: row.kind, token_hash: row.tokenHash, created_at: row.createdAt, expires_at: row.expiresAt })
    .execute();
}

/**
 * Spends every unused token of one kind, so only the newest link works. Called in the transaction that inserts
 * the new one; on PostgreSQL the user's row is locked first, so two links issued at once (two requests whose mail
 * work runs after their answers) are issued one after the other and only the second stays usable (SQLite
 * serialises writers anyway).
 */
export async function invalidateEmailTokens(db: Executor, userId: number, kind: EmailTokenKind, now: string): Promise<void> {
  if (dialectOf(db) === 'postgres') await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  await db.updateTable('email_tokens').set({ used_at: now }).where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
}

export function findEmailToken(db: Executor, kind: EmailTokenKind, tokenHash: string): Promise<EmailTokenRow | undefined> {
  return db.selectFrom('email_tokens').selectAll().where('kind', '=', kind).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Spends one token; false when it was spent meanwhile (single use even under concurrency). */
export async function markEmailTokenUsed(db: Executor, userId: number, tokenId: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
