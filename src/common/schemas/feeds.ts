import { Type } from 'typebox';
import { MAX_FEED_ORDER, MAX_TEXT_FIELD, MAX_UNREAD_TOKEN_LENGTH, MAX_URL_LENGTH } from '../limits.js';
import { Nullable } from './builders.js';
import { Id, NullableString } from './common.js';

/**
 * Request and response schemas of the feed and filter endpoints (dashboard.md §3, §7 "Feeds" and "Filters").
 * Fastify serialises responses with them, so a response can never carry a field that is not listed here. Rules
 * whose failure has its own code (URL_REQUIRED, FILTER_TEXT_REQUIRED, CUSTOM_TITLE_TOO_LONG, INVALID_MUTE_DURATION,
 * …) are checked by the services with the limits of src/common/limits.ts; the schemas bound types and sizes.
 */

/** Feed ids are feeds.id (shared by all subscribers); per-user state is the subscription's. */
export const FeedSchema = Type.Object({
  id: Type.Integer(),
  /** What the user sees: the custom title, else the feed's own title, else "Unbenannter Feed" (client-side). */
  title: Type.String(),
  /** The feed's own title as its document gives it ('' when it has none yet). */
  original_title: Type.String(),
  custom_title: NullableString,
  url: Type.String(),
  site_url: NullableString,
  description: NullableString,
  /** data: URL-free base64 of the icon (PNG, SVG, ICO, …) or null; favicon_type says which. */
  favicon_base64: NullableString,
  favicon_type: NullableString,
  /** Always null: icons are stored, never hot-linked (privacy); kept for the spec's field list. */
  favicon_url: NullableString,
  is_muted: Type.Boolean(),
  muted_permanently: Type.Boolean(),
  /** UTC ISO 8601 with Z, or null. */
  muted_until: NullableString,
  /** Position in the user's list (0-based, ascending). */
  sort_order: Type.Integer(),
  /** The folder the feed sits in, or null at the root. */
  folder_id: Nullable(Type.Integer()),
  /** Last refresh problem (feed-errors code, translated as feedErrors.*), or null. */
  last_error_code: NullableString,
  last_fetched_at: NullableString,
  /** When Feeder checks the feed next (UTC ISO 8601), or null when it is not scheduled. */
  next_check_at: NullableString,
  /** Consecutive failed refreshes; 0 when the last one worked (the feed's health, dashboard.md §8 "Feed management"). */
  error_count: Type.Integer(),
  /** The subscriber's articles of this feed that the filters do not hide, read or not. */
  article_count: Type.Integer(),
  /** The subscriber's unread articles of this feed that the filters do not hide (also while muted). */
  unread_count: Type.Integer(),
  /** The subscriber's "always load the original" switch: the web app shows the article's page at once. */
  always_load_original: Type.Boolean(),
  created_at: Type.String(),
});

export const FeedListReply = Type.Array(FeedSchema);

/**
 * GET /api/feeds/summaries: what the dashboard shows of every feed at its start (the sidebar, the article views, the
 * n/p order), a few percent of the full list's bytes (docs/decisions.md "Feed summaries"). One array per field, each
 * in the user's order of the feeds (a feed's position is its sort order); the feed's state that few feeds have
 * comes as sparse sets of feed ids beside them. Fields mean what the same fields of FeedSchema mean.
 */
export const FeedSummariesReply = Type.Object({
  /** The feeds' ids in the user's order; the arrays below hold, at the same position, the same feed's field. */
  ids: Type.Array(Type.Integer()),
  /** The custom title, else the feed's own title, else "". */
  titles: Type.Array(Type.String()),
  folders: Type.Array(Nullable(Type.Integer({ description: 'folder_id' }))),
  /** The content address of the stored icon, served at /api/icons/{icon}. */
  icons: Type.Array(NullableString),
  /** last_error_code. */
  errors: Type.Array(NullableString),
  /** The feeds muted now: feed id → muted_until (UTC ISO 8601), null when muted permanently. */
  muted: Type.Record(Type.String(), NullableString),
  /** Feeds never fetched yet (last_fetched_at null): a new subscription waiting for its first articles. */
  unfetched: Type.Array(Type.Integer()),
  /** Feeds whose subscriber switched "always load the original" on. */
  always_load_original: Type.Array(Type.Integer()),
});

/** POST /api/feeds: 201 with is_new true when this call created the subscription. */
export const AddFeedReply = Type.Object({ ...FeedSchema.properties, is_new: Type.Boolean() });

export const FeedIdParams = Type.Object({ id: Id });
export const FilterIdParams = Type.Object({ filterId: Id });
/** A content address of feeds/icons.ts: 32 lower-case hex characters. */
export const IconParams = Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{32}$' }) });

/** POST /api/feeds and POST /api/feeds/search. */
export const UrlBody = Type.Object({ url: Type.String({ maxLength: MAX_URL_LENGTH }) });

/** PUT /api/feeds/{id}: the web app may send the whole feed object back; custom_title and always_load_original are writable. */
export const UpdateFeedBody = Type.Object(
  {
    custom_title: Type.Optional(Nullable(Type.String({ maxLength: MAX_TEXT_FIELD }))),
    always_load_original: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

export const SetCustomTitleBody = Type.Object({
  feed_id: Id,
  custom_title: Nullable(Type.String({ maxLength: MAX_TEXT_FIELD })),
});

export const SortBody = Type.Object({ feed_order: Type.Array(Id, { maxItems: MAX_FEED_ORDER }) });

/** Hours (one of MUTE_HOURS) or null; `permanently` true mutes without end. The service checks the combination. */
export const MuteBody = Type.Object({
  duration: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  permanently: Type.Optional(Type.Boolean()),
});

/**
 * GET /api/feeds/unread_counts. Muted feeds are absent; total is the sum of the counts. `version` names the answer;
 * a client that sends it back as `since` gets a delta: `delta` then says which buckets (feed id mod
 * `delta.buckets`) changed, and `counts` holds exactly the feeds of those buckets (a feed of a changed bucket that
 * is not in them has no count any more). Without `delta` the counts are complete. Old clients ignore both fields.
 */
export const UnreadCountsReply = Type.Object({
  counts: Type.Record(Type.String(), Type.Integer()),
  total: Type.Integer(),
  version: Type.Optional(Type.String()),
  delta: Type.Optional(Type.Object({ buckets: Type.Integer(), changed: Type.Array(Type.Integer()) })),
});

/** The version of the counts the client holds (from its last answer). */
export const UnreadCountsQuery = Type.Object({
  since: Type.Optional(Type.String({ maxLength: MAX_UNREAD_TOKEN_LENGTH })),
});

/** A feed found at or behind a URL (discovery). */
export const SearchFeedResultSchema = Type.Object({
  title: Type.String(),
  url: Type.String(),
  favicon_url: NullableString,
  /** true when the user already subscribes to this feed URL. */
  subscribed: Type.Boolean(),
});

/** POST /api/feeds/search. */
export const SearchReply = Type.Object({ feeds: Type.Array(SearchFeedResultSchema) });

export const QueuedReply = Type.Object({ queued: Type.Boolean() });

export const FilterTypeSchema = Type.Union([Type.Literal('include'), Type.Literal('exclude')]);
/** Where a filter (or a smart-list rule) looks. */
export const FilterScopeSchema = Type.Union([Type.Literal('title'), Type.Literal('content'), Type.Literal('both')]);

export const FeedFilterSchema = Type.Object({
  id: Type.Integer(),
  filter_type: FilterTypeSchema,
  filter_scope: FilterScopeSchema,
  filter_text: Type.String(),
  feed_id: Type.Integer(),
  /** The subscription's id. */
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
  filter_text: Type.Optional(Nullable(Type.String({ maxLength: MAX_TEXT_FIELD }))),
});
