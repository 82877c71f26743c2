/**
 * The cheap sniff discovery runs on the main thread (is this body a feed or a page?), apart from the parser so that
 * the main thread never loads the feed parser and feedsmith (bench/README.md "Budgets": idle memory).
 */
import type { FeedFormat } from '../types.js';
import { decodeBody } from './encoding.js';
import { type Prolog, scanProlog } from './sniff.js';

/** How much of a body looksLikeFeed inspects. */
const SNIFF_BYTES = 4096;

const JSON_FEED_VERSION = /"version"\s*:\s*"https?:\/\/jsonfeed\.org\/version\//;
const ATOM_HINT = /http:\/\/www\.w3\.org\/2005\/Atom|http:\/\/purl\.org\/atom\/ns#|<(?:\w+:)?entry[\s>]/;

export function toText(body: Buffer | Uint8Array | string, contentType: string | null | undefined): string {
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  return decodeBody(body, contentType);
}

export function firstNonSpace(text: string): number {
  const m = /\S/.exec(text.length > 65536 ? text.slice(0, 65536) : text);
  return m ? m.index : -1;
}

export function xmlFormatOf(prolog: Prolog): Exclude<FeedFormat, 'json'> | null {
  switch (prolog.rootLocalName) {
    case 'rss':
      return 'rss';
    case 'feed':
      return 'atom';
    case 'rdf':
      return 'rdf';
    default:
      return null;
  }
}

/**
 * Cheap sniff used by discovery: does this body (first 4 KB) look like RSS, RDF, Atom or JSON Feed rather than an
 * HTML page? Never throws.
 */
export function looksLikeFeed(body: Buffer | Uint8Array | string, contentType?: string | null): boolean {
  try {
    const head = typeof body === 'string' ? toText(body.slice(0, SNIFF_BYTES), null) : toText(body.subarray(0, SNIFF_BYTES), contentType);
    const start = firstNonSpace(head);
    if (start === -1) return false;
    if (head[start] === '{') return JSON_FEED_VERSION.test(head);
    const prolog = scanProlog(head);
    if (!prolog) return false;
    const format = xmlFormatOf(prolog);
    if (format === 'atom') return ATOM_HINT.test(head);
    return format !== null;
  } catch {
    // A DOCTYPE with entities is not something discovery should offer.
    return false;
  }
}
