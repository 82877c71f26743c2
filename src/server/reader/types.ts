import type { FeedErrorCode } from '../../common/feed-errors.js';

/**
 * The types the reader pipeline (docs/ARCHITECTURE.md "Shape of the system": fetch → parse → normalise → sanitise) hands from stage to stage.
 * Everything under src/server/reader is pure: no database, no HTTP routes. src/server/refresh drives it.
 */

/** A media file attached to an item (RSS enclosure, media:content, Atom link rel="enclosure", JSON Feed attachment). */
export interface Enclosure {
  url: string;
  /** MIME type as the feed states it, lower-cased; null when not given. */
  type: string | null;
  /** Size in bytes; null when not given or not a number. */
  length: number | null;
  /** Duration in seconds (itunes:duration, media:content duration, duration_in_seconds); null when unknown. */
  duration: number | null;
}

/** One item of a feed, normalised across RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 0.3/1.0 and JSON Feed 1.0/1.1. */
export interface ParsedItem {
  /**
   * Stable identity within its feed: guid/id when present, else the link, else a hash of title and content.
   * A re-fetch of the same item yields the same key, so it is updated in place and never duplicated.
   */
  guid: string;
  /** Absolute http(s) URL of the article, resolved against xml:base / the feed URL; null when there is none. */
  url: string | null;
  /** Plain text (tags removed, entities decoded, whitespace collapsed). May be empty. */
  title: string;
  /** Plain text; fallbacks: dc:creator, itunes:author, atom author, item author, feed author. */
  author: string | null;
  /** HTML, not yet sanitised: content:encoded, atom content, content_html (or content_text as escaped HTML). */
  content: string | null;
  /** HTML, not yet sanitised: description, atom summary, media:description, JSON summary. */
  summary: string | null;
  /**
   * The base for relative URLs inside content and summary when the feed declares one: the xml:base in scope for
   * the Atom content (or summary) element (RFC 4287 §2, XML Base). Absent otherwise; the item URL is then the base.
   */
  contentBase?: string;
  /** ISO 8601 UTC with Z; null when the feed gives no usable date (the store then uses the first-seen time). */
  publishedAt: string | null;
  /** ISO 8601 UTC with Z; null when not given. */
  updatedAt: string | null;
  /** Lead image (media:thumbnail, itunes:image, JSON image, YouTube thumbnail); absolute URL or null. */
  imageUrl: string | null;
  enclosures: Enclosure[];
}

export type FeedFormat = 'rss' | 'rdf' | 'atom' | 'json';

/** A whole feed after parsing and normalisation. */
export interface ParsedFeed {
  format: FeedFormat;
  /** Plain text; may be empty (the UI then shows the host name). */
  title: string;
  /** The site the feed belongs to (channel link, atom link rel=alternate, JSON home_page_url); absolute or null. */
  siteUrl: string | null;
  /** Plain text or null. */
  description: string | null;
  /** Feed image / logo / icon URL (absolute) or null; used as an icon fallback. */
  imageUrl: string | null;
  /** Language tag as given (en, de-DE, …) or null. */
  language: string | null;
  /** Suggested minimum refresh interval in minutes (RSS ttl, sy:updatePeriod/sy:updateFrequency), or null. */
  ttlMinutes: number | null;
  items: ParsedItem[];
}

/**
 * Error codes of the reader pipeline, with their English texts in src/common/feed-errors.ts. They are stored on
 * the feed (`last_error_code`) together with a detailed English message, and the web app translates the code.
 */
export type ReaderErrorCode = Exclude<FeedErrorCode, 'REFRESH_FAILED'>;

/** Every error the reader pipeline throws on purpose. `message` is English and readable; `code` is for translation. */
export class ReaderError extends Error {
  constructor(
    readonly code: ReaderErrorCode,
    message: string,
    readonly details: { status?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ReaderError';
  }
}

/** Options of the HTTP fetcher (from Config; see config.ts). */
export interface FetcherOptions {
  /** Total time for one request including redirects and body, in ms (default 30 000). */
  timeoutMs: number;
  /** Connect timeout in ms (default 10 000). */
  connectTimeoutMs?: number;
  /** Body cap in bytes (default 10 MB); the download is aborted as soon as it is exceeded. */
  maxBytes: number;
  /** ALLOW_PRIVATE_FEED_HOSTS: when false, loopback/private/link-local/metadata addresses are refused at connect. */
  allowPrivateHosts: boolean;
  /** User-Agent header. */
  userAgent: string;
}

/** Conditional-GET validators kept per feed. */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export type FetchResult =
  | {
      status: 'ok';
      /** URL the body finally came from (after redirects). */
      url: string;
      /** Set when every redirect on the way was permanent (301/308): the feed's stored URL should become this. */
      permanentUrl: string | null;
      /** Decompressed body, at most maxBytes. */
      body: Buffer;
      /** Content-Type header as sent (may carry a charset), or null. */
      contentType: string | null;
      etag: string | null;
      lastModified: string | null;
    }
  | {
      status: 'not-modified';
      url: string;
      permanentUrl: string | null;
      etag: string | null;
      lastModified: string | null;
    };

/** A feed found by discovery, as the add-feed search shows it (dashboard.md §3 / §7 shapes). */
export interface DiscoveredFeed {
  title: string;
  url: string;
  favicon_url: string | null;
}

/** A site icon, stored base64 with its MIME type. */
export interface Icon {
  mimeType: string;
  /** base64 of the (for SVG: sanitised) bytes. */
  data: string;
}
