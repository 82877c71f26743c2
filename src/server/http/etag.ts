/**
 * If-None-Match (RFC 9110 §13.1.2): `*` or a list of tags, weak ones compared weakly. The answers revalidated by an
 * entity tag (the catalog, the feed summaries, the catalog's subscribed entries) answer 304 when it matches.
 */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
