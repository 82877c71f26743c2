import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../http/types.js';
import { acceptEmptyJsonBody } from '../http/empty-body.js';
import * as S from '../../common/schemas/folders.js';
import type { Services } from '../services.js';

/**
 * Folder endpoints (dashboard.md §7 "Folders"), all for the signed-in user: thin routes over FoldersService
 * (docs/ARCHITECTURE.md "Rules" 1). /api/folders/sort is a static path and wins over /:id in Fastify's router.
 */
export async function registerFoldersRoutes(app: App, services: Pick<Services, 'folders'>): Promise<void> {
  const { folders } = services;

  await app.register(async (plain) => {
    const api = plain.withTypeProvider<TypeBoxTypeProvider>();
    api.addHook('onRequest', app.requireUser);
    acceptEmptyJsonBody(api, { asEmptyObject: true });

    const folder = { params: S.FolderIdParams };

    api.get('/api/folders', { schema: { response: { 200: S.FolderListReply } } }, async (request) => folders.list(request.userId));

    api.post('/api/folders', { schema: { body: S.FolderNameBody, response: { 201: S.FolderReply } } }, async (request, reply) =>
      reply.status(201).send(await folders.create(request.userId, request.body.name)),
    );

    api.post('/api/folders/sort', { schema: { body: S.FolderSortBody, response: { 200: S.FolderListReply } } }, async (request) =>
      folders.sort(request.userId, request.body.folder_order),
    );

    api.put('/api/folders/:id', { schema: { ...folder, body: S.FolderNameBody, response: { 200: S.FolderReply } } }, async (request) =>
      folders.rename(request.userId, request.params.id, request.body.name),
    );

    api.delete('/api/folders/:id', { schema: folder }, async (request, reply) => {
      await folders.remove(request.userId, request.params.id);
      return reply.status(204).send();
    });

    api.post('/api/folders/:id/feeds', { schema: { ...folder, body: S.FolderFeedBody, response: { 200: S.FolderFeedReply } } }, async (request) =>
      folders.addFeed(request.userId, request.params.id, request.body.feed_id),
    );

    api.delete('/api/folders/:id/feeds/:feedId', { schema: { params: S.FolderFeedParams, response: { 200: S.FolderFeedReply } } }, async (request) =>
      folders.removeFeed(request.userId, request.params.id, request.params.feedId),
    );
  });
}
