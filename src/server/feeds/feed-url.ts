/**
 * The normal form of a feed URL, so that one feed is stored (and fetched) once however users type it
 * (decisions.md "a feed (by normalised URL) is fetched once for all its subscribers").
 *
 * Only what never changes the resource is normalised (RFC 3986 §6.2.2–6.2.3): scheme and host case, the default
 * port, an empty path, the fragment. Path and query stay as they are: servers may treat them case-sensitively.
 * Returns null for anything that is not an absolute http(s) URL.
 */
export function normalizeFeedUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  url.hash = '';
  // WHATWG URL already lower-cases scheme and host, drops default ports and turns an empty path into "/".
  return url.href;
}
