import { Type } from 'typebox';
import { MAX_MARK_IDS, MAX_PAGE, MAX_PER_PAGE, MAX_TEXT_FIELD, MAX_UNDO_TOKEN_LENGTH, MAX_URL_LENGTH } from '../limits.js';
import { Id, NullableString } from './common.js';
import { FeedFilterSchema } from './feeds.js';

/**
 * Request and response schemas of the article endpoints (dashboard.md §3, §7 "Articles"). Fastify serialises
 * responses with them, so a response can never carry a field that is not listed here.
 */

/** show_read and ids_only: true/false/1/0 (the spec's reading-list call sends 1 or 0); kept as text, read by flag() (query-flag.ts). */
const BoolParam = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

const PagingProps = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE })),
};

export const ListQuery = Type.Object({ ...PagingProps, show_read: Type.Optional(BoolParam) });
export const PagingQuery = Type.Object(PagingProps);
/** q is checked by the service (trimmed: required, at most MAX_QUERY_LENGTH characters) so that each case has its code. */
export const SearchQuery = Type.Object({
  ...PagingProps,
  show_read: Type.Optional(BoolParam),
  q: Type.Optional(Type.String({ maxLength: MAX_TEXT_FIELD })),
  feed_id: Type.Optional(Id),
  /** Search within one of the user's folders (its feeds' articles); not together with feed_id. */
  folder_id: Type.Optional(Id),
});
export const ReadIdsQuery = Type.Object({ ids_only: Type.Optional(BoolParam) });

export const ArticleIdParams = Type.Object({ id: Id });
export const FeedIdParams = Type.Object({ id: Id });
export const FolderIdParams = Type.Object({ id: Id });

export const ArticleSchema = Type.Object({
  id: Type.Integer(),
  url: NullableString,
  title: Type.String(),
  /** Plain text, at most about 600 characters, for the compact card. */
  summary: Type.String(),
  /** Sanitised HTML (content, else the feed's summary); the extended card shows it. */
  content: NullableString,
  author: NullableString,
  image_url: NullableString,
  /** UTC ISO 8601 with Z. */
  published_at: Type.String(),
  feed_id: Type.Integer(),
  feed_title: Type.String(),
  feed_favicon: NullableString,
  feed_favicon_base64: NullableString,
  feed_favicon_type: NullableString,
  is_read: Type.Boolean(),
  is_favorite: Type.Boolean(),
  /** true when the article is in at least one of the user's reading lists. */
  in_reading_list: Type.Boolean(),
});

export const ActiveFilterSchema = Type.Object({ ...FeedFilterSchema.properties, feed_title: Type.String() });

/** GET /api/articles, /api/feeds/{id}/articles, /api/folders/{id}/articles, /api/articles/search, /api/articles/favorites. */
export const ArticlePageReply = Type.Object({
  articles: Type.Array(ArticleSchema),
  total: Type.Integer(),
  current_page: Type.Integer(),
  pages: Type.Integer(),
  per_page: Type.Integer(),
  active_filters: Type.Array(ActiveFilterSchema),
  has_active_filters: Type.Boolean(),
});

/** POST /api/articles/{id}/read|unread|favorite|unfavorite. */
export const ArticleStateReply = Type.Object({ id: Type.Integer(), is_read: Type.Boolean(), is_favorite: Type.Boolean() });
/**
 * POST /api/articles/read/all and /api/articles/mark-read: how many articles changed, and the token that undoes
 * exactly these marks (POST /api/articles/read/undo, for READ_UNDO_MINUTES); null when nothing changed.
 */
export const MarkReadReply = Type.Object({ marked: Type.Integer(), undo_token: NullableString });
/** POST /api/articles/read/undo. */
export const UndoReadBody = Type.Object({ undo_token: Type.String({ minLength: 1, maxLength: MAX_UNDO_TOKEN_LENGTH }) });
/** POST /api/articles/read/undo: how many articles are unread again. */
export const UndoReadReply = Type.Object({ restored: Type.Integer() });
export const ReadIdsReply = Type.Array(Type.Integer());
export const FavoriteIdsReply = Type.Object({ favorite_article_ids: Type.Array(Type.Integer()) });
/** A reading list an article is in. */
export const ArticleReadingListRefSchema = Type.Object({ id: Type.Integer(), name: Type.String(), is_smart: Type.Boolean() });
/** GET /api/articles/{id}/reading-lists: the lists the article is in. */
export const ArticleReadingListsReply = Type.Object({ reading_lists: Type.Array(ArticleReadingListRefSchema) });

export const MarkReadBody = Type.Object({ article_ids: Type.Array(Id, { maxItems: MAX_MARK_IDS }) });
/** read/all: one feed, one folder, one reading list, some ids, or (empty body) everything visible. */
export const ReadAllBody = Type.Object({
  feed_id: Type.Optional(Id),
  /** One of the user's folders: its feeds' visible unread articles. */
  folder_id: Type.Optional(Id),
  /** One of the user's reading lists: its visible unread members. */
  reading_list_id: Type.Optional(Id),
  article_ids: Type.Optional(Type.Array(Id, { maxItems: MAX_MARK_IDS })),
});

export const ExtractBody = Type.Object({
  /** Only the article's own URL is ever fetched; a different URL here is ignored. */
  url: Type.Optional(Type.Union([Type.String({ maxLength: MAX_URL_LENGTH }), Type.Null()])),
  articleId: Id,
});
/** POST /api/extract-article-content. On failure content is the article's own content and warning says why. */
export const ExtractReply = Type.Object({
  content: Type.String(),
  /** feed-errors code (e.g. EXTRACT_FAILED) when the full text could not be loaded; null on success. */
  warning: NullableString,
  error: NullableString,
  cached: Type.Boolean(),
});
