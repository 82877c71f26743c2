import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../http/auth.js';
import { acceptEmptyJsonBody } from '../http/empty-body.js';
import type { App } from '../http/types.js';
import type { RateLimiter, RateLimitRule } from '../http/rate-limit.js';
import { normalizeEmail } from './accounts.service.js';
import type { Services } from '../services.js';
import * as S from '../../common/schemas/accounts.js';
import { MAX_EMAIL_LENGTH } from '../../common/limits.js';
import { looksLikeJwt } from './tokens.js';

/**
 * Account endpoints (public-area-and-api.md §7, decisions.md "Product and accounts"). Each route declares its
 * schema, authorises, calls one service method and returns its result.
 */

const MINUTE = 60_000;

/** Limits per bucket and window. Per-IP limits leave room for a browser test suite signing in from 127.0.0.1. */
export const AUTH_LIMITS = {
  loginPerIp: { limit: 60, windowMs: 10 * MINUTE },
  loginPerEmail: { limit: 20, windowMs: 10 * MINUTE },
  registerPerIp: { limit: 50, windowMs: 10 * MINUTE },
  registerPerEmail: { limit: 5, windowMs: 10 * MINUTE },
  /** forgot-password and resend-verification, each its own bucket */
  mailPerIp: { limit: 30, windowMs: 10 * MINUTE },
  mailPerEmail: { limit: 5, windowMs: 10 * MINUTE },
  resetPerIp: { limit: 30, windowMs: 10 * MINUTE },
  /** verify-password, and password changes through PUT /auth/me (both test the current password) */
  passwordCheckPerUser: { limit: 20, windowMs: 10 * MINUTE },
  passwordCheckPerIp: { limit: 60, windowMs: 10 * MINUTE },
};
export type AuthLimits = typeof AUTH_LIMITS;

/**
 * The sign-in buckets: per address, and per account when the door names one. Every door that checks a password
 * counts in them (the web login, Google Reader's ClientLogin, Fever's api_key), so a guesser gains nothing by
 * switching doors (docs/decisions.md "External apps: Fever", "Sign-in limits of the reader apps").
 */
export function signInRules(limits: Pick<AuthLimits, 'loginPerIp' | 'loginPerEmail'>, ip: string, email?: string): RateLimitRule[] {
  const rules: RateLimitRule[] = [{ key: `loginPerIp:login:${ip}`, ...limits.loginPerIp }];
  if (email !== undefined) rules.push({ key: `loginPerEmail:login:${normalizeEmail(email).slice(0, MAX_EMAIL_LENGTH)}`, ...limits.loginPerEmail });
  return rules;
}

export interface AccountsRoutesOptions {
  limiter: RateLimiter;
  limits?: Partial<AuthLimits>;
}

export async function registerAccountsRoutes(app: App, services: Pick<Services, 'accounts'>, options: AccountsRoutesOptions): Promise<void> {
  const service = services.accounts;
  const { limiter } = options;
  const limits: AuthLimits = { ...AUTH_LIMITS, ...options.limits };
  const rule = (name: keyof AuthLimits, key: string): RateLimitRule => ({ key: `${name}:${key}`, ...limits[name] });
  const emailOf = (request: FastifyRequest) => normalizeEmail((request.body as { email: string }).email);
  const perIpAndEmail = (ipLimit: keyof AuthLimits, emailLimit: keyof AuthLimits, bucket: string) =>
    limiter.guard((request) => [rule(ipLimit, `${bucket}:${request.ip}`), rule(emailLimit, `${bucket}:${emailOf(request)}`)]);
  const passwordCheck = limiter.guard((request) =>
    (request.body as { password?: unknown }).password === undefined ? [] : [rule('passwordCheckPerUser', String(request.userId)), rule('passwordCheckPerIp', request.ip)],
  );
  const requireUser = app.requireUser;

  app.post(
    '/auth/register',
    { schema: { body: S.RegisterBody, response: { 201: S.RegisterReply } }, preHandler: perIpAndEmail('registerPerIp', 'registerPerEmail', 'register') },
    async (request, reply) => reply.status(201).send(await service.register(request.body)),
  );

  app.post(
    '/auth/login',
    {
      schema: { body: S.LoginBody, response: { 200: S.LoginReply } },
      preHandler: limiter.guard((request) => signInRules(limits, request.ip, (request.body as { email: string }).email)),
    },
    async (request) => service.login(request.body.email, request.body.password),
  );

  // Refresh and logout take the refresh token as a bearer header with no body at all (what the web app sends),
  // an empty JSON body, or {refresh_token}. This scope's JSON parser therefore reads an empty body as {}.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    acceptEmptyJsonBody(scope, { asEmptyObject: true });
    /** Body first; else the bearer header unless it carries the access JWT (clients send that on every call). */
    const refreshTokenOf = (request: FastifyRequest, body: { refresh_token?: string }) => {
      const fromBody = body.refresh_token?.trim();
      if (fromBody) return fromBody;
      const bearer = bearerToken(request);
      return bearer && !looksLikeJwt(bearer) ? bearer : null;
    };

    scope.post('/auth/refresh', { schema: { body: S.RefreshBody, response: { 200: S.RefreshReply } } }, async (request) =>
      service.refresh(refreshTokenOf(request, request.body)),
    );

    scope.post('/auth/logout', { schema: { body: S.RefreshBody } }, async (request, reply) => {
      await service.logout(refreshTokenOf(request, request.body));
      return reply.status(204).send();
    });
  });

  app.get('/auth/me', { onRequest: requireUser, schema: { response: { 200: S.MeReply } } }, async (request) => ({
    user: await service.me(request.userId),
  }));

  app.put('/auth/me', { onRequest: requireUser, schema: { body: S.UpdateMeBody, response: { 200: S.UpdateMeReply } }, preHandler: passwordCheck }, async (request) =>
    service.updateMe(request.userId, request.body),
  );

  app.post(
    '/auth/verify-password',
    { onRequest: requireUser, schema: { body: S.PasswordBody, response: { 200: S.VerifyPasswordReply } }, preHandler: passwordCheck },
    async (request) => service.verifyPassword(request.userId, request.body.password),
  );

  app.get('/auth/verify-email', { schema: { querystring: S.VerifyEmailQuery, response: { 200: S.StatusSchema } } }, async (request) =>
    service.verifyEmail(request.query.token),
  );

  app.post(
    '/auth/resend-verification',
    { schema: { body: S.EmailBody, response: { 200: S.StatusSchema } }, preHandler: perIpAndEmail('mailPerIp', 'mailPerEmail', 'resend') },
    async (request) => service.resendVerification(request.body.email),
  );

  app.post(
    '/auth/forgot-password',
    { schema: { body: S.EmailBody, response: { 200: S.StatusSchema } }, preHandler: perIpAndEmail('mailPerIp', 'mailPerEmail', 'forgot') },
    async (request) => service.forgotPassword(request.body.email),
  );

  app.post(
    '/auth/reset-password',
    {
      schema: { body: S.ResetPasswordBody, response: { 200: S.StatusSchema } },
      preHandler: limiter.guard((request) => [rule('resetPerIp', `reset:${request.ip}`)]),
    },
    async (request) => service.resetPassword(request.body.token, request.body.password),
  );

  // Public: the registration form checks the domain list before submitting (decisions.md).
  app.get('/api/config', { schema: { response: { 200: S.PublicConfigReply } } }, async () => service.publicConfig());

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', requireUser);
    api.post('/api/users/update-language', { schema: { body: S.UpdateLanguageBody, response: { 200: S.MeReply } } }, async (request) => ({
      user: await service.updateLanguage(request.userId, request.body.language),
    }));
  });
}
