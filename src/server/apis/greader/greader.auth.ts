import { createHmac } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { constantTimeEqual } from '../app-password.js';

/**
 * Google Reader sign-in (apis/greader/README.md "Authentication"; decisions.md "External apps").
 *
 * ClientLogin checks e-mail and reader-apps password (apis/app-password.ts) and hands out
 * `<userId>/<hmac>`, where hmac = HMAC-SHA256(server secret, "greader-auth:<userId>:<app_password_key>") in hex,
 * cut to 40 characters (the length of FreshRSS's sha1 tokens, which some clients store in fixed fields).
 * It is stateless: no table, nothing to expire. Because the password's md5 key is part of the MAC, regenerating
 * the password revokes every token; switching the reader apps off refuses them at the next check.
 *
 * Every API request presents it (`Authorization: GoogleLogin auth=<token>`). Checking costs one primary-key read
 * of the user; a checked token is remembered for TOKEN_CACHE_TTL_MS in a small LRU, so the hot paths (stream
 * contents at hundreds of requests a second, bench/README.md "Budgets") skip even that. A password change or a switch-off
 * therefore takes effect within that time.
 */
export const TOKEN_CACHE_TTL_MS = 30_000;
const TOKEN_CACHE_MAX = 1_000;
const MAC_LENGTH = 40;
/** The action token (T) is 57 characters in Google's and FreshRSS's API: 40 of MAC padded with Z. */
const ACTION_TOKEN_LENGTH = 57;

export interface ReaderUser {
  id: number;
  email: string;
  /** users.app_password_key: part of every token's MAC. */
  key: string;
}

export class GReaderAuth {
  private readonly cache = new Map<string, { user: ReaderUser; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly secret: string,
    private readonly clock: () => number = Date.now,
  ) {}

  private mac(purpose: string, userId: number, key: string): string {
    return createHmac('sha256', this.secret).update(`greader-${purpose}:${userId}:${key}`).digest('hex').slice(0, MAC_LENGTH);
  }

  /** The Auth token ClientLogin returns. */
  authToken(user: ReaderUser): string {
    return `${user.id}/${this.mac('auth', user.id, user.key)}`;
  }

  /** The action token of /reader/api/0/token (sent back as T on writes). */
  actionToken(user: ReaderUser): string {
    return this.mac('action', user.id, user.key).padEnd(ACTION_TOKEN_LENGTH, 'Z');
  }

  /**
   * T on writes. Many clients send none, or a placeholder: FeedMe sends it empty, Reeder sends "x" (FreshRSS
   * accepts both, so do we). The request is authenticated by its Authorization header already, which a browser
   * never adds by itself, so T guards against nothing here; a T that is present and wrong is still refused, as it
   * shows a client confused about whose session it holds.
   */
  actionTokenAccepted(user: ReaderUser, token: string | undefined): boolean {
    if (token === undefined || token === '' || token === 'x') return true;
    return constantTimeEqual(token, this.actionToken(user));
  }

  /** The user of an `Authorization: GoogleLogin auth=<token>` header, or undefined. */
  async authenticate(header: string | undefined): Promise<ReaderUser | undefined> {
    const token = parseAuthorization(header);
    if (!token) return undefined;
    return this.authenticateToken(token);
  }

  /** The user of a ClientLogin token (the header's, or a POST's form field T; README.md "Signing in"), or undefined. */
  async authenticateToken(token: string): Promise<ReaderUser | undefined> {
    if (token.length > 500) return undefined;
    const now = this.clock();
    const hit = this.cache.get(token);
    if (hit) {
      this.cache.delete(token);
      if (hit.until > now) {
        this.cache.set(token, hit); // most recently used last
        return hit.user;
      }
    }
    const match = /^([0-9]{1,10})\/([0-9a-f]{40})$/.exec(token);
    if (!match) return undefined;
    const userId = Number(match[1]);
    const row = await this.db.selectFrom('users').select(['id', 'email', 'app_password_key', 'fever_api_enabled']).where('id', '=', userId).executeTakeFirst();
    if (!row || row.fever_api_enabled !== 1 || !row.app_password_key) return undefined;
    const user: ReaderUser = { id: row.id, email: row.email, key: row.app_password_key };
    if (!constantTimeEqual(match[2], this.mac('auth', user.id, user.key))) return undefined;
    this.cache.set(token, { user, until: now + TOKEN_CACHE_TTL_MS });
    if (this.cache.size > TOKEN_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    return user;
  }
}

/** `GoogleLogin auth=<token>` (any case, the token optionally quoted) → the token. */
export function parseAuthorization(header: string | undefined): string | null {
  if (typeof header !== 'string' || header.length > 500) return null;
  const match = /^\s*GoogleLogin\s+auth="?([^"\s]+)"?\s*$/i.exec(header);
  return match ? match[1] : null;
}
