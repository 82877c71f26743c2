import type { App } from './types.js';
import { isApiPath } from './spa.js';

/**
 * Every answer of the API paths (/api — Fever and Google Reader included —, /auth, /public-api, /healthz), errors
 * and 404s included, carries `Cache-Control: no-store` unless its route chose a policy of its own (the public
 * feed catalogue, icons, the OpenAPI document, the feed summaries and the catalog's subscribed entries revalidated
 * by their entity tag): they hold per-user data and tokens, which no proxy and no shared browser cache may keep
 * (decisions.md "API answers are never cached"). The web app's static files are untouched.
 */
export function registerNoStore(app: App): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control') && isApiPath(request.url.split('?')[0] ?? '/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
