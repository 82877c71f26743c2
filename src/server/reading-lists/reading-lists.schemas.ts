import { Type } from 'typebox';
import { Id } from '../feeds/feeds.schemas.js';

/**
 * Request and response schemas of the reading-list endpoints (dashboard.md §3 "Reading list", "Rule", §5, §7
 * "Reading lists"). Responses describe src/common/api.ts (ReadingList, ReadingListRule, ReadingListUnreadCount)
 * exactly. Rule types and scopes are checked here; the rules whose failure has its own code (NAME_REQUIRED,
 * NAME_TOO_LONG, DESCRIPTION_TOO_LONG, RULES_REQUIRED, TOO_MANY_RULES, RULE_VALUE_REQUIRED, RULE_VALUE_TOO_LONG,
 * FEEDS_REQUIRED, INVALID_REGEX) by the service, so the schema fields they concern are optional and only bounded.
 */
const RuleType = Type.Union([Type.Literal('keyword'), Type.Literal('regex')]);
const RuleScope = Type.Union([Type.Literal('title'), Type.Literal('content'), Type.Literal('both')]);

export const RuleSchema = Type.Object({
  rule_type: RuleType,
  rule_scope: RuleScope,
  rule_value: Type.String(),
  include_all_feeds: Type.Boolean(),
  selected_feeds: Type.Array(Type.Integer()),
});

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
export const UnreadCountsReply = Type.Object({
  unread_counts: Type.Array(Type.Object({ id: Type.Integer(), unread_article_count: Type.Integer() })),
});

/** Defaults of a new rule (dashboard.md §3): keyword, both, all feeds. Extra fields the dialog keeps are ignored. */
export const RuleInput = Type.Object({
  rule_type: Type.Optional(RuleType),
  rule_scope: Type.Optional(RuleScope),
  rule_value: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
  include_all_feeds: Type.Optional(Type.Boolean()),
  selected_feeds: Type.Optional(Type.Array(Id, { maxItems: 10_000 })),
});

export const ReadingListBody = Type.Object({
  name: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
  is_smart: Type.Optional(Type.Boolean()),
  rules: Type.Optional(Type.Union([Type.Array(RuleInput, { maxItems: 1000 }), Type.Null()])),
});

export const ListIdParams = Type.Object({ id: Id });
export const ListArticleParams = Type.Object({ id: Id, articleId: Id });
export const SortBody = Type.Object({ reading_list_order: Type.Array(Id, { maxItems: 10_000 }) });
