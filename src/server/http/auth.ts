import type { FastifyRequest } from 'fastify';
import type { App } from './types.js';
import { CODES } from '../../common/codes.js';
import { userSessionEpoch } from '../accounts/accounts.repository.js';
import type { AccessTokens } from '../accounts/tokens.js';
import type { Db } from '../db/database.js';
import { unauthorized } from '../errors.js';

/**
 * Bearer-token authentication for the web app's API (access JWTs, see accounts/tokens.ts).
 *
 * `app.requireUser` is a hook: put it on a route (`{ onRequest: app.requireUser }`) or on a whole scope:
 *
 *   await app.register(async (api) => {
 *     api.addHook('onRequest', app.requireUser);   // every route of this scope needs a signed-in user
 *     api.get('/api/feeds', async (request) => listFeeds(db, request.userId));
 *   });
 *
 * It works as onRequest or preHandler; onRequest answers 401 before a body is even read.
 * Failures: no bearer token → 401 UNAUTHORIZED; bad, forged or expired token → 401 TOKEN_INVALID;
 * the account was deleted → 401 USER_NOT_FOUND; issued before a password change or reset → 401 TOKEN_INVALID. On success `request.userId` is the signed-in user's id.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id; set by `requireUser`, 0 on routes without it. */
    userId: number;
  }
  interface FastifyInstance {
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1] : null;
}

export interface AuthOptions {
  accessTokens: AccessTokens;
  db: Db;
}

/** Decorates the root instance (not an encapsulated plugin), so every later scope sees `requireUser`. */
export function registerAuth(app: App, options: AuthOptions): void {
  app.decorateRequest('userId', 0);
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('UNAUTHORIZED', CODES.UNAUTHORIZED);
    const check = await options.accessTokens.verify(token);
    if (!check.ok) throw unauthorized('TOKEN_INVALID', CODES.TOKEN_INVALID);
    // One indexed read per request: the account must exist, and the token must be of its current session epoch
    // (a password change or reset since it was issued makes it void).
    const epoch = await userSessionEpoch(options.db, check.userId);
    if (epoch === undefined) throw unauthorized('USER_NOT_FOUND', CODES.USER_NOT_FOUND);
    if (epoch !== check.epoch) throw unauthorized('TOKEN_INVALID', CODES.TOKEN_INVALID);
    request.userId = check.userId;
  });
}
