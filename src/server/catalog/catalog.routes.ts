import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as S from '../../common/schemas/catalog.js';
import { matchesEtag } from '../http/etag.js';
import type { App } from '../http/types.js';
import type { Services } from '../services.js';

/**
 * The feed catalog's routes, for the signed-in user (dashboard.md §2 "Feed catalog", §3 "Catalog category").
 * - GET /api/catalog (decisions.md: the catalog is a data file in the repo served by the API) → {categories}. The
 *   data changes only with a release, so the answer is cacheable: private (it sits behind sign-in), for a day,
 *   revalidated by an ETag of its content. It is sent as the service holds it, so the route has no response schema
 *   (S.CatalogReply describes it and types the web app; the route tests check the answer).
 * - GET /api/catalog/subscribed → {subscribed}: the catalog's addresses the user subscribes to (docs/decisions.md
 *   "The catalog's subscribed entries"). Per user: private, no-cache, revalidated by its ETag.
 */
export async function registerCatalogRoutes(app: App, services: Pick<Services, 'catalog'>): Promise<void> {
  const { catalog } = services;

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);

    api.get('/api/catalog', async (request, reply) => {
      const { json, etag } = await catalog.catalog();
      reply.header('cache-control', 'private, max-age=86400').header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.header('content-type', 'application/json; charset=utf-8').send(json);
    });

    api.get('/api/catalog/subscribed', { schema: { response: { 200: S.CatalogSubscribedReply, 304: S.NotModifiedReply } } }, async (request, reply) => {
      const { subscribed, etag } = await catalog.subscribed(request.userId);
      reply.header('cache-control', 'private, no-cache').header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
      return { subscribed };
    });
  });
}
