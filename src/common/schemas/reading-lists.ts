import { Type } from 'typebox';
import { MAX_ORDER_IDS, MAX_TEXT_FIELD } from '../limits.js';
import { Id } from './common.js';
import { FilterScopeSchema } from './feeds.js';

/**
 * Request and response schemas of the reading-list endpoints (dashboard.md §3 "Reading list", "Rule", §5, §7
 * "Reading lists"). Rule types and scopes are checked here; the rules whose failure has its own code (NAME_REQUIRED,
 * NAME_TOO_LONG, DESCRIPTION_TOO_LONG, RULES_REQUIRED, TOO_MANY_RULES, RULE_VALUE_REQUIRED, RULE_VALUE_TOO_LONG,
 * FEEDS_REQUIRED, INVALID_REGEX) by the service with the limits of src/common/limits.ts, so the schema fields they
 * concern are optional and only bounded.
 */
export const RuleTypeSchema = Type.Union([Type.Literal('keyword'), Type.Literal('regex')]);

/** A smart-list rule (dashboard.md §3 "Rule"); an article belongs to a smart list when it matches any rule. */
export const RuleSchema = Type.Object({
  rule_type: RuleTypeSchema,
  rule_scope: FilterScopeSchema,
  rule_value: Type.String(),
  include_all_feeds: Type.Boolean(),
  /** Feed ids (feeds.id); used when include_all_feeds is false. */
  selected_feeds: Type.Array(Type.Integer()),
});

/** GET /api/reading-lists → {reading_lists}; POST/PUT/GET one answer {reading_list}. */
export const ReadingListSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  is_smart: Type.Boolean(),
  rules: Type.Array(RuleSchema),
  article_count: Type.Integer(),
  unread_article_count: Type.Integer(),
  sort_order: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const ReadingListReply = Type.Object({ reading_list: ReadingListSchema });
export const ReadingListsReply = Type.Object({ reading_lists: Type.Array(ReadingListSchema) });
export const ReadingListUnreadCountSchema = Type.Object({ id: Type.Integer(), unread_article_count: Type.Integer() });
/** GET /api/reading-lists/unread_counts. */
export const UnreadCountsReply = Type.Object({ unread_counts: Type.Array(ReadingListUnreadCountSchema) });

/** Defaults of a new rule (dashboard.md §3): keyword, both, all feeds. Extra fields the dialog keeps are ignored. */
export const RuleInput = Type.Object({
  rule_type: Type.Optional(RuleTypeSchema),
  rule_scope: Type.Optional(FilterScopeSchema),
  rule_value: Type.Optional(Type.Union([Type.String({ maxLength: MAX_TEXT_FIELD }), Type.Null()])),
  include_all_feeds: Type.Optional(Type.Boolean()),
  selected_feeds: Type.Optional(Type.Array(Id, { maxItems: MAX_ORDER_IDS })),
});

/** Body of POST and PUT /api/reading-lists. */
export const ReadingListBody = Type.Object({
  name: Type.Optional(Type.Union([Type.String({ maxLength: MAX_TEXT_FIELD }), Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: MAX_TEXT_FIELD }), Type.Null()])),
  is_smart: Type.Optional(Type.Boolean()),
  rules: Type.Optional(Type.Union([Type.Array(RuleInput, { maxItems: 1000 }), Type.Null()])),
});

export const ListIdParams = Type.Object({ id: Id });
export const ListArticleParams = Type.Object({ id: Id, articleId: Id });
export const SortBody = Type.Object({ reading_list_order: Type.Array(Id, { maxItems: MAX_ORDER_IDS }) });
