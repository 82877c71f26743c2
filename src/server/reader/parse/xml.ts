/**
 * The XML reader of the feed parser (docs/decisions.md "Parse threads: our own XML feed reader"): one pass over a
 * document that builds a tree of plain objects, the shape raw-feed.ts reads the feed's fields from.
 *
 * The tree and the failures are the ones feeds were read with before, when feedsmith ran fast-xml-parser over them
 * (the golden fixtures and xml.differential.test.ts hold the two equal), because which documents are malformed
 * decides which are read again up to their last complete item (index.ts):
 *
 * - Names are lower-cased, and prefixes bound to a known namespace URI (xml-tables.ts) are read as that namespace's
 *   prefix: `<a:link>` with `xmlns:a="http://www.w3.org/2005/Atom"` is `atom:link`. The bindings are taken from
 *   the first 64 KB of the document before reading and from each declaration as it comes; a default namespace
 *   counts on the root element only; the format's own namespace (Atom in Atom, RSS 1.0 and RDF in RDF) has no
 *   prefix.
 * - An element is an object of its children by name (a name that repeats becomes an array), its text under `#text`
 *   and its attributes under `@name`; an element with only text is that string, an empty one "".
 * - Text is kept as written: entities are decoded only when a value is read (xml-text.ts). CDATA sections join
 *   the text, comments are dropped. Elements in xml-tables.ts's raw lists (titles, descriptions, content:encoded,
 *   dc:*, …) are not parsed at all: their content up to the matching end tag is their text.
 * - An end tag closes the innermost open element whatever its name; elements still open at the end are closed
 *   there. Malformed (XmlMalformedError): a tag, comment, CDATA section, processing instruction or raw element
 *   that is not closed, a misplaced DOCTYPE, more than 100 nested elements, a name that would be a JavaScript
 *   prototype key.
 * - Caps on hostile input: more than MAX_ELEMENTS elements, or tag scans inside raw elements that would take more
 *   than a linear amount of work, end the parse with PARSE_INVALID (ReaderError).
 * - A UTF-8 document may be read as its bytes (`utf8Bytes`, encoding.ts decodeXmlBody): the markup is scanned as it
 *   is, and every name and value the tree keeps is decoded as it is taken (fromUtf8Bytes). Each is cut at ASCII
 *   markup, so it reads as it would in the decoded document.
 *
 * No state outlives a call: the namespace bindings, the stack and the counters belong to one `readXmlTree`.
 */
import { ReaderError } from '../types.js';
import { fromUtf8Bytes } from './encoding.js';
import { PREFIX_BY_URI, PRIMARY_URIS, RAW_NAMES, RAW_PATHS, RAW_UNDER } from './xml-tables.js';
import { isJsSpace } from './xml-text.js';

/** How a name or value taken from the document becomes text: itself, or decoded from UTF-8 bytes. */
type Take = (piece: string) => string;
const asIs: Take = (piece) => piece;

export type XmlFormat = 'rss' | 'atom' | 'rdf';
export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [key: string]: XmlValue;
}

/** The document cannot be read as XML (what fast-xml-parser refused); index.ts then reads what arrived intact. */
export class XmlMalformedError extends Error {}

/** Elements open at once; one more is malformed. */
export const MAX_DEPTH = 100;
/** Elements in one document: about 14 times what an 8 MB feed of 5,000 items holds. */
export const MAX_ELEMENTS = 500_000;
/** How far into the document namespace declarations are looked for before reading. */
const NAMESPACE_SCAN = 65536;

function malformed(reason: string): XmlMalformedError {
  return new XmlMalformedError(`The feed is not well-formed XML: ${reason}.`);
}

/** Names that would be JavaScript prototype keys of the tree's objects. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

function checkName(name: string): void {
  if (FORBIDDEN_NAMES.has(name) || name === '#text') throw malformed(`an element is named "${name.slice(0, 40)}"`);
}

export function firstSpace(s: string): number {
  for (let i = 0; i < s.length; i++) if (isJsSpace(s.charCodeAt(i))) return i;
  return -1;
}

export function trimStart(s: string): string {
  let i = 0;
  while (i < s.length && isJsSpace(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}

/**
 * A start tag's name and attribute text without the "/" of a self-closing tag, as fast-xml-parser split them (the
 * scanner below and raw-feed.ts's XHTML div check read tags alike): the tag is self-closing when its attribute text
 * (its name, when it has none) ends in "/", which comes off the name when the name holds it (`<br/>`: then the
 * attribute text is the name again), else off the attribute text. Null when the tag is not self-closing.
 */
export function splitSelfClosing(name: string, tagExp: string): { name: string; tagExp: string } | null {
  if (tagExp.length === 0 || tagExp.charCodeAt(tagExp.length - 1) !== 0x2f /* / */) return null;
  if (name.charCodeAt(name.length - 1) === 0x2f) {
    const bare = name.slice(0, -1);
    return { name: bare, tagExp: bare };
  }
  return { name, tagExp: tagExp.slice(0, -1) };
}

function isNameChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x2d;
}

/**
 * Namespace bindings of one document: prefix → the prefix it is read as ('' for the format's own namespace).
 * Bindings found by the scan ahead give way to the element's own declaration of the same prefix when it comes;
 * after that the first binding of a prefix wins.
 */
class Namespaces {
  private readonly prefixes = new Map<string, string>();
  private readonly scanned = new Set<string>();
  private defaultPrefix: string | undefined;
  private remapped = false;
  /** Start and end tags read so far; a default namespace counts while the first is read. */
  private tags = 0;

  constructor(
    private readonly primary: ReadonlySet<string>,
    doc: string,
    take: Take,
  ) {
    const head = doc.length > NAMESPACE_SCAN ? doc.slice(0, NAMESPACE_SCAN) : doc;
    // `<x:y xmlns:a="…">` anywhere in the head, text included: the reading before this one did the same.
    let at = head.indexOf('xmlns:', Math.max(0, this.rootIndex(head)));
    /** Quote characters that do not occur again from this index on. */
    let noDouble = Infinity;
    let noSingle = Infinity;
    while (at !== -1) {
      let next = at + 6;
      let p = at + 6;
      while (p < head.length && isNameChar(head.charCodeAt(p))) p++;
      if (p > at + 6) {
        let q = p;
        while (q < head.length && isJsSpace(head.charCodeAt(q))) q++;
        if (head.charCodeAt(q) === 0x3d /* = */) {
          q++;
          while (q < head.length && isJsSpace(head.charCodeAt(q))) q++;
          const quote = head.charCodeAt(q);
          if (quote === 0x22 || quote === 0x27) {
            const bound = quote === 0x22 ? noDouble : noSingle;
            const close = q + 1 >= bound ? -1 : head.indexOf(quote === 0x22 ? '"' : "'", q + 1);
            if (close === -1) {
              if (quote === 0x22) noDouble = Math.min(noDouble, q + 1);
              else noSingle = Math.min(noSingle, q + 1);
            } else {
              const prefix = head.slice(at + 6, p).toLowerCase();
              this.bind(prefix, take(head.slice(q + 1, close)));
              this.scanned.add(prefix);
              next = close + 1;
            }
          }
        }
      }
      at = head.indexOf('xmlns:', next);
    }
  }

  /** The first `<` that is neither a declaration, comment nor processing instruction. */
  private rootIndex(head: string): number {
    let index = head.indexOf('<');
    while (index !== -1) {
      const marker = head.charCodeAt(index + 1);
      if (marker !== 0x3f && marker !== 0x21) return index;
      const end = head.startsWith('<!--', index) ? head.indexOf('-->', index) : head.indexOf('>', index);
      if (end === -1) return -1;
      index = head.indexOf('<', end);
    }
    return -1;
  }

  private resolve(uri: string): string | undefined {
    const normalized = uri.trim().toLowerCase();
    if (this.primary.has(normalized)) return '';
    return PREFIX_BY_URI.get(normalized);
  }

  private bind(prefix: string, uri: string): void {
    if (this.prefixes.has(prefix)) return;
    const canonical = this.resolve(uri);
    if (canonical === undefined) return;
    this.prefixes.set(prefix, canonical);
    if (canonical !== prefix) this.remapped = true;
  }

  /** An attribute as it is read: a namespace declaration takes effect from here on. */
  declare(rawName: string, value: string): void {
    const c = rawName.charCodeAt(0);
    if (c !== 0x78 && c !== 0x58) return;
    const name = rawName.toLowerCase();
    if (name === 'xmlns') {
      if (this.tags === 1 && this.defaultPrefix === undefined) {
        this.defaultPrefix = this.resolve(value);
        if (this.defaultPrefix) this.remapped = true;
      }
      return;
    }
    if (name.startsWith('xmlns:')) {
      const prefix = name.slice(6);
      if (this.scanned.delete(prefix)) this.prefixes.delete(prefix);
      this.bind(prefix, value);
    }
  }

  private name(raw: string, useDefault: boolean): string {
    const lowered = raw.toLowerCase();
    if (!this.remapped) return lowered;
    const colon = lowered.indexOf(':');
    if (colon === -1) return useDefault && this.defaultPrefix ? `${this.defaultPrefix}:${lowered}` : lowered;
    const prefix = lowered.slice(0, colon);
    if (prefix === 'xmlns' || prefix === 'xml') return lowered;
    const canonical = this.prefixes.get(prefix);
    if (canonical === undefined) return lowered;
    const local = lowered.slice(colon + 1);
    return canonical === '' ? local : `${canonical}:${local}`;
  }

  /** A start or end tag's name as read. */
  tag(raw: string): string {
    this.tags++;
    return this.name(raw, true);
  }

  /** An attribute's key in the tree. */
  attribute(raw: string): string {
    return `@${this.name(raw, false)}`;
  }

  /** The key an element is filed under in its parent, with the bindings as they stand after its attributes. */
  key(name: string): string {
    if (!this.remapped) return name;
    const colon = name.indexOf(':');
    if (colon === -1) return this.defaultPrefix ? `${this.defaultPrefix}:${name}` : name;
    const prefix = name.slice(0, colon);
    const canonical = this.prefixes.get(prefix);
    if (canonical === undefined || canonical === prefix) return name;
    const local = name.slice(colon + 1);
    return canonical === '' ? local : `${canonical}:${local}`;
  }
}

/** Calls `each(name, value)` for every `name="value"` or `name='value'` in a tag; names without a quoted value are skipped. */
export function forEachAttribute(s: string, each: (name: string, value: string) => void): void {
  const n = s.length;
  let p = 0;
  while (p < n) {
    let c = s.charCodeAt(p);
    if (isJsSpace(c) || c === 0x3d) {
      p++;
      continue;
    }
    const start = p;
    while (p < n && !isJsSpace((c = s.charCodeAt(p))) && c !== 0x3d) p++;
    let q = p;
    while (q < n && isJsSpace(s.charCodeAt(q))) q++;
    if (s.charCodeAt(q) !== 0x3d) continue;
    q++;
    while (q < n && isJsSpace(s.charCodeAt(q))) q++;
    const quote = s.charCodeAt(q);
    if (quote !== 0x22 && quote !== 0x27) continue;
    const close = s.indexOf(quote === 0x22 ? '"' : "'", q + 1);
    if (close === -1) continue;
    each(s.slice(start, p), s.slice(q + 1, close));
    p = close + 1;
  }
}

/** Where a tag that starts at `from` ends: the first `>` outside quotes, or -1. `budget` counts the work of failed scans. */
export function tagEnd(xml: string, from: number, budget?: WorkBudget): number {
  const n = xml.length;
  let i = from;
  for (;;) {
    let c = 0;
    for (; i < n; i++) {
      c = xml.charCodeAt(i);
      if (c === 0x3e || c === 0x22 || c === 0x27) break;
    }
    if (i >= n) {
      budget?.spend(n - from);
      return -1;
    }
    if (c === 0x3e) return i;
    const close = xml.indexOf(c === 0x22 ? '"' : "'", i + 1);
    if (close === -1) {
      budget?.spend(n - from);
      return -1;
    }
    i = close + 1;
  }
}

/** Where a processing instruction that starts at `from` ends: the `?` of the first `?>` outside quotes, or -1. */
function piEnd(xml: string, from: number): number {
  const n = xml.length;
  let quote = 0;
  for (let i = from; i < n; i++) {
    const c = xml.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) {
      quote = c;
    } else if (c === 0x3f && xml.charCodeAt(i + 1) === 0x3e) {
      return i;
    }
  }
  return -1;
}

/**
 * Work spent on tag scans that found no end inside raw elements. Each such scan may run to the end of the
 * document, and a document can hold many: past a linear amount the document is refused rather than read in
 * quadratic time.
 */
export class WorkBudget {
  private left: number;
  constructor(length: number) {
    this.left = 4 * length + 1_000_000;
  }
  spend(n: number): void {
    this.left -= n;
    if (this.left < 0) throw new ReaderError('PARSE_INVALID', 'The feed could not be read: its markup takes too much work to scan.');
  }
}

/**
 * The content of a raw element whose start tag ends before `start`, up to the end tag with the same name as
 * written (same-named start tags inside nest). Markup inside is skipped as a whole: comments, CDATA sections,
 * processing instructions, and tags up to their `>` outside quotes.
 */
export function readRawContent(xml: string, rawName: string, start: number, budget: WorkBudget, take: Take = asIs): { content: string; end: number } {
  let open = 1;
  let i = start;
  const lastGt = xml.lastIndexOf('>');
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) throw malformed(`<${take(rawName).slice(0, 40)}> is not closed`);
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 0x2f /* / */) {
      const gt = xml.indexOf('>', lt);
      if (gt === -1) throw malformed('an end tag is not closed');
      if (xml.substring(lt + 2, gt).trim() === rawName && --open === 0) return { content: take(xml.substring(start, lt)), end: gt };
      i = gt + 1;
    } else if (c1 === 0x3f /* ? */) {
      const end = xml.indexOf('?>', lt + 1);
      if (end === -1) throw malformed('a processing instruction is not closed');
      i = end + 2;
    } else if (c1 === 0x21 && xml.charCodeAt(lt + 2) === 0x2d && xml.charCodeAt(lt + 3) === 0x2d) {
      const end = xml.indexOf('-->', lt + 3);
      if (end === -1) throw malformed('a comment is not closed');
      i = end + 3;
    } else if (c1 === 0x21 && xml.charCodeAt(lt + 2) === 0x5b) {
      const end = xml.indexOf(']]>', lt);
      if (end === -1) throw malformed('a CDATA section is not closed');
      i = end + 1;
    } else {
      const gt = lt + 1 > lastGt ? -1 : tagEnd(xml, lt + 1, budget);
      if (gt === -1) {
        i = lt + 1;
        continue;
      }
      // A start tag with the element's own name nests, unless it closes itself.
      const data = xml.slice(lt + 1, gt);
      const space = firstSpace(data);
      const name = space === -1 ? data : data.slice(0, space);
      if (name === rawName) {
        const rest = space === -1 ? data : trimStart(data.slice(space + 1));
        if (rest.charCodeAt(rest.length - 1) !== 0x2f) open++;
      }
      i = gt + 1;
    }
  }
}

/** An XML 1.0 qualified name (Namespaces in XML 1.0 §4), as the DOCTYPE reader before checked declared names. */
const QNAME = (() => {
  const start =
    'A-Za-z_\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u0486\\u0488-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F' +
    '\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
  const char = `${start}\\-\\.\\d\\u00B7\\u0300-\\u036F\\u203F-\\u2040`;
  const part = `[${start}][${char}]*`;
  // eslint-disable-next-line no-misleading-character-class -- deliberate: XML's NameChar ranges include combining marks
  return new RegExp(`^${part}(?::${part})?$`);
})();

function skipSpace(xml: string, i: number): number {
  while (i < xml.length && isJsSpace(xml.charCodeAt(i))) i++;
  return i;
}

function readWord(xml: string, i: number, stopAtQuote: boolean): number {
  while (i < xml.length) {
    const c = xml.charCodeAt(i);
    if (isJsSpace(c) || (stopAtQuote && (c === 0x22 || c === 0x27))) break;
    i++;
  }
  return i;
}

/** A quoted literal at `i`; returns the index after its closing quote. */
function readQuoted(xml: string, i: number): { end: number; value: string } {
  const quote = xml[i];
  if (quote !== '"' && quote !== "'") throw malformed('a DOCTYPE declaration lacks a quoted value');
  const close = xml.indexOf(quote, i + 1);
  if (close === -1) throw malformed('a DOCTYPE declaration is not closed');
  return { end: close + 1, value: xml.slice(i + 1, close) };
}

/**
 * A DOCTYPE after the root element's start (never valid XML, the prolog's is handled by sniff.ts): read over as
 * the reading before did, its declarations parsed only as far as needed to find their end; nothing it declares
 * is used. Returns the index of its closing `>`.
 */
export function skipDoctype(xml: string, lt: number, take: Take = asIs): number {
  if (xml.substr(lt + 3, 6) !== 'OCTYPE') throw malformed('a "<!D" is not a DOCTYPE');
  const has = (seq: string, at: number) => xml.startsWith(seq, at + 1);
  let depth = 1;
  let body = false;
  let comment = false;
  let quote = '';
  let i = lt + 9;
  for (; i < xml.length; i++) {
    const ch = xml[i];
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (!body && !comment && (ch === '"' || ch === "'")) {
      quote = ch;
      continue;
    }
    if (ch === '<' && !comment) {
      if (body && has('!ENTITY', i)) {
        let p = skipSpace(xml, i + 8);
        const nameEnd = readWord(xml, p, true);
        if (!QNAME.test(take(xml.slice(p, nameEnd)))) throw malformed('a DOCTYPE declares an invalid name');
        p = skipSpace(xml, nameEnd);
        if (xml.substring(p, p + 6).toUpperCase() === 'SYSTEM' || xml[p] === '%') throw malformed('a DOCTYPE declares an external entity');
        i = readQuoted(xml, p).end - 1;
      } else if (body && has('!ELEMENT', i)) {
        let p = skipSpace(xml, i + 9);
        const nameEnd = readWord(xml, p, false);
        if (!QNAME.test(take(xml.slice(p, nameEnd)))) throw malformed('a DOCTYPE declares an invalid name');
        p = skipSpace(xml, nameEnd);
        if (xml[p] === 'E' && has('MPTY', p)) p += 4;
        else if (xml[p] === 'A' && has('NY', p)) p += 2;
        else if (xml[p] === '(') {
          p = xml.indexOf(')', p + 1);
          if (p === -1) throw malformed('a DOCTYPE declaration is not closed');
        } else throw malformed('a DOCTYPE declares an invalid element');
        i = p;
      } else if (body && has('!ATTLIST', i)) {
        i += 8;
      } else if (body && has('!NOTATION', i)) {
        let p = skipSpace(xml, i + 10);
        const nameEnd = readWord(xml, p, false);
        if (!QNAME.test(take(xml.slice(p, nameEnd)))) throw malformed('a DOCTYPE declares an invalid name');
        p = skipSpace(xml, nameEnd);
        const kind = xml.substring(p, p + 6).toUpperCase();
        if (kind !== 'SYSTEM' && kind !== 'PUBLIC') throw malformed('a DOCTYPE declares an invalid notation');
        p = skipSpace(xml, p + kind.length);
        if (kind === 'PUBLIC') {
          p = skipSpace(xml, readQuoted(xml, p).end);
          if (xml[p] === '"' || xml[p] === "'") p = readQuoted(xml, p).end;
        } else {
          const literal = readQuoted(xml, p);
          if (!literal.value) throw malformed('a DOCTYPE declares an invalid notation');
          p = literal.end;
        }
        i = p - 1;
      } else if (has('!--', i)) {
        comment = true;
      } else {
        throw malformed('a DOCTYPE holds markup that is not a declaration');
      }
      depth++;
    } else if (ch === '>') {
      if (comment) {
        if (xml[i - 1] === '-' && xml[i - 2] === '-') {
          comment = false;
          depth--;
        }
      } else {
        depth--;
      }
      if (depth === 0) break;
    } else if (ch === '[') {
      body = true;
    }
  }
  if (quote || depth !== 0) throw malformed('a DOCTYPE is not closed');
  return i;
}

/** An element being read: its children by key, its text so far, its attributes. */
interface Frame {
  key: string;
  attributes: XmlObject | undefined;
  children: XmlObject | undefined;
  text: string;
}

function fileChild(parent: Frame, key: string, value: XmlValue): void {
  // An element named ":@" is dropped, "__proto__" is filed apart (neither can be a key of a plain object's own).
  if (key === ':@') return;
  if (key === '__proto__') key = '#__proto__';
  const children = (parent.children ??= {});
  const existing = children[key];
  if (existing !== undefined && Object.prototype.hasOwnProperty.call(children, key)) {
    if (Array.isArray(existing)) existing.push(value);
    else children[key] = [existing, value];
  } else {
    children[key] = value;
  }
}

function valueOf(frame: Frame): XmlValue {
  let value = frame.children;
  if (frame.text.length > 0) {
    if (!value && !frame.attributes) return frame.text;
    value ??= {};
    value['#text'] = frame.text;
  }
  if (frame.attributes) {
    value ??= {};
    for (const key in frame.attributes) value[key] = frame.attributes[key];
  }
  return value ?? '';
}

function rawValue(content: string, attributes: XmlObject | undefined): XmlValue {
  if (!attributes) return content;
  const value: XmlObject = {};
  if (content.length > 0) value['#text'] = content;
  for (const key in attributes) value[key] = attributes[key];
  return value;
}

/** Last elements of RAW_UNDER's sequences → the sequences. */
const RAW_UNDER_BY_LAST = new Map<string, (readonly string[])[]>();
for (const seq of RAW_UNDER) {
  const last = seq[seq.length - 1];
  const list = RAW_UNDER_BY_LAST.get(last);
  if (list) list.push(seq);
  else RAW_UNDER_BY_LAST.set(last, [seq]);
}
/** RAW_PATHS as a tree of names: an open element's node tells at once whether a child's path is raw. */
interface PathNode {
  raw: boolean;
  next: Map<string, PathNode>;
}

function pathTree(paths: ReadonlySet<string>): PathNode {
  const root: PathNode = { raw: false, next: new Map() };
  for (const path of paths) {
    let node = root;
    for (const name of path.split('.')) {
      let child = node.next.get(name);
      if (!child) node.next.set(name, (child = { raw: false, next: new Map() }));
      node = child;
    }
    node.raw = true;
  }
  return root;
}

const RAW_PATH_TREES: Record<XmlFormat, PathNode> = { rss: pathTree(RAW_PATHS.rss), atom: pathTree(RAW_PATHS.atom), rdf: pathTree(RAW_PATHS.rdf) };

/**
 * Whether the element at the end of `path` (its node in the format's path tree: `node`) is read raw. The lists
 * that hold "wherever it occurs" need an ancestor above the listed names: a dc:creator directly at the top of the
 * path is not raw (as before, where the path could lose its root to a stray end tag).
 */
function isRaw(path: string[], node: PathNode | undefined): boolean {
  const n = path.length;
  const name = path[n - 1];
  if (n >= 2 && RAW_NAMES.has(name)) return true;
  const under = RAW_UNDER_BY_LAST.get(name);
  if (under) {
    for (const seq of under) {
      if (seq.length >= n) continue;
      let k = 1;
      while (k < seq.length && seq[seq.length - 1 - k] === path[n - 1 - k]) k++;
      if (k === seq.length) return true;
    }
  }
  return node !== undefined && node.raw;
}

/**
 * Reads an RSS, RDF or Atom document (starting at its root element) into a tree; see the file comment. Throws
 * XmlMalformedError, or ReaderError PARSE_INVALID at a cap.
 */
export function readXmlTree(format: XmlFormat, doc: string, utf8Bytes = false): XmlObject {
  const take = utf8Bytes ? fromUtf8Bytes : asIs;
  const names = new Namespaces(PRIMARY_URIS[format], doc, take);
  const xml = doc.indexOf('\r') === -1 ? doc : doc.replace(/\r\n?/g, '\n');
  const budget = new WorkBudget(xml.length);
  const root: Frame = { key: '!xml', attributes: undefined, children: undefined, text: '' };
  const open: Frame[] = [];
  /** The names of the open elements, for the raw lists, and their nodes in the format's path tree. */
  const path: string[] = [];
  const nodes: (PathNode | undefined)[] = [];
  const tree = RAW_PATH_TREES[format];
  let current = root;
  let text = '';
  let elements = 0;
  let doctype = false;
  const len = xml.length;
  let i = 0;

  const attributesOf = (tagExp: string): XmlObject | undefined => {
    let attributes: XmlObject | undefined;
    forEachAttribute(tagExp, (rawName, rawValue) => {
      const name = take(rawName);
      const value = take(rawValue);
      const key = names.attribute(name);
      names.declare(name, value);
      (attributes ??= {})[key] = value;
    });
    return attributes;
  };

  while (i < len) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) break;
    if (lt > i) text += take(xml.slice(i, lt));
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 0x2f /* / */) {
      const gt = xml.indexOf('>', lt);
      if (gt === -1) throw malformed('an end tag is not closed');
      checkName(names.tag(xml.substring(lt + 2, gt).trim()));
      if (text) current.text += text;
      text = '';
      path.pop();
      nodes.pop();
      const done = open.pop();
      if (done) {
        current = open.length > 0 ? open[open.length - 1] : root;
        fileChild(current, done.key, valueOf(done));
      }
      i = gt + 1;
    } else if (c1 === 0x3f /* ? */) {
      const end = piEnd(xml, lt + 1);
      if (end === -1) throw malformed('a processing instruction is not closed');
      if (text) current.text += text;
      text = '';
      const data = xml.slice(lt + 1, end);
      const space = firstSpace(data);
      forEachAttribute(space === -1 ? data : trimStart(data.slice(space + 1)), (name, value) => names.declare(take(name), take(value)));
      i = end + 2;
    } else if (c1 === 0x21 /* ! */ && xml.charCodeAt(lt + 2) === 0x2d && xml.charCodeAt(lt + 3) === 0x2d) {
      const end = xml.indexOf('-->', lt + 4);
      if (end === -1) throw malformed('a comment is not closed');
      i = end + 3;
    } else if (c1 === 0x21 && xml.charCodeAt(lt + 2) === 0x44 /* D */) {
      if (doctype) throw malformed('the document has two DOCTYPEs');
      doctype = true;
      i = skipDoctype(xml, lt, take) + 1;
    } else if (c1 === 0x21 && xml.charCodeAt(lt + 2) === 0x5b /* [ */) {
      const end = xml.indexOf(']]>', lt);
      if (end === -1) throw malformed('a CDATA section is not closed');
      if (text) current.text += text;
      text = '';
      current.text += take(xml.substring(lt + 9, end));
      i = end + 3;
    } else {
      const gt = tagEnd(xml, lt + 1);
      if (gt === -1) throw malformed('a tag is not closed');
      const data = xml.slice(lt + 1, gt);
      const space = firstSpace(data);
      const rawName = space === -1 ? data : data.slice(0, space);
      let name = names.tag(take(rawName));
      let tagExp = space === -1 ? name : trimStart(data.slice(space + 1));
      checkName(name);
      if (text && current.key !== '!xml') {
        current.text += text;
        text = '';
      }
      const closed = splitSelfClosing(name, tagExp);
      const selfClosing = closed !== null;
      if (closed !== null) ({ name, tagExp } = closed);
      if (++elements > MAX_ELEMENTS) {
        throw new ReaderError('PARSE_INVALID', `The feed could not be read: it has more than ${MAX_ELEMENTS.toLocaleString('en')} elements.`);
      }
      const counted = name !== '!xml';
      if (counted) {
        nodes.push((nodes.length === 0 ? tree : nodes[nodes.length - 1])?.next.get(name));
        path.push(name);
      }
      const attributes = name !== tagExp ? attributesOf(tagExp) : undefined;
      if (counted && isRaw(path, nodes[nodes.length - 1])) {
        let content = '';
        if (selfClosing) {
          i = gt + 1;
        } else {
          const raw = readRawContent(xml, rawName, gt + 1, budget, take);
          content = raw.content;
          i = raw.end + 1;
        }
        path.pop();
        nodes.pop();
        fileChild(current, names.key(name), rawValue(content, attributes));
      } else if (selfClosing) {
        // Read twice, as before: the name of a closed empty element goes through the bindings once more.
        const again = names.tag(name);
        checkName(again);
        path.pop();
        nodes.pop();
        fileChild(current, names.key(again), attributes ? rawValue('', attributes) : '');
        text = '';
        i = gt + 1;
      } else {
        if (open.length > MAX_DEPTH) throw malformed(`elements nest more than ${MAX_DEPTH} deep`);
        const frame: Frame = { key: names.key(name), attributes, children: undefined, text: '' };
        open.push(frame);
        current = frame;
        text = '';
        i = gt + 1;
      }
    }
  }
  // Elements still open are closed at the end; the text after the last tag is not kept.
  while (open.length > 0) {
    const done = open.pop() as Frame;
    fileChild(open.length > 0 ? open[open.length - 1] : root, done.key, valueOf(done));
  }
  const top = root.children ?? {};
  if (root.text.length > 0) top['#text'] = root.text;
  return top;
}
