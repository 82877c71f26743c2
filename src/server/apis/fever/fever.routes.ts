import type { App } from '../../http/types.js';
import type { SignInLimit } from '../../http/rate-limit.js';
import { parseFeverParams } from './fever.params.js';
import type { Services } from '../../services.js';
import { multipartFields } from '../../http/multipart.js';

/**
 * /api/fever.php (dashboard.md §7 "Fever API": the URL shown in settings; README.md beside this file): GET or POST,
 * arguments in the query string and/or a urlencoded or multipart body. The body parsers are registered in this
 * plugin's scope only, so the rest of the app keeps its JSON-only behaviour. Authentication is the protocol's own
 * api_key (never the web app's bearer token), and a failure is an HTTP 200 with `auth: 0`.
 */
export interface FeverRoutesOptions {
  /** The web sign-in's limit: wrong api_keys count in its per-address bucket (README.md "Signing in"). */
  signIn: SignInLimit;
}

/** Fever arguments are a few short fields; a body beyond this is not a Fever call. */
const FORM_LIMIT = 64 * 1024;

export const FEVER_PATH = '/api/fever.php';

/** The methods a Fever URL answers (OPTIONS tells them). */
const ALLOW = 'GET, POST, OPTIONS';

/**
 * An urlencoded body's fields as the query string's are read: a repeated name gives every value in order, so a
 * repeated argument means the same in the body as in the query (the first counts; fever.params.ts).
 */
export function formFields(body: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = fields[name];
    if (seen === undefined) fields[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else fields[name] = [seen, value];
  }
  return fields;
}

export async function registerFeverRoutes(app: App, services: Pick<Services, 'fever'>, options: FeverRoutesOptions): Promise<void> {
  const { fever } = services;

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
      done(null, formFields(body as string));
    });
    // A multipart type without a boundary cannot be read at all (busboy throws a plain error, which would be a
    // 500): such a body is treated as none, like any other unreadable one below.
    scope.addHook('onRequest', async (request) => {
      const type = request.headers['content-type'];
      if (typeof type === 'string' && /^\s*multipart\//i.test(type) && !/;\s*boundary=/i.test(type)) request.headers['content-type'] = 'application/octet-stream';
    });
    // multipart/form-data (what Reeder and several iOS clients post): fields only; a file part is refused (413).
    await scope.register(multipartFields, {
      attachFieldsToBody: 'keyValues',
      limits: { fields: 50, fieldSize: FORM_LIMIT, fieldNameSize: 100, files: 0, parts: 60, headerPairs: 50 },
    });
    // Anything else (JSON, text, no type): read as arguments when it is a JSON object, else ignored; Fever has no
    // error channel, so an odd body never turns into an error answer.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(null, undefined);
      }
    });
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FORM_LIMIT }, (_request, _body, done) => done(null, undefined));

    const { limiter } = options.signIn;
    for (const url of [FEVER_PATH, `${FEVER_PATH}/`]) {
      // A preflight or a client probing the endpoint: no body, the methods in Allow.
      scope.route({ method: 'OPTIONS', url, handler: async (_request, reply) => reply.status(204).header('allow', ALLOW).send() });
      scope.route({
        method: ['GET', 'POST'],
        url,
        handler: async (request, reply) => {
          // Per-user data: never kept by a proxy or the client's HTTP cache.
          reply.header('cache-control', 'no-store');
          const params = parseFeverParams(request.query, request.body);
          // Guessing api_keys is guessing passwords: wrong keys count in the sign-in bucket of the address. Only
          // failures count (clients send the key with every call), so a full bucket refuses every key, the right
          // one included, or the guess that hits would still get through. Refused: 429 with Retry-After and
          // Fever's own unauthenticated answer (README.md "Signing in").
          const rules = options.signIn.rules(request.ip);
          const full = await limiter.full(rules);
          if (!full.allowed) return reply.status(429).header('retry-after', String(full.retryAfterSeconds)).send(fever.unauthenticated());
          const answer = await fever.handle(params);
          if (answer.auth === 0 && params.apiKey !== undefined) await limiter.check(rules);
          return answer;
        },
      });
    }
  });
}
