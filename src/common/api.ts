/**
 * Shapes of the account API (public-area-and-api.md §3 and §7), as the web app and tests see them.
 * The server's TypeBox route schemas produce exactly these.
 */
import type { Language } from './constants.js';

export interface User {
  id: number;
  name: string;
  email: string;
  is_verified: boolean;
  language_preference: Language;
  created_at: string;
  /** Reader apps (Fever and Google Reader API) switched on in settings (dashboard.md §3 "User"). */
  fever_api_enabled: boolean;
}

export interface LoginResponse {
  user: User;
  access_token: string;
  refresh_token: string;
}

export interface RegisterResponse {
  user: User;
  email_sent: boolean;
}

/** POST /auth/refresh: the refresh token rotates on every use, so a new one comes back too. */
export interface RefreshResponse {
  access_token: string;
  refresh_token: string;
}

/** PUT /auth/me; a password change revokes every refresh token and hands this session a fresh pair. */
export interface UpdateMeResponse {
  user: User;
  message: string;
  code: 'PROFILE_UPDATED' | 'PASSWORD_UPDATED';
  access_token?: string;
  refresh_token?: string;
}

export interface StatusResponse {
  status: 'success' | 'error';
  code: string;
  message: string;
}

export interface ErrorBody {
  message: string;
  code: string;
}

/** GET /api/config: what the public screens need before sign-in. */
export interface PublicConfig {
  registration_email_domains: string[];
  /** false when no domain list is configured, i.e. every domain may register. */
  registration_restricted: boolean;
}

/* ───────────── Reading (dashboard.md §3 and §7, decisions.md "Feeds and articles") ───────────── */

/** Feed ids are feeds.id (shared by all subscribers); per-user state is the subscription's. */
export interface Feed {
  id: number;
  /** What the user sees: the custom title, else the feed's own title, else "Unbenannter Feed" (client-side). */
  title: string;
  /** The feed's own title as its document gives it ('' when it has none yet). */
  original_title: string;
  custom_title: string | null;
  url: string;
  site_url: string | null;
  description: string | null;
  /** data: URL-free base64 of the icon (PNG, SVG, ICO, …) or null; favicon_type says which. */
  favicon_base64: string | null;
  favicon_type: string | null;
  /** Always null: icons are stored, never hot-linked (privacy); kept for the spec's field list. */
  favicon_url: string | null;
  is_muted: boolean;
  muted_permanently: boolean;
  /** UTC ISO 8601 with Z, or null. */
  muted_until: string | null;
  /** Position in the user's list (0-based, ascending). */
  sort_order: number;
  /** The folder the feed sits in, or null at the root. */
  folder_id: number | null;
  /** Last refresh problem (feed-errors code, translated as feedErrors.*), or null. */
  last_error_code: string | null;
  last_fetched_at: string | null;
  created_at: string;
}

/** POST /api/feeds: 201 with is_new true when this call created the subscription. */
export interface AddFeedResponse extends Feed {
  is_new: boolean;
}

/** GET /api/feeds/unread_counts. Muted feeds are absent; total is the sum of the counts. */
export interface UnreadCounts {
  counts: Record<string, number>;
  total: number;
}

/** POST /api/feeds/search: feeds found at or behind the URL (discovery). */
export interface SearchFeedResult {
  title: string;
  url: string;
  favicon_url: string | null;
  /** true when the user already subscribes to this feed URL. */
  subscribed: boolean;
}

export type FilterTypeName = 'include' | 'exclude';
export type FilterScopeName = 'title' | 'content' | 'both';

export interface FeedFilter {
  id: number;
  filter_type: FilterTypeName;
  filter_scope: FilterScopeName;
  filter_text: string;
  feed_id: number;
  /** The subscription's id. */
  user_feed_id: number;
  created_at: string;
}

export interface ActiveFilter extends FeedFilter {
  feed_title: string;
}

export interface Article {
  id: number;
  url: string | null;
  title: string;
  /** Plain text, at most about 600 characters, for the compact card. */
  summary: string;
  /** Sanitised HTML (content, else the feed's summary); the extended card shows it. */
  content: string | null;
  author: string | null;
  image_url: string | null;
  /** UTC ISO 8601 with Z. */
  published_at: string;
  feed_id: number;
  feed_title: string;
  feed_favicon: string | null;
  feed_favicon_base64: string | null;
  feed_favicon_type: string | null;
  is_read: boolean;
  is_favorite: boolean;
  /** true when the article is in at least one of the user's reading lists. */
  in_reading_list: boolean;
}

/** GET /api/articles, /api/feeds/{id}/articles, /api/articles/search, /api/articles/favorites. */
export interface ArticlePage {
  articles: Article[];
  total: number;
  current_page: number;
  pages: number;
  per_page: number;
  active_filters: ActiveFilter[];
  has_active_filters: boolean;
}

/** POST /api/articles/{id}/read|unread|favorite|unfavorite. */
export interface ArticleStateResponse {
  id: number;
  is_read: boolean;
  is_favorite: boolean;
}

/** POST /api/articles/read/all and /api/articles/mark-read: how many articles changed. */
export interface MarkReadResponse {
  marked: number;
}

/** POST /api/extract-article-content. On failure content is the article's own content and warning says why. */
export interface ExtractContentResponse {
  content: string;
  /** feed-errors code (e.g. EXTRACT_FAILED) when the full text could not be loaded; null on success. */
  warning: string | null;
  error: string | null;
  cached: boolean;
}

/* ───────────── Organising (dashboard.md §3 and §7: folders, reading lists, OPML, catalog) ───────────── */

/** GET /api/folders → {folders: Folder[]}; POST/PUT answer {folder}. */
export interface Folder {
  id: number;
  name: string;
  /** Feed ids (feeds.id) in this folder, in the user's feed order. */
  feeds: number[];
  sort_order: number;
  created_at: string;
}

/**
 * POST /api/folders/{id}/feeds and DELETE /api/folders/{id}/feeds/{feedId}: the folder afterwards, and what happened
 * (FEED_ALREADY_IN_FOLDER is an info, not an error: dashboard.md §8 "Folders").
 */
export interface FolderFeedResponse {
  folder: Folder;
  code: 'FEED_MOVED_TO_FOLDER' | 'FEED_ALREADY_IN_FOLDER' | 'FEED_REMOVED_FROM_FOLDER';
  message: string;
}

export type RuleTypeName = 'keyword' | 'regex';

/** A smart-list rule (dashboard.md §3 "Rule"); an article belongs to a smart list when it matches any rule. */
export interface ReadingListRule {
  rule_type: RuleTypeName;
  rule_scope: FilterScopeName;
  rule_value: string;
  include_all_feeds: boolean;
  /** Feed ids (feeds.id); used when include_all_feeds is false. */
  selected_feeds: number[];
}

/** GET /api/reading-lists → {reading_lists: ReadingList[]}; POST/PUT/GET one answer {reading_list}. */
export interface ReadingList {
  id: number;
  name: string;
  description: string;
  is_smart: boolean;
  rules: ReadingListRule[];
  article_count: number;
  unread_article_count: number;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

/** Body of POST and PUT /api/reading-lists. */
export interface ReadingListInput {
  name: string;
  description?: string;
  is_smart?: boolean;
  rules?: ReadingListRule[];
}

/** GET /api/reading-lists/unread_counts → {unread_counts: ReadingListUnreadCount[]}. */
export interface ReadingListUnreadCount {
  id: number;
  unread_article_count: number;
}

/** GET /api/articles/{id}/reading-lists: the lists the article is in. */
export interface ArticleReadingListRef {
  id: number;
  name: string;
  is_smart: boolean;
}

/** POST /api/feeds/import/opml. */
export interface OpmlImportResult {
  imported_count: number;
  existed_count: number;
  /** Outlines skipped as unusable (no or invalid xmlUrl). */
  failed_count: number;
  folders_created: number;
  message: string;
}

export type CatalogLanguage = 'EN' | 'DE' | 'AF' | 'KO' | 'ES';

export interface CatalogFeed {
  title: string;
  xmlUrl: string;
  language: CatalogLanguage | null;
}

/** GET /api/catalog → {categories: CatalogCategory[]} (dashboard.md §3 "Catalog category"). */
export interface CatalogCategory {
  id: string;
  /** German name. */
  name: string;
  nameEn: string;
  feeds: CatalogFeed[];
}

/* ───────────── External apps (dashboard.md §7 "Fever API", decisions.md "External apps") ───────────── */

/** PUT /api/user/fever-api {enabled}: the password comes back when enabling. */
export interface FeverApiState {
  enabled: boolean;
  password?: string;
}

/** GET /api/user/fever-api/password and POST …/password {regenerate: true}. */
export interface FeverPasswordResponse {
  success: boolean;
  password: string;
}
