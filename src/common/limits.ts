/**
 * The API's limits (public-area-and-api.md §9, dashboard.md §9, docs/decisions.md "One API contract"), defined once
 * and used by both sides: the schemas in ./schemas bound request sizes with them, the services check the rules whose
 * failure has its own code, and the web app's forms (maxLength, client-side checks) take the same numbers.
 * Plain constants on purpose: the web app imports this module at runtime, and it must not pull TypeBox along.
 */

/* ───────────── accounts (public-area-and-api.md §9) ───────────── */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;
/** Display name of an account, in characters after trimming. */
export const MAX_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 320;
/** Verification and reset tokens as they arrive (a generous bound; the real ones are shorter). */
export const MAX_TOKEN_LENGTH = 512;

/* ───────────── ids and paging ───────────── */
/** Database ids are 32-bit on PostgreSQL; a larger number could never name a row (and must not reach the query). */
export const MAX_ID = 2_147_483_647;
/** Page size of every list (dashboard.md §9: 20) and the most a client may ask for. */
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
export const MAX_PAGE = 1_000_000;
/** Article ids per mark-read call. */
export const MAX_MARK_IDS = 1000;
/**
 * How long the undo of a bulk mark-read works, in minutes (the web app's toast offers it for seconds; a slow
 * network or a tab woken from sleep still finds it valid; docs/decisions.md "Reading flow: undo, mark-read
 * setting, loading the original").
 */
export const READ_UNDO_MINUTES = 15;
/** Length of an undo token as issued (24 base64url characters); a longer one can name nothing. */
export const MAX_UNDO_TOKEN_LENGTH = 64;
/** Longest search query, after trimming. */
export const MAX_QUERY_LENGTH = 200;
/** Longest URL accepted in a request body (feed address, article address). */
export const MAX_URL_LENGTH = 4096;

/* ───────────── feeds and filters (dashboard.md §9) ───────────── */
/** Longest custom title, in characters (subscriptions.custom_title is varchar(200)). */
export const MAX_CUSTOM_TITLE_LENGTH = 200;
/** The durations a feed can be muted for, in hours (dashboard.md §9); or permanently. */
export const MUTE_HOURS = [1, 3, 8, 24, 72, 168] as const;
/** Longest filter text, in characters (feed_filters.filter_text is varchar(500)). */
export const MAX_FILTER_TEXT_LENGTH = 500;
/** Filters per feed: plenty for a person, and a bound on the work each article costs. */
export const MAX_FILTERS_PER_FEED = 100;

/* ───────────── folders and reading lists (dashboard.md §9) ───────────── */
/** Longest folder name, in characters (as the reading-list name). */
export const MAX_FOLDER_NAME_LENGTH = 100;
/** Folders per user: far more than a sidebar can show, and a bound on what one account can create. */
export const MAX_FOLDERS = 1000;
export const MAX_READING_LIST_NAME_LENGTH = 100;
export const MAX_READING_LIST_DESCRIPTION_LENGTH = 500;
/** Rules per smart list and characters per rule value: plenty for a person, and a bound on each article's cost. */
export const MAX_RULES = 50;
export const MAX_RULE_VALUE_LENGTH = 500;
/** Reading lists per user. */
export const MAX_READING_LISTS = 1000;

/* ───────────── outer bounds of free-text fields ───────────── */
/**
 * Fields whose real rule is checked by a service after trimming (so each failure has its own code) are only
 * bounded in size by the schemas, generously.
 */
export const MAX_TEXT_FIELD = 10_000;
/** Ids in one reorder or selection call (folders, reading lists, a rule's feeds); feeds may be many more. */
export const MAX_ORDER_IDS = 10_000;
export const MAX_FEED_ORDER = 100_000;
/** The version token of the unread counts a client sends back (GET /api/feeds/unread_counts?since=…). */
export const MAX_UNREAD_TOKEN_LENGTH = 1024;
