import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { fileURLToPath } from 'node:url';
import { AUTH_LIMITS, registerAccountsRoutes, signInRules, type AuthLimits } from '../accounts/accounts.routes.js';
import type { PasswordHashingOptions } from '../accounts/passwords.js';
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
import { createLogger, type Logger } from '../log.js';
import { createMailer, type Mailer } from '../mail/mailer.js';
import { registerOpmlRoutes } from '../opml/opml.routes.js';
import { createServices, type Services } from '../services.js';
import { EMBED_FRAME_SOURCES, MEDIA_SOURCES } from '../reader/sanitize/sources.js';
import { registerAuth } from './auth.js';
import { registerNoStore } from './cache-control.js';
import { registerNulRefusal } from './nul.js';
import { registerErrorHandling } from './errors.js';
import { MemoryRateLimitStore, RateLimiter, type RateLimitStore, type SignInLimit } from './rate-limit.js';
import { contentSecurityPolicy, registerSecurityHeaders } from './security-headers.js';
import { registerSpa } from './spa.js';
import type { RefreshEngine } from '../refresh/engine.js';
import { BODY_LIMIT, type App } from './types.js';
import { lazyCompilers } from './validation.js';

export { BODY_LIMIT, type App };

export interface AppDeps {
  config: Readonly<Config>;
  database: Database;
  /** Built web app to serve; defaults to dist/web beside the sources. */
  webDir?: string;
  /** The process's logger (log.ts createLogger), Fastify's loggerInstance; default: one made from config.logLevel. */
  log?: Logger;
  /** false: no log at all (tests). */
  logger?: boolean;
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
  /**
   * Receives the services once they are built (services.ts createServices), before any route is registered;
   * tests use it to reach the very instances the routes use.
   */
  onServices?: (services: Services) => void;
}

export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../../dist/web', import.meta.url));

export async function buildApp(deps: AppDeps): Promise<App> {
  // One logger per process (log.ts): Fastify writes through the instance it is given rather than making its own.
  const logging = deps.logger === false ? { logger: false } : { loggerInstance: (deps.log ?? createLogger(deps.config)) as FastifyBaseLogger };
  const app = Fastify({
    ...logging,
    bodyLimit: BODY_LIMIT,
    // Per-request access lines are noise at info level; errors are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify accepts a hop count too (proxy-addr), though its types list only boolean/string.
    trustProxy: deps.config.trustProxy as boolean | string,
    // Validators and serialisers compiled on each route's first request (http/validation.ts).
    schemaController: lazyCompilers,
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerErrorHandling(app);
  // Root hooks, added before any route plugin so that every scope inherits them.
  registerNoStore(app);
  registerNulRefusal(app);
  registerSecurityHeaders(app, contentSecurityPolicy(EMBED_FRAME_SOURCES, MEDIA_SOURCES));

  app.get('/healthz', async () => {
    await ping(deps.database.db);
    return { status: 'ok' };
  });

  const now = deps.clock ?? (() => new Date());
  const mailer = deps.mailer ?? createMailer(deps.config, (line) => app.log.info(line));
  const rateLimitStore = deps.rateLimitStore ?? new MemoryRateLimitStore();
  // Every service, built once (services.ts); each route module receives them.
  const services = createServices({
    db: deps.database.db,
    config: deps.config,
    now,
    log: app.log as Logger,
    mailer,
    passwordHashing: deps.passwordHashing,
    background: deps.background,
    refresh: deps.refresh,
  });
  deps.onServices?.(services);
  const { accounts } = services;
  registerAuth(app, { accessTokens: services.accessTokens, db: deps.database.db });
  const limiter = new RateLimiter(rateLimitStore, app.log);
  await registerAccountsRoutes(app, services, { limiter, limits: deps.authLimits });
  // The reader apps' password checks count in the sign-in buckets too (docs/decisions.md "External apps: Fever").
  const authLimits: AuthLimits = { ...AUTH_LIMITS, ...deps.authLimits };
  const signIn: SignInLimit = { limiter, rules: (ip, email) => signInRules(authLimits, ip, email) };
  // The routes that add or fetch feeds need the refresh engine (tests of accounts alone run without one).
  if (services.feedServices) {
    await registerFeedsRoutes(app, services);
    await registerArticlesRoutes(app, services);
    await registerOpmlRoutes(app, services, { now });
    // Google Reader API for reader apps (decisions.md "External apps"; apis/greader/README.md).
    await registerGReaderRoutes(app, services, { config: deps.config, now, signIn });
    await registerPublicApiV1(app, services, { limiter, limits: deps.publicApiLimits, publicUrl: deps.config.publicUrl });
  }
  await registerCatalogRoutes(app, services);
  await registerSettingsRoutes(app, services);
  await registerFeverRoutes(app, services, { signIn });
  await registerFoldersRoutes(app, services);
  await registerReadingListsRoutes(app, services);
  app.addHook('onClose', async () => {
    await accounts.drain(); // mails still on their way
    if (!deps.mailer) await mailer.close();
    if (!deps.rateLimitStore) await rateLimitStore.close();
  });

  await registerSpa(app, deps.webDir ?? DEFAULT_WEB_DIR);
  return app;
}
