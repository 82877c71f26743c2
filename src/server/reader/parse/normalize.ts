/**
 * The readers' format-shaped objects (raw-feed.ts for RSS, RDF and Atom; feedsmith for JSON Feed) → one ParsedFeed
 * (types.ts): the dispatcher over the per-format normalisers (rss.ts, rdf.ts, atom.ts, json.ts; helpers in
 * shared.ts, identity in identity.ts). The readers have already decoded entities, CDATA and namespaces and mapped
 * legacy elements (Atom 0.3 issued/modified, JSON Feed 1.0 `author`); this layer decides what Feeder shows. The
 * decisions taken here:
 *
 * - content vs summary: content = content:encoded / Atom content / JSON content_html (content_text, Atom
 *   type="text" and plain Media RSS text become escaped HTML with <br> for line breaks); summary = description /
 *   Atom summary / JSON summary / itunes:summary / media:description. When an item has no content, its summary is
 *   also used as content, so the reading view never shows an empty article while the list shows a preview.
 * - Titles, authors and descriptions are plain text (docs/decisions.md "Parsing: text and markup"). RSS and RDF
 *   titles, authors and descriptions and Atom text constructs of type html/xhtml may carry markup: only real tags
 *   go (text.ts textWithMarkupToText), so `std::vector<int>` keeps its `<int>`; Atom type="text" (RFC 4287 §3.1)
 *   and every JSON Feed title are text as they stand, only whitespace is collapsed.
 * - Authors: the item's own (RSS author name, dc:creator, itunes:author, atom:author, Atom source author, JSON
 *   authors) else the feed's (managingEditor, dc:creator, itunes:author, atom:author, JSON authors). Only names
 *   are shown; an e-mail-only author is skipped in favour of the next fallback. Several names are joined with ", ".
 * - Dates: see dates.ts. publishedAt falls back to the item's updated date when no publication date is given
 *   (Atom makes only <updated> mandatory), so a first fetch of an archive sorts by the publisher's dates.
 * - Identity (identity.ts): guid (or atom:id in RSS) / Atom id / JSON id / RDF rdf:about, trimmed; else the
 *   resolved item URL; else the first enclosure URL (podcasts without guid); else "sha256:" + hash of title and
 *   content. Id-less items whose link (or enclosure) repeats in the document are keyed by "sha256:" + hash of
 *   link, title and content instead, so two articles behind one link stay two. Ids longer than 1,000 characters
 *   are replaced by "sha256:" + their hash. Within one feed the first item with a given guid wins and later
 *   duplicates are dropped: a suffix would depend on item order and break identity across fetches.
 * - Titles: RSS <title>, else <dc:title>, itunes:title, media:title, atom:title (blank ones skipped); a title that
 *   is only tags keeps them as text (text.ts titleToText); an item without any gets a display title from the
 *   start of its text or its URL, after identity (identity.ts). RSS content falls back to <atom:content>, the
 *   summary to <dc:description> and <atom:summary>.
 * - Atom content's relative URLs resolve against the xml:base in scope for the content element when the feed
 *   declares one (ParsedItem.contentBase); else against the entry link.
 * - URLs: only absolute http(s) URLs survive (item url, siteUrl, images, enclosures); bases per urls.ts.
 * - Enclosures: RSS enclosure, media:content (also inside media:group), Atom link rel="enclosure", JSON
 *   attachments; merged by URL (the first source's values win, gaps are filled from later ones). Flash players
 *   (YouTube's media:content) are not media files and are skipped. A length of 0 means "unknown" in practice and
 *   becomes null. itunes:duration fills the first enclosure's duration.
 * - ttlMinutes: RSS <ttl> when positive, else sy:updatePeriod / sy:updateFrequency.
 */
import type { JsonFeed } from 'feedsmith';
import type { ParsedFeed } from '../types.js';
import type { RawAtom, RawRdf, RawRss } from './raw-feed.js';
import { normalizeAtom } from './atom.js';
import { normalizeJson } from './json.js';
import { normalizeRdf } from './rdf.js';
import { normalizeRss } from './rss.js';
import type { NormalizeContext } from './shared.js';

export type { NormalizeContext } from './shared.js';
export { normalizeAtom, normalizeJson, normalizeRdf, normalizeRss };

/** What the readers returned (raw-feed.ts for XML, feedsmith for JSON Feed), tagged with the format. */
export type RawFeed =
  | { format: 'rss'; feed: RawRss }
  | { format: 'rdf'; feed: RawRdf }
  | { format: 'atom'; feed: RawAtom; atom03: boolean }
  | { format: 'json'; feed: JsonFeed.Feed<string> };

/** Maps one parsed document to a ParsedFeed with the normaliser of its format. */
export function normalize(raw: RawFeed, ctx: NormalizeContext): ParsedFeed {
  switch (raw.format) {
    case 'rss':
      return normalizeRss(raw.feed, ctx);
    case 'rdf':
      return normalizeRdf(raw.feed, ctx);
    case 'atom':
      return normalizeAtom(raw.feed, ctx, raw.atom03);
    case 'json':
      return normalizeJson(raw.feed, ctx);
  }
}
