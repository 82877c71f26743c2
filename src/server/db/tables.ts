import type { Generated } from 'kysely';

/**
 * Row types of every table. Timestamps are ISO strings, booleans are 0/1 (see database.ts).
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  is_verified: number;
  language_preference: string;
  /** Incremented when every sign-in ends (password change, reset); access tokens of older epochs are refused. */
  session_epoch: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Opaque refresh tokens, stored as SHA-256 hashes; a family is one sign-in's chain of rotations. */
export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  expires_at: string;
  created_at: string;
  /** Set when the token was exchanged for a new one; presenting it again revokes the family. */
  used_at: string | null;
  revoked_at: string | null;
}

/** Single-use tokens sent by mail: kind 'verify' (24 h) or 'reset' (1 h). */
export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  token_hash: string;
  expires_at: string;
  created_at: string;
  used_at: string | null;
}

export interface Tables {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
}
