import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag } from './etag.js';
import type { App } from './types.js';
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

/** Paths that belong to the server; everything else is the single-page app's. */
const API_PREFIXES = ['/api/', '/auth/', '/public-api/', '/healthz'];
export const isApiPath = (url: string) => API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));

/** What the web build holds, by extension; anything else is sent as bytes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/** The files of the web build as URL paths relative to `dir` ("assets/app-abc.js"); hidden files are left out. */
function webFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    // A route's URL is a pattern to Fastify's router: names with its special characters (a Vite build makes none) are left out.
    if (entry.name.startsWith('.') || /[:*?#%\s]/.test(entry.name)) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...webFiles(dir, path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * Serves the built web app (dist/web): hashed assets with a long cache, and index.html for every other
 * GET so that client-side routes (/login, /dashboard/settings, …) survive a reload.
 * Unknown API paths get a JSON 404 `{message, code}`.
 *
 * The build's files get a route each, listed when the server starts (so no URL reaches outside the build), with a
 * validator (a weak ETag of size and modification time, and Last-Modified) and a 304 to a matching conditional GET.
 * Our own rather than @fastify/static, which with glob and its send library held 2 MB of every server's heap for
 * these few files (docs/decisions.md "Process memory: the API's schemas as data"). Range requests are not served:
 * a browser asks for none of these files in parts, and a server may answer a Range request with the whole file.
 */
export async function registerSpa(app: App, webDir: string): Promise<void> {
  const indexFile = join(webDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    const assets = join(webDir, 'assets');
    for (const file of webFiles(webDir)) {
      const path = join(webDir, file);
      // We set Cache-Control ourselves: hashed files under assets/ never change, everything else is revalidated.
      const cacheControl = path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache';
      const contentType = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      const serve = async (request: FastifyRequest, reply: FastifyReply) => {
        const info = await stat(path).catch(() => null);
        if (!info?.isFile()) return reply.callNotFound();
        const tag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
        const modifiedMs = Math.floor(info.mtimeMs / 1000) * 1000;
        reply.header('cache-control', cacheControl).header('etag', `W/${tag}`).header('last-modified', new Date(modifiedMs).toUTCString());
        const inm = request.headers['if-none-match'];
        const ims = request.headers['if-modified-since'];
        // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.2.2).
        const fresh = inm !== undefined ? matchesEtag(inm, tag) : ims !== undefined && Date.parse(ims) >= modifiedMs;
        if (fresh) return reply.status(304).send();
        reply.type(contentType).header('content-length', info.size);
        if (request.method === 'HEAD') return reply.send();
        return reply.send(createReadStream(path));
      };
      app.route({ method: ['GET', 'HEAD'], url: `/${file}`, exposeHeadRoute: false, handler: serve });
    }
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
