/**
 * SQLite's page cache in MB unless SQLITE_CACHE_MB says otherwise (docs/decisions.md "SQLite's page cache: a
 * setting"). A module of its own, so that config.ts and db/database.ts share the figure without importing each
 * other's values.
 */
export const SQLITE_CACHE_MB = 16;
