/**
 * The fields of an RSS, RDF or Atom document that the normalisers read (rss.ts, rdf.ts, atom.ts, shared.ts), taken
 * from the tree xml.ts builds (docs/decisions.md "Parse threads: our own XML feed reader"). The shapes below are
 * the whole reading contract: a field that is not here is not read.
 *
 * The rules are those feeds were read with before (feedsmith 3.0.1), field by field: a field read once takes the
 * first element of its name even when that one is empty, while a field read as a list skips empty ones; values
 * are decoded when read (xml-text.ts); an element that is not an object where attributes or children are needed
 * (an RSS enclosure, an Atom link, an item) is skipped. Items and feeds that hold nothing at all do not count: an
 * item is skipped, and a document without anything is reported as empty (`null`), which index.ts turns into an
 * empty feed, or, for a document that is being read up to its last complete item, into PARSE_INVALID.
 */
import {
  type XmlFormat,
  type XmlObject,
  type XmlValue,
  WorkBudget,
  XmlMalformedError,
  firstSpace,
  forEachAttribute,
  readRawContent,
  readXmlTree,
  skipDoctype,
  splitSelfClosing,
  tagEnd,
  trimStart,
} from './xml.js';
import { FEED_PREFIXES, ITEM_PREFIXES, LIST_NAMES, OBJECT_NAMES, RAW_NAMES } from './xml-tables.js';
import { escapeCdataSections, isJsSpace, isNonEmptyString, parseBoolean, parseNumber, parseString, parseVerbatimString } from './xml-text.js';

export interface RawXmlAttributes {
  base?: string;
  lang?: string;
}

export interface RawAtomText {
  value: string;
  type?: string;
  xml?: RawXmlAttributes;
}

export interface RawAtomContent {
  value?: string;
  type?: string;
  src?: string;
  xml?: RawXmlAttributes;
}

export interface RawAtomLink {
  href?: string;
  rel?: string;
  type?: string;
  length?: number;
}

export interface RawAtomPerson {
  name?: string;
}

export interface RawMediaText {
  value?: string;
  type?: string;
}

export interface RawMediaThumbnail {
  url?: string;
}

export interface RawMediaContent {
  url?: string;
  fileSize?: number;
  type?: string;
  medium?: string;
  duration?: number;
  thumbnails?: RawMediaThumbnail[];
  description?: RawMediaText;
}

export interface RawMediaGroup {
  contents?: RawMediaContent[];
  thumbnails?: RawMediaThumbnail[];
  title?: RawMediaText;
  description?: RawMediaText;
}

export interface RawMedia extends RawMediaGroup {
  groups?: RawMediaGroup[];
}

export interface RawDc {
  titles?: string[];
  creators?: string[];
  descriptions?: string[];
  dates?: string[];
  languages?: string[];
}

export interface RawDcterms {
  issued?: string[];
  created?: string[];
  modified?: string[];
}

export interface RawSy {
  updatePeriod?: string;
  updateFrequency?: number;
}

export interface RawItunes {
  author?: string;
  title?: string;
  summary?: string;
  subtitle?: string;
  image?: string;
  duration?: number;
}

/** Atom elements inside RSS or RDF (`atom:link`, …). */
export interface RawAtomInRss {
  id?: string;
  links?: RawAtomLink[];
  authors?: RawAtomPerson[];
  title?: RawAtomText;
  summary?: RawAtomText;
  content?: RawAtomContent;
  published?: string;
  updated?: string;
}

export interface RawRssItem {
  title?: string;
  link?: string;
  description?: string;
  authors?: { name?: string }[];
  enclosures?: { url?: string; length?: number; type?: string }[];
  guid?: { value?: string; isPermaLink?: boolean };
  pubDate?: string;
  atom?: RawAtomInRss;
  dc?: RawDc;
  dcterms?: RawDcterms;
  content?: { encoded?: string };
  itunes?: RawItunes;
  media?: RawMedia;
  xml?: RawXmlAttributes;
}

export interface RawRss {
  title?: string;
  link?: string;
  description?: string;
  language?: string;
  managingEditor?: { name?: string };
  ttl?: number;
  image?: { url?: string };
  items?: RawRssItem[];
  atom?: RawAtomInRss;
  dc?: RawDc;
  sy?: RawSy;
  itunes?: RawItunes;
  media?: RawMedia;
  xml?: RawXmlAttributes;
}

export interface RawRdfItem {
  title?: string;
  link?: string;
  description?: string;
  rdf?: { about?: string };
  dc?: RawDc;
  dcterms?: RawDcterms;
  content?: { encoded?: string };
  media?: RawMedia;
  xml?: RawXmlAttributes;
}

export interface RawRdf {
  title?: string;
  link?: string;
  description?: string;
  image?: { url?: string };
  items?: RawRdfItem[];
  rdf?: { about?: string };
  dc?: RawDc;
  sy?: RawSy;
  xml?: RawXmlAttributes;
}

/** An Atom entry: the Atom elements RSS and RDF may carry too, and its own. */
export interface RawAtomEntry extends RawAtomInRss {
  source?: { authors?: RawAtomPerson[] };
  dc?: RawDc;
  itunes?: RawItunes;
  media?: RawMedia;
  yt?: { videoId?: string };
  xml?: RawXmlAttributes;
}

export interface RawAtom {
  title?: RawAtomText;
  subtitle?: RawAtomText;
  links?: RawAtomLink[];
  authors?: RawAtomPerson[];
  logo?: string;
  icon?: string;
  entries?: RawAtomEntry[];
  dc?: RawDc;
  sy?: RawSy;
  itunes?: RawItunes;
  xml?: RawXmlAttributes;
}

/** The document's format does not show in it (no `version` on <rss>, no Atom namespace or element, …). */
export class XmlDetectError extends Error {}

export { XmlMalformedError };

type Value = XmlValue | undefined;

// ---- Reading values -------------------------------------------------------------------------------------------

function isObject(v: Value): v is XmlObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && v.constructor === Object;
}

function at(v: Value, key: string): Value {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v[key] : undefined;
}

function one(v: Value): Value {
  return Array.isArray(v) ? v[0] : v;
}

/** An element's text: its `#text` when it is an object, else the element itself. */
function textOf(v: Value): Value {
  return at(v, '#text') ?? v;
}

/** The elements of a name as a list (a single one, a repeated one, or an object whose keys are 0, 1, …). */
function listOf(v: Value): Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (!isObject(v)) return v === undefined ? undefined : [v];
  // An object with a `length` child or only index keys is read as the list it looks like (as before, when an
  // array was made of that length: only its children named 0, 1, … count, so they are taken without making it).
  const length = (v as { length?: Value }).length;
  if (length) return indexedChildren(v, length);
  const keys = Object.keys(v);
  if (keys.length === 0) return [v];
  for (let i = 0; i < keys.length; i++) {
    const n = Number(keys[i]);
    if (!Number.isInteger(n) || n !== i) return [v];
  }
  return Object.values(v);
}

/** The children named 0, 1, … below `length` (read as a number, as JavaScript does) of an element, in that order. */
function indexedChildren(v: XmlObject, length: XmlValue): Value[] {
  const n = typeof length === 'string' ? Math.trunc(Number(length)) : NaN;
  if (!(n > 0)) return [];
  // Making the array of that length failed beyond 2³² − 1 elements, and the feed with it.
  if (n > 0xffffffff) throw new RangeError('Invalid array length');
  const out: Value[] = [];
  for (const key of Object.keys(v)) {
    const i = Number(key);
    if (Number.isInteger(i) && i >= 0 && i < n && String(i) === key) out.push(v[key]);
  }
  return out;
}

/** Each element of a name read with `read`, those that give nothing dropped; undefined when none is left. */
function many<T>(v: Value, read: (v: Value) => T | undefined): T[] | undefined {
  const list = listOf(v);
  if (!list || list.length === 0) return undefined;
  const out: T[] = [];
  for (const element of list) {
    const value = read(element);
    if (value !== undefined && value !== null) out.push(value);
  }
  return out.length > 0 ? out : undefined;
}

/** The text of the first element of a name. */
function text1(v: Value): string | undefined {
  return parseString(textOf(one(v)));
}

/** The texts of every element of a name, empty ones dropped. */
function texts(v: Value): string[] | undefined {
  return many(v, (e) => parseString(textOf(e)));
}

function attr(v: Value, name: string): string | undefined {
  return parseString(at(v, name));
}

/**
 * Whether any of the values is there (an object whose fields are all missing counts as missing). A fixed list of
 * parameters rather than a rest parameter: this runs for every item and field.
 */
function some(a: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown, f?: unknown, g?: unknown, h?: unknown): boolean {
  return a != null || b != null || c != null || d != null || e != null || f != null || g != null || h != null;
}

/** A value that gives something when read: non-blank text, an attribute, a child that does (a few levels down). */
function gives(v: Value, depth = 0): boolean {
  if (Array.isArray(v)) return v.some((e) => gives(e, depth));
  if (typeof v === 'string') return parseString(v) !== undefined;
  if (!isObject(v)) return false;
  for (const key in v) {
    const x = v[key];
    if (key === '#text' || key.charCodeAt(0) === 0x40) {
      if (typeof x === 'string' && parseString(x) !== undefined) return true;
    } else if (depth < 3 && gives(x, depth + 1)) {
      return true;
    }
  }
  return false;
}

type Level = 'item' | 'feed';

const DC_NAMES = [...RAW_NAMES].filter((n) => n.startsWith('dc:'));
const DCTERMS_NAMES = [...RAW_NAMES].filter((n) => n.startsWith('dcterms:'));

/** itunes:explicit, itunes:block, itunes:complete and itunes:keywords count when they have a value of their kind. */
function yesNo(v: Value): boolean {
  const t = textOf(one(v));
  return parseBoolean(t) !== undefined || isNonEmptyString(t);
}

function keywords(v: Value): boolean {
  const t = textOf(one(v));
  return isNonEmptyString(t) && (parseString(t)?.split(',') ?? []).some((k) => parseString(k) !== undefined);
}

function itunesCategory(v: Value): boolean {
  return isObject(v) && (attr(v, '@text') !== undefined || some(many(v['itunes:category'], (c) => (itunesCategory(c) ? c : undefined))));
}

function itunesPresent(v: XmlObject, level: Level): boolean {
  const common =
    itunesImage(one(v['itunes:image'])) !== undefined ||
    typeof textOf(one(v['itunes:explicit'])) === 'string' ||
    some(text1(v['itunes:author']), text1(v['itunes:title']), text1(v['itunes:summary']), text1(v['itunes:subtitle'])) ||
    yesNo(v['itunes:block']) ||
    keywords(v['itunes:keywords']);
  if (common) return true;
  if (level === 'item') {
    return (
      duration(textOf(one(v['itunes:duration']))) !== undefined ||
      text1(v['itunes:episodetype']) !== undefined ||
      some(parseNumber(textOf(one(v['itunes:episode']))), parseNumber(textOf(one(v['itunes:season']))))
    );
  }
  const owner = one(v['itunes:owner']);
  return (
    some(text1(v['itunes:type']), text1(v['itunes:new-feed-url']), text1(v['itunes:applepodcastsverify'])) ||
    yesNo(v['itunes:complete']) ||
    some(many(v['itunes:category'], (c) => (itunesCategory(c) ? c : undefined))) ||
    (isObject(owner) && some(text1(owner['itunes:name']), text1(owner['itunes:email'])))
  );
}

/** Whether the reading of one namespace gave anything for an item or feed element. */
function namespacePresent(v: XmlObject, prefix: string, level: Level): boolean {
  switch (prefix) {
    case 'atom':
      return level === 'item' ? atomEntryPresent(v, 'atom:', true) : atomFeedPresent(v, 'atom:', true);
    case 'dc':
      return DC_NAMES.some((n) => texts(v[n]) !== undefined);
    case 'dcterms':
      return DCTERMS_NAMES.some((n) => texts(v[n]) !== undefined);
    case 'content':
      return text1(v['content:encoded']) !== undefined;
    case 'itunes':
      return itunesPresent(v, level);
    case 'sy':
      return some(text1(v['sy:updateperiod']), parseNumber(textOf(one(v['sy:updatefrequency']))), text1(v['sy:updatebase']));
    case 'yt':
      return some(text1(v['yt:videoid']), text1(v['yt:channelid']), text1(v['yt:playlistid']));
    case 'slash': {
      const hits = textOf(one(v['slash:hit_parade']));
      return (
        some(text1(v['slash:section']), text1(v['slash:department']), parseNumber(textOf(one(v['slash:comments'])))) ||
        (isNonEmptyString(hits) && (parseString(hits)?.split(',') ?? []).some((n) => parseNumber(n) !== undefined))
      );
    }
    default:
      // Elements read as text count with some text; elements read as objects (media:content, podcast:value, …)
      // only as objects with something in them.
      for (const key in v) {
        if (!key.startsWith(prefix) || key.charCodeAt(prefix.length) !== 0x3a) continue;
        const asObject = OBJECT_NAMES.has(key);
        if (!asObject && !RAW_NAMES.has(key)) continue;
        const value = LIST_NAMES.has(key) ? v[key] : one(v[key]);
        if (asObject ? (Array.isArray(value) ? value : [value]).some((e) => isObject(e) && gives(e)) : gives(value)) return true;
      }
      return false;
  }
}

/** The namespace prefixes of an element's children and attributes (`dc` for dc:creator, `xml` for xml:base). */
function prefixesIn(v: XmlObject): Set<string> {
  const out = new Set<string>();
  for (const key in v) {
    const from = key.charCodeAt(0) === 0x40 ? 1 : 0;
    const colon = key.indexOf(':', from);
    if (colon > from) out.add(key.slice(from, colon));
  }
  return out;
}

/** Whether an item or feed element holds a value in one of the namespaces that were read into it. */
function hasNamespaced(v: XmlObject, present: ReadonlySet<string>, read: ReadonlySet<string>, level: Level): boolean {
  for (const prefix of present) if (read.has(prefix) && namespacePresent(v, prefix, level)) return true;
  return false;
}

// ---- Shared namespaces ----------------------------------------------------------------------------------------

function xmlAttributes(v: Value): RawXmlAttributes | undefined {
  if (!isObject(v)) return undefined;
  const base = attr(v, '@xml:base');
  const lang = attr(v, '@xml:lang');
  return base !== undefined || lang !== undefined ? { base, lang } : undefined;
}

/** Whether any xml:* attribute was read (an element with one counts as not empty). */
function hasXmlAttributes(v: XmlObject): boolean {
  return some(attr(v, '@xml:lang'), attr(v, '@xml:base'), attr(v, '@xml:space'), attr(v, '@xml:id'));
}

function dcOf(v: XmlObject): RawDc {
  return {
    titles: texts(v['dc:title']),
    creators: texts(v['dc:creator']),
    descriptions: texts(v['dc:description']),
    dates: texts(v['dc:date']),
    languages: texts(v['dc:language']),
  };
}

function dctermsOf(v: XmlObject): RawDcterms {
  return { issued: texts(v['dcterms:issued']), created: texts(v['dcterms:created']), modified: texts(v['dcterms:modified']) };
}

function syOf(v: XmlObject): RawSy {
  return { updatePeriod: text1(v['sy:updateperiod']), updateFrequency: parseNumber(textOf(one(v['sy:updatefrequency']))) };
}

/** itunes:duration: seconds, or [h:]m:s. */
function duration(v: Value): number | undefined {
  const n = parseNumber(v);
  if (n !== undefined) return n;
  if (typeof v !== 'string') return undefined;
  const parts = v.split(':');
  if (parts.length < 2 || parts.length > 3) return undefined;
  for (const p of parts) if (!/^[0-9]+$/.test(p)) return undefined;
  const [h, m, s] = parts.length === 3 ? parts : ['0', ...parts];
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** itunes:image: its text, or its href. */
function itunesImage(v: Value): string | undefined {
  if (isNonEmptyString(v)) return parseString(v);
  return isObject(v) ? attr(v, '@href') : undefined;
}

function itunesOf(v: XmlObject): RawItunes {
  return {
    author: text1(v['itunes:author']),
    title: text1(v['itunes:title']),
    summary: text1(v['itunes:summary']),
    subtitle: text1(v['itunes:subtitle']),
    image: itunesImage(one(v['itunes:image'])),
    duration: duration(textOf(one(v['itunes:duration']))),
  };
}

/** media:title or media:description: there as soon as it has a value or a type. */
function mediaText(v: Value): RawMediaText | undefined {
  const value = parseString(textOf(v));
  const type = attr(v, '@type');
  return value !== undefined || type !== undefined ? { value, type } : undefined;
}

function thumbnail(v: Value): RawMediaThumbnail | undefined {
  return isObject(v) ? { url: attr(v, '@url') } : undefined;
}

function mediaCommon(v: XmlObject): RawMediaGroup {
  return {
    thumbnails: many(v['media:thumbnail'], thumbnail),
    title: mediaText(one(v['media:title'])),
    description: mediaText(one(v['media:description'])),
  };
}

function mediaContent(v: Value): RawMediaContent | undefined {
  if (!isObject(v)) return undefined;
  const common = mediaCommon(v);
  return {
    url: attr(v, '@url'),
    fileSize: parseNumber(v['@filesize']),
    type: attr(v, '@type'),
    medium: attr(v, '@medium'),
    duration: parseNumber(v['@duration']),
    thumbnails: common.thumbnails,
    description: common.description,
  };
}

function mediaGroup(v: Value): RawMediaGroup | undefined {
  if (!isObject(v)) return undefined;
  const common = mediaCommon(v);
  return { contents: many(v['media:content'], mediaContent), thumbnails: common.thumbnails, title: common.title, description: common.description };
}

function mediaOf(v: XmlObject): RawMedia {
  const common = mediaCommon(v);
  return {
    groups: many(v['media:group'], mediaGroup),
    contents: many(v['media:content'], mediaContent),
    thumbnails: common.thumbnails,
    title: common.title,
    description: common.description,
  };
}

// ---- Atom -----------------------------------------------------------------------------------------------------

const XHTML_DIV_START = /^\s*<(?:([a-zA-Z][\w.-]*):)?div[\s/>]/;

function isXhtml(type: string | undefined): boolean {
  return type === 'xhtml' || type === 'application/xhtml+xml';
}

/**
 * XHTML content is one <div> (RFC 4287 §3.1.1.3) whose content is the value. Returns what is inside that div,
 * with its prefix taken off the tags, and the div's xml:base and xml:lang; null when the value is not exactly one
 * div between white space (it is then read as it stands).
 */
function xhtmlDiv(value: string): { inner: string | undefined; base?: string; lang?: string } | null {
  const start = XHTML_DIV_START.exec(value);
  if (!start) return null;
  // Read as an element around the value, the way the value was read before.
  let s = `<x-wrap>${value}</x-wrap>`;
  if (s.indexOf('\r') !== -1) s = s.replace(/\r\n?/g, '\n');
  const budget = new WorkBudget(s.length);
  let inWrap = true;
  let text = '';
  let found: { content: string; attributes: Record<string, string> } | undefined;
  let doctype = false;
  /** Text before a node: in the wrapper only white space may stand beside the div; outside it nothing may. */
  const textIsFine = () => (inWrap ? text.trim() === '' : text === '');
  try {
    let i = 8;
    while (i < s.length) {
      const lt = s.indexOf('<', i);
      if (lt === -1) break;
      text += s.slice(i, lt);
      const c1 = s.charCodeAt(lt + 1);
      if (c1 === 0x2f) {
        const gt = s.indexOf('>', lt);
        if (gt === -1) return null;
        const name = s.substring(lt + 2, gt).trim();
        const local = name.slice(name.indexOf(':') + 1);
        if (local === '__proto__' || local === 'constructor' || local === 'prototype') return null;
        if (!textIsFine()) return null;
        text = '';
        inWrap = false;
        i = gt + 1;
      } else if (c1 === 0x21 && s.charCodeAt(lt + 2) === 0x44 /* D */) {
        if (doctype) return null;
        doctype = true;
        i = skipDoctype(s, lt) + 1;
      } else if (c1 === 0x21 && s.charCodeAt(lt + 2) === 0x5b /* [ */) {
        const end = s.indexOf(']]>', lt);
        if (end === -1 || !textIsFine()) return null;
        // The section's text is a node of its own beside the div.
        if (!inWrap || s.substring(lt + 9, end).trim() !== '') return null;
        text = '';
        i = end + 3;
      } else if (c1 === 0x3f || c1 === 0x21 || found || !inWrap) {
        // A processing instruction, a comment, a second element: not a lone div.
        return null;
      } else {
        const gt = tagEnd(s, lt + 1);
        if (gt === -1 || !textIsFine()) return null;
        const data = s.slice(lt + 1, gt);
        const space = firstSpace(data);
        const rawName = space === -1 ? data : data.slice(0, space);
        const colon = rawName.indexOf(':');
        let name = colon === -1 ? rawName : rawName.slice(colon + 1);
        let tagExp = space === -1 ? data : trimStart(data.slice(space + 1));
        const withAttributes = colon === -1 || name !== data.slice(colon + 1);
        const closed = splitSelfClosing(name, tagExp);
        const selfClosing = closed !== null;
        if (closed !== null) ({ name, tagExp } = closed);
        if (name !== 'div') return null;
        const attributes: Record<string, string> = {};
        if (name !== tagExp && (selfClosing ? true : withAttributes)) {
          forEachAttribute(tagExp, (raw, v) => {
            const parts = raw.split(':');
            if (parts[0] === 'xmlns') return;
            attributes[parts.length === 2 ? (raw[0] === '/' ? '/' : '') + parts[1] : raw] = v;
          });
        }
        let content = '';
        if (selfClosing) {
          i = gt + 1;
        } else {
          const r = readRawContent(s, rawName, gt + 1, budget);
          content = r.content;
          i = r.end + 1;
        }
        found = { content, attributes };
        text = '';
      }
    }
  } catch (error) {
    if (error instanceof XmlMalformedError) return null;
    throw error;
  }
  if (!found) return null;
  let inner: string | undefined = found.content;
  if (inner === '') inner = undefined;
  else if (start[1]) inner = inner.replace(new RegExp(`(</?)${start[1].replace(/\./g, '\\.')}:`, 'g'), '$1');
  return { inner, base: parseString(found.attributes.base), lang: parseString(found.attributes.lang) };
}

function typedText(v: Value, type: string | undefined): { value: string | undefined; div: ReturnType<typeof xhtmlDiv> } {
  const text = textOf(v);
  if (!isXhtml(type) || !isNonEmptyString(text)) return { value: parseString(text), div: null };
  const escaped = escapeCdataSections(text);
  const div = xhtmlDiv(escaped);
  if (div) return { value: parseVerbatimString(div.inner), div };
  if (XHTML_DIV_START.test(escaped)) return { value: parseVerbatimString(escaped), div: null };
  return { value: parseString(text), div: null };
}

/** The element's xml:base and xml:lang, with those of an XHTML div inside it (the div's base resolved against it). */
function mergedXml(v: XmlObject, div: ReturnType<typeof xhtmlDiv>): RawXmlAttributes | undefined {
  const own = xmlAttributes(v);
  if (!div || (div.base === undefined && div.lang === undefined)) return own;
  let base = div.base ?? own?.base;
  if (div.base && own?.base) {
    try {
      base = new URL(div.base, own.base).href;
    } catch {
      // An unresolvable pair keeps the div's own base.
    }
  }
  const lang = div.lang ?? own?.lang;
  return base !== undefined || lang !== undefined ? { base, lang } : undefined;
}

function atomText(v: Value): RawAtomText | undefined {
  if (isNonEmptyString(v)) {
    const value = parseString(v);
    return value === undefined ? undefined : { value };
  }
  if (!isObject(v)) return undefined;
  const type = attr(v, '@type');
  const { value, div } = typedText(v, type);
  if (!value) return undefined;
  return { value, type, xml: mergedXml(v, div) };
}

function atomContent(v: Value): RawAtomContent | undefined {
  if (isNonEmptyString(v)) {
    const value = parseString(v);
    return value === undefined ? undefined : { value };
  }
  if (!isObject(v)) return undefined;
  const type = attr(v, '@type');
  const { value, div } = typedText(v, type);
  const content = { value, type, src: attr(v, '@src'), xml: mergedXml(v, div) };
  return some(content.value, content.type, content.src, content.xml) ? content : undefined;
}

function atomLink(v: Value): RawAtomLink | undefined {
  if (!isObject(v)) return undefined;
  return { href: attr(v, '@href') ?? parseString(textOf(v)), rel: attr(v, '@rel'), type: attr(v, '@type'), length: parseNumber(v['@length']) };
}

/** Reads `prefix + name` from an Atom element (`atom:` for Atom inside RSS or an undeclared atom:feed). */
type Get = (name: string) => Value;

function getter(v: XmlObject, prefix: string): Get {
  return prefix ? (name) => v[prefix + name] : (name) => v[name];
}

function atomPerson(v: Value, prefix: string): RawAtomPerson | undefined {
  if (!isObject(v)) return undefined;
  const get = getter(v, prefix);
  const name = text1(get('name'));
  return some(name, text1(get('uri')), text1(get('url')), text1(get('email'))) ? { name } : undefined;
}

function atomPeople(v: Value, prefix: string): RawAtomPerson[] | undefined {
  return many(v, (p) => atomPerson(p, prefix));
}

/** The first date among `a`, `b`, `c` (Atom 0.3's issued and created stand in for published, modified for updated). */
function atomDate(get: Get, a: string, b: string, c?: string): string | undefined {
  return text1(get(a)) || text1(get(b)) || (c === undefined ? undefined : text1(get(c))) || undefined;
}

/** The Atom fields of an entry, or of an RSS or RDF item with atom:* elements. */
function atomEntryFields(get: Get, prefix: string): RawAtomInRss {
  return {
    id: text1(get('id')),
    links: many(get('link'), atomLink),
    authors: atomPeople(get('author'), prefix),
    title: atomText(one(get('title'))),
    summary: atomText(one(get('summary'))),
    content: atomContent(one(get('content'))),
    published: atomDate(get, 'published', 'issued', 'created'),
    updated: atomDate(get, 'updated', 'modified'),
  };
}

function hasCategory(get: Get): boolean {
  return some(many(get('category'), (c) => (isObject(c) && some(attr(c, '@term'), attr(c, '@scheme'), attr(c, '@label')) ? c : undefined)));
}

function hasGenerator(v: Value): boolean {
  return some(parseString(textOf(v)), attr(v, '@uri') || attr(v, '@url'), attr(v, '@version'));
}

function atomSourcePresent(v: Value, prefix: string): boolean {
  if (!isObject(v)) return false;
  const get = getter(v, prefix);
  return (
    some(atomPeople(get('author'), prefix), atomPeople(get('contributor'), prefix), many(get('link'), atomLink)) ||
    hasCategory(get) ||
    some(text1(get('icon')), text1(get('id')), text1(get('logo')), atomDate(get, 'updated', 'modified')) ||
    some(atomText(one(get('rights'))), atomText(one(get('subtitle'))), atomText(one(get('title')))) ||
    hasGenerator(one(get('generator')))
  );
}

/** Whether an entry gave anything (Atom inside RSS or RDF: only its Atom elements count); `f` are its fields. */
function atomEntryPresent(v: XmlObject, prefix: string, asNamespace: boolean, f = atomEntryFields(getter(v, prefix), prefix)): boolean {
  const get = getter(v, prefix);
  return (
    some(f.id, f.links, f.authors, f.title, f.summary, f.content, f.published, f.updated) ||
    hasCategory(get) ||
    some(atomPeople(get('contributor'), prefix), atomText(one(get('rights')))) ||
    atomSourcePresent(one(get('source')), prefix) ||
    (!asNamespace && (hasNamespaced(v, prefixesIn(v), ITEM_PREFIXES.atom, 'item') || hasXmlAttributes(v)))
  );
}

function atomEntry(v: Value, prefix: string): RawAtomEntry | undefined {
  if (!isObject(v)) return undefined;
  const get = getter(v, prefix);
  const fields = atomEntryFields(get, prefix);
  if (!atomEntryPresent(v, prefix, false, fields)) return undefined;
  const source = one(get('source'));
  const ns = prefixesIn(v);
  // The fields are copied one by one: a spread of them costs more than the rest of the entry.
  return {
    id: fields.id,
    links: fields.links,
    authors: fields.authors,
    title: fields.title,
    summary: fields.summary,
    content: fields.content,
    published: fields.published,
    updated: fields.updated,
    source: isObject(source) ? { authors: atomPeople(getter(source, prefix)('author'), prefix) } : undefined,
    dc: ns.has('dc') ? dcOf(v) : undefined,
    itunes: ns.has('itunes') ? itunesOf(v) : undefined,
    media: ns.has('media') ? mediaOf(v) : undefined,
    yt: ns.has('yt') ? { videoId: text1(v['yt:videoid']) } : undefined,
    xml: ns.has('xml') ? xmlAttributes(v) : undefined,
  };
}

function atomInRss(v: XmlObject): RawAtomInRss {
  return atomEntryFields(getter(v, 'atom:'), 'atom:');
}

/**
 * Whether a feed element gave anything besides the fields in `f` (Atom inside an RSS or RDF channel: only its Atom
 * elements count).
 */
function atomFeedPresent(v: XmlObject, prefix: string, asNamespace: boolean, f?: RawAtom): boolean {
  const get = getter(v, prefix);
  const entries = f ? f.entries : many(get('entry'), (e) => (isObject(e) && atomEntryPresent(e, prefix, asNamespace) ? e : undefined));
  return (
    (f
      ? some(f.title, f.subtitle, f.links, f.authors, f.logo, f.icon)
      : some(atomText(one(get('title'))), atomText(one(get('subtitle'))), atomText(one(get('tagline'))), many(get('link'), atomLink)) ||
        some(atomPeople(get('author'), prefix), text1(get('logo')), text1(get('icon')))) ||
    some(entries, atomPeople(get('contributor'), prefix), text1(get('id')), atomText(one(get('rights'))), atomDate(get, 'updated', 'modified')) ||
    hasCategory(get) ||
    hasGenerator(one(get('generator'))) ||
    (!asNamespace && (hasNamespaced(v, prefixesIn(v), FEED_PREFIXES.atom, 'feed') || hasXmlAttributes(v)))
  );
}

function atomFeed(v: Value, prefix: string): RawAtom | undefined {
  if (!isObject(v)) return undefined;
  const get = getter(v, prefix);
  const ns = prefixesIn(v);
  const feed: RawAtom = {
    title: atomText(one(get('title'))),
    subtitle: atomText(one(get('subtitle'))) || atomText(one(get('tagline'))),
    links: many(get('link'), atomLink),
    authors: atomPeople(get('author'), prefix),
    logo: text1(get('logo')),
    icon: text1(get('icon')),
    entries: many(get('entry'), (e) => atomEntry(e, prefix)),
    dc: ns.has('dc') ? dcOf(v) : undefined,
    sy: ns.has('sy') ? syOf(v) : undefined,
    itunes: ns.has('itunes') ? itunesOf(v) : undefined,
    xml: ns.has('xml') ? xmlAttributes(v) : undefined,
  };
  return atomFeedPresent(v, prefix, false, feed) ? feed : undefined;
}

// ---- RSS ------------------------------------------------------------------------------------------------------

const EMAIL_EXCLUDED = new Set([0x40, 0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d]);

/** `local@domain.tld`: one @, no white space or brackets, a dot inside the domain. */
function isEmail(s: string): boolean {
  const at = s.indexOf('@');
  if (at < 1 || s.indexOf('@', at + 1) !== -1) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (i !== at && (EMAIL_EXCLUDED.has(c) || isJsSpace(c))) return false;
  }
  const domain = s.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot <= domain.length - 2;
}

/** `http(s)://…` or `www.…` without white space and with a dot after the start. */
function isWebAddress(s: string): boolean {
  const rest = s.startsWith('https://') ? s.slice(8) : s.startsWith('http://') ? s.slice(7) : s.startsWith('www.') ? s.slice(4) : null;
  if (rest === null) return false;
  for (let i = 0; i < rest.length; i++) if (isJsSpace(rest.charCodeAt(i))) return false;
  const dot = rest.indexOf('.', 1);
  return dot !== -1 && dot <= rest.length - 2;
}

function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

/** Without a leading `mailto:` (and then without the query after it). */
function stripMailto(s: string): string {
  if (s.slice(0, 7).toLowerCase() !== 'mailto:') return s;
  const rest = s.slice(7);
  // The query runs from the first "?" after the last line break to the end.
  let lastBreak = -1;
  for (let i = rest.length - 1; i >= 0; i--) {
    if (isLineTerminator(rest.charCodeAt(i))) {
      lastBreak = i;
      break;
    }
  }
  const q = rest.indexOf('?', lastBreak + 1);
  return q === -1 ? rest : rest.slice(0, q);
}

function isSeparator(c: number): boolean {
  return isJsSpace(c) || c === 0x2c || c === 0x2d || c === 0x7c || c === 0x2f || c === 0x3a || c === 0x3b;
}

function trimSeparators(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isSeparator(s.charCodeAt(a))) a++;
  while (b > a && isSeparator(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/**
 * For each opening bracket of `s`, the index after the bracket of the same kind that closes it (brackets of the
 * other kinds do not count), or -1: one pass per kind, where searching from each bracket would be quadratic.
 */
function bracketEnds(s: string): Int32Array {
  const ends = new Int32Array(s.length).fill(-1);
  for (const [open, close] of ['<>', '()', '[]']) {
    const stack: number[] = [];
    for (let j = 0; j < s.length; j++) {
      if (s[j] === open) stack.push(j);
      else if (s[j] === close && stack.length > 0) ends[stack.pop() as number] = j + 1;
    }
  }
  return ends;
}

/** RSS author and managingEditor (`jo@example.com (Jo)`, `Jo <jo@example.com>`, `Jo`): present when it has a name, e-mail or link. */
function rssPerson(v: Value): { name?: string } | undefined {
  const raw = parseString(textOf(one(at(v, 'name') ?? v)));
  if (!raw) return undefined;
  const plain = stripMailto(raw);
  if (isWebAddress(plain) || isEmail(plain)) return {};
  if (!/[<[(]/.test(raw)) {
    if (raw.indexOf('@') === -1 && raw.indexOf('://') === -1 && raw.indexOf('www.') === -1) return { name: raw };
    const nameParts: string[] = [];
    let email = false;
    let link = false;
    for (const word of raw.split(/\s+/)) {
      if (isWebAddress(word) && !link) link = true;
      else if (isEmail(stripMailto(word)) && !email) email = true;
      else nameParts.push(word);
    }
    if (!email && !link) return { name: raw };
    return { name: parseString(trimSeparators(nameParts.join(' '))) };
  }
  // Bracketed parts: an e-mail or link in brackets is that; other parts are the name.
  const nameParts: string[] = [];
  let email = false;
  let link = false;
  let unbracketedName = false;
  const n = raw.length;
  let i = 0;
  let ends: Int32Array | undefined;
  const isOpen = (c: string) => c === '<' || c === '(' || c === '[';
  while (i < n) {
    let chunk: string | undefined;
    let bracketed = false;
    let open = '';
    let close = '';
    const c = raw[i];
    if (isOpen(c)) {
      open = c;
      close = c === '<' ? '>' : c === '(' ? ')' : ']';
      const start = i + 1;
      const end = (ends ??= bracketEnds(raw))[i];
      if (end !== -1) {
        bracketed = true;
        chunk = parseString(raw.slice(start, end - 1));
        i = end;
      } else {
        const literalStart = i;
        i = start;
        while (i < n && !isOpen(raw[i])) i++;
        chunk = parseString(raw.slice(literalStart, i));
      }
    } else {
      const start = i;
      while (i < n && !isOpen(raw[i])) i++;
      chunk = parseString(raw.slice(start, i));
    }
    if (!chunk) continue;
    if (isWebAddress(chunk) && !link) link = true;
    else if (isEmail(stripMailto(chunk)) && !email) email = true;
    else if (bracketed) nameParts.push(unbracketedName ? `${open}${chunk}${close}` : chunk);
    else {
      unbracketedName = true;
      nameParts.push(chunk);
    }
  }
  const name = parseString(nameParts.join(' '));
  return name !== undefined || email || link ? { name } : undefined;
}

function rssEnclosure(v: Value): { url?: string; length?: number; type?: string } | undefined {
  if (!isObject(v)) return undefined;
  const e = { url: attr(v, '@url'), length: parseNumber(v['@length']), type: attr(v, '@type') };
  return some(e.url, e.length, e.type) ? e : undefined;
}

function rssGuid(v: Value): { value?: string; isPermaLink?: boolean } | undefined {
  const g = { value: parseString(textOf(v)), isPermaLink: parseBoolean(at(v, '@ispermalink')) };
  return some(g.value, g.isPermaLink) ? g : undefined;
}

function rssItem(v: Value): RawRssItem | undefined {
  if (!isObject(v)) return undefined;
  const ns = prefixesIn(v);
  const item: RawRssItem = {
    title: text1(v.title),
    link: text1(v.link),
    description: text1(v.description),
    authors: many(v.author, rssPerson),
    enclosures: many(v.enclosure, rssEnclosure),
    guid: rssGuid(one(v.guid)),
    pubDate: text1(v.pubdate),
    atom: ns.has('atom') ? atomInRss(v) : undefined,
    dc: ns.has('dc') ? dcOf(v) : undefined,
    dcterms: ns.has('dcterms') ? dctermsOf(v) : undefined,
    content: ns.has('content') ? { encoded: text1(v['content:encoded']) } : undefined,
    itunes: ns.has('itunes') ? itunesOf(v) : undefined,
    media: ns.has('media') ? mediaOf(v) : undefined,
    xml: ns.has('xml') ? xmlAttributes(v) : undefined,
  };
  const present =
    some(item.title, item.link, item.description, item.authors, item.enclosures, item.guid, item.pubDate, text1(v.comments)) ||
    some(many(v.category, (c) => (some(parseString(textOf(c)), attr(c, '@domain')) ? c : undefined))) ||
    some(rssSource(one(v.source))) ||
    hasNamespaced(v, ns, ITEM_PREFIXES.rss, 'item') ||
    (ns.has('xml') && hasXmlAttributes(v));
  return present ? item : undefined;
}

function rssSource(v: Value): object | undefined {
  return some(parseString(textOf(v)), attr(v, '@url')) ? {} : undefined;
}

/** channel/image or rss/image: present when any of its fields is. */
function rssImage(v: Value): { url?: string } | undefined {
  if (!isObject(v)) return undefined;
  const url = text1(v.url);
  const present = some(url, text1(v.title), text1(v.link), text1(v.description), parseNumber(textOf(one(v.height))), parseNumber(textOf(one(v.width))));
  return present ? { url } : undefined;
}

function rssTextInput(v: Value): boolean {
  return isObject(v) && some(text1(v.title), text1(v.description), text1(v.name), text1(v.link));
}

function rssFeed(rss: Value): RawRss | undefined {
  const channel = one(at(rss, 'channel'));
  if (!isObject(channel)) return undefined;
  const ns = prefixesIn(channel);
  const feed: RawRss = {
    title: text1(channel.title),
    link: text1(channel.link),
    description: text1(channel.description),
    language: text1(channel.language),
    managingEditor: rssPerson(one(channel.managingeditor)),
    ttl: parseNumber(textOf(one(channel.ttl))),
    image: rssImage(one(channel.image)) ?? rssImage(one(at(rss, 'image'))),
    items: many(channel.item, rssItem) ?? many(at(rss, 'item'), rssItem),
    atom: ns.has('atom') ? { links: many(channel['atom:link'], atomLink), authors: atomPeople(channel['atom:author'], 'atom:') } : undefined,
    dc: ns.has('dc') ? dcOf(channel) : undefined,
    sy: ns.has('sy') ? syOf(channel) : undefined,
    itunes: ns.has('itunes') ? itunesOf(channel) : undefined,
    media: ns.has('media') ? { thumbnails: many(channel['media:thumbnail'], thumbnail) } : undefined,
    xml: xmlAttributes(rss),
  };
  const hours = at(one(channel.skiphours), 'hour');
  const days = at(one(channel.skipdays), 'day');
  const cloud = one(channel.cloud);
  const present =
    some(feed.title, feed.link, feed.description, feed.language, feed.managingEditor, feed.ttl, feed.image, feed.items) ||
    some(text1(channel.copyright), rssPerson(one(channel.webmaster)), text1(channel.pubdate), text1(channel.lastbuilddate)) ||
    some(text1(channel.generator), text1(channel.docs), text1(channel.rating)) ||
    some(many(channel.category, (c) => (some(parseString(textOf(c)), attr(c, '@domain')) ? c : undefined))) ||
    (isObject(cloud) && some(attr(cloud, '@domain'), parseNumber(cloud['@port']), attr(cloud, '@path'), attr(cloud, '@registerprocedure'), attr(cloud, '@protocol'))) ||
    rssTextInput(one(channel.textinput)) ||
    rssTextInput(one(at(rss, 'textinput'))) ||
    (Array.isArray(hours) && some(many(hours, (h) => parseNumber(textOf(h))))) ||
    (Array.isArray(days) && some(many(days, (d) => parseString(textOf(d))))) ||
    hasNamespaced(channel, ns, FEED_PREFIXES.rss, 'feed') ||
    (isObject(rss) && hasXmlAttributes(rss));
  return present ? feed : undefined;
}

// ---- RDF ------------------------------------------------------------------------------------------------------

function about(v: Value): string | undefined {
  return attr(v, '@about') ?? attr(v, '@rdf:about');
}

function rdfItem(v: Value): RawRdfItem | undefined {
  if (!isObject(v)) return undefined;
  const ns = prefixesIn(v);
  const item: RawRdfItem = {
    title: text1(v.title),
    link: text1(v.link),
    description: text1(v.description),
    rdf: { about: about(v) },
    dc: ns.has('dc') ? dcOf(v) : undefined,
    dcterms: ns.has('dcterms') ? dctermsOf(v) : undefined,
    content: ns.has('content') ? { encoded: text1(v['content:encoded']) } : undefined,
    media: ns.has('media') ? mediaOf(v) : undefined,
    xml: ns.has('xml') ? xmlAttributes(v) : undefined,
  };
  const present =
    some(item.title, item.link, item.description, item.rdf?.about) || hasNamespaced(v, ns, ITEM_PREFIXES.rdf, 'item') || (ns.has('xml') && hasXmlAttributes(v));
  return present ? item : undefined;
}

/** The element of `elements` whose rdf:about is `uri` (the RSS 1.0 table of contents points at items and images so). */
function byAbout(elements: Value, uri: string | undefined): Value {
  if (!uri) return undefined;
  return (Array.isArray(elements) ? elements : [elements]).find((e) => at(e, '@about') === uri);
}

function rdfImage(v: Value): { url?: string } | undefined {
  if (!isObject(v)) return undefined;
  const url = text1(v.url);
  return some(url, text1(v.title), text1(v.link), about(v)) ? { url } : undefined;
}

function rdfItems(rdf: XmlObject): RawRdfItem[] | undefined {
  const channel = one(rdf.channel);
  const seq = one(at(one(at(channel, 'items')), 'seq'));
  const uris = many(at(seq, 'li'), (li) => attr(li, '@resource'));
  if (uris) {
    // Items the list names and the document does not hold are skipped.
    const listed = many(uris.map((uri) => byAbout(rdf.item, uri)) as XmlValue[], rdfItem);
    if (listed) return listed;
  }
  return many(rdf.item, rdfItem);
}

function rdfFeed(rdf: Value): RawRdf | undefined {
  if (!isObject(rdf)) return undefined;
  const channel = one(rdf.channel);
  const channelObject = isObject(channel) ? channel : undefined;
  const imageRef = attr(one(at(channel, 'image')), '@resource');
  const feed: RawRdf = {
    title: text1(at(channel, 'title')),
    link: text1(at(channel, 'link')),
    description: text1(at(channel, 'description')),
    image: rdfImage(byAbout(rdf.image, imageRef)) ?? rdfImage(one(rdf.image)),
    items: rdfItems(rdf),
    rdf: { about: about(channel) },
    dc: channelObject ? dcOf(channelObject) : undefined,
    sy: channelObject ? syOf(channelObject) : undefined,
    xml: xmlAttributes(rdf),
  };
  const textInputRef = attr(one(at(channel, 'textinput')), '@resource');
  const textInput = (v: Value) => isObject(v) && some(text1(v.title), text1(v.description), text1(v.name), text1(v.link), about(v));
  const present =
    some(feed.title, feed.link, feed.description, feed.image, feed.items, feed.rdf?.about) ||
    textInput(byAbout(rdf.textinput, textInputRef)) ||
    textInput(one(rdf.textinput)) ||
    (channelObject !== undefined && hasNamespaced(channelObject, prefixesIn(channelObject), FEED_PREFIXES.rdf, 'feed')) ||
    hasXmlAttributes(rdf);
  return present ? feed : undefined;
}

// ---- Detection and entry point --------------------------------------------------------------------------------

const ATOM_URIS = [
  'http://www.w3.org/2005/Atom',
  'https://www.w3.org/2005/Atom',
  'http://www.w3.org/2005/Atom/',
  'https://www.w3.org/2005/Atom/',
  'http://purl.org/atom/ns#',
  'https://purl.org/atom/ns#',
];
const RDF_URIS = [
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'https://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://purl.org/rss/1.0/',
  'https://purl.org/rss/1.0/',
  'http://purl.org/rss/1.0',
  'https://purl.org/rss/1.0',
  'http://channel.netscape.com/rdf/simple/0.9/',
  'https://channel.netscape.com/rdf/simple/0.9/',
  'http://channel.netscape.com/rdf/simple/0.9',
  'https://channel.netscape.com/rdf/simple/0.9',
];

/**
 * Whether the document shows its format (what the reading before checked first): the root element's name at the
 * start of a line or after white space or `>`, and a version attribute (RSS), a namespace URI (Atom, RDF) or one
 * of the format's usual elements anywhere.
 */
function shows(format: XmlFormat, xml: string): boolean {
  switch (format) {
    case 'rss':
      return (
        /(?:^|[\s>])<(?:\w+:)?rss[\s>]/im.test(xml) &&
        (/version\s*=\s*["'][^"']*["']/i.test(xml) || /<(?:channel|item|title|link|description|pubDate|guid)[\s>]/i.test(xml))
      );
    case 'atom':
      return (
        /(?:^|[\s>])<(?:\w+:)?feed[\s>]/im.test(xml) && (ATOM_URIS.some((u) => xml.includes(u)) || /<(?:\w+:)?(?:entry|title|link|id|updated|summary)[\s>]/i.test(xml))
      );
    case 'rdf':
      return (
        /(?:^|[\s>])<(?:\w+:)?rdf[\s>]/im.test(xml) && (RDF_URIS.some((u) => xml.includes(u)) || /<(?:\w+:)?(?:channel|item|title|link|description)[\s>]/i.test(xml))
      );
  }
}

export type RawXmlFeed = { format: 'rss'; feed: RawRss } | { format: 'rdf'; feed: RawRdf } | { format: 'atom'; feed: RawAtom };

/**
 * Reads a document that starts at its root element (`utf8Bytes`: as UTF-8 bytes, xml.ts readXmlTree). Returns null
 * when it holds nothing of a feed (an empty channel); throws XmlDetectError when it does not show its format,
 * XmlMalformedError when it is not XML that can be read, ReaderError PARSE_INVALID at a cap (xml.ts).
 */
export function readRawFeed(format: XmlFormat, xml: string, utf8Bytes = false): RawXmlFeed | null {
  if (!isNonEmptyString(xml) || !shows(format, xml)) throw new XmlDetectError(`not ${format}`);
  const top = readXmlTree(format, xml, utf8Bytes);
  switch (format) {
    case 'rss': {
      const feed = rssFeed(one(top.rss));
      return feed ? { format, feed } : null;
    }
    case 'rdf': {
      const feed = rdfFeed(one(top.rdf));
      return feed ? { format, feed } : null;
    }
    case 'atom': {
      const feed = atomFeed(one(top.feed), '') ?? atomFeed(one(top['atom:feed']), 'atom:');
      return feed ? { format, feed } : null;
    }
  }
}
