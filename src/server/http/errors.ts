import { CODES } from '../../common/codes.js';
import type { FastifyError } from 'fastify';
import type { App } from './types.js';
import { isDatabaseUnavailable } from '../db/database.js';
import { AppError } from '../errors.js';

/**
 * One error shape for every client-facing failure: `{message, code}` (docs/ARCHITECTURE.md "Rules" 5).
 * Fastify's own errors (validation, malformed JSON, body too large, wrong content type) keep their 4xx
 * status with a stable code; anything unexpected is logged with its request and answered 500 without internals.
 */
const FASTIFY_CODES: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is empty but declared as JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'This content type is not supported here.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'INVALID_CONTENT_LENGTH', message: 'The Content-Length header does not match the body.' },
};

export function registerErrorHandling(app: App): void {
  app.setErrorHandler((err: FastifyError | AppError | Error, request, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).send({ ...err.extra, message: err.message, code: err.code });
    }
    const fe = err as FastifyError;
    if (fe.validation) {
      const first = fe.validation[0];
      const where = first?.instancePath
        ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
        : (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
      const message = where ? `Invalid request: ${where} ${first?.message ?? 'is invalid'}` : `Invalid request: ${fe.message}`;
      return reply.status(400).send({ message, code: 'VALIDATION_ERROR' });
    }
    const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
    if (known) return reply.status(fe.statusCode ?? 400).send(known);
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.status(fe.statusCode).send({ message: fe.message, code: fe.code ?? `HTTP_${fe.statusCode}` });
    }
    if (isDatabaseUnavailable(err)) {
      // The database did not answer within its bounds (db/database.ts): a clear, retryable 503, not a hang or a 500.
      request.log.error({ err, url: request.url, method: request.method }, 'database unavailable');
      return reply.status(503).header('retry-after', '30').send({ message: CODES.DATABASE_UNAVAILABLE, code: 'DATABASE_UNAVAILABLE' });
    }
    request.log.error({ err, url: request.url, method: request.method }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal server error.', code: 'INTERNAL_ERROR' });
  });
}
