import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acceptEmptyJsonBody } from '../http/empty-body.js';
import { matchesEtag } from '../http/etag.js';
import type { App } from '../http/types.js';
import * as S from '../../common/schemas/feeds.js';
import { feedServicesOf, type Services } from '../services.js';

/**
 * Feed and filter endpoints (dashboard.md §7 "Feeds" and "Filters"), all for the signed-in user. Each route
 * declares its schema, calls one service method and returns its result (docs/ARCHITECTURE.md "Rules" 1).
 * Static paths (/api/feeds/all, /sort, /unread_counts, /search, /set_custom_title, /filters/…) win over /:id in
 * Fastify's router, so they never clash with a feed id.
 */
export async function registerFeedsRoutes(app: App, services: Pick<Services, 'feedServices'>): Promise<void> {
  const { feeds, filters } = feedServicesOf(services);

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);
    // Body-less actions (unmute, refresh, delete) often come with a JSON content type and no body at all.
    acceptEmptyJsonBody(api);

    const feed = { params: S.FeedIdParams };

    // Every feed of the user in one answer, 6.6 MB of JSON at 12,000 feeds. The serialiser Fastify compiles from the
    // response schema (fast-json-stringify) took about seven times as long as JSON.stringify over that array
    // (bench/README.md "Web at scale"), so this route writes it with JSON.stringify: presentFeed builds exactly the
    // schema's fields (feeds.routes.test.ts checks the keys), and the schema still documents the answer.
    api.get('/api/feeds', { schema: { response: { 200: S.FeedListReply } }, serializerCompiler: () => (data) => JSON.stringify(data) }, async (request) =>
      feeds.list(request.userId),
    );

    // The dashboard's start (docs/decisions.md "Feed summaries"): the database writes the JSON, sent as it is, so
    // the route has no response schema (as the catalog; S.FeedSummariesReply describes the answer and types the web
    // app, and the route tests check answers against it). The browser keeps the answer and asks again each time
    // (no-cache) with its entity tag, so an unchanged list costs a 304 and no download or parse.
    api.get('/api/feeds/summaries', async (request, reply) => {
      const { json, etag } = await feeds.summaries(request.userId);
      reply.header('cache-control', 'private, no-cache').header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.header('content-type', 'application/json; charset=utf-8').send(json);
    });

    api.post('/api/feeds', { schema: { body: S.UrlBody, response: { 201: S.AddFeedReply } } }, async (request, reply) =>
      reply.status(201).send(await feeds.add(request.userId, request.body.url)),
    );

    api.get('/api/feeds/unread_counts', { schema: { querystring: S.UnreadCountsQuery, response: { 200: S.UnreadCountsReply } } }, async (request) =>
      feeds.unreadCounts(request.userId, request.query.since),
    );

    api.post('/api/feeds/sort', { schema: { body: S.SortBody, response: { 200: S.FeedListReply } } }, async (request) =>
      feeds.sort(request.userId, request.body.feed_order),
    );

    api.post('/api/feeds/search', { schema: { body: S.UrlBody, response: { 200: S.SearchReply } } }, async (request) => feeds.search(request.userId, request.body.url));

    api.post('/api/feeds/set_custom_title', { schema: { body: S.SetCustomTitleBody, response: { 200: S.FeedSchema } } }, async (request) =>
      feeds.setCustomTitle(request.userId, request.body.feed_id, request.body.custom_title),
    );

    api.delete('/api/feeds/all', async (request, reply) => {
      await feeds.removeAll(request.userId);
      return reply.status(204).send();
    });

    api.put('/api/feeds/:id', { schema: { ...feed, body: S.UpdateFeedBody, response: { 200: S.FeedSchema } } }, async (request) =>
      feeds.update(request.userId, request.params.id, request.body),
    );

    api.delete('/api/feeds/:id', { schema: feed }, async (request, reply) => {
      await feeds.remove(request.userId, request.params.id);
      return reply.status(204).send();
    });

    api.post('/api/feeds/:id/mute', { schema: { ...feed, body: S.MuteBody, response: { 200: S.FeedSchema } } }, async (request) =>
      feeds.mute(request.userId, request.params.id, request.body),
    );

    api.post('/api/feeds/:id/unmute', { schema: { ...feed, response: { 200: S.FeedSchema } } }, async (request) => feeds.unmute(request.userId, request.params.id));

    api.post('/api/feeds/:id/refresh', { schema: { ...feed, response: { 202: S.QueuedReply } } }, async (request, reply) =>
      reply.status(202).send(await feeds.refresh(request.userId, request.params.id)),
    );

    api.get('/api/feeds/:id/filters', { schema: { ...feed, response: { 200: S.FiltersReply } } }, async (request) => filters.list(request.userId, request.params.id));

    api.post('/api/feeds/:id/filters', { schema: { ...feed, body: S.AddFilterBody, response: { 201: S.FeedFilterSchema } } }, async (request, reply) =>
      reply.status(201).send(await filters.add(request.userId, request.params.id, request.body)),
    );

    api.delete('/api/feeds/filters/:filterId', { schema: { params: S.FilterIdParams } }, async (request, reply) => {
      await filters.remove(request.userId, request.params.filterId);
      return reply.status(204).send();
    });
  });

  // Icons are content-addressed (feeds/icons.ts): the address says nothing about who reads the feed, so they are
  // served without sign-in (an <img> sends no bearer token) and cached for good.
  app.get('/api/icons/:hash', { schema: { params: S.IconParams } }, async (request, reply) => {
    const icon = await feeds.icon(request.params.hash);
    return (
      reply
        .header('content-type', icon.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        // An SVG opened on its own must not run anything (it is sanitised when stored; this is the second fence).
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(icon.bytes)
    );
  });
}
