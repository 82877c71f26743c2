/**
 * The API's shapes as the web app and tests see them (public-area-and-api.md §3 and §7, dashboard.md §3 and §7),
 * derived from the TypeBox schemas in ./schemas with which the server validates requests and serialises responses:
 * one description, so the two sides cannot disagree (docs/decisions.md "One API contract"). Type-only imports: the
 * web bundle gets the types, not TypeBox. Field documentation sits beside the schemas.
 */
import type { Static } from 'typebox';
import type * as Accounts from './schemas/accounts.js';
import type * as Articles from './schemas/articles.js';
import type * as Catalog from './schemas/catalog.js';
import type { ErrorBodySchema } from './schemas/common.js';
import type * as Feeds from './schemas/feeds.js';
import type * as Folders from './schemas/folders.js';
import type * as Opml from './schemas/opml.js';
import type * as ReadingLists from './schemas/reading-lists.js';
import type * as Settings from './schemas/settings.js';

/* ───────────── Accounts (public-area-and-api.md §3 and §7) ───────────── */

export type User = Static<typeof Accounts.UserSchema>;
/** When the web app marks an article read (User.mark_read_on). */
export type MarkReadOn = Static<typeof Accounts.MarkReadOnSchema>;
export type LoginResponse = Static<typeof Accounts.LoginReply>;
export type RegisterResponse = Static<typeof Accounts.RegisterReply>;
/** POST /auth/refresh: the refresh token rotates on every use, so a new one comes back too. */
export type RefreshResponse = Static<typeof Accounts.RefreshReply>;
/** PUT /auth/me; a password change revokes every refresh token and hands this session a fresh pair. */
export type UpdateMeResponse = Static<typeof Accounts.UpdateMeReply>;
export type StatusResponse = Static<typeof Accounts.StatusSchema>;
/** GET /auth/me and POST /api/users/update-language. */
export type MeResponse = Static<typeof Accounts.MeReply>;
/** POST /auth/verify-password. */
export type VerifyPasswordResponse = Static<typeof Accounts.VerifyPasswordReply>;
export type ErrorBody = Static<typeof ErrorBodySchema>;
/** GET /api/config: what the public screens need before sign-in. */
export type PublicConfig = Static<typeof Accounts.PublicConfigReply>;
/** PublicConfig.legal: whether the legal pages name a configured operator, show the example, or neither. */
export type LegalInfo = Static<typeof Accounts.LegalSchema>;
export type Operator = Static<typeof Accounts.OperatorSchema>;

/* ───────────── Reading (dashboard.md §3 and §7, decisions.md "Feeds and articles") ───────────── */

/** Feed ids are feeds.id (shared by all subscribers); per-user state is the subscription's. */
export type Feed = Static<typeof Feeds.FeedSchema>;
/** GET /api/feeds/summaries as it travels (the web app unpacks it into one object per feed). */
export type FeedSummariesResponse = Static<typeof Feeds.FeedSummariesReply>;
/** POST /api/feeds: 201 with is_new true when this call created the subscription. */
export type AddFeedResponse = Static<typeof Feeds.AddFeedReply>;
/** GET /api/feeds/unread_counts. Muted feeds are absent; total is the sum of the counts. */
export type UnreadCounts = Static<typeof Feeds.UnreadCountsReply>;
/** POST /api/feeds/search: feeds found at or behind the URL (discovery). */
export type SearchFeedResult = Static<typeof Feeds.SearchFeedResultSchema>;
export type SearchFeedsResponse = Static<typeof Feeds.SearchReply>;
/** POST /api/feeds/{id}/refresh. */
export type QueuedResponse = Static<typeof Feeds.QueuedReply>;

export type FilterTypeName = Static<typeof Feeds.FilterTypeSchema>;
export type FilterScopeName = Static<typeof Feeds.FilterScopeSchema>;
export type FeedFilter = Static<typeof Feeds.FeedFilterSchema>;
/** GET /api/feeds/{id}/filters. */
export type FiltersResponse = Static<typeof Feeds.FiltersReply>;
export type ActiveFilter = Static<typeof Articles.ActiveFilterSchema>;

export type Article = Static<typeof Articles.ArticleSchema>;
/** GET /api/articles, /api/feeds/{id}/articles, /api/articles/search, /api/articles/favorites. */
export type ArticlePage = Static<typeof Articles.ArticlePageReply>;
/** POST /api/articles/{id}/read|unread|favorite|unfavorite. */
export type ArticleStateResponse = Static<typeof Articles.ArticleStateReply>;
/** POST /api/articles/read/all and /api/articles/mark-read: how many articles changed, and the token that undoes them. */
export type MarkReadResponse = Static<typeof Articles.MarkReadReply>;
/** POST /api/articles/read/undo: the articles a mark-read call marked are unread again. */
export type UndoReadResponse = Static<typeof Articles.UndoReadReply>;
/** POST /api/extract-article-content. On failure content is the article's own content and warning says why. */
export type ExtractContentResponse = Static<typeof Articles.ExtractReply>;

/* ───────────── Organising (dashboard.md §3 and §7: folders, reading lists, OPML, catalog) ───────────── */

/** GET /api/folders → {folders: Folder[]}; POST/PUT answer {folder}. */
export type Folder = Static<typeof Folders.FolderSchema>;
export type FolderListResponse = Static<typeof Folders.FolderListReply>;
export type FolderResponse = Static<typeof Folders.FolderReply>;
/** POST /api/folders/{id}/feeds and DELETE /api/folders/{id}/feeds/{feedId}: the folder afterwards, and what happened. */
export type FolderFeedResponse = Static<typeof Folders.FolderFeedReply>;

export type RuleTypeName = Static<typeof ReadingLists.RuleTypeSchema>;
/** A smart-list rule (dashboard.md §3 "Rule"); an article belongs to a smart list when it matches any rule. */
export type ReadingListRule = Static<typeof ReadingLists.RuleSchema>;
/** GET /api/reading-lists → {reading_lists: ReadingList[]}; POST/PUT/GET one answer {reading_list}. */
export type ReadingList = Static<typeof ReadingLists.ReadingListSchema>;
export type ReadingListsResponse = Static<typeof ReadingLists.ReadingListsReply>;
export type ReadingListResponse = Static<typeof ReadingLists.ReadingListReply>;
/**
 * Body of POST and PUT /api/reading-lists, as the server accepts it: every field optional, so that a missing name
 * or rule value gets the same code as a blank one.
 */
export type ReadingListInput = Static<typeof ReadingLists.ReadingListBody>;
/** GET /api/reading-lists/unread_counts → {unread_counts: ReadingListUnreadCount[]}. */
export type ReadingListUnreadCount = Static<typeof ReadingLists.ReadingListUnreadCountSchema>;
export type ReadingListUnreadCountsResponse = Static<typeof ReadingLists.UnreadCountsReply>;
/** GET /api/articles/{id}/reading-lists: the lists the article is in. */
export type ArticleReadingListRef = Static<typeof Articles.ArticleReadingListRefSchema>;
export type ArticleReadingListsResponse = Static<typeof Articles.ArticleReadingListsReply>;

/** POST /api/feeds/import/opml. */
export type OpmlImportResult = Static<typeof Opml.OpmlImportReply>;

export type CatalogLanguage = Static<typeof Catalog.CatalogLanguageSchema>;
export type CatalogFeed = Static<typeof Catalog.CatalogFeedSchema>;
/** GET /api/catalog → {categories: CatalogCategory[]} (dashboard.md §3 "Catalog category"). */
export type CatalogCategory = Static<typeof Catalog.CatalogCategorySchema>;
export type CatalogResponse = Static<typeof Catalog.CatalogReply>;
/** GET /api/catalog/subscribed: the catalog's addresses the user subscribes to. */
export type CatalogSubscribedResponse = Static<typeof Catalog.CatalogSubscribedReply>;

/* ───────────── External apps (dashboard.md §7 "Fever API", decisions.md "External apps") ───────────── */

/** PUT /api/user/fever-api {enabled}: the password comes back when enabling. */
export type FeverApiState = Static<typeof Settings.FeverToggleReply>;
/** GET /api/user/fever-api/password and POST …/password {regenerate: true}. */
export type FeverPasswordResponse = Static<typeof Settings.PasswordReply>;
