import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acceptEmptyJsonBody } from '../http/empty-body.js';
import type { App } from '../http/types.js';
import { flag } from '../../common/query-flag.js';
import * as S from '../../common/schemas/articles.js';
import { feedServicesOf, type Services } from '../services.js';

/**
 * Article endpoints (dashboard.md §7 "Articles"), all for the signed-in user: thin routes over ArticlesService
 * and ExtractService (docs/ARCHITECTURE.md "Rules" 1). Static paths (/search, /read, /read/all, /mark-read, /favorites…) win
 * over /:id in Fastify's router. Actions take an empty body, a JSON content type with no body, or no body at all.
 */
export async function registerArticlesRoutes(app: App, services: Pick<Services, 'articles' | 'feedServices'>): Promise<void> {
  const { articles } = services;
  const extractor = feedServicesOf(services).extract;

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);
    // No body at all is an empty one (read/all's "everything"); bodies that must carry fields still say so (400).
    acceptEmptyJsonBody(api, { asEmptyObject: true });

    const page = { 200: S.ArticlePageReply };
    const article = { params: S.ArticleIdParams, response: { 200: S.ArticleStateReply } };

    api.get('/api/articles', { schema: { querystring: S.ListQuery, response: page } }, async (request) =>
      articles.list(request.userId, { ...request.query, showRead: flag(request.query.show_read, false) }),
    );

    api.get('/api/feeds/:id/articles', { schema: { params: S.FeedIdParams, querystring: S.ListQuery, response: page } }, async (request) =>
      articles.list(request.userId, { ...request.query, feedId: request.params.id, showRead: flag(request.query.show_read, false) }),
    );

    // A folder's feeds as one stream (dashboard.md §4 "Folders"); 404 FOLDER_NOT_FOUND for a foreign folder.
    api.get('/api/folders/:id/articles', { schema: { params: S.FolderIdParams, querystring: S.ListQuery, response: page } }, async (request) =>
      articles.list(request.userId, { ...request.query, folderId: request.params.id, showRead: flag(request.query.show_read, false) }),
    );

    api.get('/api/articles/search', { schema: { querystring: S.SearchQuery, response: page } }, async (request) =>
      articles.search(request.userId, {
        ...request.query,
        feedId: request.query.feed_id,
        folderId: request.query.folder_id,
        showRead: flag(request.query.show_read, false),
      }),
    );

    // ids_only=true is what the spec's client sends; ids are the only form this answer has (at most 10,000, newest first).
    api.get('/api/articles/read', { schema: { querystring: S.ReadIdsQuery, response: { 200: S.ReadIdsReply } } }, async (request) => articles.readIds(request.userId));

    api.get('/api/articles/favorites', { schema: { querystring: S.PagingQuery, response: page } }, async (request) => articles.favorites(request.userId, request.query));

    api.get('/api/articles/favorites/ids', { schema: { response: { 200: S.FavoriteIdsReply } } }, async (request) => articles.favoriteIds(request.userId));

    api.post('/api/articles/mark-read', { schema: { body: S.MarkReadBody, response: { 200: S.MarkReadReply } } }, async (request) =>
      articles.markRead(request.userId, request.body.article_ids),
    );

    api.post('/api/articles/read/all', { schema: { body: S.ReadAllBody, response: { 200: S.MarkReadReply } } }, async (request) =>
      articles.readAll(request.userId, request.body),
    );

    api.post('/api/articles/read/undo', { schema: { body: S.UndoReadBody, response: { 200: S.UndoReadReply } } }, async (request) =>
      articles.undoRead(request.userId, request.body.undo_token),
    );

    for (const change of ['read', 'unread', 'favorite', 'unfavorite'] as const) {
      api.post(`/api/articles/:id/${change}`, { schema: article }, async (request) => articles.setState(request.userId, request.params.id, change));
    }

    api.get('/api/articles/:id/reading-lists', { schema: { params: S.ArticleIdParams, response: { 200: S.ArticleReadingListsReply } } }, async (request) =>
      articles.readingListsOf(request.userId, request.params.id),
    );

    api.post('/api/extract-article-content', { schema: { body: S.ExtractBody, response: { 200: S.ExtractReply } } }, async (request) =>
      extractor.extract(request.userId, request.body.articleId),
    );
  });
}
