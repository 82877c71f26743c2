import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeEmail } from '../../accounts/accounts.service.js';
import { bearerToken } from '../../http/auth.js';
import { acceptEmptyJsonBody } from '../../http/empty-body.js';
import type { App } from '../../http/types.js';
import type { RateLimitDecision, RateLimiter, RateLimitRule } from '../../http/rate-limit.js';
import { feedServicesOf, type Services } from '../../services.js';
import { openApiOptions, PUBLIC_API_BASE } from './openapi.js';
import { ErrorSchema } from '../../../common/schemas/error-schema.js';
import * as S from '../../../common/schemas/public-v1.js';
import { tokenMissing } from './public.service.js';

/**
 * The public API v1 at /public-api/v1 (public-area-and-api.md §7 "Public API"; docs/decisions.md "Public API v1";
 * README.md beside this file). One encapsulated plugin: its own OpenAPI document (@fastify/swagger registered in
 * this scope sees only these routes, never the web app's /api), bearer tokens of its own, and per-user limits.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** public-area-and-api.md §9 (per user), and the limits of calls without a user (per address, per account). */
export const PUBLIC_API_LIMITS = {
  perMinute: { limit: 100, windowMs: MINUTE },
  perDay: { limit: 5000, windowMs: DAY },
  /** authenticate tests a password: limited like the web sign-in, per address and per account (brute force) */
  authPerIp: { limit: 60, windowMs: 10 * MINUTE },
  authPerAccount: { limit: 20, windowMs: 10 * MINUTE },
  /** calls without a valid token have no user to count against: counted per address */
  anonPerIp: { limit: 100, windowMs: MINUTE },
};
export type PublicApiLimits = typeof PUBLIC_API_LIMITS;

const CORS_EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

export interface PublicApiOptions {
  limiter: RateLimiter;
  limits?: Partial<PublicApiLimits>;
  publicUrl: string;
}

/**
 * Shows the window closest to running out in X-RateLimit-* (the one with the fewest hits left; when refused, the
 * exceeded one that lasts longest, which is also what Retry-After says). An earlier check of the same request that
 * showed a tighter window (authenticate: address, then account) is kept.
 */
function showLimits(reply: FastifyReply, rules: RateLimitRule[], decision: RateLimitDecision): void {
  const { results } = decision;
  if (results.length === 0) return; // the store failed and the request was let through: nothing true to say
  let pick = 0;
  for (let i = 1; i < results.length; i++) {
    const better = decision.allowed
      ? results[i].remaining < results[pick].remaining
      : !results[i].allowed && (results[pick].allowed || results[i].resetMs > results[pick].resetMs);
    if (better) pick = i;
  }
  const shown = reply.getHeader('x-ratelimit-remaining');
  if (decision.allowed && shown !== undefined && Number(shown) <= results[pick].remaining) return;
  reply
    .header('x-ratelimit-limit', String(rules[pick].limit))
    .header('x-ratelimit-remaining', String(results[pick].remaining))
    .header('x-ratelimit-reset', String(Math.max(1, Math.ceil(results[pick].resetMs / 1000))));
  if (!decision.allowed) reply.header('retry-after', String(decision.retryAfterSeconds));
}

export async function registerPublicApiV1(app: App, services: Pick<Services, 'feedServices'>, options: PublicApiOptions): Promise<void> {
  const limits: PublicApiLimits = { ...PUBLIC_API_LIMITS, ...options.limits };
  const { limiter } = options;
  const service = feedServicesOf(services).publicApi;
  const rule = (name: keyof PublicApiLimits, key: string): RateLimitRule => ({ key: `papi:${name}:${key}`, ...limits[name] });

  /**
   * Counts the request in each rule's window in turn, shows the headers, and answers 429 when a window is full.
   * In turn: a request the per-minute window refuses is not counted in the daily one (docs/decisions.md
   * "Public API v1").
   */
  async function limit(reply: FastifyReply, rules: RateLimitRule[]): Promise<boolean> {
    const decision = await limiter.checkInOrder(rules);
    showLimits(reply, rules, decision);
    if (decision.allowed) return true;
    await reply.status(429).send({
      message: `Rate limit exceeded. Try again in ${decision.retryAfterSeconds} seconds.`,
      code: 'RATE_LIMITED',
    });
    return false;
  }

  /** Bearer token → request.userId, then the user's limits (100 a minute, 5,000 a day, over all their tokens). */
  async function tokenAuth(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    let userId: number;
    try {
      if (!token) throw tokenMissing();
      userId = await service.tokenOwner(token);
    } catch (err) {
      if (!(await limit(reply, [rule('anonPerIp', request.ip)]))) return reply;
      throw err;
    }
    request.userId = userId;
    if (!(await limit(reply, [rule('perMinute', String(userId)), rule('perDay', String(userId))]))) return reply;
  }

  const bearer = [{ bearerAuth: [] }];
  const errors = <K extends keyof typeof S.ERRORS>(...statuses: K[]) => Object.fromEntries(statuses.map((s) => [s, S.ERRORS[s]])) as Pick<typeof S.ERRORS, K>;

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    await api.register(swagger, openApiOptions(options.publicUrl));
    // Actions without a body (read, favorite, …) come with a JSON content type and nothing, or with nothing at all.
    acceptEmptyJsonBody(api, { asEmptyObject: true });

    // Any origin may call the API from a browser (a web client, an extension): it authenticates by bearer token
    // only, never by cookie, so a foreign page gains nothing it could not do with the token anyway. The limit
    // headers are exposed so such clients can pace themselves.
    api.addHook('onSend', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', CORS_EXPOSED);
    });
    api.options(`${PUBLIC_API_BASE}/*`, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .status(204)
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', 'Authorization, Content-Type')
        .header('access-control-max-age', '86400')
        .send(),
    );

    let document: string | null = null;
    api.get(`${PUBLIC_API_BASE}/openapi.json`, { schema: { hide: true } }, async (_request, reply) => {
      document ??= JSON.stringify(api.swagger());
      return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document);
    });

    api.post(
      `${PUBLIC_API_BASE}/authenticate`,
      {
        schema: {
          tags: ['Authentication'],
          operationId: 'authenticate',
          summary: 'Get an API token',
          description:
            'Exchanges the e-mail address and password of your Feeder account for an API token valid for 365 days. The account must have a confirmed e-mail address (403 otherwise). Each call makes a new token; keep and reuse it rather than authenticating before every call.',
          security: [],
          body: S.AuthenticateBody,
          response: {
            200: S.AuthenticateReply,
            400: S.ERRORS[400],
            401: ErrorSchema('The e-mail address or the password is wrong.', 'AUTH_401_1', 'E-mail or password is wrong.'),
            403: ErrorSchema('The account’s e-mail address is not confirmed yet.', 'AUTH_403_1', 'Please confirm your e-mail address first.'),
            429: ErrorSchema(
              'Too many attempts from this address or for this account; wait for Retry-After seconds.',
              'RATE_LIMITED',
              'Rate limit exceeded. Try again in 540 seconds.',
            ),
          },
        },
        onRequest: async (request, reply) => {
          if (!(await limit(reply, [rule('authPerIp', request.ip)]))) return reply;
        },
        preHandler: async (request, reply) => {
          const account = normalizeEmail((request.body as { username: string }).username);
          if (!(await limit(reply, [rule('authPerAccount', account)]))) return reply;
        },
      },
      async (request) => service.authenticate(request.body.username, request.body.password),
    );

    await api.register(async (plainScope) => {
      const scope = plainScope.withTypeProvider<TypeBoxTypeProvider>();
      scope.addHook('onRequest', tokenAuth);

      scope.get(
        `${PUBLIC_API_BASE}/feeds`,
        {
          schema: {
            tags: ['Feeds'],
            operationId: 'listFeeds',
            summary: 'List your feeds',
            description:
              'Your feeds in your order, each with its unread count and filter state. Muted feeds are left out until you unmute them. With include_favicons=true each feed also carries its icon as base64.',
            security: bearer,
            querystring: S.FeedsQuery,
            response: { 200: S.FeedsReply, ...errors(400, 401, 429) },
          },
        },
        async (request) => service.listFeeds(request.userId, request.query.include_favicons === true),
      );

      scope.post(
        `${PUBLIC_API_BASE}/feeds/search`,
        {
          schema: {
            tags: ['Feeds'],
            operationId: 'searchFeeds',
            summary: 'Find the feeds of an address',
            description:
              'Looks at the address: a feed itself, or a web page whose feeds are linked from it or found at the usual places (/feed, /rss.xml, …). Subscribes to nothing.',
            security: bearer,
            body: S.UrlBody,
            response: { 200: S.SearchReply, ...errors(400, 401), ...S.DISCOVERY_ERRORS, 429: S.ERRORS[429] },
          },
        },
        async (request) => service.searchFeeds(request.userId, request.body.url),
      );

      scope.post(
        `${PUBLIC_API_BASE}/feeds/subscribe`,
        {
          schema: {
            tags: ['Feeds'],
            operationId: 'subscribe',
            summary: 'Subscribe to a feed',
            description:
              'Subscribes you to the feed at the address, or to the first feed found behind a web page’s address, and fetches it at once. Subscribing to a feed you already have is not an error: the answer has is_new false.',
            security: bearer,
            body: S.UrlBody,
            response: { 200: S.SubscribeReply, ...errors(400, 401), ...S.DISCOVERY_ERRORS, 429: S.ERRORS[429] },
          },
        },
        async (request) => service.subscribe(request.userId, request.body.url),
      );

      scope.get(
        `${PUBLIC_API_BASE}/articles`,
        {
          schema: {
            tags: ['Articles'],
            operationId: 'listArticles',
            summary: 'List your articles',
            description:
              'A page of your articles, newest first: of all your feeds, of one (feed_id) or of the feeds in one of your folders (folder_id), read and unread or only unread (unread=true). Articles of muted feeds and articles your filters hide are left out. Page 1 with 20 articles unless you ask for another page or size.',
            security: bearer,
            querystring: S.ArticlesQuery,
            response: {
              200: S.ArticlesReply,
              ...errors(400, 401),
              404: ErrorSchema(
                'You do not subscribe to the feed of feed_id (FEED_NOT_FOUND), or the folder of folder_id is not yours (FOLDER_NOT_FOUND).',
                'FEED_NOT_FOUND',
                'Feed not found.',
              ),
              429: S.ERRORS[429],
            },
          },
        },
        async (request) => service.listArticles(request.userId, request.query),
      );

      scope.post(
        `${PUBLIC_API_BASE}/articles/read/all`,
        {
          schema: {
            tags: ['Articles'],
            operationId: 'markAllRead',
            summary: 'Mark many articles read',
            description:
              'Send exactly one of the two fields. feed_id marks the feed’s unread articles of the last 30 days read (404 when you do not subscribe to it, 403 while it is muted). article_ids marks those articles read; ids that are unknown, not yours, or of muted feeds are ignored.',
            security: bearer,
            body: S.ReadAllBody,
            response: {
              200: S.ReadAllReply,
              400: ErrorSchema(
                'Neither or both of feed_id and article_ids were sent, or a field is malformed.',
                'READ_ALL_SCOPE_REQUIRED',
                'Send exactly one of feed_id and article_ids.',
              ),
              ...errors(401),
              403: ErrorSchema('The feed of feed_id is muted.', 'FEED_MUTED', 'This feed is muted; unmute it to change its articles.'),
              404: ErrorSchema(
                'You do not subscribe to the feed of feed_id (FEED_NOT_FOUND), or the folder of folder_id is not yours (FOLDER_NOT_FOUND).',
                'FEED_NOT_FOUND',
                'Feed not found.',
              ),
              ...errors(429),
            },
          },
        },
        async (request) => service.readAll(request.userId, request.body),
      );

      const stateDocs = {
        read: ['markRead', 'Mark an article read', 'Marks the article read.'],
        unread: ['markUnread', 'Mark an article unread', 'Marks the article unread again.'],
        favorite: ['addFavorite', 'Add an article to your favourites', 'Marks the article as a favourite (a star).'],
        unfavorite: ['removeFavorite', 'Remove an article from your favourites', 'Removes the article from your favourites.'],
      } as const;
      for (const change of ['read', 'unread', 'favorite', 'unfavorite'] as const) {
        const [operationId, summary, description] = stateDocs[change];
        scope.post(
          `${PUBLIC_API_BASE}/articles/:article_id/${change}`,
          {
            schema: {
              tags: ['Articles'],
              operationId,
              summary,
              description: `${description} Doing it twice does no harm. Refused with 403 while the article’s feed is muted. No body is needed.`,
              security: bearer,
              params: S.ArticleParams,
              response: { 200: S.ArticleStateReply, ...errors(400, 401, 403, 404, 429) },
            },
          },
          async (request) => service.setState(request.userId, request.params.article_id, change),
        );
      }
    });
  });
}
