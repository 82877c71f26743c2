/**
 * The parse stage of the reader pipeline (docs/ARCHITECTURE.md "Shape of the system": fetch → parse → normalise → sanitise): bytes in,
 * ParsedFeed out. Pure and synchronous; feedsmith (on fast-xml-parser) reads the formats, normalize.ts maps them
 * (one file per format: rss.ts, rdf.ts, atom.ts, json.ts).
 *
 * Flow: decode (encoding.ts) → look at the first character / the prolog (sniff.ts: refuses entity declarations)
 * → feedsmith's parser for the format the root element names → normalise. Errors are always ReaderError:
 *   PARSE_NOT_A_FEED   empty, binary, HTML or any other document that is not RSS, RDF, Atom or JSON Feed;
 *   PARSE_INVALID      a feed that cannot be read (malformed XML or JSON), and any unexpected failure;
 *   PARSE_ENTITY_LIMIT a DOCTYPE declaring entities (billion laughs, XXE).
 *
 * Leniency: fast-xml-parser does not validate, so unescaped "&", unknown HTML entities and unclosed elements at
 * the end of the document are read as written. When a feed is cut off inside a tag (`</rss` without `>`), it is
 * read without that tag; when it is cut off inside an element (a truncated download), it is parsed again up to
 * its last complete item/entry, so what did arrive is not lost.
 */
import { DetectError, MalformedError, ParseError, parseAtomFeed, parseJsonFeed, parseRdfFeed, parseRssFeed } from 'feedsmith';
import { type FeedFormat, type ParsedFeed, ReaderError } from '../types.js';
import { type NormalizeContext, type RawFeed, normalize } from './normalize.js';
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

/** A feed whose root was recognised but which holds nothing feedsmith could retrieve (an empty <channel>). */
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

function runXmlParser(format: Exclude<FeedFormat, 'json'>, xml: string): unknown {
  switch (format) {
    case 'rss':
      return parseRssFeed(xml);
    case 'atom':
      return parseAtomFeed(xml);
    case 'rdf':
      return parseRdfFeed(xml);
  }
}

/** The document without an unfinished tag at its very end (`</rss` without `>`), or null when there is none. */
function withoutCutTag(xml: string): string | null {
  const lt = xml.lastIndexOf('<');
  return lt > 0 && xml.indexOf('>', lt) === -1 ? xml.slice(0, lt) : null;
}

/**
 * A document the parser refused, read as far as it is well-formed (as newsboat and feedparser do): first without
 * a tag cut off at the very end (fast-xml-parser closes the elements left open at the end), else up to its last
 * complete item or entry.
 */
function parseTruncated(format: Exclude<FeedFormat, 'json'>, xml: string): unknown {
  const uncut = withoutCutTag(xml);
  if (uncut !== null) {
    try {
      return runXmlParser(format, uncut);
    } catch {
      // Not the only damage: try the last complete item.
    }
  }
  const end = lastCompleteItemEnd(xml, format);
  if (end <= 0 || end >= xml.length) throw invalid('The feed is not well-formed XML and could not be read.');
  try {
    return runXmlParser(format, xml.slice(0, end));
  } catch {
    throw invalid('The feed is not well-formed XML and could not be read.');
  }
}

function parseXmlDocument(text: string, ctx: NormalizeContext): ParsedFeed {
  const prolog = scanProlog(text);
  if (!prolog) throw notAFeed('The document has no XML root element; it is not a feed.');
  const format = xmlFormatOf(prolog);
  if (!format) {
    throw notAFeed(
      prolog.rootLocalName === 'html'
        ? 'The document is an HTML page, not a feed.'
        : `The document is XML with root element <${prolog.rootName.slice(0, 50)}>, not a feed.`,
    );
  }
  // Everything before the root (declaration, comments, the entity-free DOCTYPE) is dropped: its encoding has
  // been applied already, and fast-xml-parser then never sees a DOCTYPE at all.
  const xml = text.slice(prolog.rootStart);

  let raw: unknown;
  try {
    raw = runXmlParser(format, xml);
  } catch (error) {
    if (error instanceof DetectError) throw notAFeed(`The document is not a valid ${format.toUpperCase()} feed.`);
    // feedsmith's ParseError: the root element is right but holds nothing it could read (an empty <channel>).
    if (error instanceof ParseError) return emptyFeed(format);
    if (!(error instanceof MalformedError)) throw error;
    raw = parseTruncated(format, xml);
  }

  // Atom 0.3 declares http://purl.org/atom/ns# on its root element (Atom 1.0: http://www.w3.org/2005/Atom).
  const atom03 = format === 'atom' && xml.slice(0, xml.indexOf('>') + 1 || 2048).includes('purl.org/atom/ns#');
  return normalize({ format, feed: raw, atom03 } as RawFeed, ctx);
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
  let feed;
  try {
    feed = parseJsonFeed(value);
  } catch (error) {
    if (error instanceof DetectError) throw notAFeed('The document is JSON but not a JSON Feed.');
    if (error instanceof ParseError) return emptyFeed('json');
    throw error;
  }
  return normalize({ format: 'json', feed }, ctx);
}

/**
 * Parses and normalises a feed body. Throws only ReaderError (PARSE_NOT_A_FEED, PARSE_INVALID,
 * PARSE_ENTITY_LIMIT); see the file comment.
 */
export function parseFeed(body: Buffer | Uint8Array | string, options: ParseOptions): ParsedFeed {
  try {
    const text = toText(body, options.contentType);
    const ctx: NormalizeContext = { url: options.url, now: options.now ?? Date.now() };
    const start = firstNonSpace(text);
    if (start === -1) throw notAFeed('The document is empty.');
    const c = text[start];
    if (c === '{') return parseJsonDocument(text, ctx);
    if (c === '[') throw notAFeed('The document is JSON but not a JSON Feed.');
    return parseXmlDocument(text, ctx);
  } catch (error) {
    if (error instanceof ReaderError) throw error;
    // Anything else (a parser bug, a stack overflow on absurd nesting) is still "could not read this feed".
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(`The feed could not be read: ${reason.slice(0, 200)}`);
  }
}
