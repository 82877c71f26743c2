/**
 * Cheap structural look at a document before (or instead of) parsing it: where the root element starts, what it
 * is called, and whether a DOCTYPE declares entities.
 *
 * Entity policy (decision, see index.ts): feeds never need a DTD. The XML reader (xml.ts) decodes only HTML's own
 * character references, so no declared entity is ever expanded and external entities are never resolved; on top of
 * that, a prolog DOCTYPE whose internal subset contains `<!ENTITY` is refused outright with
 * PARSE_ENTITY_LIMIT before any parsing. That is the billion-laughs / XXE signature, and refusing it costs one
 * linear scan of the prolog and no memory. A DOCTYPE without an internal subset (the Netscape RSS 0.91 one) or
 * with one that declares nothing is harmless and is simply skipped.
 */
import { ReaderError } from '../types.js';

export interface Prolog {
  /** Index of the `<` of the root element. */
  rootStart: number;
  /** Root element name as written (`rss`, `feed`, `rdf:RDF`, `atom:feed`, `html`, …). */
  rootName: string;
  /** Local part of the root name, lower-cased (`rss`, `feed`, `rdf`, `html`). */
  rootLocalName: string;
}

/** How far leading junk (a PHP warning, a stray blank line of text) before the first `<` is tolerated. */
const MAX_LEADING_JUNK = 1024;

const NAME_START = /[A-Za-z_:]/;
const NAME_END = /[\s/>]/;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0xfeff;
}

/**
 * Finds the end (index of the closing `>`) of the DOCTYPE starting at `start`; throws PARSE_ENTITY_LIMIT when its
 * internal subset declares an entity. Returns -1 when the declaration is not terminated.
 */
function skipDoctype(text: string, start: number): number {
  const len = text.length;
  let i = start + 9; // after "<!DOCTYPE"
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      // A quoted SYSTEM/PUBLIC literal may contain '>' or '['.
      const close = text.indexOf(text[i], i + 1);
      if (close === -1) return -1;
      i = close + 1;
    } else if (c === 0x5b /* [ */) {
      i = skipInternalSubset(text, i + 1);
      if (i === -1) return -1;
    } else if (c === 0x3e /* > */) {
      return i;
    } else {
      i++;
    }
  }
  return -1;
}

/** Returns the index after the `]` closing the internal subset that starts at `start`. */
function skipInternalSubset(text: string, start: number): number {
  const len = text.length;
  let i = start;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 0x5d /* ] */) return i + 1;
    if (c === 0x22 || c === 0x27) {
      const close = text.indexOf(text[i], i + 1);
      if (close === -1) return -1;
      i = close + 1;
    } else if (c === 0x3c /* < */ && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close === -1) return -1;
      i = close + 3;
    } else if (c === 0x3c && text.slice(i, i + 8).toUpperCase() === '<!ENTITY') {
      throw new ReaderError('PARSE_ENTITY_LIMIT', 'The document declares XML entities in its DOCTYPE; feeds never need them and they are refused for safety.');
    } else {
      i++;
    }
  }
  return -1;
}

/**
 * Walks the prolog (XML declaration, processing instructions, comments, DOCTYPE) to the root element. Returns null
 * when there is no root element (empty, text, truncated prolog). Throws PARSE_ENTITY_LIMIT (see file comment).
 */
export function scanProlog(text: string): Prolog | null {
  const len = text.length;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    if (c !== 0x3c /* < */) {
      // Leniency: skip a little text before the document (servers that print a warning first).
      const next = text.indexOf('<', i);
      if (next === -1 || next > MAX_LEADING_JUNK) return null;
      i = next;
      continue;
    }
    const c1 = text.charCodeAt(i + 1);
    if (c1 === 0x3f /* ? */) {
      const end = text.indexOf('?>', i + 2);
      if (end === -1) return null;
      i = end + 2;
    } else if (c1 === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end === -1) return null;
        i = end + 3;
      } else if (text.slice(i + 2, i + 9).toUpperCase() === 'DOCTYPE') {
        const end = skipDoctype(text, i);
        if (end === -1) return null;
        i = end + 1;
      } else {
        return null;
      }
    } else if (NAME_START.test(text[i + 1] ?? '')) {
      let j = i + 2;
      while (j < len && !NAME_END.test(text[j])) j++;
      const rootName = text.slice(i + 1, j);
      const colon = rootName.lastIndexOf(':');
      return { rootStart: i, rootName, rootLocalName: rootName.slice(colon + 1).toLowerCase() };
    } else {
      return null;
    }
  }
  return null;
}
