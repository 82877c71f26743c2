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
 * s`, whatever the base, as long as the base parses), without running the parser (docs/decisions.md "Parse threads:
 * less work per item"); null for anything else, which then goes through the parser. Deliberately narrow, so that
 * nothing in it is normalised by the parser: a lower-case scheme; a
 * host of letters, digits, hyphens and single dots whose last label starts with a letter (no xn-- label to validate,
 * no user), or an IPv4 address as the parser writes it (four numbers 0–255 without leading zeros); a port other than
 * the scheme's default, written without a leading zero, or none; then a path starting with "/" without dot segments
 * (`/./`, `/..`, `%2e`), a query and a fragment of characters the parser keeps as they are. `hostname` is the host
 * without the port, as URL#hostname. A property test holds the parts equal to the parser's on random URLs
 * (urls.test.ts).
 */
export function canonicalHttpUrl(s: string): HttpUrlParts | null {
  const pathStart = canonicalPathStart(s);
  if (pathStart === -1) return null;
  const n = s.length;
  const hashStart = s.indexOf('#', pathStart);
  let queryStart = s.indexOf('?', pathStart);
  if (hashStart !== -1 && queryStart > hashStart) queryStart = -1;
  const pathEnd = queryStart !== -1 ? queryStart : hashStart !== -1 ? hashStart : n;
  // An empty query ("?" alone) stays in the URL but reads as "" (as URL#search does).
  const search = queryStart === -1 || queryStart + 1 === (hashStart === -1 ? n : hashStart) ? '' : s.slice(queryStart, hashStart === -1 ? n : hashStart);
  const hostStart = s.charCodeAt(4) === 0x73 /* s */ ? 8 : 7;
  // A port's ":" is the last one before the path (the scheme's is before the host).
  const colon = s.lastIndexOf(':', pathStart - 1);
  return {
    href: s,
    protocol: hostStart === 8 ? 'https:' : 'http:',
    hostname: s.slice(hostStart, colon >= hostStart ? colon : pathStart),
    pathname: s.slice(pathStart, pathEnd),
    search,
  };
}

/**
 * canonicalHttpUrl of a path-absolute reference (`/tags/x`: one "/", then neither "/" nor "\\") resolved against a
 * base canonicalHttpUrl takes, without the parser: the WHATWG parser keeps the base's scheme and host and reads the
 * reference as the path from its "/" on, exactly as it reads the same characters after the host of an absolute
 * URL. So the result is the base's scheme, host and port followed by the reference when that string is one the
 * parser gives back unchanged; null for anything else (another kind of reference, a base with a user, a character
 * the parser would change), which then goes through the parser (urls.test.ts compares the two).
 */
export function canonicalPathReference(ref: string, base: UrlBase): HttpUrlParts | null {
  if (base.origin === null || ref.charCodeAt(0) !== 0x2f /* / */) return null;
  const second = ref.charCodeAt(1);
  if (second === 0x2f || second === 0x5c /* \ */) return null;
  return canonicalHttpUrl(base.origin + ref);
}

/**
 * A base URL checked once for all the references resolved against it: every link of an item shares one, and
 * checking the base again for each link cost as much as reading the link (docs/decisions.md "Parse threads: less
 * work per item").
 */
export interface UrlBase {
  readonly href: string;
  /** Whether the URL parser takes it as a base (isUsableBase): with one it does not, it refuses every reference. */
  readonly usable: boolean;
  /** Its scheme, host and port when canonicalHttpUrl takes it (canonicalPathReference joins paths to it); else null. */
  readonly origin: string | null;
}

export function urlBase(href: string): UrlBase {
  const pathStart = canonicalPathStart(href);
  return { href, usable: pathStart !== -1 || URL.canParse(href), origin: pathStart === -1 ? null : href.slice(0, pathStart) };
}

/** Where the path of `s` starts when canonicalHttpUrl takes it, else -1. */
function canonicalPathStart(s: string): number {
  let i: number;
  if (s.startsWith('https://')) i = 8;
  else if (s.startsWith('http://')) i = 7;
  else return -1;
  const hostStart = i;
  const n = s.length;
  let labelStart = i;
  let xn = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2f /* / */ || c === 0x3a /* : */) break;
    if (c === 0x2e /* . */) {
      if (i === labelStart || s.charCodeAt(i - 1) === 0x2d) return -1;
      labelStart = i + 1;
    } else if (c === 0x2d /* - */) {
      if (i === labelStart) return -1;
      // "xn--": a label the parser would decode as Punycode (and may refuse).
      if (i === labelStart + 2 && s.charCodeAt(labelStart) === 0x78 && s.charCodeAt(labelStart + 1) === 0x6e && s.charCodeAt(i + 1) === 0x2d) xn = true;
    } else if (!isLowerAlnum(c)) return -1;
  }
  // A host is followed by a port or a path here. Its last label starts with a letter and ends in a letter or digit
  // (a domain), or the host is an IPv4 address as the parser writes it: the parser reads any host whose last label
  // is a number (decimal, 0x hex, even empty after a final dot) as IPv4 and rewrites or refuses other forms of it.
  if (xn || i === n || i === labelStart || s.charCodeAt(i - 1) === 0x2d) return -1;
  const first = s.charCodeAt(labelStart);
  if ((first < 0x61 || first > 0x7a) && !isCanonicalIpv4(s, hostStart, i)) return -1;
  if (s.charCodeAt(i) === 0x3a /* : */) {
    i = canonicalPortEnd(s, i + 1, hostStart === 8 ? 443 : 80);
    if (i === -1 || s.charCodeAt(i) !== 0x2f /* / */) return -1;
  }
  const pathStart = i;
  let inPath = true;
  let hash = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && KEPT_CHARS[c] === 1) {
      if (!inPath) continue;
      // A segment that may be a dot segment ("." or "..", also written %2e) is left to the parser.
      if (c === 0x2e && s.charCodeAt(i - 1) === 0x2f) {
        const next = i + 1 < n ? s.charCodeAt(i + 1) : 0x2f;
        if (next === 0x2e || next === 0x2f || next === 0x3f || next === 0x23) return -1;
      } else if (c === 0x25 /* % */ && s.charCodeAt(i + 1) === 0x32 && (s.charCodeAt(i + 2) | 0x20) === 0x65) return -1;
    } else if (c === 0x3f /* ? */) {
      inPath = false;
    } else if (c === 0x23 /* # */ && !hash) {
      inPath = false;
      hash = true;
    } else return -1;
  }
  return pathStart;
}

/**
 * Whether s[start, end) is an IPv4 address as the WHATWG URL parser serialises one (URL Standard, "IPv4 serializer"):
 * four decimal numbers 0–255 joined by dots, each without a leading zero ("0" itself is one).
 */
function isCanonicalIpv4(s: string, start: number, end: number): boolean {
  let parts = 0;
  let i = start;
  while (i < end) {
    const partStart = i;
    let value = 0;
    for (; i < end; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x2e /* . */) break;
      if (c < 0x30 || c > 0x39) return false;
      value = value * 10 + (c - 0x30);
    }
    // More than three digits without a leading zero are over 255.
    if (i === partStart || value > 255 || (i - partStart > 1 && s.charCodeAt(partStart) === 0x30)) return false;
    if (++parts > 4) return false;
    if (i < end) i++; // the dot
  }
  // A final dot ("1.2.3.4.") is refused by the host loop before this is asked.
  return parts === 4;
}

/**
 * Where a port starting at `start` (after its ":") ends when the parser writes it back as it stands: 1–5 decimal
 * digits without a leading zero, at most 65535, not the scheme's default (which the parser drops); else -1.
 */
function canonicalPortEnd(s: string, start: number, defaultPort: number): number {
  let i = start;
  let value = 0;
  // Six digits without a leading zero are over 65535 already: no need to read further.
  for (; i < s.length && i - start < 6; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + (c - 0x30);
  }
  if (i === start || s.charCodeAt(start) === 0x30 || value > 65535 || value === defaultPort) return -1;
  return i;
}

/** Whether a base given to the URL parser parses (with one that does not, the parser refuses every reference). */
export function isUsableBase(base: string): boolean {
  return canonicalPathStart(base) !== -1 || URL.canParse(base);
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
  if (canonicalPathStart(s) !== -1 && (!base || isUsableBase(base))) return s;
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
