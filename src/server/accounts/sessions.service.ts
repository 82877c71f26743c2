import type { FastifyBaseLogger } from 'fastify';
import type { LoginResponse, RefreshResponse } from '../../common/api.js';
import { CODES } from '../../common/codes.js';
import { REFRESH_TOKEN_TTL_DAYS } from '../../common/constants.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { forbidden, unauthorized } from '../errors.js';
import { DAY_MS, normalizeEmail } from './account-rules.js';
import * as repo from './accounts.repository.js';
import { presentUser } from './accounts.presenter.js';
import type { PasswordHasher } from './passwords.js';
import { REFRESH_REUSE_GRACE_SECONDS, RefreshTokenChain, generateFamilyId, generateOpaqueToken, hashToken, type AccessTokens } from './tokens.js';

/**
 * Sign-in sessions (public-area-and-api.md §4 and §7 "/auth/login", "/auth/refresh", "/auth/logout"): a short-lived
 * access token and a rotating refresh token per sign-in (a token family).
 */
export interface SessionsServiceDeps {
  db: Db;
  config: Pick<Config, 'secret'>;
  hasher: PasswordHasher;
  accessTokens: AccessTokens;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now: () => Date;
}

export class SessionsService {
  private readonly refreshChain: RefreshTokenChain;

  constructor(private readonly deps: SessionsServiceDeps) {
    this.refreshChain = new RefreshTokenChain(deps.config.secret);
  }

  private nowIso(): string {
    return this.deps.now().toISOString();
  }

  async login(rawEmail: string, password: string): Promise<LoginResponse> {
    const email = normalizeEmail(rawEmail);
    const user = await repo.findUserByEmail(this.deps.db, email);
    const ok = user ? await this.deps.hasher.verify(user.password_hash, password) : await this.deps.hasher.verifyAgainstDummy(password);
    if (!user || !ok) throw unauthorized('AUTH_401_1', CODES.AUTH_401_1);
    // Only someone who knows the password learns that the address is unconfirmed.
    if (user.is_verified !== 1) throw forbidden('AUTH_403_1', CODES.AUTH_403_1);
    const session = await this.newSession(this.deps.db, user.id);
    return { user: presentUser(user), ...session };
  }

  /**
   * A new refresh token and a fresh access token, inside the caller's transaction: a random token in a new family
   * (a new sign-in), or, for a rotation, the successor of the spent token in its family.
   */
  async newSession(trx: repo.Executor, userId: number, rotation?: { familyId: string; spent: string }): Promise<RefreshResponse> {
    const familyId = rotation?.familyId ?? generateFamilyId();
    const refresh = rotation ? this.refreshChain.successor(rotation.spent) : generateOpaqueToken();
    await repo.insertRefreshToken(trx, {
      userId,
      familyId,
      tokenHash: hashToken(refresh),
      createdAt: this.nowIso(),
      expiresAt: new Date(this.deps.now().getTime() + REFRESH_TOKEN_TTL_DAYS * DAY_MS).toISOString(),
    });
    const epoch = (await repo.userSessionEpoch(trx, userId)) ?? 0;
    return { access_token: await this.deps.accessTokens.sign(userId, epoch), refresh_token: refresh };
  }

  /**
   * Exchanges a refresh token for a new pair. The old token is spent by one conditional UPDATE, so of two
   * concurrent exchanges exactly one rotates. The same token presented again within REFRESH_REUSE_GRACE_SECONDS
   * (a retry after a lost answer, the loser of such a race) gets the same rotation again: the same new refresh
   * token and a fresh access token, as long as that new token is still unused. Any other reuse (later, or after
   * the new token was used) is taken for a stolen copy and revokes the token's whole family: everyone holding a
   * token of that sign-in must sign in again (decisions.md "Refresh-token grace window").
   */
  async refresh(token: string | null): Promise<RefreshResponse> {
    const invalid = () => unauthorized('INVALID_REFRESH_TOKEN', CODES.INVALID_REFRESH_TOKEN);
    if (!token) throw invalid();
    const tokenHash = hashToken(token);
    const now = this.nowIso();
    const session = await this.deps.db.transaction().execute(async (trx) => {
      const spent = await repo.markRefreshTokenUsed(trx, tokenHash, now);
      return spent ? this.newSession(trx, spent.user_id, { familyId: spent.family_id, spent: token }) : null;
    });
    if (session) return session;
    const row = await repo.findRefreshToken(this.deps.db, tokenHash);
    if (row && row.used_at !== null && row.revoked_at === null) {
      const again = await this.sameRotation(row, token, now);
      if (again) return again;
      const revoked = await repo.revokeRefreshFamily(this.deps.db, row.user_id, row.family_id, now);
      this.deps.log.warn({ userId: row.user_id, revoked }, 'a spent refresh token was presented again; its sign-in was revoked');
    }
    throw invalid();
  }

  /** The answer of `row`'s rotation once more, when it was spent within the grace window and its successor is unused. */
  private async sameRotation(row: repo.RefreshTokenRow, token: string, now: string): Promise<RefreshResponse | null> {
    if (Date.parse(now) - Date.parse(row.used_at!) > REFRESH_REUSE_GRACE_SECONDS * 1000) return null;
    const successor = this.refreshChain.successor(token);
    const next = await repo.findRefreshToken(this.deps.db, hashToken(successor));
    if (!next || next.user_id !== row.user_id || next.family_id !== row.family_id) return null;
    if (next.used_at !== null || next.revoked_at !== null || next.expires_at <= now) return null;
    const epoch = (await repo.userSessionEpoch(this.deps.db, row.user_id)) ?? 0;
    return { access_token: await this.deps.accessTokens.sign(row.user_id, epoch), refresh_token: successor };
  }

  /** Ends one sign-in (the refresh token's family). Unknown tokens are ignored: logging out always works. */
  async logout(token: string | null): Promise<void> {
    if (!token) return;
    const row = await repo.findRefreshToken(this.deps.db, hashToken(token));
    if (row) await repo.revokeRefreshFamily(this.deps.db, row.user_id, row.family_id, this.nowIso());
  }
}
