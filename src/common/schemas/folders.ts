import { Type } from 'typebox';
import { MAX_ORDER_IDS, MAX_TEXT_FIELD } from '../limits.js';
import { Id } from './common.js';

/**
 * Request and response schemas of the folder endpoints (dashboard.md §3 "Folder", §7 "Folders"). Fastify serialises
 * responses with them. The name's rules (required after trimming, at most MAX_FOLDER_NAME_LENGTH characters) are
 * checked by the service so each failure has its code; the schema only bounds the size.
 */

/** GET /api/folders → {folders: Folder[]}; POST/PUT answer {folder}. */
export const FolderSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** Feed ids (feeds.id) in this folder, in the user's feed order. */
  feeds: Type.Array(Type.Integer()),
  sort_order: Type.Integer(),
  created_at: Type.String(),
});

export const FolderReply = Type.Object({ folder: FolderSchema });
export const FolderListReply = Type.Object({ folders: Type.Array(FolderSchema) });
/**
 * POST /api/folders/{id}/feeds and DELETE /api/folders/{id}/feeds/{feedId}: the folder afterwards, and what happened
 * (FEED_ALREADY_IN_FOLDER is an info, not an error: dashboard.md §8 "Folders").
 */
export const FolderFeedReply = Type.Object({
  folder: FolderSchema,
  code: Type.Union([Type.Literal('FEED_MOVED_TO_FOLDER'), Type.Literal('FEED_ALREADY_IN_FOLDER'), Type.Literal('FEED_REMOVED_FROM_FOLDER')]),
  message: Type.String(),
});

export const FolderIdParams = Type.Object({ id: Id });
export const FolderFeedParams = Type.Object({ id: Id, feedId: Id });

/** name is optional here so that a missing one is FOLDER_NAME_REQUIRED like a blank one. */
export const FolderNameBody = Type.Object({ name: Type.Optional(Type.Union([Type.String({ maxLength: MAX_TEXT_FIELD }), Type.Null()])) });
export const FolderFeedBody = Type.Object({ feed_id: Id });
export const FolderSortBody = Type.Object({ folder_order: Type.Array(Id, { maxItems: MAX_ORDER_IDS }) });
