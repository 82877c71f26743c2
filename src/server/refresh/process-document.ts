import { hash } from 'node:crypto';
import { INDEX_TEXT_MAX, teaserOfText } from '../articles/article-text.js';
import type { StoredItem } from '../articles/articles.repository.js';
import { containsNul, stripNulDeep } from '../nul.js';
import { TsvectorList } from '../articles/search-vector.js';
import { isoString } from '../reader/parse/dates.js';
import { parseFeed } from '../reader/parse/index.js';
import { sanitizeContentWithText, stripTracking, type SanitizedContent } from '../reader/sanitize/index.js';
import type { ParsedFeed, ParsedItem } from '../reader/types.js';

/**
 * The CPU-bound middle of a refresh, as one pure function: parse and normalise a fetched document, identify its
 * items, and sanitise only the items that are new or edited. It runs on a worker thread in the engine
 * (document-pool.ts) so both cores work during a refresh, or inline (tests, the CLI). Everything it takes and
 * returns is plain data, cheap to pass between threads.
 */
export interface DocumentInput {
  body: Uint8Array;
  url: string;
  contentType: string | null;
  /** guid hash → content hash of the items the feed's previous document had (what is stored for them). */
  known: Map<string, string>;
  /** Milliseconds since the epoch: the fetch time (first-seen time of undated items; future dates clamp to it). */
  now: number;
  /**
   * Make each stored item's PostgreSQL search vector here (StoredItem.searchVector): the engine asks for it on a
   * database that agrees with articles/search-vector.ts (docs/decisions.md "Refresh engine: the search vector on
   * the parse threads").
   */
  searchVectors?: boolean;
}

export type FeedMeta = Omit<ParsedFeed, 'items'>;

/**
 * A stored item as made here: its texts are strings, always with its text and teaser (articles.repository.ts computes
 * them for other callers).
 */
export type ProcessedItem = StoredItem & { content: string | null; summary: string | null; text: string; teaser: string };

export interface ProcessedDocument {
  feed: FeedMeta;
  /** New and edited items, sanitised, in document order. */
  fresh: ProcessedItem[];
  changed: ProcessedItem[];
  /** Every item's guid hash (stored or not): the clean-up keeps what is still in the feed. */
  seen: string[];
  /** Every item's publication time: the posting frequency for the schedule. */
  publishedTimes: string[];
}

/**
 * A processed document as the store gets it: a parse thread's answer has its new items' texts as UTF-8 bytes
 * (pack-texts.ts), the inline processor's as strings.
 */
export type StoredDocument = Omit<ProcessedDocument, 'fresh' | 'changed'> & {
  fresh: StoredItem[];
  changed: StoredItem[];
  /**
   * The buffers made for this document alone whose views its items hold (the packed texts, the search vectors): moved
   * with it from the parse thread, given back once it is stored (pack-texts.ts packTexts, releaseTexts).
   */
  buffers?: ArrayBuffer[];
};

/** A document with more items than this keeps its first (newest) ones: a hostile feed cannot flood the database. */
export const MAX_ITEMS_PER_FETCH = 1000;

/** One-shot hashing: no Hash object per call (two per item were 5 % of a parse thread's time). */
const sha256 = (s: string) => hash('sha256', s, 'hex');

/**
 * What a reader sees of an item, hashed: an edit changes it, a re-fetch of the same item does not. The fields are
 * joined with separators that cannot occur in them and hashed at once; the digest is the one the stored items
 * have (the same bytes in the same order as when they were fed to a Hash one by one).
 */
export function fingerprint(item: ParsedItem): string {
  let s = '';
  for (const field of [item.title, item.url, item.author, item.content, item.summary, item.imageUrl]) s += `${field ?? '\u0000'}\u0001`;
  for (const e of item.enclosures) s += `${e.url}\u0002${e.type}\u0002${e.length}\u0002${e.duration}\u0001`;
  return sha256(s);
}

/** A character beyond Latin-1 (past U+00FF). */
// eslint-disable-next-line no-control-regex -- the range starts at U+0000 to cover all of Latin-1
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * The same characters, as a string V8 keeps at one byte per character when they are all Latin-1. A document with a
 * single character beyond Latin-1 (a dash in its title) decodes to a string of two bytes per character, and every
 * slice of it, every item's HTML, and everything built from them stays so: the sanitiser's output, the stored
 * text and teaser. Copied to the main thread, such strings cost about twice as much to serialise as one-byte ones
 * of the same length (docs/decisions.md "Parse threads: the ad rules' prefilter and one-byte item HTML"). Only the
 * representation changes, never a character: the result is identical either way.
 */
function latin1Compact(html: string): string {
  return BEYOND_LATIN1.test(html) ? html : Buffer.from(html, 'latin1').toString('latin1');
}

function toStoredItem(item: ParsedItem, guidHash: string, contentHash: string, publishedAt: string): ProcessedItem {
  // Relative URLs in the content: the xml:base in scope for it (Atom, reader/types.ts), else the article link.
  // One byte a character like the HTML (latin1Compact): links to a path of the site are the base's scheme and host
  // followed by the path (sanitize/urls.ts), and a two-byte base would make the whole stored HTML two-byte.
  const base = item.contentBase ?? item.url;
  const baseUrl = base === null ? null : latin1Compact(base);
  // One parse of each HTML field gives the stored HTML and its plain text (docs/decisions.md "Sanitising in one
  // pass"): the text is what htmlToText of the stored HTML reads, as articleBody and teaser would compute it.
  const content: SanitizedContent | null = item.content ? sanitizeContentWithText(latin1Compact(item.content), { baseUrl }) : null;
  // An item with only a description has it as content too (reader/parse): stored, and sanitised, once.
  const summary: SanitizedContent | null = item.summary && item.summary !== item.content ? sanitizeContentWithText(latin1Compact(item.summary), { baseUrl }) : null;
  const body = (content ?? summary)?.text ?? '';
  return {
    guidHash,
    guid: item.guid,
    contentHash,
    // The article link loses its campaign parameters (utm_*, fbclid, …) like every link in the content.
    url: item.url ? stripTracking(item.url) : null,
    title: item.title,
    author: item.author,
    content: content?.html ?? null,
    summary: summary?.html ?? null,
    imageUrl: item.imageUrl,
    enclosures: item.enclosures,
    publishedAt,
    updatedAt: item.updatedAt,
    // Search and filter text (articleBody), made here on the parse thread rather than on the main thread.
    text: body.length > INDEX_TEXT_MAX ? body.slice(0, INDEX_TEXT_MAX) : body,
    // The list's teaser too (teaser of the summary, else the content): lists show it as stored.
    teaser: teaserOfText((summary ?? content)?.text ?? ''),
  };
}

/** Throws ReaderError (PARSE_*) for documents that are not feeds. */
export function processDocument(input: DocumentInput): ProcessedDocument {
  const { items, ...feed } = parseFeed(input.body, { url: input.url, contentType: input.contentType, now: input.now });
  const result: ProcessedDocument = { feed, fresh: [], changed: [], seen: [], publishedTimes: [] };
  items.slice(0, MAX_ITEMS_PER_FETCH).forEach((item, index) => {
    const guidHash = sha256(item.guid);
    const contentHash = fingerprint(item);
    // An undated item gets its first-seen time; the document's order (newest first) is kept by a millisecond each.
    const publishedAt = item.publishedAt ?? isoString(input.now - index);
    result.seen.push(guidHash);
    result.publishedTimes.push(publishedAt);
    const stored = input.known.get(guidHash);
    if (stored === undefined) result.fresh.push(toStoredItem(item, guidHash, contentHash, publishedAt));
    else if (stored !== contentHash) result.changed.push(toStoredItem(item, guidHash, contentHash, publishedAt));
  });
  // Feed text is stored without U+0000, which PostgreSQL cannot hold, whatever field it came in (decisions.md "No
  // NUL characters"); done here, on the parse thread, like the rest of the per-item work.
  const stored = withoutNul(result);
  if (input.searchVectors) withSearchVectors([...stored.fresh, ...stored.changed]);
  return stored;
}

/**
 * Sets each item's search vector: of what the store indexes (title and text, as articles.repository.ts joins them),
 * from the final strings; null (PostgreSQL computes it) for a text search-vector.ts does not handle. The vectors
 * share one buffer, so the copy to the main thread is one ArrayBuffer for the document, not one per item.
 */
function withSearchVectors(items: ProcessedItem[]): void {
  const list = new TsvectorList();
  for (const item of items) list.add(item.title, item.text);
  const vectors = list.finish();
  items.forEach((item, k) => {
    item.searchVector = vectors[k];
  });
}

/**
 * The fields of a stored item that never hold U+0000: what the sanitiser wrote (it drops U+0000 from its input and
 * its parser reads &#0; as U+FFFD, sanitize.test.ts), which is most of an item's characters, and what is made here
 * (hex digests, ISO dates from Date). They are not searched; every other field is.
 */
const FIELDS_WITHOUT_NUL: ReadonlySet<string> = new Set([
  'content',
  'summary',
  'text',
  'teaser',
  'guidHash',
  'contentHash',
  'publishedAt',
  'updatedAt',
] satisfies (keyof StoredItem)[]);

function itemHasNul(item: StoredItem): boolean {
  for (const key in item) {
    if (FIELDS_WITHOUT_NUL.has(key)) continue;
    const value = item[key as keyof StoredItem];
    if (typeof value === 'string' ? value.includes('\0') : value !== null && containsNul(value)) return true;
  }
  return false;
}

/**
 * The result with U+0000 dropped from every string (nul.ts stripNulDeep); the sanitiser's output, the digests in
 * `seen` and the ISO dates in `publishedTimes` are not searched.
 */
function withoutNul(result: ProcessedDocument): ProcessedDocument {
  const items = (list: ProcessedItem[]) => (list.some(itemHasNul) ? list.map((item) => (itemHasNul(item) ? stripNulDeep(item) : item)) : list);
  return { feed: stripNulDeep(result.feed), seen: result.seen, publishedTimes: result.publishedTimes, fresh: items(result.fresh), changed: items(result.changed) };
}
