import { BLOCK_TAGS, collapseWhitespace, htmlToText } from '../reader/parse/text.js';

/**
 * Plain text of articles: what search indexes, what filters match against, and the compact card's teaser.
 * Pure functions, shared by the store (refresh) and the reading API.
 */

/** Indexed text per article is cut here: PostgreSQL refuses tsvectors over 1 MB, and nobody searches page 40. */
export const INDEX_TEXT_MAX = 100_000;
/** The compact card's summary (dashboard.md §2 shows three sentences of it, clamped to three lines). */
export const TEASER_MAX = 600;

/**
 * An article's long text as the store takes it: a string, or its UTF-8 bytes. A refresh's new items cross from the
 * parse thread with their HTML, text and teaser as views of one transferred buffer (refresh/pack-texts.ts),
 * so the main thread holds them off its heap until their write group commits, and binds them without converting
 * (docs/decisions.md "Refresh engine: new items' texts as bytes").
 */
export type StoredText = string | Uint8Array;

/** The text of a StoredText: the bytes decoded as UTF-8 (written from a string, so never malformed). */
export function storedString(text: StoredText): string;
export function storedString(text: StoredText | null): string | null;
export function storedString(text: StoredText | null): string | null {
  if (text === null || typeof text === 'string') return text;
  return Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8');
}

const TAG = /<\/?([a-zA-Z][a-zA-Z0-9]*)[^>]*>/g;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&nbsp;': '\u00a0' };
const KNOWN_ENTITY = /&(?:amp|lt|gt|quot|#39|#x27|nbsp);/g;
const OTHER_MARKUP = /&(?!(?:amp|lt|gt|quot|#39|#x27|nbsp);)|<!|<\?/;

/**
 * Plain text of stored (sanitised) HTML, as htmlToText gives it, without a parser: the sanitiser's output has
 * only well-formed tags, escapes every < > & " in text and attributes, and holds no script, style or comment, so
 * removing tags (a space for block elements) and decoding its few entities is exact. Anything else (another
 * entity, a comment, a processing instruction) goes through htmlToText. Four times faster on the refresh's
 * main thread, where every new article's text is computed for search and filters.
 */
export function storedHtmlToText(html: string | null | undefined): string {
  if (!html) return '';
  if (OTHER_MARKUP.test(html)) return htmlToText(html);
  const text = html.replace(TAG, (_, name: string) => (BLOCK_TAGS.has(name.toLowerCase()) ? ' ' : '')).replace(KNOWN_ENTITY, (e) => ENTITIES[e]);
  return collapseWhitespace(text);
}

/** An article's body as plain text: its content, else its summary (decisions.md: filters match "content"). */
export function articleBody(content: string | null, summary: string | null): string {
  const text = storedHtmlToText(content ?? summary);
  return text.length > INDEX_TEXT_MAX ? text.slice(0, INDEX_TEXT_MAX) : text;
}

/**
 * HTML read for a teaser at most: a teaser needs TEASER_MAX characters of text, and a huge item must not make
 * every list that shows it parse a megabyte (docs/decisions.md "Parsing: teasers").
 */
export const TEASER_SOURCE_MAX = 64 * 1024;
/** The first, cheap try: enough for almost every item. */
const TEASER_SOURCE_FIRST = 4 * 1024;
/**
 * Text characters beyond `max` that make a prefix's teaser final: cutting the HTML can only change the text of
 * its last token (an entity is at most 33 characters, an unfinished tag gives none).
 */
const TEASER_MARGIN = 64;

const TEASER_TRAILING = /[\s,;:.!?-]/u;

/** Plain text cut at about `max` characters on a word boundary, with an ellipsis when cut. */
export function teaserOfText(text: string, max = TEASER_MAX): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  // A single enormous word (a URL) is cut where it is; otherwise at the last space.
  const kept = space > max * 0.6 ? cut.slice(0, space) : cut;
  // Trailing spaces and punctuation go before the ellipsis (a loop: a regex anchored at the end is tried from
  // every position of the string).
  let end = kept.length;
  while (end > 0 && TEASER_TRAILING.test(kept[end - 1])) end--;
  return `${kept.slice(0, end)}…`;
}

/**
 * The compact card's teaser of an article's HTML (its summary, else its content): the plain text of its first
 * TEASER_SOURCE_MAX characters, cut at about `max`. Bounded work whatever the input: the refresh stores it
 * (articles.teaser, computed on the parse threads) and lists show the stored one.
 */
export function teaser(html: string | null, max = TEASER_MAX): string {
  if (!html) return '';
  if (html.length > TEASER_SOURCE_FIRST) {
    const head = htmlToText(html.slice(0, TEASER_SOURCE_FIRST));
    if (head.length > max + TEASER_MARGIN) return teaserOfText(head, max);
  }
  return teaserOfText(htmlToText(html.length > TEASER_SOURCE_MAX ? html.slice(0, TEASER_SOURCE_MAX) : html), max);
}

/** At most this many words of a query count (q is at most 200 characters anyway). */
export const MAX_QUERY_WORDS = 20;

/** The runs of letters and digits of one (lower-cased) word: its search tokens. */
const wordTokens = (word: string) => (word.match(/[\p{L}\p{N}]+/gu) ?? []) as string[];

/**
 * A user's search words: split at whitespace, each kept as its runs of letters and digits (so `foo-bar` is the
 * tokens foo, bar and `"*NEAR(` is near). Words without a letter or digit are dropped. Lower-cased.
 */
export function searchWords(q: string): string[][] {
  return q
    .split(/\s+/u)
    .map((w) => wordTokens(w.toLowerCase()))
    .filter((tokens) => tokens.length > 0)
    .slice(0, MAX_QUERY_WORDS);
}

/**
 * SQLite FTS5 MATCH expression: every word a quoted phrase (never the user's own FTS syntax: `"`, `*`, NEAR,
 * `-`, column filters are all text here), all words required, the last one also as a prefix (search as you
 * type). Null when the query has no word to search for.
 */
export function ftsMatchQuery(q: string): string | null {
  const words = searchWords(q);
  if (words.length === 0) return null;
  return words.map((tokens, i) => `"${tokens.join(' ')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/**
 * PostgreSQL tsquery text for to_tsquery('simple', …): the tokens of one word must follow each other (<->),
 * all words are required (&), the last token is a prefix (:*). Tokens are letters and digits only and quoted as
 * lexemes, so no tsquery operator the user types has any effect. Null when there is nothing to search for.
 *
 * PostgreSQL's parser keeps some words whole where SQLite's splits them: a host (example.com), a number (3.5), an
 * e-mail address, a URL, a signed number (-11, also in a date: 2026 -11 -25). Each word is therefore also looked for
 * as typed, quoted: to_tsquery runs a quoted lexeme through the same parser as the articles' text, so it matches the
 * tokens the article was indexed with (docs/decisions.md "Search: words PostgreSQL keeps whole").
 */
export function pgTsQuery(q: string): string | null {
  const words = pgSearchWords(q);
  if (words.length === 0) return null;
  const lexeme = (t: string) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return words
    .map(({ tokens, whole }, i) => {
      const last = i === words.length - 1;
      const parts = tokens.map((t, j) => lexeme(t) + (last && j === tokens.length - 1 ? ':*' : ''));
      const split = parts.length > 1 ? `(${parts.join(' <-> ')})` : parts[0];
      return whole === null ? split : `(${split} | ${lexeme(whole)}${last ? ':*' : ''})`;
    })
    .join(' & ');
}

/**
 * The user's words as pgTsQuery searches them: each word's tokens (searchWords), and the word itself as typed (lower
 * case) unless it is just its one token. The punctuation around a word needs no trimming: PostgreSQL's parser skips
 * it in the query as it did in the article.
 */
function pgSearchWords(q: string): { tokens: string[]; whole: string | null }[] {
  const out: { tokens: string[]; whole: string | null }[] = [];
  for (const word of q.split(/\s+/u)) {
    if (out.length === MAX_QUERY_WORDS) break;
    const whole = word.toLowerCase();
    const tokens = wordTokens(whole);
    if (tokens.length === 0) continue;
    out.push({ tokens, whole: tokens.length === 1 && whole === tokens[0] ? null : whole });
  }
  return out;
}
