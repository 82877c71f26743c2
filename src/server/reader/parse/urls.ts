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
