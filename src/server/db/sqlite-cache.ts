/**
 * SQLite's page cache in MB unless SQLITE_CACHE_MB says otherwise (docs/decisions.md "SQLite's page cache: 8 MB,
 * and 16 for a scope's rewrite"). A module of its own, so that config.ts and db/database.ts share the figure without
 * importing each other's values.
 */
export const SQLITE_CACHE_MB = 8;

/**
 * The page cache a verb that rewrites the rows of a whole scope runs with (mark everything read, undo it; database.ts
 * withBulkCache), when the setting is smaller: such a statement changes index entries all over user_articles, and with
 * 8 MB it took twice as long as with 16 (docs/decisions.md "SQLite's page cache: 8 MB, and 16 for a scope's rewrite").
 */
export const SQLITE_BULK_CACHE_MB = 16;
