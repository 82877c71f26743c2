/**
 * Ad, affiliate and tracking rules over the lists of ./lists.ts (dashboard.md §5: extended content drops ad,
 * affiliate and tracking elements; docs/decisions.md "Ads, affiliate links and tracking: the lists"). Pure and cheap:
 * plain strings in, no DOM, no I/O, regular expressions built once at load, every text rule bounded by a short text
 * length, so a caller may ask per element and per link of a document (the page extraction in ../extract does; the
 * feed-content sanitiser can).
 *
 * The rules, so that an ordinary article survives:
 * - a class or id naming an ad, affiliate or tracking block (`ad-slot`, `affiliateBox`) removes the element;
 * - text removes only short blocks: a label that is (nearly) all of the text ("Anzeige", "* Affiliate-Link"),
 *   a disclosure sentence ("Als Amazon-Partner verdiene ich…"), a shop call ("Jetzt kaufen bei", "Buy on Amazon"),
 *   or a common shop word together with a price. A paragraph that merely uses "Werbung" in a sentence stays.
 */
import {
  AD_CLASS_WORDS,
  AD_LABEL_PREFIXES,
  AD_LABELS,
  AFFILIATE_HOSTS,
  AFFILIATE_PARAMS,
  AFFILIATE_TAG,
  DISCLOSURE_SENTENCES,
  PRICE_PATTERN,
  REDIRECT_TARGET_PARAMS,
  SHOP_AFFILIATE_PARAMS,
  SHOP_CALLS,
  SHOP_WORDS,
  TRACKING_PARAM_PREFIXES,
  TRACKING_PARAMS,
} from './lists.js';
import { canonicalHttpUrl } from '../parse/urls.js';

/** Text rules look at blocks up to this many characters (whitespace collapsed); a longer block is article text. */
export const MAX_AD_TEXT_CHARS = 400;
/** Shop calls remove blocks up to this long (a product box), never a paragraph that quotes one. */
export const MAX_SHOP_BOX_CHARS = 250;
/** A label with a name after it ("Sponsored by Acme") is a label line up to this long. */
export const MAX_LABEL_LINE_CHARS = 80;
/** Longest href the link rules parse; a longer one is left as it is. */
const MAX_HREF_CHARS = 8192;

/** Elements whose removal would remove the article itself, whatever their class or text. */
const NEVER_REMOVED = new Set(['html', 'head', 'body', 'main', 'article']);
/** Elements whose text the text rules read (blocks, list items, inline labels, links and buttons). */
const TEXT_TAGS = new Set([
  'p',
  'div',
  'aside',
  'section',
  'footer',
  'header',
  'figure',
  'figcaption',
  'li',
  'ul',
  'ol',
  'dl',
  'dd',
  'table',
  'tbody',
  'tr',
  'td',
  'span',
  'small',
  'strong',
  'b',
  'em',
  'i',
  'a',
  'button',
  'center',
  'font',
  'label',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const BUTTONS = new Set(['a', 'button']);

const CLASS_WORDS = new Set(AD_CLASS_WORDS);
const LABELS = new Set(AD_LABELS.map((l) => l.toLowerCase()));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One alternation of the phrases, longest first, matched as whole words (letters and digits around it end a word). */
function phrases(list: readonly string[]): RegExp {
  const sorted = [...new Set(list)].sort((a, b) => b.length - a.length).map(escape);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${sorted.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}
const DISCLOSURE = phrases(DISCLOSURE_SENTENCES);
const SHOP_CALL = phrases(SHOP_CALLS);
const SHOP_WORD = phrases(SHOP_WORDS);

/**
 * A prefilter for the phrase expressions, which try every alternative at every position of a text. A word is a
 * maximal run of letters and digits, what the expressions' lookarounds call one. Every word of a phrase is a word of
 * any text the phrase matches: inside the phrase it has a non-letter on each side, and at the phrase's ends the
 * lookarounds demand one. So each phrase is filed under one of its words, its longest (the rarest, as a rule:
 * "amazon" rather than "at"), and a list's expression runs only on a text that has a word some phrase of the list
 * is filed under. The result is the expression's, on far fewer texts.
 */
const NON_WORD = /[^\p{L}\p{N}]+/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const DISCLOSURE_BIT = 1;
const SHOP_CALL_BIT = 2;
const SHOP_WORD_BIT = 4;

/**
 * Letters and digits below U+3000 (Latin, Greek, Cyrillic, Hebrew, Arabic, Indic, Thai, …), as a table built once from
 * WORD_CHAR: the scan looks them up instead of running the expression on each character (a few milliseconds at
 * load).
 */
const WORD_TABLE_END = 0x3000;
const WORD_TABLE = (() => {
  const table = new Uint8Array(WORD_TABLE_END);
  for (let c = 0; c < WORD_TABLE_END; c++) table[c] = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 0;
  return table;
})();

/** Whether the code point is a letter or a digit (\p{L}, \p{N}). */
function isWordChar(cp: number): boolean {
  return cp < WORD_TABLE_END ? WORD_TABLE[cp] === 1 : WORD_CHAR.test(String.fromCodePoint(cp));
}

/** A hash of text[start, end) over its UTF-16 code units; candidateLists computes the same one as it scans. */
function wordHash(text: string, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

interface KeyWord {
  word: string;
  /** The lists (bits above) with a phrase filed under it. */
  lists: number;
}

/**
 * Key words by their hash (several words may share one); and the lists with a phrase without any word, which could
 * match anywhere and are always searched (none today).
 */
/**
 * The low bits of the key words' hashes, as a bit set: a text's word is looked up in KEY_WORDS only when its bit is
 * set (a few hundred key words among 2^17 bits), so most words cost a load instead of a map look-up.
 */
const KEY_HASH_BITS = 1 << 17;
const { KEY_WORDS, KEY_HASH_SEEN, ALWAYS_SEARCHED } = (() => {
  const byWord = new Map<string, number>();
  let always = 0;
  for (const [list, bit] of [
    [DISCLOSURE_SENTENCES, DISCLOSURE_BIT],
    [SHOP_CALLS, SHOP_CALL_BIT],
    [SHOP_WORDS, SHOP_WORD_BIT],
  ] as const) {
    for (const phrase of list) {
      const key = phrase
        .split(NON_WORD)
        .filter(Boolean)
        .reduce((longest, w) => (w.length > longest.length ? w : longest), '');
      if (key === '') always |= bit;
      else byWord.set(key, (byWord.get(key) ?? 0) | bit);
    }
  }
  const byHash = new Map<number, KeyWord[]>();
  for (const [word, lists] of byWord) {
    const h = wordHash(word, 0, word.length);
    byHash.set(h, [...(byHash.get(h) ?? []), { word, lists }]);
  }
  const bits = new Uint32Array(KEY_HASH_BITS / 32);
  for (const h of byHash.keys()) bits[(h & (KEY_HASH_BITS - 1)) >>> 5] |= 1 << (h & 31);
  return { KEY_WORDS: byHash as ReadonlyMap<number, readonly KeyWord[]>, KEY_HASH_SEEN: bits as Readonly<Uint32Array>, ALWAYS_SEARCHED: always };
})();

/**
 * The phrase lists (bits) that may match the lower-cased text: those with a key word among its words. One scan over
 * the characters, without a string per word: a word's hash is looked up, and only a hit is compared.
 */
function candidateLists(text: string): number {
  let bits = ALWAYS_SEARCHED;
  let start = -1;
  let hash = 0;
  const n = text.length;
  for (let i = 0; i <= n;) {
    // A code unit below the table's end is a whole character; only a surrogate pair needs its code point.
    const unit = i < n ? text.charCodeAt(i) : 0x20;
    const cp = unit >= 0xd800 && unit <= 0xdbff ? text.codePointAt(i)! : unit;
    const units = cp > 0xffff ? 2 : 1;
    if (i < n && (cp < WORD_TABLE_END ? WORD_TABLE[cp] === 1 : isWordChar(cp))) {
      if (start === -1) {
        start = i;
        hash = 0;
      }
      hash = (Math.imul(hash, 31) + unit) | 0;
      if (units === 2) hash = (Math.imul(hash, 31) + text.charCodeAt(i + 1)) | 0;
    } else if (start !== -1) {
      const keys = (KEY_HASH_SEEN[(hash & (KEY_HASH_BITS - 1)) >>> 5] & (1 << (hash & 31))) === 0 ? undefined : KEY_WORDS.get(hash);
      if (keys !== undefined) for (const k of keys) if (k.word.length === i - start && text.startsWith(k.word, start)) bits |= k.lists;
      start = -1;
    }
    i += units;
  }
  return bits;
}

const PRICE = new RegExp(PRICE_PATTERN.source, 'u');

/** The word parts of a class or id value: `adSlot top_banner` → ad, slot, top, banner. */
function wordParts(value: string): string[] {
  return value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** True when a class or id value names an ad, affiliate or tracking block (`ad-banner`, `sponsoredLinks`). */
export function hasAdClass(value: string): boolean {
  return value.trim() !== '' && wordParts(value).some((w) => CLASS_WORDS.has(w));
}

/** Whitespace collapsed, trimmed, lower case. */
function normalise(text: string): string {
  // Only runs that are not already one space are replaced: the same result as replacing every \s+ run.
  return text
    .replace(/\s{2,}|[^\S ]/g, ' ')
    .trim()
    .toLowerCase();
}

/** The text without the decoration around a label: `* Anzeige:`, `(Werbung)`, `– Sponsored –`. */
function undecorated(text: string): string {
  return text.replace(/^[\s*•·|:()[\]\-–—]+|[\s*•·|:()[\]\-–—.!]+$/gu, '');
}

/** How many characters of `text` the phrase expression matches, in all. */
function covered(re: RegExp, text: string): number {
  let n = 0;
  for (const m of text.matchAll(re)) n += m[0].length;
  return n;
}

/** The label rule: the text is a label, or a label line ("Sponsored by Acme", "Anzeige: Samsung"). */
export function isAdLabel(text: string): boolean {
  return isNormalisedLabel(normalise(text));
}

/** The first word of a text (its first run of letters and digits), or ''. */
function firstWord(text: string): string {
  let start = -1;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const word = isWordChar(cp);
    if (word && start === -1) start = i;
    else if (!word && start !== -1) return text.slice(start, i);
    i += cp > 0xffff ? 2 : 1;
  }
  return start === -1 ? '' : text.slice(start);
}

/**
 * The first words of the labels and label prefixes; the prefixes that are one run of letters alone (none today),
 * which a longer first word may start with; and whether a label or prefix starts with something else than a letter
 * or digit (none today), which would let any text be one. The label rule reads a label after decoration, which
 * holds no letters: a text is a label only if its first word is among these.
 */
const LABEL_FIRST_WORDS: ReadonlySet<string> = new Set([...LABELS, ...AD_LABEL_PREFIXES].map(firstWord));
const LABEL_WORD_PREFIXES: readonly string[] = AD_LABEL_PREFIXES.filter((p) => firstWord(p) === p);
const LABEL_WITHOUT_LEADING_WORD = [...LABELS, ...AD_LABEL_PREFIXES].some((l) => l === '' || !isWordChar(l.codePointAt(0)!));

/** False when the (lower-case) text cannot be a label (isNormalisedLabel): its first word starts none. */
function mayBeLabel(lower: string): boolean {
  if (LABEL_WITHOUT_LEADING_WORD) return true;
  const first = firstWord(lower);
  return LABEL_FIRST_WORDS.has(first) || LABEL_WORD_PREFIXES.some((p) => first.startsWith(p));
}

function isNormalisedLabel(t: string): boolean {
  if (t === '' || t.length > MAX_LABEL_LINE_CHARS) return false;
  if (LABELS.has(undecorated(t))) return true;
  const bare = t.replace(/^[\s*•·|([\-–—]+/u, '');
  return AD_LABEL_PREFIXES.some((p) => bare.startsWith(p));
}

/** An element as the ad rules see it: its tag, class and id attributes, and (optionally) its text content. */
export interface AdCandidate {
  tag: string;
  className?: string | null;
  id?: string | null;
  /** The element's text; leave it out to check class and id only (cheap, for a whole page). */
  text?: string | null;
}

/**
 * True when the element is an ad, affiliate or tracking block that extended content drops. Class and id decide
 * for any element but the document's frame (html, body, main, article); the text decides only for short blocks
 * (see the module comment).
 */
export function isAdBlock(el: AdCandidate): boolean {
  const tag = el.tag.toLowerCase();
  if (NEVER_REMOVED.has(tag)) return false;
  if (hasAdClass(`${el.className ?? ''} ${el.id ?? ''}`)) return true;
  return el.text != null && isAdText(tag, el.text);
}

/**
 * The text rules of isAdBlock alone, for an element whose class and id were checked already (the feed-content
 * sanitiser drops those with hasAdClass first): true when the element (`tag` in lower case) is an ad block by its
 * text.
 */
export function isAdText(tag: string, text: string): boolean {
  if (NEVER_REMOVED.has(tag) || !TEXT_TAGS.has(tag)) return false;
  // Bounded before any work: a long text is article text, never a box (and normalising it would cost).
  if (text.length > MAX_AD_TEXT_CHARS * 4) return false;
  // The words decide first whether any text rule can apply: most blocks stop here, before any expression runs.
  // Collapsing whitespace changes no word, so the scan may read the text before it.
  const lower = text.toLowerCase();
  const lists = candidateLists(lower);
  if (lists === 0 && !mayBeLabel(lower)) return false;
  const t = normalise(lower);
  if (t === '' || t.length > MAX_AD_TEXT_CHARS) return false;
  if (isNormalisedLabel(t)) return true;
  if (HEADINGS.has(tag)) return false;
  if (lists & DISCLOSURE_BIT && covered(DISCLOSURE, t) > 0) return true;
  if (t.length > MAX_SHOP_BOX_CHARS) return false;
  if (lists & SHOP_CALL_BIT && covered(SHOP_CALL, t) > 0) return true;
  const words = lists & SHOP_WORD_BIT ? covered(SHOP_WORD, t) : 0;
  if (words === 0) return false;
  // A common shop word decides with a price beside it, or as most of a link's or button's text.
  return PRICE.test(t) || (BUTTONS.has(tag) && words * 2 >= undecorated(t).length);
}

/** An http(s) URL, or null for anything else (relative, javascript:, mailto:, unparsable, over-long). */
function httpUrl(href: string): URL | null {
  if (href.length > MAX_HREF_CHARS || !/^\s*https?:\/\//i.test(href)) return null;
  try {
    return new URL(href.trim());
  } catch {
    return null;
  }
}

const bareHost = (url: Pick<URL, 'hostname'>) => url.hostname.toLowerCase().replace(/^www\./, '');
/** The list entry the host is or is a subdomain of, or undefined. */
function listedHost(host: string, list: readonly string[]): string | undefined {
  return list.find((h) => host === h || (host.length > h.length && host.endsWith(h) && host.charCodeAt(host.length - h.length - 1) === 0x2e) /* . */);
}

/** The affiliate parameters that count on this host: the general ones and the shop's own. */
function affiliateParamsOf(host: string): Set<string> {
  const own = Object.entries(SHOP_AFFILIATE_PARAMS)
    .filter(([key]) => host.includes(key))
    .flatMap(([, params]) => params);
  return new Set([...AFFILIATE_PARAMS, ...own]);
}

function isTrackingParam(key: string): boolean {
  const k = key.toLowerCase();
  return TRACKING_PARAMS.includes(k) || TRACKING_PARAM_PREFIXES.some((p) => k.startsWith(p));
}

function isAffiliateParam(key: string, value: string, shopParams: Set<string>): boolean {
  const k = key.toLowerCase();
  if (k === 'tag') return AFFILIATE_TAG.test(value) || shopParams.has(k);
  return shopParams.has(k);
}

/**
 * True when the link earns someone a commission: it goes through an affiliate network or shop redirector
 * (amzn.to, awin1.com, rover.ebay.com, …), or carries an affiliate parameter (`tag=name-21`, `ascsubtag`, `affid`).
 * Relative and non-http links are never affiliate links.
 */
export function isAffiliateLink(href: string): boolean {
  const url = httpUrl(href);
  if (!url) return false;
  const host = bareHost(url);
  if (listedHost(host, AFFILIATE_HOSTS)) return true;
  if (url.search === '') return false;
  const shopParams = affiliateParamsOf(host);
  for (const [key, value] of url.searchParams) if (isAffiliateParam(key, value, shopParams)) return true;
  return false;
}

/**
 * The link without its tracking parameters (`utm_*`, `fbclid`, `gclid`, …) and affiliate parameters (`tag=…-21`,
 * `ascsubtag`, …): the same page, without the click's identity. The very string given when nothing is removed, and
 * for relative or non-http links.
 */
export function stripTrackingParams(href: string): string {
  const url = httpUrl(href);
  return url ? withoutTrackingParams(url, href) : href;
}

/** stripTrackingParams of `href`, parsed already as `url` (which it may change). */
function withoutTrackingParams(url: URL, href: string): string {
  if (url.search === '') return href;
  const shopParams = affiliateParamsOf(bareHost(url));
  const drop = [...url.searchParams].filter(([key, value]) => isTrackingParam(key) || isAffiliateParam(key, value, shopParams)).map(([key]) => key);
  if (drop.length === 0) return href;
  for (const key of new Set(drop)) url.searchParams.delete(key);
  return url.toString();
}

/** The target a redirector carries in its query (an http(s) address), or null. */
function redirectTarget(url: URL, listed: string): string | null {
  const names = (REDIRECT_TARGET_PARAMS[listed] ?? []).map((n) => n.toLowerCase());
  for (const [key, value] of url.searchParams) {
    if (names.includes(key.toLowerCase()) && httpUrl(value)) return value;
  }
  return null;
}

/**
 * What a link becomes in extended content: a redirector's target, cleaned (when it names one and is not itself an
 * affiliate network); the link without tracking and affiliate parameters; or null for an affiliate network's link
 * without a readable target (the caller keeps the link's text and drops the link).
 */
export function cleanLink(href: string): string | null {
  // A link the URL parser would give back unchanged, without a query: only its host can make it an affiliate link.
  const parts = href.length <= MAX_HREF_CHARS ? canonicalHttpUrl(href) : null;
  if (parts !== null && parts.search === '' && listedHost(bareHost(parts), AFFILIATE_HOSTS) === undefined) return href;
  const url = httpUrl(href);
  if (!url) return href;
  const listed = listedHost(bareHost(url), AFFILIATE_HOSTS);
  if (!listed) return withoutTrackingParams(url, href);
  const target = redirectTarget(url, listed);
  if (target === null) return null;
  const targetUrl = httpUrl(target)!;
  if (listedHost(bareHost(targetUrl), AFFILIATE_HOSTS)) return null;
  return stripTrackingParams(targetUrl.toString());
}
