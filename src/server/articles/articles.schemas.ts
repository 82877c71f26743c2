import { Type } from 'typebox';
import { FeedFilterSchema, Id } from '../feeds/feeds.schemas.js';

/**
 * Request and response schemas of the article endpoints (dashboard.md §3, §7 "Articles"). They describe
 * src/common/api.ts exactly (Article, ArticlePage, ArticleStateResponse, MarkReadResponse,
 * ExtractContentResponse): Fastify serialises responses with them.
 */
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** Page size of every list (dashboard.md §9: 20) and the most a client may ask for. */
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Article ids per mark-read call. */
export const MAX_MARK_IDS = 1000;
/** Longest search query, after trimming. */
export const MAX_QUERY_LENGTH = 200;

/** show_read and ids_only: true/false/1/0 (the spec's reading-list call sends 1 or 0); kept as text, read by flag(). */
const BoolParam = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);
export const flag = (value: string | undefined, fallback: boolean) => (value === undefined ? fallback : value === 'true' || value === '1');

const PagingProps = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE })),
};

export const ListQuery = Type.Object({ ...PagingProps, show_read: Type.Optional(BoolParam) });
export const PagingQuery = Type.Object(PagingProps);
/** q is checked by the service (trimmed: required, at most 200 characters) so that each case has its code. */
export const SearchQuery = Type.Object({
  ...PagingProps,
  show_read: Type.Optional(BoolParam),
  q: Type.Optional(Type.String({ maxLength: 10_000 })),
  feed_id: Type.Optional(Id),
});
export const ReadIdsQuery = Type.Object({ ids_only: Type.Optional(BoolParam) });

export const ArticleIdParams = Type.Object({ id: Id });
export const FeedIdParams = Type.Object({ id: Id });

export const ArticleSchema = Type.Object({
  id: Type.Integer(),
  url: NullableString,
  title: Type.String(),
  summary: Type.String(),
  content: NullableString,
  author: NullableString,
  image_url: NullableString,
  published_at: Type.String(),
  feed_id: Type.Integer(),
  feed_title: Type.String(),
  feed_favicon: NullableString,
  feed_favicon_base64: NullableString,
  feed_favicon_type: NullableString,
  is_read: Type.Boolean(),
  is_favorite: Type.Boolean(),
  in_reading_list: Type.Boolean(),
});

export const ActiveFilterSchema = Type.Object({ ...FeedFilterSchema.properties, feed_title: Type.String() });

export const ArticlePageReply = Type.Object({
  articles: Type.Array(ArticleSchema),
  total: Type.Integer(),
  current_page: Type.Integer(),
  pages: Type.Integer(),
  per_page: Type.Integer(),
  active_filters: Type.Array(ActiveFilterSchema),
  has_active_filters: Type.Boolean(),
});

export const ArticleStateReply = Type.Object({ id: Type.Integer(), is_read: Type.Boolean(), is_favorite: Type.Boolean() });
export const MarkReadReply = Type.Object({ marked: Type.Integer() });
export const ReadIdsReply = Type.Array(Type.Integer());
export const FavoriteIdsReply = Type.Object({ favorite_article_ids: Type.Array(Type.Integer()) });
/** GET /api/articles/{id}/reading-lists: ArticleReadingListRef[] of src/common/api.ts. */
export const ArticleReadingListsReply = Type.Object({
  reading_lists: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), is_smart: Type.Boolean() })),
});

export const MarkReadBody = Type.Object({ article_ids: Type.Array(Id, { maxItems: MAX_MARK_IDS }) });
/** read/all: one feed, one reading list, some ids, or (empty body) everything visible. */
export const ReadAllBody = Type.Object({
  feed_id: Type.Optional(Id),
  /** One of the user's reading lists: its visible unread members. */
  reading_list_id: Type.Optional(Id),
  article_ids: Type.Optional(Type.Array(Id, { maxItems: MAX_MARK_IDS })),
});

export const ExtractBody = Type.Object({
  /** Only the article's own URL is ever fetched; a different URL here is ignored. */
  url: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])),
  articleId: Id,
});
export const ExtractReply = Type.Object({
  content: Type.String(),
  warning: NullableString,
  error: NullableString,
  cached: Type.Boolean(),
});
