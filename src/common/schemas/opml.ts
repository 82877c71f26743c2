import { Type } from 'typebox';

/** OPML import (dashboard.md §7 "Feeds"): POST /api/feeds/import/opml, multipart with the file. */
export const OpmlImportReply = Type.Object({
  imported_count: Type.Integer(),
  existed_count: Type.Integer(),
  /** Outlines skipped as unusable (no or invalid xmlUrl). */
  failed_count: Type.Integer(),
  folders_created: Type.Integer(),
  message: Type.String(),
});
