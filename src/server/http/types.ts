import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';

/**
 * What route modules need of the HTTP layer without importing buildApp (app.ts imports every route module; a route
 * module importing app.ts back would be a cycle, docs/decisions.md "Composition root, logging and frozen migrations").
 */

/** The Fastify instance with the TypeBox type provider, as every route module receives it. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** JSON bodies above this are refused with 413 (uploads such as OPML register their own limit). */
export const BODY_LIMIT = 1024 * 1024;
