import type { App } from './types.js';

/**
 * The Content-Security-Policy of every answer: the web app's own scripts and styles only, images and media from
 * anywhere (articles show them), frames only from the players the sanitiser rewrites embeds to (`frameSources`, in
 * reader/sanitize/sources.ts), no plugins, and no page may frame Feeder but its own.
 */
export function contentSecurityPolicy(frameSources: readonly string[], mediaSources: readonly string[]): string {
  return [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' https: data:",
    "form-action 'self'",
    "frame-ancestors 'self'",
    "img-src 'self' data: https: http:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    `frame-src ${frameSources.length > 0 ? frameSources.join(' ') : "'none'"}`,
    `media-src ${["'self'", ...mediaSources].join(' ')}`,
  ].join(';');
}

/**
 * The security headers of every answer, pages, API answers, errors and 404s alike (a route may set its own
 * Content-Security-Policy, as the feed icons do): the policy above and the headers helmet sends by default, which
 * Feeder used to register them (docs/decisions.md "Process memory: the API's schemas as data": the plugin held 0.7
 * MB of heap for what is a fixed list). Set on the raw response when a request arrives, so that a route's own
 * header of the same name wins.
 */
export function registerSecurityHeaders(app: App, csp: string): void {
  const headers: [string, string][] = [
    ['Content-Security-Policy', csp],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Origin-Agent-Cluster', '?1'],
    ['Referrer-Policy', 'no-referrer'],
    ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-DNS-Prefetch-Control', 'off'],
    ['X-Download-Options', 'noopen'],
    ['X-Frame-Options', 'SAMEORIGIN'],
    ['X-Permitted-Cross-Domain-Policies', 'none'],
    ['X-XSS-Protection', '0'],
  ];
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
