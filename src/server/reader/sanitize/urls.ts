/**
 * URL handling for sanitised article HTML: resolving relative references, allowing schemes, stripping tracking
 * parameters and recognising tracker images.
 *
 * Every URL is parsed with the WHATWG URL parser, the same algorithm browsers use, and the output carries the
 * parser's serialisation (`url.href`), never the input string. So what we checked is exactly what the browser will
 * load: tricks such as "jav&#x09;ascript:", leading control characters or backslashes (OWASP XSS Filter Evasion
 * Cheat Sheet, "Embedded tab", "Embedded newline", "Spaces and meta chars before the JavaScript") are normalised by
 * the parser before we look at the scheme.
 */
import { canonicalHttpUrl, canonicalPathReference, type HttpUrlParts, type UrlBase } from '../parse/urls.js';

/**
 * Query parameters that only identify a campaign or a click: removing them never changes what a page shows.
 * utm_* (Google Analytics campaign tags) is matched by prefix, the rest exactly.
 */
const TRACKING_PARAMS = new Set([
  'fbclid', // Facebook
  'gclid', // Google Ads
  'gclsrc',
  'dclid', // Google Display
  'gbraid', // Google Ads (iOS)
  'wbraid',
  'msclkid', // Microsoft Ads
  'yclid', // Yandex
  'twclid', // X/Twitter
  'igshid', // Instagram
  'mc_cid', // Mailchimp
  'mc_eid',
  '_hsenc', // HubSpot
  '_hsmi',
  'mkt_tok', // Marketo
]);

function isTrackingParam(rawName: string): boolean {
  let name = rawName;
  if (name.includes('%') || name.includes('+')) {
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      return false;
    }
  }
  name = name.toLowerCase();
  return name.startsWith('utm_') || TRACKING_PARAMS.has(name);
}

/**
 * Removes tracking parameters (utm_*, fbclid, gclid, mc_cid, …) from a URL's query. The remaining parameters keep
 * their exact spelling and order: the query is filtered as text rather than re-serialised through
 * URLSearchParams, which would re-encode values some servers compare byte for byte (signed image URLs).
 * Returns the input unchanged when it has nothing to strip or is not a URL.
 */
export function stripTracking(url: string): string {
  const hashAt = url.indexOf('#');
  const q = url.indexOf('?');
  if (q === -1 || (hashAt !== -1 && hashAt < q)) return url; // a '?' after '#' belongs to the fragment
  const query = hashAt === -1 ? url.slice(q + 1) : url.slice(q + 1, hashAt);
  if (query === '') return url;
  const parts = query.split('&');
  const kept = parts.filter((part) => part !== '' && !isTrackingParam(part.split('=', 1)[0]));
  if (kept.length === parts.length) return url;
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  return url.slice(0, kept.length ? q + 1 : q) + kept.join('&') + hash;
}

/**
 * Parses `value` against `base` the way a browser would; null when it is not a URL (or relative without a base). A
 * URL the parser would give back unchanged is not parsed (parse/urls.ts canonicalHttpUrl): its parts are read off
 * the string, the same ones.
 */
function parse(value: string, base: UrlBase | null): HttpUrlParts | null {
  const parts = canonicalHttpUrl(value);
  if (parts !== null && (base === null || base.usable)) return parts;
  // A link to a path of the same site ("/tags/x"), as feeds write them: resolved without the parser too.
  const resolved = base === null ? null : canonicalPathReference(value, base);
  if (resolved !== null) return resolved;
  try {
    return base === null ? new URL(value) : new URL(value, base.href);
  } catch {
    return null;
  }
}

/** An absolute, tracking-free http(s) or mailto: URL for an `<a href>`, or null when the link must go. */
export function linkUrl(value: string, base: UrlBase | null): string | null {
  const url = parse(value, base);
  if (url === null) return null;
  if (url.protocol === 'mailto:') return url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return stripTracking(url.href);
}

/** An absolute, tracking-free http(s) URL for media (video/audio src, poster), or null. */
export function mediaUrl(value: string, base: UrlBase | null): string | null {
  if (value.trim() === '') return null; // src="" would resolve to the article page itself
  const url = parse(value, base);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return stripTracking(url.href);
}

/**
 * Raster image types that may stay inline as data: URLs. SVG is not among them: an SVG document can carry script
 * and, opened in its own tab from a data: URL, is an XSS vector (OWASP XSS Filter Evasion Cheat Sheet).
 */
const RASTER_DATA_URL = /^data:image\/(?:png|jpeg|jpg|gif|webp)(?:;base64)?,/i;

/**
 * A URL for an image (`img src`, srcset candidates): http(s) without tracking and not from a tracker host, or a
 * data: URL of a raster type. Null when the image must go.
 */
export function imageUrl(value: string, base: UrlBase | null, allowData: boolean): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null; // src="" would resolve to the article page itself
  if (trimmed.length > 5 && (trimmed.charCodeAt(0) | 0x20) === 0x64 /* d */ && /^data:/i.test(trimmed)) {
    // The data: branch never goes through the URL parser: it would copy megabytes of base64 for nothing, and the
    // check below pins the scheme and the MIME type at the very start of the string, with no room for tricks.
    return allowData && RASTER_DATA_URL.test(trimmed) ? trimmed : null;
  }
  const url = parse(trimmed, base);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  if (isTrackerImage(url)) return null;
  return stripTracking(url.href);
}

/**
 * Hosts whose images are tracking beacons, never content. A host matches itself and its subdomains.
 * Kept short on purpose: the 1×1 rule in content.ts catches most beacons whatever their host.
 */
const TRACKER_HOSTS = [
  'pixel.wp.com', // WordPress.com / Jetpack stats
  'stats.wordpress.com',
  'google-analytics.com', // www., ssl.
  'pixel.quantserve.com', // Quantcast
  'feedsportal.com', // Feedsportal (da., pi., res.)
  'scorecardresearch.com', // comScore (b., sb.)
  'statcounter.com', // c.statcounter.com
  'pixel.facebook.com',
  'stats.g.doubleclick.net',
  'ad.doubleclick.net',
  'pixel.mathtag.com',
  'counter.yadro.ru',
  'mc.yandex.ru',
];

/** Host + path prefixes of tracker images on hosts that also serve real content. */
const TRACKER_PATHS: ReadonlyArray<readonly [host: string, pathPrefix: string]> = [
  ['feeds.feedburner.com', '/~r/'], // FeedBurner per-item beacon
  ['feeds.feedburner.com', '/~ff/'], // FeedBurner "FeedFlare" share buttons, counted per view
  ['feedproxy.google.com', '/~r/'],
  ['feeds.wordpress.com', '/1.0/'], // WordPress.com share/comment-count images, counted per view
  ['www.facebook.com', '/tr'], // Meta pixel
];

export function isTrackerImage(url: Pick<HttpUrlParts, 'hostname' | 'pathname'>): boolean {
  const host = url.hostname;
  for (const tracker of TRACKER_HOSTS) {
    if (host === tracker || (host.endsWith(tracker) && host.charCodeAt(host.length - tracker.length - 1) === 0x2e)) {
      return true;
    }
  }
  for (const [h, prefix] of TRACKER_PATHS) {
    if (host === h && url.pathname.startsWith(prefix)) return true;
  }
  return false;
}

/** ASCII whitespace as HTML defines it: tab, LF, FF, CR, space. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * Rewrites a srcset (HTML §4.8.4.3.10, "parse a srcset attribute"): each candidate URL goes through imageUrl
 * (resolved, tracker-free, http(s) only: data: candidates are dropped to keep the grammar simple), descriptors are
 * kept only when they are a width (`640w`) or a density (`2x`). Returns null when no candidate survives.
 */
export function sanitizeSrcset(value: string, base: UrlBase | null): string | null {
  const out: string[] = [];
  const n = value.length;
  let i = 0;
  while (i < n) {
    // Skip whitespace and commas before a candidate.
    while (i < n && (isSpace(value.charCodeAt(i)) || value.charCodeAt(i) === 0x2c)) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(value.charCodeAt(i))) i++;
    let url = value.slice(start, i);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      // Descriptors run to the next comma outside parentheses.
      const dStart = i;
      let depth = 0;
      while (i < n && !(value[i] === ',' && depth === 0)) {
        if (value[i] === '(') depth++;
        else if (value[i] === ')' && depth > 0) depth--;
        i++;
      }
      descriptor = value.slice(dStart, i).trim();
      i++; // the comma
    }
    if (url === '' || /^data:/i.test(url)) continue;
    const safe = imageUrl(url, base, false);
    if (safe === null || safe.endsWith(',')) continue;
    if (descriptor === '') out.push(safe);
    else if (/^\d+w$/.test(descriptor)) {
      // A width of 0 is an error in the srcset grammar (the candidate is ignored); widths are written as integers.
      const w = Number.parseInt(descriptor, 10);
      if (w > 0) out.push(`${safe} ${w}w`);
    } else if (/^\d+(?:\.\d+)?x$/.test(descriptor)) {
      // Densities are written as numbers (`2.0x` is `2x`); a density of 0 means nothing and is left out.
      const d = Number.parseFloat(descriptor);
      out.push(d > 0 ? `${safe} ${d}x` : safe);
    }
  }
  return out.length ? out.join(', ') : null;
}
