import helmet from '@fastify/helmet';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify';
import { fileURLToPath } from 'node:url';
import { AUTH_LIMITS, registerAccountsRoutes, signInRules, type AuthLimits } from '../accounts/accounts.routes.js';
import { AccountsService } from '../accounts/accounts.service.js';
import { DEFAULT_PASSWORD_HASHING, PasswordHasher, type PasswordHashingOptions } from '../accounts/passwords.js';
import { AccessTokens } from '../accounts/tokens.js';
import type { BackgroundWork } from '../background.js';
import { registerArticlesRoutes } from '../articles/articles.routes.js';
import { registerCatalogRoutes } from '../catalog/catalog.routes.js';
import { registerGReaderRoutes } from '../apis/greader/greader.routes.js';
import { registerPublicApiV1, type PublicApiLimits } from '../apis/public-v1/public.routes.js';
import { registerFeedsRoutes } from '../feeds/feeds.routes.js';
import { registerFeverRoutes } from '../apis/fever/fever.routes.js';
import { registerSettingsRoutes } from '../settings/settings.routes.js';
import { registerFoldersRoutes } from '../folders/folders.routes.js';
import { registerReadingListsRoutes } from '../reading-lists/reading-lists.routes.js';
import type { Config } from '../config.js';
import { ping, type Database } from '../db/database.js';
import { createMailer, type Mailer } from '../mail/mailer.js';
import { registerOpmlRoutes } from '../opml/opml.routes.js';
import { EMBED_FRAME_SOURCES, MEDIA_SOURCES } from '../reader/sanitize/index.js';
import { registerAuth } from './auth.js';
import { registerNoStore } from './cache-control.js';
import { registerNulRefusal } from './nul.js';
import { registerErrorHandling } from './errors.js';
import { MemoryRateLimitStore, RateLimiter, type RateLimitStore, type SignInLimit } from './rate-limit.js';
import { registerSpa } from './spa.js';
import type { RefreshEngine } from '../refresh/engine.js';
import { validatorCompiler } from './validation.js';

export interface AppDeps {
  config: Readonly<Config>;
  database: Database;
  /** Built web app to serve; defaults to dist/web beside the sources. */
  webDir?: string;
  /** Pino logger options, or false in tests. */
  logger?: boolean | object;
  /** How mail goes out; default from config (SMTP or the outbox). One passed in is closed by its owner. */
  mailer?: Mailer;
  /** Where rate-limit counts live; default in memory. main.ts passes the Redis store when REDIS_URL is set. */
  rateLimitStore?: RateLimitStore;
  /** argon2id costs; tests lower them. */
  passwordHashing?: PasswordHashingOptions;
  /** The clock for tokens and their expiry; tests move it. */
  clock?: () => Date;
  /** Overrides of the account endpoints' rate limits (tests). */
  authLimits?: Partial<AuthLimits>;
  /** Overrides of the public API's rate limits (tests). */
  publicApiLimits?: Partial<PublicApiLimits>;
  /** The feed refresh engine: routes queue feeds through it (new subscriptions, refresh now). */
  refresh?: RefreshEngine;
  /** Where work after an answer runs (account mails); tests drain it to see its outcome. Drained on close. */
  background?: BackgroundWork;
}

export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../../dist/web', import.meta.url));

/** JSON bodies above this are refused with 413 (uploads such as OPML register their own limit). */
export const BODY_LIMIT = 1024 * 1024;

/** The Fastify instance with the TypeBox type provider, as every route module receives it. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: (deps.logger ?? { level: deps.config.logLevel }) as boolean,
    bodyLimit: BODY_LIMIT,
    // Per-request access lines are noise at info level; errors are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify accepts a hop count too (proxy-addr), though its types list only boolean/string.
    trustProxy: deps.config.trustProxy as boolean | string,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  registerErrorHandling(app);
  // Root hooks, added before any route plugin so that every scope inherits them.
  registerNoStore(app);
  registerNulRefusal(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        connectSrc: ["'self'"],
        // Exactly what the sanitiser lets through (reader/sanitize: embeds are rewritten to these players).
        frameSrc: [...EMBED_FRAME_SOURCES],
        mediaSrc: ["'self'", ...MEDIA_SOURCES],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  app.get('/healthz', async () => {
    await ping(deps.database.db);
    return { status: 'ok' };
  });

  const now = deps.clock ?? (() => new Date());
  const accessTokens = new AccessTokens(deps.config.secret, now);
  registerAuth(app, { accessTokens, db: deps.database.db });
  const mailer = deps.mailer ?? createMailer(deps.config, (line) => app.log.info(line));
  const rateLimitStore = deps.rateLimitStore ?? new MemoryRateLimitStore();
  const hasher = new PasswordHasher(deps.passwordHashing ?? DEFAULT_PASSWORD_HASHING);
  const accounts = new AccountsService({
    db: deps.database.db,
    config: deps.config,
    mailer,
    hasher,
    accessTokens,
    log: app.log,
    now,
    background: deps.background,
  });
  const limiter = new RateLimiter(rateLimitStore, app.log);
  await registerAccountsRoutes(app, { service: accounts, limiter, limits: deps.authLimits });
  // The reader apps' password checks count in the sign-in buckets too (docs/decisions.md "External apps: Fever").
  const authLimits: AuthLimits = { ...AUTH_LIMITS, ...deps.authLimits };
  const signIn: SignInLimit = { limiter, rules: (ip, email) => signInRules(authLimits, ip, email) };
  // The routes that add or fetch feeds need the refresh engine (tests of accounts alone run without one).
  if (deps.refresh) {
    const { db } = deps.database;
    const refresh = deps.refresh;
    await registerFeedsRoutes(app, { db, refresh, now });
    await registerArticlesRoutes(app, { db, fetcher: refresh.fetcher, pool: refresh.pool, now });
    await registerOpmlRoutes(app, { db, refresh, now, allowPrivateHosts: deps.config.feeds.allowPrivateHosts });
    // Google Reader API for reader apps (decisions.md "External apps"; apis/greader/README.md).
    await registerGReaderRoutes(app, { db, config: deps.config, refresh, now, signIn });
    await registerPublicApiV1(app, {
      db,
      hasher,
      refresh,
      limiter,
      limits: deps.publicApiLimits,
      now,
      publicUrl: deps.config.publicUrl,
    });
  }
  await registerCatalogRoutes(app);
  await registerSettingsRoutes(app, { db: deps.database.db, secret: deps.config.secret, now });
  await registerFeverRoutes(app, { db: deps.database.db, now, signIn });
  await registerFoldersRoutes(app, { db: deps.database.db, now });
  await registerReadingListsRoutes(app, { db: deps.database.db, now });
  app.addHook('onClose', async () => {
    await accounts.drain(); // mails still on their way
    if (!deps.mailer) await mailer.close();
    if (!deps.rateLimitStore) await rateLimitStore.close();
  });

  await registerSpa(app, deps.webDir ?? DEFAULT_WEB_DIR);
  return app;
}
