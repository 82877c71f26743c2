import { Type } from 'typebox';

/**
 * Request and response schemas of the feed and filter endpoints (dashboard.md §3, §7 "Feeds" and "Filters").
 * They describe src/common/api.ts exactly: Fastify serialises responses with them, so a response can never carry a
 * field that is not listed here. Rules whose failure has its own code (URL_REQUIRED, FILTER_TEXT_REQUIRED,
 * CUSTOM_TITLE_TOO_LONG, INVALID_MUTE_DURATION, …) are checked by the services; the schemas bound types and sizes.
 */

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const NullableString = Nullable(Type.String());
/** Database ids are 32-bit on PostgreSQL; a larger number could never name a row (and must not reach the query). */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const FeedSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  original_title: Type.String(),
  custom_title: NullableString,
  url: Type.String(),
  site_url: NullableString,
  description: NullableString,
  favicon_base64: NullableString,
  favicon_type: NullableString,
  favicon_url: NullableString,
  is_muted: Type.Boolean(),
  muted_permanently: Type.Boolean(),
  muted_until: NullableString,
  sort_order: Type.Integer(),
  folder_id: Type.Union([Type.Integer(), Type.Null()]),
  last_error_code: NullableString,
  last_fetched_at: NullableString,
  created_at: Type.String(),
});

export const FeedListReply = Type.Array(FeedSchema);

export const AddFeedReply = Type.Object({ ...FeedSchema.properties, is_new: Type.Boolean() });

export const FeedIdParams = Type.Object({ id: Id });
export const FilterIdParams = Type.Object({ filterId: Id });
/** A content address of feeds/icons.ts: 32 lower-case hex characters. */
export const IconParams = Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{32}$' }) });

/** POST /api/feeds and POST /api/feeds/search. */
export const UrlBody = Type.Object({ url: Type.String({ maxLength: 4096 }) });

/** PUT /api/feeds/{id}: the web app may send the whole feed object back; only custom_title is writable. */
export const UpdateFeedBody = Type.Object(
  { custom_title: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))) },
  { additionalProperties: true },
);

export const SetCustomTitleBody = Type.Object({
  feed_id: Id,
  custom_title: Nullable(Type.String({ maxLength: 10_000 })),
});

export const SortBody = Type.Object({ feed_order: Type.Array(Id, { maxItems: 100_000 }) });

/** Hours (one of MUTE_HOURS) or null; `permanently` true mutes without end. The service checks the combination. */
export const MuteBody = Type.Object({
  duration: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  permanently: Type.Optional(Type.Boolean()),
});

export const UnreadCountsReply = Type.Object({
  counts: Type.Record(Type.String(), Type.Integer()),
  total: Type.Integer(),
});

export const SearchReply = Type.Object({
  feeds: Type.Array(
    Type.Object({
      title: Type.String(),
      url: Type.String(),
      favicon_url: NullableString,
      subscribed: Type.Boolean(),
    }),
  ),
});

export const QueuedReply = Type.Object({ queued: Type.Boolean() });

export const FeedFilterSchema = Type.Object({
  id: Type.Integer(),
  filter_type: Type.Union([Type.Literal('include'), Type.Literal('exclude')]),
  filter_scope: Type.Union([Type.Literal('title'), Type.Literal('content'), Type.Literal('both')]),
  filter_text: Type.String(),
  feed_id: Type.Integer(),
  user_feed_id: Type.Integer(),
  created_at: Type.String(),
});

export const FiltersReply = Type.Object({ filters: Type.Array(FeedFilterSchema) });

/**
 * Type and scope are plain strings here so that a wrong value gets its own code (INVALID_FILTER_TYPE,
 * INVALID_FILTER_SCOPE); filter_text is optional so that a missing one is FILTER_TEXT_REQUIRED like an empty one.
 */
export const AddFilterBody = Type.Object({
  filter_type: Type.Optional(Type.String({ maxLength: 100 })),
  filter_scope: Type.Optional(Type.String({ maxLength: 100 })),
  filter_text: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
});
