import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createHash } from 'node:crypto';
import type { App } from '../http/types.js';

/**
 * GET /api/catalog (signed-in; dashboard.md §2 "Feed catalog", §3 "Catalog category", decisions.md: the catalog is a
 * data file in the repo served by the API) → {categories}. The data changes only with a release, so the answer is
 * cacheable: private (it sits behind sign-in), for a day, revalidated by an ETag of its content.
 */
export async function registerCatalogRoutes(app: App): Promise<void> {
  // Loaded on the first request, not at start: most processes never serve it (docs/decisions.md "Process memory:
  // idle and peak").
  let answer: Promise<{ body: string; etag: string }> | null = null;
  const load = async () => {
    const { CATALOG } = await import('./catalog.js');
    const body = JSON.stringify({ categories: CATALOG });
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  };

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);
    api.get('/api/catalog', async (request, reply) => {
      const { body, etag } = await (answer ??= load());
      reply.header('cache-control', 'private, max-age=86400').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.header('content-type', 'application/json; charset=utf-8').send(body);
    });
  });
}
