import type { App } from './types.js';

/**
 * Body-less calls (unmute, refresh, logout, read/all "everything", …) arrive in every form clients produce: no
 * body, or a JSON content type with an empty body (what many fetch wrappers send). In this plugin scope an empty
 * JSON body is read as no body instead of being refused as malformed JSON; with `asEmptyObject`, no body (or a JSON
 * null) becomes `{}`, so a body schema whose fields are all optional accepts it while one with required fields
 * still answers 400.
 */
export function acceptEmptyJsonBody(scope: App, options: { asEmptyObject?: boolean } = {}): void {
  const defaultJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (String(body).trim() === '') return done(null, undefined);
    // Fastify's JSON parser is the callback form: it answers through `done` and returns nothing to wait for.
    void defaultJson(request, body as string, done);
  });
  if (options.asEmptyObject) {
    scope.addHook('preValidation', async (request) => {
      if (request.body === undefined || request.body === null) request.body = {};
    });
  }
}
