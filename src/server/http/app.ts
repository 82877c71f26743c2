import helmet from '@fastify/helmet';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { ping, type Database } from '../db/database.js';
import { registerErrorHandling } from './errors.js';
import { registerSpa } from './spa.js';

export interface AppDeps {
  config: Readonly<Config>;
  database: Database;
  /** Built web app to serve; defaults to dist/web beside the sources. */
  webDir?: string;
  /** Pino logger options, or false in tests. */
  logger?: boolean | object;
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
    disableRequestLogging: true,
    // Fastify accepts a hop count too (proxy-addr), though its types list only boolean/string.
    trustProxy: deps.config.trustProxy as boolean | string,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerErrorHandling(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        connectSrc: ["'self'"],
        frameSrc: ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'],
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

  await registerSpa(app, deps.webDir ?? DEFAULT_WEB_DIR);
  return app;
}
