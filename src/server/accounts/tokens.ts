import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../common/constants.js';

/**
 * Token primitives (decisions.md "Product and accounts"):
 * - access tokens are short-lived HS256 JWTs (15 min), claims `sub` = user id, `typ` = 'access' and `sep` = the
 *   user's session epoch (see auth.ts: ending every sign-in voids older access tokens at once);
 * - refresh tokens and mail tokens are opaque random strings; only their SHA-256 is stored, so a database leak
 *   does not hand out sessions or reset links.
 */

/** 32 random bytes, base64url (43 characters, no dots: never mistaken for a JWT). */
export function generateOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of an opaque token: hex SHA-256 (64 characters, fits the varchar(64) columns). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** An id that groups one sign-in's chain of rotated refresh tokens. */
export function generateFamilyId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * A used refresh token presented again within this many seconds of its exchange is answered with the same
 * rotation again (the client's retry after a lost answer, or two requests racing), not taken for a stolen copy;
 * after it, reuse revokes the whole sign-in (decisions.md "Refresh-token grace window").
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

/**
 * The refresh token a rotation hands out in exchange for `token`: an HMAC of it under a key derived from the
 * server secret. Only the server can compute it, and it can compute it again when the same token comes back in
 * the grace window, so that the retry gets the very token the lost answer carried, while the database still
 * holds nothing but hashes.
 */
export class RefreshTokenChain {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'feeder', 'refresh-token-successor-v1', 32));
  }

  successor(token: string): string {
    return createHmac('sha256', this.key).update(token, 'utf8').digest('base64url');
  }
}

/** A JWT has three dot-separated parts; our opaque tokens never contain a dot. */
export const looksLikeJwt = (token: string) => token.split('.').length === 3;

const ISSUER = 'feeder';

export type AccessTokenCheck = { ok: true; userId: number; epoch: number } | { ok: false };

/**
 * Signs and verifies access JWTs. The HMAC key is derived from the server secret with HKDF, so the secret itself
 * is never used directly as a key and other purposes (encrypting stored secrets) get independent keys.
 */
export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly now: () => Date = () => new Date(),
    private readonly ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  ) {
    this.key = new Uint8Array(hkdfSync('sha256', secret, 'feeder', 'access-token-hs256-v1', 32));
  }

  /** `epoch` is the user's session epoch now (users.session_epoch); a later epoch makes the token void. */
  async sign(userId: number, epoch: number): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ typ: 'access', sep: epoch })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(String(userId))
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .setJti(randomBytes(9).toString('base64url')) // two tokens issued in one second still differ
      .sign(this.key);
  }

  /** Never throws: any malformed, forged, expired or foreign token is `{ok: false}`. */
  async verify(token: string): Promise<AccessTokenCheck> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: this.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const userId = Number(payload.sub);
      const epoch = payload.sep;
      if (payload.typ !== 'access' || !Number.isSafeInteger(userId) || userId <= 0) return { ok: false };
      if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0) return { ok: false };
      return { ok: true, userId, epoch };
    } catch {
      // jose throws JOSEError subclasses for every malformed, forged or expired token.
      return { ok: false };
    }
  }
}
