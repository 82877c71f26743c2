import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { flag } from '../../common/query-flag.js';
import { ArticlePageReply, ListQuery } from '../../common/schemas/articles.js';
import type { App } from '../http/types.js';
import { acceptEmptyJsonBody } from '../http/empty-body.js';
import * as S from '../../common/schemas/reading-lists.js';
import type { Services } from '../services.js';

/**
 * Reading-list endpoints (dashboard.md §7 "Reading lists"), all for the signed-in user: thin routes over
 * ReadingListsService (docs/ARCHITECTURE.md "Rules" 1). Static paths (/unread_counts, /sort) win over /:id in Fastify's router.
 */
export async function registerReadingListsRoutes(app: App, services: Pick<Services, 'readingLists'>): Promise<void> {
  const lists = services.readingLists;

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);
    acceptEmptyJsonBody(api, { asEmptyObject: true });

    const list = { params: S.ListIdParams };
    const member = { params: S.ListArticleParams };

    api.get('/api/reading-lists', { schema: { response: { 200: S.ReadingListsReply } } }, async (request) => lists.list(request.userId));

    api.post('/api/reading-lists', { schema: { body: S.ReadingListBody, response: { 201: S.ReadingListReply } } }, async (request, reply) =>
      reply.status(201).send(await lists.create(request.userId, request.body)),
    );

    api.get('/api/reading-lists/unread_counts', { schema: { response: { 200: S.UnreadCountsReply } } }, async (request) => lists.unreadCounts(request.userId));

    api.post('/api/reading-lists/sort', { schema: { body: S.SortBody, response: { 200: S.ReadingListsReply } } }, async (request) =>
      lists.sort(request.userId, request.body.reading_list_order),
    );

    api.get('/api/reading-lists/:id', { schema: { ...list, response: { 200: S.ReadingListReply } } }, async (request) => lists.get(request.userId, request.params.id));

    api.put('/api/reading-lists/:id', { schema: { ...list, body: S.ReadingListBody, response: { 200: S.ReadingListReply } } }, async (request) =>
      lists.update(request.userId, request.params.id, request.body),
    );

    api.delete('/api/reading-lists/:id', { schema: list }, async (request, reply) => {
      await lists.remove(request.userId, request.params.id);
      return reply.status(204).send();
    });

    // show_read defaults to 1 here: a reading list is a collection the user keeps, read articles included.
    api.get('/api/reading-lists/:id/articles', { schema: { ...list, querystring: ListQuery, response: { 200: ArticlePageReply } } }, async (request) =>
      lists.articles(request.userId, request.params.id, { ...request.query, showRead: flag(request.query.show_read, true) }),
    );

    api.post('/api/reading-lists/:id/articles/:articleId', { schema: { ...member, response: { 201: S.ReadingListReply } } }, async (request, reply) =>
      reply.status(201).send(await lists.addArticle(request.userId, request.params.id, request.params.articleId)),
    );

    api.delete('/api/reading-lists/:id/articles/:articleId', { schema: { ...member, response: { 200: S.ReadingListReply } } }, async (request) =>
      lists.removeArticle(request.userId, request.params.id, request.params.articleId),
    );
  });
}
