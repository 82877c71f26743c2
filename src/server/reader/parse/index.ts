/**
 * The parse stage of the reader pipeline (docs/ARCHITECTURE.md "Shape of the system": fetch → parse → normalise → sanitise): bytes in,
 * ParsedFeed out. Pure and synchronous. RSS, RDF and Atom are read by our own XML reader (docs/decisions.md "Parse
 * threads: our own XML feed reader": xml.ts builds the tree, raw-feed.ts takes the fields, xml-text.ts decodes the
 * values), JSON Feed by feedsmith; normalize.ts maps them (one file per format: rss.ts, rdf.ts, atom.ts, json.ts).
 *
 * Flow: decode (encoding.ts) → look at the first character / the prolog (sniff.ts: refuses entity declarations)
 * → the XML reader for the format the root element names → normalise. Errors are always ReaderError:
 *   PARSE_NOT_A_FEED   empty, binary, HTML or any other document that is not RSS, RDF, Atom or JSON Feed (also a
 *                      root that does not show its format: <rss/>, an Atom <feed> without its namespace or elements);
 *   PARSE_INVALID      a feed that cannot be read (malformed XML or JSON), a document past the reader's caps (more
 *                      than 500,000 elements; markup whose scanning would take more than linear work), and any
 *                      unexpected failure;
 *   PARSE_ENTITY_LIMIT a DOCTYPE declaring entities (billion laughs, XXE).
 *
 * Leniency: the reader does not validate, so unescaped "&", unknown HTML entities, mismatched end tags (an end tag
 * closes the innermost element, whatever its name) and unclosed elements at the end of the document are read as
 * written. When a feed is cut off inside a tag (`</rss` without `>`), it is read without that tag; when the reader
 * refuses it otherwise (a truncated download that ends inside a <description>, a comment or CDATA section that is
 * not closed, elements nested more than 100 deep), it is read again up to its last complete item/entry, so what did
 * arrive is not lost.
 */
import { type FeedFormat, type ParsedFeed, ReaderError } from '../types.js';
import { type NormalizeContext, type RawFeed, normalize } from './normalize.js';
import { decodeXmlBody, fromUtf8Bytes } from './encoding.js';
import { readJsonFeed } from './json-feed.js';
import { type RawXmlFeed, XmlDetectError, XmlMalformedError, readRawFeed } from './raw-feed.js';
import { scanProlog } from './sniff.js';
import { firstNonSpace, toText, xmlFormatOf } from './looks-like-feed.js';

export { looksLikeFeed } from './looks-like-feed.js';

export interface ParseOptions {
  /** The URL the body came from (after redirects); the base for relative links. */
  url: string;
  /** The Content-Type header, for its charset. */
  contentType?: string | null;
  /** The fetch time (ms since the epoch): dates more than a day after it are clamped to it. Default: now. */
  now?: number;
}

function notAFeed(message: string): ReaderError {
  return new ReaderError('PARSE_NOT_A_FEED', message);
}

function invalid(message: string): ReaderError {
  return new ReaderError('PARSE_INVALID', message);
}

/** A feed whose root was recognised but which holds nothing that could be read (an empty <channel>). */
function emptyFeed(format: FeedFormat): ParsedFeed {
  return { format, title: '', siteUrl: null, description: null, imageUrl: null, language: null, ttlMinutes: null, items: [] };
}

/** End index of the last complete item (RSS/RDF) or entry (Atom), or -1. */
function lastCompleteItemEnd(xml: string, format: FeedFormat): number {
  const names = format === 'atom' ? ['</entry>', ':entry>', '</ENTRY>'] : ['</item>', ':item>', '</ITEM>'];
  let end = -1;
  for (const n of names) {
    const i = xml.lastIndexOf(n);
    if (i !== -1) end = Math.max(end, i + n.length);
  }
  return end;
}

type XmlFeedFormat = Exclude<FeedFormat, 'json'>;

/**
 * Reads an XML document that starts at its root element: the feed's fields, or null when it holds nothing of a
 * feed. Throws XmlDetectError when the document does not show its format, XmlMalformedError when it is not XML that
 * can be read, ReaderError at a cap. Production reads with raw-feed.ts; the differential test passes the reading
 * Feeder had before (feedsmith) to compare the two. `utf8Bytes`: `xml` is a UTF-8 document's bytes, one character
 * a byte (only for a parser made with `readsUtf8Bytes`).
 */
export type XmlFeedReader = (format: XmlFeedFormat, xml: string, utf8Bytes: boolean) => RawXmlFeed | null;

/** The document without an unfinished tag at its very end (`</rss` without `>`), or null when there is none. */
function withoutCutTag(xml: string): string | null {
  const lt = xml.lastIndexOf('<');
  return lt > 0 && xml.indexOf('>', lt) === -1 ? xml.slice(0, lt) : null;
}

/** A reading that gave a feed, or undefined when it failed or gave nothing; caps (ReaderError) are not retried. */
function readOrUndefined(read: XmlFeedReader, format: XmlFeedFormat, xml: string, utf8Bytes: boolean): RawXmlFeed | undefined {
  try {
    return read(format, xml, utf8Bytes) ?? undefined;
  } catch (error) {
    if (error instanceof ReaderError) throw error;
    return undefined;
  }
}

/**
 * A document the reader refused, read as far as it is well-formed (as newsboat and feedparser do): first without
 * a tag cut off at the very end (the elements left open at the end are closed there), else up to its last
 * complete item or entry.
 */
function readTruncated(read: XmlFeedReader, format: XmlFeedFormat, xml: string, utf8Bytes: boolean): RawXmlFeed {
  const uncut = withoutCutTag(xml);
  const whole = uncut === null ? undefined : readOrUndefined(read, format, uncut, utf8Bytes);
  if (whole) return whole;
  const end = lastCompleteItemEnd(xml, format);
  const upToItem = end > 0 && end < xml.length ? readOrUndefined(read, format, xml.slice(0, end), utf8Bytes) : undefined;
  if (!upToItem) throw invalid('The feed is not well-formed XML and could not be read.');
  return upToItem;
}

/** `utf8Bytes`: `text` holds a UTF-8 document's bytes (decodeXmlBody), which the reader decodes as it reads. */
function parseXmlDocument(read: XmlFeedReader, text: string, utf8Bytes: boolean, ctx: NormalizeContext): ParsedFeed {
  const prolog = scanProlog(text);
  if (!prolog) throw notAFeed('The document has no XML root element; it is not a feed.');
  const format = xmlFormatOf(prolog);
  if (!format) {
    throw notAFeed(
      prolog.rootLocalName === 'html'
        ? 'The document is an HTML page, not a feed.'
        : `The document is XML with root element <${(utf8Bytes ? fromUtf8Bytes(prolog.rootName) : prolog.rootName).slice(0, 50)}>, not a feed.`,
    );
  }
  // Everything before the root (declaration, comments, the entity-free DOCTYPE) is dropped: its encoding has
  // been applied already, and the reader then never sees a DOCTYPE in the prolog.
  const xml = text.slice(prolog.rootStart);

  let raw: RawXmlFeed | null;
  try {
    raw = read(format, xml, utf8Bytes);
  } catch (error) {
    if (error instanceof XmlDetectError) throw notAFeed(`The document is not a valid ${format.toUpperCase()} feed.`);
    if (!(error instanceof XmlMalformedError)) throw error;
    raw = readTruncated(read, format, xml, utf8Bytes);
  }
  // The root element is right but holds nothing that could be read (an empty <channel>).
  if (raw === null) return emptyFeed(format);

  // Atom 0.3 declares http://purl.org/atom/ns# on its root element (Atom 1.0: http://www.w3.org/2005/Atom).
  const atom03 = format === 'atom' && xml.slice(0, xml.indexOf('>') + 1 || 2048).includes('purl.org/atom/ns#');
  return normalize({ ...raw, atom03 } as RawFeed, ctx);
}

function parseJsonDocument(text: string, ctx: NormalizeContext): ParsedFeed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('The document is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw notAFeed('The document is JSON but not a JSON Feed.');
  }
  const reading = readJsonFeed(value);
  if (reading === 'not-json-feed') throw notAFeed('The document is JSON but not a JSON Feed.');
  if (reading === 'empty') return emptyFeed('json');
  return normalize({ format: 'json', feed: reading.feed }, ctx);
}

/**
 * parseFeed with another XML reader (the differential test's); production uses `parseFeed`. A reader that reads
 * UTF-8 bytes (`readsUtf8Bytes`, xml.ts) gets a UTF-8 body with markup as its bytes (decodeXmlBody); any other
 * reader gets text.
 */
export function createFeedParser(read: XmlFeedReader, readsUtf8Bytes = false): (body: Buffer | Uint8Array | string, options: ParseOptions) => ParsedFeed {
  return (body, options) => {
    try {
      const { text, utf8Bytes } =
        readsUtf8Bytes && typeof body !== 'string' ? decodeXmlBody(body, options.contentType) : { text: toText(body, options.contentType), utf8Bytes: false };
      const ctx: NormalizeContext = { url: options.url, now: options.now ?? Date.now() };
      const start = firstNonSpace(text);
      if (start === -1) throw notAFeed('The document is empty.');
      const c = text[start];
      if (c === '{') return parseJsonDocument(text, ctx);
      if (c === '[') throw notAFeed('The document is JSON but not a JSON Feed.');
      return parseXmlDocument(read, text, utf8Bytes, ctx);
    } catch (error) {
      if (error instanceof ReaderError) throw error;
      // Anything else (a bug, a stack overflow) is still "could not read this feed".
      const reason = error instanceof Error ? error.message : String(error);
      throw invalid(`The feed could not be read: ${reason.slice(0, 200)}`);
    }
  };
}

/**
 * Parses and normalises a feed body. Throws only ReaderError (PARSE_NOT_A_FEED, PARSE_INVALID,
 * PARSE_ENTITY_LIMIT); see the file comment.
 */
export const parseFeed: (body: Buffer | Uint8Array | string, options: ParseOptions) => ParsedFeed = createFeedParser(readRawFeed, true);
