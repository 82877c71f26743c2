/**
 * Article HTML as Feeder shows it: an allowlist applied in one streaming pass over the element events of
 * htmlparser2's Parser, rebuilt on its Tokenizer with a stack of our own (tree.ts; docs/ARCHITECTURE.md "Stack":
 * never DOMPurify + linkedom, which fails open when linkedom parses differently from a browser; docs/decisions.md
 * "Sanitising in one pass", "Sanitising on the tokenizer"). Whatever a feed sends, the output holds only the elements
 * and attributes listed here, every URL in it is absolute and of an allowed scheme, and no script can run. The
 * same pass collects the output's plain text (teaser and search text), so an item's HTML is parsed once.
 *
 * The allowlist follows the OWASP Cross Site Scripting Prevention Cheat Sheet ("HTML Sanitization") and was tested
 * against the OWASP XSS Filter Evasion Cheat Sheet (sanitize.test.ts). It fails closed: an element or attribute is
 * written only when a rule below names it, and the writer escapes every text and attribute value it writes.
 */
import { cleanLink, hasAdClass, isAdText, MAX_AD_TEXT_CHARS } from '../ads/index.js';
import { BLOCK_TAGS, collapseWhitespace } from '../parse/text.js';
import { urlBase, type UrlBase } from '../parse/urls.js';
import { closeForeignContent } from './foreign.js';
import { boundNesting, mayExceedBound, NestingBound } from './nesting.js';
import { IFRAME_HOSTS } from './sources.js';
import { type Attributes, type ElementHandler, walkElements } from './tree.js';
import { imageUrl, linkUrl, mediaUrl, sanitizeSrcset } from './urls.js';

export interface SanitizeContentOptions {
  /** The URL relative references resolve against (the article's URL, else the feed's); null drops them. */
  baseUrl: string | null;
}

/** An element as it is written: its name and its (already allowed) attributes. */
interface Tag {
  tagName: string;
  attribs: Attributes;
}

/**
 * What the rules decide for an element (decide below, the one place): write it as a Tag, DROP it with everything
 * inside, or UNWRAP it (remove only its tags and keep its content).
 */
const DROP = 'drop';
const UNWRAP = 'unwrap';
type Decision = Tag | typeof DROP | typeof UNWRAP;

/** Elements kept. Everything else is removed; its text stays unless it is listed in NON_TEXT_TAGS. */
const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  // text
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'span',
  'blockquote',
  'q',
  'cite',
  'pre',
  'code',
  'kbd',
  'samp',
  'var',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'del',
  'ins',
  'mark',
  'sub',
  'sup',
  'small',
  'abbr',
  'dfn',
  'time',
  'bdi',
  'bdo',
  'wbr',
  'ruby',
  'rt',
  'rp',
  // sections: harmless containers; unwrapping them would merge the blocks inside
  'section',
  'article',
  'aside',
  'header',
  'footer',
  // lists
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  // tables
  'table',
  'caption',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  // links and media
  'a',
  'img',
  'picture',
  'source',
  'figure',
  'figcaption',
  'audio',
  'video',
  'iframe',
  // disclosure
  'details',
  'summary',
]);

/**
 * Elements removed together with everything inside. script/style/xmp/textarea are raw text for htmlparser2, whose
 * source is no article text (and was copied out unescaped by sanitize-html when unwrapped); noscript, noembed,
 * noframes and template are raw text or inert for browsers, so their content was never meant to be shown;
 * svg and math are foreign content with their own parsing rules (mXSS); object/applet/embed are plugins whose
 * fallback is a plugin prompt; select/option/datalist are form controls; head/title carry document metadata.
 */
const NON_TEXT_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'xmp',
  'textarea',
  'plaintext',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'title',
  'head',
  'svg',
  'math',
  'select',
  'option',
  'optgroup',
  'datalist',
  'object',
  'applet',
  'embed',
  'frameset',
  'frame',
]);

/**
 * Attributes every allowed iframe gets, replacing whatever the feed said. The sandbox keeps the players working
 * (they need script and their own origin for cookies/storage, popups for "watch on YouTube", presentation for
 * casting) without top navigation, forms, downloads or modals. YouTube refuses to play without a Referer
 * (its "Error 153"), so the origin is sent, but never the reader's path.
 */
const IFRAME_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-presentation';
const IFRAME_REFERRER_POLICY = 'strict-origin-when-cross-origin';

const DIMENSION = /^\d{1,5}$/;

/** Copies width/height when they are plain pixel numbers (HTML: valid non-negative integers). */
function copyDimensions(from: Attributes, to: Attributes): void {
  if (from.width !== undefined && DIMENSION.test(from.width.trim())) to.width = from.width.trim();
  if (from.height !== undefined && DIMENSION.test(from.height.trim())) to.height = from.height.trim();
}

/** A width or height of 0 or 1 marks a tracking pixel (or a spacer GIF): nothing a reader wants to see. */
function isPixel(attribs: Attributes): boolean {
  return isPixelSize(attribs.width) || isPixelSize(attribs.height);
}
const isPixelSize = (v: string | undefined) => v !== undefined && Number.parseFloat(v) <= 1;

function copyGlobals(from: Attributes, to: Attributes): void {
  if (from.title) to.title = from.title;
  if (from.lang) to.lang = from.lang;
  if (from.dir) to.dir = from.dir;
}

function tag(tagName: string, attribs: Attributes): Tag {
  return { tagName, attribs };
}

function transformLink(name: string, attribs: Attributes, base: UrlBase | null): Decision {
  const url = attribs.href === undefined ? null : linkUrl(attribs.href, base);
  // Affiliate redirectors lead to their target, tracking and affiliate parameters go (reader/ads, dashboard.md §5);
  // an affiliate network's link without a readable target keeps only its words.
  const href = url === null ? null : cleanLink(url);
  // A link without a usable target is just its text; keeping an inert <a> would still look clickable.
  if (href === null) return UNWRAP;
  const out: Attributes = { href, rel: 'noopener noreferrer', target: '_blank' };
  copyGlobals(attribs, out);
  return tag('a', out);
}

function transformImage(name: string, attribs: Attributes, base: UrlBase | null): Decision {
  if (isPixel(attribs)) return DROP;
  const src = attribs.src === undefined ? null : imageUrl(attribs.src, base, true);
  const srcset = attribs.srcset === undefined ? null : sanitizeSrcset(attribs.srcset, base);
  // An image whose source was a tracker or a forbidden scheme is removed, not shown broken.
  if (src === null && (srcset === null || attribs.src !== undefined)) return DROP;
  const out: Attributes = {};
  if (src !== null) out.src = src;
  if (srcset !== null) {
    out.srcset = srcset;
    if (attribs.sizes) out.sizes = attribs.sizes;
  }
  out.alt = attribs.alt ?? '';
  copyGlobals(attribs, out);
  copyDimensions(attribs, out);
  // Images load as they scroll into view, decode off the main thread, and never tell their host what the reader
  // was looking at (which also gets past hotlink protection that only accepts an empty Referer).
  out.loading = 'lazy';
  out.decoding = 'async';
  out.referrerpolicy = 'no-referrer';
  return tag('img', out);
}

function transformSource(name: string, attribs: Attributes, base: UrlBase | null): Decision {
  const out: Attributes = {};
  // <source src> belongs to audio/video, <source srcset> to picture; sanitise whichever is there.
  if (attribs.src !== undefined) {
    const src = mediaUrl(attribs.src, base);
    if (src !== null) out.src = src;
  }
  if (attribs.srcset !== undefined) {
    const srcset = sanitizeSrcset(attribs.srcset, base);
    if (srcset !== null) out.srcset = srcset;
  }
  if (out.src === undefined && out.srcset === undefined) return DROP;
  if (attribs.type) out.type = attribs.type;
  if (attribs.media) out.media = attribs.media;
  if (attribs.sizes) out.sizes = attribs.sizes;
  copyDimensions(attribs, out);
  return tag('source', out);
}

function transformMedia(name: string, attribs: Attributes, base: UrlBase | null): Decision {
  const out: Attributes = {};
  if (attribs.src !== undefined) {
    const src = mediaUrl(attribs.src, base);
    if (src !== null) out.src = src;
  }
  if (name === 'video') {
    if (attribs.poster !== undefined) {
      const poster = imageUrl(attribs.poster, base, false);
      if (poster !== null) out.poster = poster;
    }
    copyDimensions(attribs, out);
    if (attribs.playsinline !== undefined) out.playsinline = '';
  }
  if (attribs.loop !== undefined) out.loop = '';
  if (attribs.muted !== undefined) out.muted = '';
  // Always controls, never autoplay: a feed must not start playing sound, and the reader must be able to stop it.
  // preload="none" because a page of twenty articles must not start twenty downloads.
  out.controls = '';
  out.preload = 'none';
  copyGlobals(attribs, out);
  return tag(name, out);
}

function transformIframe(name: string, attribs: Attributes, base: UrlBase | null): Decision {
  if (attribs.src === undefined) return DROP;
  let url: URL;
  try {
    url = base === null ? new URL(attribs.src) : new URL(attribs.src, base.href);
  } catch {
    return DROP;
  }
  const embed = IFRAME_HOSTS.get(url.hostname);
  if (url.protocol !== 'https:' || embed === undefined || !url.pathname.startsWith(embed.path) || url.username || url.password || url.port) {
    return DROP;
  }
  url.hostname = embed.host;
  const out: Attributes = { src: url.href };
  copyDimensions(attribs, out);
  if (attribs.title) out.title = attribs.title;
  out.sandbox = IFRAME_SANDBOX;
  out.allow = 'fullscreen';
  out.loading = 'lazy';
  out.referrerpolicy = IFRAME_REFERRER_POLICY;
  return tag('iframe', out);
}

/** Obsolete presentational elements that still appear in feeds, mapped to their modern equivalents. */
const RENAMED: ReadonlyMap<string, string> = new Map([
  ['strike', 's'],
  ['tt', 'code'],
]);

/**
 * Attributes kept as the feed wrote them, on elements without a rule of their own. No class, id or style
 * anywhere: the feed's CSS is not shipped, its ids would collide with the page's, and style is a script vector in
 * old engines (expression(), -moz-binding, url(javascript:)); see OWASP "Style attribute". No attribute listed
 * here holds a URL: every URL-bearing attribute belongs to an element with a rule (a, img, source, video, audio,
 * iframe) that parses and rewrites it.
 */
const GLOBAL_ATTRIBUTES: ReadonlySet<string> = new Set(['title', 'lang', 'dir']);
const TAG_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    ol: ['start', 'reversed', 'type'],
    li: ['value'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    time: ['datetime'],
    details: ['open'],
  }).map(([k, v]) => [k, new Set(v)]),
);
/** Attributes whose value must be one of a list; another value drops the attribute. */
const ATTRIBUTE_VALUES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['ol type', new Set(['1', 'a', 'A', 'i', 'I'])],
  ['th scope', new Set(['row', 'col', 'rowgroup', 'colgroup'])],
]);

/** Attribute names that cannot end an attribute or a tag when written (what the HTML tokenizer accepts). */
const VALID_ATTRIBUTE_NAME = /^[^\0\t\n\f\r /<=>"']+$/;

/**
 * Attributes that mean nothing without a value (HTML's attribute index, "non-boolean"): written empty they are
 * dropped. alt="" is kept: it marks a decorative image. Everything else empty is a boolean attribute (controls,
 * reversed, open), written bare.
 */
const NON_BOOLEAN_ATTRIBUTES: ReadonlySet<string> = new Set([
  'allow',
  'cite',
  'colspan',
  'datetime',
  'decoding',
  'dir',
  'height',
  'href',
  'lang',
  'loading',
  'media',
  'poster',
  'preload',
  'referrerpolicy',
  'rel',
  'rowspan',
  'sandbox',
  'scope',
  'sizes',
  'span',
  'src',
  'srcset',
  'start',
  'target',
  'title',
  'type',
  'value',
  'width',
]);

/** Elements written as `<x />` and never closed (all void in HTML); a stray </source> or </wbr> would be noise. */
const SELF_CLOSING: ReadonlySet<string> = new Set(['img', 'br', 'hr', 'source', 'wbr', 'col']);

/**
 * URL schemes each URL attribute may carry in the output. The rules already made every URL absolute and checked
 * its scheme; the writer checks again, so a rule that got it wrong drops the attribute rather than failing open.
 */
const URL_ATTRIBUTES: ReadonlyMap<string, RegExp> = new Map([
  ['href', /^(?:https?:\/\/|mailto:)/],
  ['src', /^(?:https?:\/\/|data:image\/(?:png|jpeg|jpg|gif|webp)[;,])/i],
  ['poster', /^https?:\/\//],
  ['srcset', /^https?:\/\//],
]);
const IFRAME_SRC = /^https:\/\//;

/** Attributes of an element without a rule of its own, filtered by the lists above. */
function keptAttributes(name: string, attribs: Attributes): Attributes {
  const own = TAG_ATTRIBUTES.get(name);
  let out: Attributes | null = null;
  for (const a in attribs) {
    if (!GLOBAL_ATTRIBUTES.has(a) && !own?.has(a)) continue;
    const value = attribs[a];
    const values = own === undefined ? undefined : ATTRIBUTE_VALUES.get(`${name} ${a}`);
    if (values !== undefined && !values.has(value)) continue;
    (out ??= {})[a] = value;
  }
  return out ?? NO_ATTRIBUTES;
}
const NO_ATTRIBUTES: Attributes = Object.freeze({});

/**
 * The rules, in one place: what becomes of an element the feed wrote (its name lower-cased, its attributes as
 * parsed). A later rule (an ad block to drop, a link to rewrite) is added here.
 */
function decide(name: string, attribs: Attributes, base: UrlBase | null): Decision | null {
  // An element whose class or id names an ad, affiliate or tracking block goes with its content (reader/ads).
  if ((attribs.class !== undefined && hasAdClass(attribs.class)) || (attribs.id !== undefined && hasAdClass(attribs.id))) return DROP;
  switch (name) {
    case 'a':
      return transformLink(name, attribs, base);
    case 'img':
      return transformImage(name, attribs, base);
    case 'source':
      return transformSource(name, attribs, base);
    case 'video':
    case 'audio':
      return transformMedia(name, attribs, base);
    case 'iframe':
      return transformIframe(name, attribs, base);
  }
  const tagName = RENAMED.get(name) ?? name;
  // null: not an allowed element; its tags go, its text stays unless it is a NON_TEXT_TAGS element.
  if (!ALLOWED_TAGS.has(tagName)) return null;
  return tag(tagName, keptAttributes(tagName, attribs));
}

const ESCAPED_TEXT = /[&<>]/g;
const ESCAPED_VALUE = /[&<>"]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeChar = (c: string) => ESCAPES[c];
/** The index of the first character of `s` to escape (`&`, `<`, `>`, and `"` in a value), or -1. */
function firstToEscape(s: string, quote: boolean): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x26 || c === 0x3c || c === 0x3e || (quote && c === 0x22)) return i;
  }
  return -1;
}
// Most text has nothing to escape: a scan first, the replacement only for text that needs it.
const escapeText = (s: string) => (firstToEscape(s, false) === -1 ? s : s.replace(ESCAPED_TEXT, escapeChar));
const escapeValue = (s: string) => (firstToEscape(s, true) === -1 ? s : s.replace(ESCAPED_VALUE, escapeChar));

/** The start tag of an allowed element, every attribute value escaped; the final check of names and URLs. */
function startTag(t: Tag): string {
  let s = `<${t.tagName}`;
  for (const a in t.attribs) {
    const value = t.attribs[a];
    if (!VALID_ATTRIBUTE_NAME.test(a)) continue;
    if (value === '') {
      if (a === 'alt') s += ' alt=""';
      else if (!NON_BOOLEAN_ATTRIBUTES.has(a)) s += ` ${a}`;
      continue;
    }
    const scheme = t.tagName === 'iframe' && a === 'src' ? IFRAME_SRC : URL_ATTRIBUTES.get(a);
    if (scheme !== undefined && !scheme.test(value)) continue;
    s += ` ${a}="${escapeValue(value)}"`;
  }
  return SELF_CLOSING.has(t.tagName) ? `${s} />` : `${s}>`;
}

/** An ad block holding this share of an item's text or more is the item itself, and stays (reader/ads). */
const AD_BLOCK_MAX_SHARE = 0.9;

/** An element open in the input: what was written for it. */
interface Frame {
  /** The element's name in the input (tree.ts closes it by this name). */
  name: string;
  /** The name it is written under; null when its tags are not written (not allowed, or unwrapped). */
  written: string | null;
  /** Where the element's output starts (html and text chunks, text characters), so an ad block can be taken back. */
  htmlAt?: number;
  textAt?: number;
  charsAt?: number;
}

/**
 * One sanitising pass: tree.ts calls it for every element and text, as htmlparser2's Parser would, and it writes
 * the output as it goes. One instance per call, nothing kept between calls (docs/ARCHITECTURE.md "Rules" 15). A
 * class rather than closures, so the callback sites stay monomorphic.
 */
class Sanitizer implements ElementHandler {
  readonly html: string[] = [];
  /** The output's text as htmlToText would read it back: text, and a space at every block element's tag. */
  readonly text: string[] = [];
  private readonly stack: Frame[] = [];
  /**
   * Open elements inside (and including) an element that is dropped with its content (a NON_TEXT_TAGS element, or
   * a DROP): while above 0, nothing is written.
   */
  private skipping = 0;
  /** Characters of text written so far: an element's text length without joining it. */
  private chars = 0;
  /** Ad blocks found so far, as ranges of the output (chunk indexes) and their text length. */
  private readonly adBlocks: { htmlAt: number; htmlEnd: number; textAt: number; textEnd: number; chars: number }[] = [];

  constructor(private readonly base: UrlBase | null) {}

  /** Attributes are read only when the element is not inside one dropped with its content. */
  wantsAttributes(): boolean {
    return this.skipping === 0;
  }

  onopentag(name: string, attribs: Attributes): void {
    if (this.skipping > 0) {
      this.skipping++;
      return;
    }
    const decision = decide(name, attribs, this.base);
    if (decision === DROP || (decision === null && NON_TEXT_TAGS.has(RENAMED.get(name) ?? name))) {
      this.skipping = 1;
      this.stack.push({ name, written: null });
      return;
    }
    if (decision === null || decision === UNWRAP) {
      this.stack.push({ name, written: null });
      return;
    }
    const frame: Frame = { name, written: decision.tagName, htmlAt: this.html.length, textAt: this.text.length, charsAt: this.chars };
    this.html.push(startTag(decision));
    if (BLOCK_TAGS.has(decision.tagName)) this.text.push(' ');
    this.stack.push(frame);
  }

  ontext(text: string): void {
    if (this.skipping > 0) return;
    this.html.push(escapeText(text));
    this.text.push(text);
    this.chars += text.length;
  }

  onclosetag(name: string): void {
    if (this.skipping > 0 && --this.skipping > 0) return;
    const frame = this.stack.pop();
    if (frame === undefined) return;
    // Elements are closed in order; a mismatch (as when the input ends inside a start tag: tree.ts has the element
    // open but never told it) leaves the frame for its own end.
    if (frame.name !== name) {
      this.stack.push(frame);
      return;
    }
    const written = frame.written;
    if (written === null || SELF_CLOSING.has(written)) return;
    this.html.push(`</${written}>`);
    if (BLOCK_TAGS.has(written)) this.text.push(' ');
    // A short block that is an ad label, a disclosure or a shop box (reader/ads) is noted, to be left out at the
    // end (finish). Only blocks of at most MAX_AD_TEXT_CHARS are read, so the check costs little however long the
    // article is.
    const length = this.chars - frame.charsAt!;
    // Its class and id were checked in decide; a text of one chunk (a link's, an <em>'s) is read without joining.
    if (length > 0 && length <= MAX_AD_TEXT_CHARS && isAdText(written, this.textSince(frame.textAt!))) {
      this.adBlocks.push({ htmlAt: frame.htmlAt!, htmlEnd: this.html.length, textAt: frame.textAt!, textEnd: this.text.length, chars: length });
    }
  }

  /** The text written since chunk `at`. */
  private textSince(at: number): string {
    const chunks = this.text.length - at;
    if (chunks === 1) return this.text[at];
    if (chunks === 2) return this.text[at] + this.text[at + 1];
    return this.text.slice(at).join('');
  }

  /**
   * The output, without the ad blocks noted on the way: the outermost of nested ones, and none that holds nearly
   * all of the item's text (an item that is about a disclosure stays whole, as in page extraction).
   */
  finish(): SanitizedContent {
    const total = this.chars;
    const cut = this.adBlocks.filter((b) => b.chars < total * AD_BLOCK_MAX_SHARE).sort((a, b) => a.htmlAt - b.htmlAt || b.htmlEnd - a.htmlEnd);
    if (cut.length === 0) return { html: this.html.join(''), text: collapseWhitespace(this.text.join('')) };
    const html: string[] = [];
    const text: string[] = [];
    let h = 0;
    let t = 0;
    for (const b of cut) {
      if (b.htmlAt < h) continue; // inside a block already cut
      html.push(...this.html.slice(h, b.htmlAt));
      text.push(...this.text.slice(t, b.textAt));
      h = b.htmlEnd;
      t = b.textEnd;
    }
    html.push(...this.html.slice(h));
    text.push(...this.text.slice(t));
    return { html: html.join(''), text: collapseWhitespace(text.join('')) };
  }
}

/** Sanitised HTML and its plain text (what htmlToText of the HTML gives: tags removed, whitespace collapsed). */
export interface SanitizedContent {
  html: string;
  text: string;
}

/**
 * Sanitises article HTML (item content or summary) for display and gives its plain text in the same pass. Keeps
 * article markup, drops everything that could run script, load a page's CSS, submit a form or track the reader;
 * see decide for the exact rules.
 */
export function sanitizeContentWithText(html: string, options: SanitizeContentOptions): SanitizedContent {
  if (html === '') return { html: '', text: '' };
  // NUL never belongs in text: PostgreSQL refuses it in text columns, and removing it before parsing turns
  // "<scr\0ipt>" (OWASP "Null breaks up JavaScript directive") into a plain <script> that the allowlist drops.
  const input = html.includes('\0') ? html.replaceAll('\0', '') : html;
  // Text without "<" or "&" has no markup and no character references: it is already safe HTML as it is, and
  // plain-text summaries are common enough to skip the parser for them.
  if (!/[<&]/.test(input)) return { html: input, text: collapseWhitespace(input) };
  // An svg or math left open would take the rest of the article with it (foreign.ts).
  const source = closeForeignContent(input);
  // The base is checked once for all the item's links (parse/urls.ts UrlBase).
  const base = options.baseUrl === null ? null : urlBase(options.baseUrl);
  // The nesting bound (nesting.ts) is watched in the same pass. Only when an element is past it is the pass thrown
  // away and run again on the input with those elements flattened, as if boundNesting had always run first.
  const sanitizer = new Sanitizer(base);
  if (walkElements(source, sanitizer, mayExceedBound(source) ? new NestingBound() : null)) return sanitizer.finish();
  const bounded = new Sanitizer(base);
  walkElements(boundNesting(source), bounded);
  return bounded.finish();
}

/** Sanitised article HTML (sanitizeContentWithText without the text). */
export function sanitizeContent(html: string, options: SanitizeContentOptions): string {
  return sanitizeContentWithText(html, options).html;
}
