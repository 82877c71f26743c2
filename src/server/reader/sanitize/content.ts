/**
 * Article HTML as Feeder shows it: an allowlist over sanitize-html (docs/ARCHITECTURE.md "Stack": never DOMPurify + linkedom, which
 * fails open when linkedom parses differently from a browser). Whatever a feed sends, the output holds only the
 * elements and attributes listed here, every URL in it is absolute and of an allowed scheme, and no script can run.
 *
 * The allowlist follows the OWASP Cross Site Scripting Prevention Cheat Sheet ("HTML Sanitization") and was tested
 * against the OWASP XSS Filter Evasion Cheat Sheet (sanitize.test.ts).
 */
import sanitizeHtml from 'sanitize-html';
import { closeForeignContent } from './foreign.js';
import { boundNesting } from './nesting.js';
import { imageUrl, linkUrl, mediaUrl, sanitizeSrcset } from './urls.js';

export interface SanitizeContentOptions {
  /** The URL relative references resolve against (the article's URL, else the feed's); null drops them. */
  baseUrl: string | null;
}

/**
 * Attribute objects a transform returns for an element it wants gone; exclusiveFilter recognises them by identity.
 * (Renaming such elements to a disallowed tag instead would trip a sanitize-html 2.17 bug: a skipped renamed tag
 * leaves its new name in an internal map, and the next sibling's end tag is written under that name.)
 * DROP removes the element and everything inside; UNWRAP removes only the tags and keeps the content.
 */
const DROP: sanitizeHtml.Attributes = Object.freeze({});
const UNWRAP: sanitizeHtml.Attributes = Object.freeze({});

/** Elements kept. Everything else is removed; its text stays unless it is listed in NON_TEXT_TAGS. */
const ALLOWED_TAGS: readonly string[] = [
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
];

/**
 * Elements removed together with everything inside. script/style/xmp/textarea are raw text for htmlparser2, and
 * sanitize-html would copy that raw text out unescaped if the element were merely unwrapped; noscript, noembed,
 * noframes and template are raw text or inert for browsers, so their content was never meant to be shown;
 * svg and math are foreign content with their own parsing rules (mXSS); object/applet/embed are plugins whose
 * fallback is a plugin prompt; select/option/datalist are form controls; head/title carry document metadata.
 */
const NON_TEXT_TAGS = [
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
];

/**
 * Video hosts whose players may be embedded: the path their embed player lives under, and the host the frame is
 * loaded from. YouTube embeds are rewritten to its no-cookie host (same player, no tracking cookies until play),
 * so the page's Content-Security-Policy (frame-src, EMBED_FRAME_SOURCES) names exactly the hosts kept here.
 * https only. PeerTube is not among them: its instances are arbitrary hosts, so a rule for it would let any site
 * that serves `/videos/embed/` run in the frame.
 */
const IFRAME_HOSTS: ReadonlyMap<string, { path: string; host: string }> = new Map([
  ['www.youtube.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['youtube.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['www.youtube-nocookie.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['youtube-nocookie.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['player.vimeo.com', { path: '/video/', host: 'player.vimeo.com' }],
  ['www.dailymotion.com', { path: '/embed/video/', host: 'www.dailymotion.com' }],
  ['geo.dailymotion.com', { path: '/player', host: 'geo.dailymotion.com' }],
]);

/**
 * The origins an iframe in sanitised content can load from: the page's CSP frame-src is exactly this list
 * (docs/decisions.md "Feeds read right: dates, identity, fallbacks").
 */
export const EMBED_FRAME_SOURCES: readonly string[] = [...new Set([...IFRAME_HOSTS.values()].map((h) => `https://${h.host}`))];

/**
 * The sources audio, video and <source> elements in sanitised content can load from (mediaUrl: http and https):
 * the page's CSP media-src adds exactly these to 'self'.
 */
export const MEDIA_SOURCES: readonly string[] = ['https:', 'http:'];

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
function copyDimensions(from: sanitizeHtml.Attributes, to: sanitizeHtml.Attributes): void {
  if (from.width !== undefined && DIMENSION.test(from.width.trim())) to.width = from.width.trim();
  if (from.height !== undefined && DIMENSION.test(from.height.trim())) to.height = from.height.trim();
}

/** A width or height of 0 or 1 marks a tracking pixel (or a spacer GIF): nothing a reader wants to see. */
function isPixel(attribs: sanitizeHtml.Attributes): boolean {
  for (const v of [attribs.width, attribs.height]) {
    if (v === undefined) continue;
    const n = Number.parseFloat(v);
    if (n <= 1) return true;
  }
  return false;
}

function copyGlobals(from: sanitizeHtml.Attributes, to: sanitizeHtml.Attributes): void {
  if (from.title) to.title = from.title;
  if (from.lang) to.lang = from.lang;
  if (from.dir) to.dir = from.dir;
}

function tag(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  return { tagName, attribs };
}

function transformLink(name: string, attribs: sanitizeHtml.Attributes, base: string | null): sanitizeHtml.Tag {
  const href = attribs.href === undefined ? null : linkUrl(attribs.href, base);
  // A link without a usable target is just its text; keeping an inert <a> would still look clickable.
  if (href === null) return tag(name, UNWRAP);
  const out: sanitizeHtml.Attributes = { href, rel: 'noopener noreferrer', target: '_blank' };
  copyGlobals(attribs, out);
  return tag('a', out);
}

function transformImage(name: string, attribs: sanitizeHtml.Attributes, base: string | null): sanitizeHtml.Tag {
  if (isPixel(attribs)) return tag(name, DROP);
  const src = attribs.src === undefined ? null : imageUrl(attribs.src, base, true);
  const srcset = attribs.srcset === undefined ? null : sanitizeSrcset(attribs.srcset, base);
  // An image whose source was a tracker or a forbidden scheme is removed, not shown broken.
  if (src === null && (srcset === null || attribs.src !== undefined)) return tag(name, DROP);
  const out: sanitizeHtml.Attributes = {};
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

function transformSource(name: string, attribs: sanitizeHtml.Attributes, base: string | null): sanitizeHtml.Tag {
  const out: sanitizeHtml.Attributes = {};
  // <source src> belongs to audio/video, <source srcset> to picture; sanitise whichever is there.
  if (attribs.src !== undefined) {
    const src = mediaUrl(attribs.src, base);
    if (src !== null) out.src = src;
  }
  if (attribs.srcset !== undefined) {
    const srcset = sanitizeSrcset(attribs.srcset, base);
    if (srcset !== null) out.srcset = srcset;
  }
  if (out.src === undefined && out.srcset === undefined) return tag(name, DROP);
  if (attribs.type) out.type = attribs.type;
  if (attribs.media) out.media = attribs.media;
  if (attribs.sizes) out.sizes = attribs.sizes;
  copyDimensions(attribs, out);
  return tag('source', out);
}

function transformMedia(name: string, attribs: sanitizeHtml.Attributes, base: string | null): sanitizeHtml.Tag {
  const out: sanitizeHtml.Attributes = {};
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

function transformIframe(name: string, attribs: sanitizeHtml.Attributes, base: string | null): sanitizeHtml.Tag {
  if (attribs.src === undefined) return tag(name, DROP);
  let url: URL;
  try {
    url = base === null ? new URL(attribs.src) : new URL(attribs.src, base);
  } catch {
    return tag(name, DROP);
  }
  const embed = IFRAME_HOSTS.get(url.hostname);
  if (url.protocol !== 'https:' || embed === undefined || !url.pathname.startsWith(embed.path) || url.username || url.password || url.port) {
    return tag(name, DROP);
  }
  url.hostname = embed.host;
  const out: sanitizeHtml.Attributes = { src: url.href };
  copyDimensions(attribs, out);
  if (attribs.title) out.title = attribs.title;
  out.sandbox = IFRAME_SANDBOX;
  out.allow = 'fullscreen';
  out.loading = 'lazy';
  out.referrerpolicy = IFRAME_REFERRER_POLICY;
  return tag('iframe', out);
}

/** Obsolete presentational elements that still appear in feeds, mapped to their modern equivalents. */
function rename(to: string): sanitizeHtml.Transformer {
  return (_name, attribs) => tag(to, attribs);
}

const URL_SCHEMES = ['http', 'https', 'mailto'];

/**
 * The options, built once: sanitizeContent runs for every item of every refresh (some 100,000 per 2,000-feed
 * refresh), so only the URL transforms, which need the call's base URL, are made per call (optionsFor).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  // No class, id or style anywhere: the feed's CSS is not shipped, its ids would collide with the page's, and style
  // is a script vector in old engines (expression(), -moz-binding, url(javascript:)); see OWASP "Style attribute".
  allowedAttributes: {
    '*': ['title', 'lang', 'dir'],
    a: ['href', 'rel', 'target'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding', 'referrerpolicy'],
    source: ['src', 'srcset', 'sizes', 'type', 'media', 'width', 'height'],
    video: ['src', 'poster', 'controls', 'width', 'height', 'preload', 'loop', 'muted', 'playsinline'],
    audio: ['src', 'controls', 'preload', 'loop', 'muted'],
    iframe: ['src', 'width', 'height', 'sandbox', 'allow', 'loading', 'referrerpolicy'],
    ol: ['start', 'reversed', { name: 'type', values: ['1', 'a', 'A', 'i', 'I'] }],
    li: ['value'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', { name: 'scope', values: ['row', 'col', 'rowgroup', 'colgroup'] }],
    col: ['span'],
    colgroup: ['span'],
    time: ['datetime'],
    details: ['open'],
  },
  // The transforms already made every URL absolute and checked its scheme; sanitize-html checks again.
  allowedSchemes: URL_SCHEMES,
  allowedSchemesByTag: { img: ['http', 'https', 'data'], iframe: ['https'], video: ['http', 'https'], audio: ['http', 'https'], source: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'poster', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: NON_TEXT_TAGS,
  parseStyleAttributes: false,
  // Void elements are written as <x />; a stray </source> or </wbr> would only be noise.
  selfClosing: ['img', 'br', 'hr', 'source', 'wbr', 'col'],
  exclusiveFilter: (frame) => (frame.attribs === DROP ? true : frame.attribs === UNWRAP ? 'excludeTag' : false),
};

type BaseTransform = (name: string, attribs: sanitizeHtml.Attributes, base: string | null) => sanitizeHtml.Tag;

/**
 * OPTIONS with the transforms bound to this call's base URL. Per call rather than a module-level "current base"
 * (docs/ARCHITECTURE.md "Rules" 15: no shared mutable state in parse paths); a handful of closures next to sanitize-html's own
 * per-call set-up.
 */
function optionsFor(base: string | null): sanitizeHtml.IOptions {
  const bind =
    (f: BaseTransform): sanitizeHtml.Transformer =>
    (name, attribs) =>
      f(name, attribs, base);
  return {
    ...OPTIONS,
    transformTags: {
      a: bind(transformLink),
      img: bind(transformImage),
      source: bind(transformSource),
      video: bind(transformMedia),
      audio: bind(transformMedia),
      iframe: bind(transformIframe),
      strike: rename('s'),
      tt: rename('code'),
    },
  };
}

/**
 * Sanitises article HTML (item content or summary) for display. Keeps article markup, drops everything that could
 * run script, load a page's CSS, submit a form or track the reader; see OPTIONS for the exact lists.
 */
export function sanitizeContent(html: string, options: SanitizeContentOptions): string {
  if (html === '') return '';
  // NUL never belongs in text: PostgreSQL refuses it in text columns, and removing it before parsing turns
  // "<scr\0ipt>" (OWASP "Null breaks up JavaScript directive") into a plain <script> that the allowlist drops.
  const input = html.includes('\0') ? html.replaceAll('\0', '') : html;
  // Text without "<" or "&" has no markup and no character references: it is already safe HTML as it is, and
  // plain-text summaries are common enough to skip the parser for them.
  if (!/[<&]/.test(input)) return input;
  // Elements past the nesting bound are flattened first (nesting.ts): sanitize-html's parser is quadratic in depth.
  // An svg or math left open would take the rest of the article with it (foreign.ts).
  return sanitizeHtml(boundNesting(closeForeignContent(input)), optionsFor(options.baseUrl));
}
