import fastifyStatic from '@fastify/static';
import type { App } from './types.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Paths that belong to the server; everything else is the single-page app's. */
const API_PREFIXES = ['/api/', '/auth/', '/public-api/', '/healthz'];
export const isApiPath = (url: string) => API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));

/**
 * Serves the built web app (dist/web): hashed assets with a long cache, and index.html for every other
 * GET so that client-side routes (/login, /dashboard/settings, …) survive a reload.
 * Unknown API paths get a JSON 404 `{message, code}`.
 */
export async function registerSpa(app: App, webDir: string): Promise<void> {
  const indexFile = join(webDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // We set Cache-Control ourselves: hashed files under assets/ never change, everything else is revalidated.
      cacheControl: false,
      setHeaders(res, path) {
        const immutable = path.startsWith(join(webDir, 'assets'));
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const indexHtml = hasBuild ? readFileSync(indexFile, 'utf8') : null;
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isApiPath(path) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ message: `No such endpoint: ${request.method} ${path}`, code: 'NOT_FOUND' });
    }
    if (!indexHtml) {
      return reply.status(503).type('text/plain; charset=utf-8').send('The web app has not been built yet: run `npm run build` (npm start does this for you).');
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
