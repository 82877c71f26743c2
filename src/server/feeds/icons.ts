import { createHash } from 'node:crypto';
import { sql } from 'kysely';

/**
 * Feed icons on the wire. Icons are stored with the feed (never hot-linked from the site: privacy) and served
 * content-addressed at /api/icons/{hash}, so a browser caches each once for good and a list of 1,000 feeds or a page
 * of 20 articles does not carry the same image again and again. Small icons (most 16/32 px favicons) also travel
 * inline as base64, which saves the request; larger ones (up to the reader's 256 KB cap) only by URL.
 */
export const INLINE_ICON_MAX_CHARS = 2048;

/** The content address of an icon: sha256 of its stored base64 text, 32 hex characters. */
export const iconHash = (base64: string) => createHash('sha256').update(base64).digest('hex').slice(0, 32);

export const iconPath = (hash: string) => `/api/icons/${hash}`;

/** Selects feeds.icon_data only when it is small enough to send inline (aliased icon_data). */
export const inlineIconData = sql<string | null>`case when length(feeds.icon_data) <= ${sql.lit(INLINE_ICON_MAX_CHARS)} then feeds.icon_data end`;

export interface IconColumns {
  icon_data: string | null;
  icon_type: string | null;
  icon_hash: string | null;
}

export function presentIcon(row: IconColumns): { base64: string | null; type: string | null; url: string | null } {
  if (!row.icon_hash) return { base64: null, type: null, url: null };
  return { base64: row.icon_data, type: row.icon_type, url: iconPath(row.icon_hash) };
}
