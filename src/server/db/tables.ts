import type { Generated } from 'kysely';

/**
 * Row types of every table. Timestamps are ISO strings, booleans are 0/1 (see database.ts).
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  is_verified: number;
  language_preference: string;
  /** Incremented when every sign-in ends (password change, reset); access tokens of older epochs are refused. */
  session_epoch: Generated<number>;
  /** Reader apps (Fever, Google Reader) switched on in settings (decisions.md "External apps"). */
  fever_api_enabled: Generated<number>;
  /** The reader-apps password, AES-GCM encrypted with the server secret; null until first generated. */
  app_password_enc: string | null;
  /** md5(lower(email) + ':' + password), lower-case hex: the Fever api_key. */
  app_password_key: string | null;
  /** When the web app marks an article read: 'open' (default), 'scroll' or 'manual' (migration 0009). */
  mark_read_on: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** Opaque refresh tokens, stored as SHA-256 hashes; a family is one sign-in's chain of rotations. */
export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  expires_at: string;
  created_at: string;
  /** Set when the token was exchanged for a new one; presenting it again revokes the family. */
  used_at: string | null;
  revoked_at: string | null;
}

/** Single-use tokens sent by mail: kind 'verify' (24 h) or 'reset' (1 h). */
export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  token_hash: string;
  expires_at: string;
  created_at: string;
  used_at: string | null;
}

/** One row per normalised feed URL, shared by all its subscribers, with its refresh state. */
export interface FeedsTable {
  id: Generated<number>;
  url: string;
  title: string;
  site_url: string | null;
  description: string | null;
  language: string | null;
  /** rss | rdf | atom | json, from the last successful parse. */
  format: string | null;
  /** Site icon, base64, and its MIME type. */
  icon_data: string | null;
  icon_type: string | null;
  /** Content address of the icon (feeds/icons.ts): served at /api/icons/{hash}. */
  icon_hash: string | null;
  icon_checked_at: string | null;
  etag: string | null;
  last_modified: string | null;
  /** The feed's own hint (RSS ttl, sy:updatePeriod) in minutes. */
  ttl_minutes: number | null;
  last_fetched_at: string | null;
  last_success_at: string | null;
  next_check_at: string;
  error_count: number;
  /** English text of the last error; last_error_code is what the web app translates (reader/types.ts). */
  last_error: string | null;
  last_error_code: string | null;
  /**
   * While set in the future, one worker is refreshing this feed and no other may start. Short, and renewed by
   * its owner while the fetch runs (docs/decisions.md "Leases and crashed workers").
   */
  lease_until: string | null;
  /** The engine instance holding the lease (refresh/engine.ts instance id); null when nobody does. */
  lease_owner: string | null;
  /**
   * Posting frequency (refresh/schedule.ts PostingFrequency, migration 0010): average gap between the newest posts in
   * minutes (null: not known yet) and the newest post's time (null: fewer than two dated posts).
   */
  post_gap_minutes: number | null;
  newest_post_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ArticlesTable {
  id: Generated<number>;
  feed_id: number;
  /** sha256 hex of guid: the identity of the item within its feed. */
  guid_hash: string;
  guid: string;
  url: string | null;
  title: string;
  author: string | null;
  /** Sanitised HTML. */
  content: string | null;
  summary: string | null;
  /** The compact card's plain-text teaser (article-text.ts teaser); null for rows older than migration 0008 until filled. */
  teaser: string | null;
  image_url: string | null;
  /** JSON array of reader/types Enclosure, or null when there are none. */
  enclosures: string | null;
  /** sha256 of what a reader sees (title, url, author, content, summary, image, enclosures): tells an edit apart. */
  content_hash: string;
  /** The feed's date, or the first-seen time when it gave none. */
  published_at: string;
  updated_at: string | null;
  created_at: string;
  /** When the item was last present in the feed's document; the clean-up keeps what is still in the feed. */
  last_seen_at: string;
  /** Readability's sanitised full text of the article page, cached for every reader (extract-article-content). */
  extracted_content: string | null;
  extracted_at: string | null;
  /** feed-errors code of the last failed extraction (retried after a while). */
  extract_error: string | null;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  feed_id: number;
  custom_title: string | null;
  sort_order: number;
  muted_until: string | null;
  muted_permanently: Generated<number>;
  /** Unread, not filtered-out articles of this subscription; kept by articles/reading-state.ts. */
  unread_count: Generated<number>;
  /** Not filtered-out articles of this subscription (read or not); kept by articles/reading-state.ts. */
  article_count: Generated<number>;
  /** The folder this feed sits in, or null at the root. */
  folder_id: number | null;
  /** 1: the web app loads the original page of this feed's articles at once (migration 0009). */
  always_load_original: Generated<number>;
  created_at: string;
}

export interface FoldersTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  sort_order: Generated<number>;
  created_at: string;
}

export interface ReadingListsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: Generated<string>;
  is_smart: Generated<number>;
  /** JSON array of ReadingListRule (src/common/api.ts). */
  rules: Generated<string>;
  sort_order: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Membership of an article in a reading list (smart lists: materialised from the rules). */
export interface ReadingListArticlesTable {
  list_id: number;
  article_id: number;
  user_id: number;
  feed_id: number;
  published_at: string;
  added_at: string;
}

/**
 * Reading-list counters (migration 0011), one row per (user, list, feed) with members in the list: the members the
 * user's filters do not hide, all and unread. Kept by articles/reading-state.ts; muted feeds are left out when read.
 */
export interface ReadingListCountsTable {
  user_id: number;
  list_id: number;
  feed_id: number;
  unread_count: number;
  article_count: number;
}

/**
 * The version of a user's feed list (migration 0012, docs/decisions.md "Feed summaries: the list's version"): bumped by
 * triggers on every write that changes GET /api/feeds/summaries. Read only; nothing in the application writes it.
 */
export interface FeedListVersionsTable {
  user_id: number;
  version: number;
  txid: number | null;
}

/** Public API v1 bearer tokens (365 days), stored as SHA-256 hashes. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
  /** users.session_epoch when issued (migration 0006): a password change or reset voids the token. */
  session_epoch: Generated<number>;
}

/** A subscriber's include/exclude filter on one feed (decisions.md "Feeds and articles"). */
export interface FeedFiltersTable {
  id: Generated<number>;
  user_id: number;
  subscription_id: number;
  feed_id: number;
  filter_type: 'include' | 'exclude';
  filter_scope: 'title' | 'content' | 'both';
  filter_text: string;
  /** filter_text lower-cased: duplicates are found case-insensitively. */
  filter_key: string;
  created_at: string;
}

/** SQLite's FTS5 table (contentless; rowid = article id). PostgreSQL uses articles.search_vector instead. */
export interface ArticlesFtsTable {
  rowid: number;
  title: string;
  body: string;
}

/** One row per subscriber and article: read and favourite state. */
export interface UserArticlesTable {
  user_id: number;
  article_id: number;
  feed_id: number;
  published_at: string;
  is_read: number;
  is_favorite: number;
  read_at: string | null;
  favorited_at: string | null;
  /** 1 when the subscriber's filters hide this article (materialised when filters change and articles arrive). */
  is_hidden: Generated<number>;
}

/**
 * One undoable bulk mark-read (migration 0009; docs/decisions.md "Reading flow: undo, mark-read setting, loading the
 * original"): the articles it marked are the user's rows still read with exactly this read_at stamp.
 */
export interface ReadUndoTable {
  token: string;
  user_id: number;
  read_at: string;
  /** JSON array of the feeds whose counters an undo recounts; null: all the user's feeds. */
  feed_ids: string | null;
  expires_at: string;
  created_at: string;
}

export interface Tables {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  feeds: FeedsTable;
  articles: ArticlesTable;
  subscriptions: SubscriptionsTable;
  user_articles: UserArticlesTable;
  feed_filters: FeedFiltersTable;
  articles_fts: ArticlesFtsTable;
  folders: FoldersTable;
  reading_lists: ReadingListsTable;
  reading_list_articles: ReadingListArticlesTable;
  reading_list_counts: ReadingListCountsTable;
  feed_list_versions: FeedListVersionsTable;
  api_tokens: ApiTokensTable;
  read_undo: ReadUndoTable;
}
