import { Type } from 'typebox';
import { Id } from '../feeds/feeds.schemas.js';

/**
 * Request and response schemas of the folder endpoints (dashboard.md §3 "Folder", §7 "Folders"). They describe
 * src/common/api.ts (Folder, FolderFeedResponse) exactly: Fastify serialises responses with them. The name's rules
 * (required after trimming, at most 100 characters) are checked by the service so each failure has its code; the
 * schema only bounds the size.
 */
export const FolderSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  feeds: Type.Array(Type.Integer()),
  sort_order: Type.Integer(),
  created_at: Type.String(),
});

export const FolderReply = Type.Object({ folder: FolderSchema });
export const FolderListReply = Type.Object({ folders: Type.Array(FolderSchema) });
export const FolderFeedReply = Type.Object({
  folder: FolderSchema,
  code: Type.Union([Type.Literal('FEED_MOVED_TO_FOLDER'), Type.Literal('FEED_ALREADY_IN_FOLDER'), Type.Literal('FEED_REMOVED_FROM_FOLDER')]),
  message: Type.String(),
});

export const FolderIdParams = Type.Object({ id: Id });
export const FolderFeedParams = Type.Object({ id: Id, feedId: Id });

/** name is optional here so that a missing one is FOLDER_NAME_REQUIRED like a blank one. */
export const FolderNameBody = Type.Object({ name: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])) });
export const FolderFeedBody = Type.Object({ feed_id: Id });
export const FolderSortBody = Type.Object({ folder_order: Type.Array(Id, { maxItems: 10_000 }) });
