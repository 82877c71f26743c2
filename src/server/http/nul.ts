import type { App } from './types.js';
import { refuseNul } from '../nul.js';

/**
 * Request input with U+0000 is refused with 400 INVALID_CHARACTERS on every endpoint, both databases alike
 * (decisions.md "No NUL characters"). One place for the whole app: these root hooks see every header, query
 * string, path parameter and parsed body (JSON, urlencoded, multipart fields). Bodies a route reads itself (the
 * Google Reader form text, an uploaded OPML file) call `refuseNul` on what they decode.
 */
export function registerNulRefusal(app: App): void {
  // Headers, query and path first, before any route's own onRequest hook (sign-in checks read the Authorization
  // header and look tokens up).
  app.addHook('onRequest', async (request) => {
    refuseNul(request.headers);
    refuseNul(request.query);
    refuseNul(request.params);
  });
  // The body once parsed, before schema validation (so an enum field with a NUL is INVALID_CHARACTERS too, not
  // VALIDATION_ERROR) …
  app.addHook('preValidation', async (request) => {
    refuseNul(request.body);
  });
  // … and multipart fields once @fastify/multipart has attached them, in its own preValidation hook, which runs
  // after this root one.
  app.addHook('preHandler', async (request) => {
    if (request.isMultipart?.()) refuseNul(request.body);
  });
}
