/**
 * URL resolution for feed links (RFC 3986 §5 reference resolution, via WHATWG URL).
 *
 * Bases (XML Base, https://www.w3.org/TR/xmlbase/ §4.2, as RFC 4287 §2 requires for Atom): an item's xml:base is
 * resolved against the feed's, the feed's against the document URL. RSS has no base concept; relative links there
 * are resolved against the channel <link> (the site, which is what authors mean by "/2024/post") and, without one,
 * against the feed URL — see normalize.ts.
 */

/** Only these schemes survive as item/site/image/enclosure URLs; javascript:, data:, file: etc. are dropped. */
function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/**
 * The parts of an http(s) URL the reader's rules look at: what a URL object gives, or canonicalHttpUrl without one.
 */
export interface HttpUrlParts {
  href: string;
  protocol: string;
  hostname: string;
  pathname: string;
  search: string;
}

/** ASCII characters a path, query or fragment keeps as they are: no percent-encoding, no \ read as /. */
const KEPT_CHARS = (() => {
  const table = new Uint8Array(128);
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/%') table[c.charCodeAt(0)] = 1;
  return table;
})();

const isLowerAlnum = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);

/**
 * The parts of `s` when it is an http(s) URL that the WHATWG URL parser gives back unchanged (`new URL(s).href ===
 * s`, whatever the base, as long as the base parses), without running the parser (docs/decisions.md "The refresh
 * round: parse threads and process memory", "URLs already in their final form"); null for anything else, which then
 * goes through the parser. Deliberately narrow, so that nothing in it is normalised by the parser: a lower-case
 * scheme and host of letters, digits, hyphens and single dots whose last label starts with a letter (no IPv4 number,
 * no xn-- label to validate, no port, no user), then a path starting with "/" without dot segments (`/./`, `/..`,
 * `%2e`), a query and a fragment of characters the parser keeps as they are. A property test holds the parts equal to
 * the parser's on random URLs (urls.test.ts).
 */
export function canonicalHttpUrl(s: string): HttpUrlParts | null {
  let i: number;
  if (s.startsWith('https://')) i = 8;
  else if (s.startsWith('http://')) i = 7;
  else return null;
  const hostStart = i;
  const n = s.length;
  let labelStart = i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2f /* / */) break;
    if (c === 0x2e /* . */) {
      if (i === labelStart || s.charCodeAt(i - 1) === 0x2d) return null;
      labelStart = i + 1;
    } else if (c === 0x2d /* - */) {
      if (i === labelStart) return null;
    } else if (!isLowerAlnum(c)) return null;
  }
  // A host is followed by a path here; its last label starts with a letter (not a number, not IPv4) and ends in one.
  if (i === n || i === labelStart || s.charCodeAt(i - 1) === 0x2d) return null;
  const first = s.charCodeAt(labelStart);
  if (first < 0x61 || first > 0x7a) return null;
  const hostname = s.slice(hostStart, i);
  if (hostname.includes('xn--')) return null;
  const pathStart = i;
  let queryStart = -1;
  let hashStart = -1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && KEPT_CHARS[c] === 1) {
      if (queryStart !== -1 || hashStart !== -1) continue;
      // A segment that may be a dot segment ("." or "..", also written %2e) is left to the parser.
      if (c === 0x2e && s.charCodeAt(i - 1) === 0x2f) {
        const next = i + 1 < n ? s.charCodeAt(i + 1) : 0x2f;
        if (next === 0x2e || next === 0x2f || next === 0x3f || next === 0x23) return null;
      } else if (c === 0x25 /* % */ && s.charCodeAt(i + 1) === 0x32 && (s.charCodeAt(i + 2) | 0x20) === 0x65) return null;
    } else if (c === 0x3f /* ? */) {
      if (queryStart === -1 && hashStart === -1) queryStart = i;
    } else if (c === 0x23 /* # */ && hashStart === -1) {
      hashStart = i;
    } else return null;
  }
  const pathEnd = queryStart !== -1 ? queryStart : hashStart !== -1 ? hashStart : n;
  const search = queryStart === -1 ? '' : s.slice(queryStart, hashStart === -1 ? n : hashStart);
  return {
    href: s,
    protocol: hostStart === 8 ? 'https:' : 'http:',
    hostname,
    pathname: s.slice(pathStart, pathEnd),
    // An empty query ("?" alone) is kept in the URL but reads as "" (as URL#search).
    search: search === '?' ? '' : search,
  };
}

/** Whether a base given to the URL parser parses (with one that does not, the parser refuses every reference). */
export function isUsableBase(base: string): boolean {
  return canonicalHttpUrl(base) !== null || URL.canParse(base);
}

function tryUrl(raw: string, base: string | null | undefined): URL | null {
  try {
    return base ? new URL(raw, base) : new URL(raw);
  } catch {
    return null;
  }
}

/**
 * An absolute http(s) URL for `raw` resolved against `base`, or null when `raw` is empty, malformed or of another
 * scheme. Whitespace around the value and line breaks inside it (line-wrapped links) are removed first.
 */
export function resolveHttpUrl(raw: string | null | undefined, base: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  let s = raw.trim();
  if (s === '') return null;
  // A link wrapped over several lines loses the line breaks and the indentation around them.
  if (/[\t\n\r]/.test(s)) {
    s = s
      .split(/[\r\n]+/)
      .map((line) => line.trim())
      .join('');
  }
  // Already in its final form: the parser would give it back unchanged (canonicalHttpUrl).
  if ((!base || isUsableBase(base)) && canonicalHttpUrl(s) !== null) return s;
  const url = tryUrl(s, base);
  return url && isHttp(url) ? url.href : null;
}

/**
 * A base URL for resolving further references: `raw` (an xml:base value or a channel link) resolved against
 * `parent`. Any scheme is accepted for a base, but when it cannot be resolved the parent base stays in force.
 */
export function resolveBase(raw: string | null | undefined, parent: string | null): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return parent;
  const url = tryUrl(raw.trim(), parent);
  return url ? url.href : parent;
}
