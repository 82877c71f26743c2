/**
 * feedsmith's format-shaped objects → one ParsedFeed (types.ts). feedsmith has already decoded entities, CDATA and
 * namespaces and mapped legacy elements (Atom 0.3 issued/modified, JSON Feed 1.0 `author`); this layer decides
 * what Feeder shows. The decisions taken here:
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
 * - Identity: guid (or atom:id in RSS) / Atom id / JSON id / RDF rdf:about, trimmed; else the resolved item URL; else the first
 *   enclosure URL (podcasts without guid); else "sha256:" + hash of title and content. Ids longer than 1,000
 *   characters are replaced by "sha256:" + their hash. Within one feed the first item with a given guid wins and
 *   later duplicates are dropped: a suffix would depend on item order and break identity across fetches.
 * - URLs: only absolute http(s) URLs survive (item url, siteUrl, images, enclosures); bases per urls.ts.
 * - Enclosures: RSS enclosure, media:content (also inside media:group), Atom link rel="enclosure", JSON
 *   attachments; merged by URL (the first source's values win, gaps are filled from later ones). Flash players
 *   (YouTube's media:content) are not media files and are skipped. A length of 0 means "unknown" in practice and
 *   becomes null. itunes:duration fills the first enclosure's duration.
 * - ttlMinutes: RSS <ttl> when positive, else sy:updatePeriod / sy:updateFrequency.
 */
import { createHash } from 'node:crypto';
import type { AtomFeed, JsonFeed, MediaNs, RdfFeed, RssFeed, SyNs } from 'feedsmith';
import type { Enclosure, FeedFormat, ParsedFeed, ParsedItem } from '../types.js';
import { parseDate } from './dates.js';
import { collapseWhitespace, textWithMarkupToText, nonEmpty, textToHtml } from './text.js';
import { resolveBase, resolveHttpUrl } from './urls.js';

export interface NormalizeContext {
  /** The document URL (after redirects): the outermost base. */
  url: string;
  /** Reference time for the future-date check (ms since the epoch). */
  now: number;
}

/** An item before identity is assigned. */
interface ItemDraft {
  id: string | null;
  url: string | null;
  rawLink: string | null;
  title: string;
  author: string | null;
  content: string | null;
  summary: string | null;
  publishedAt: string | null;
  updatedAt: string | null;
  imageUrl: string | null;
  enclosures: Enclosure[];
}

const MAX_GUID_LENGTH = 1000;

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function first<T>(values: readonly T[] | undefined): T | undefined {
  return values && values.length > 0 ? values[0] : undefined;
}

/** The first candidate that parses as a plausible date. */
function firstDate(ctx: NormalizeContext, ...candidates: (string | undefined)[]): string | null {
  for (const c of candidates) {
    const d = parseDate(c, ctx.now);
    if (d) return d;
  }
  return null;
}

/** The first candidate that resolves to an absolute http(s) URL. */
function firstUrl(base: string | null, ...candidates: (string | undefined)[]): string | null {
  for (const c of candidates) {
    const u = resolveHttpUrl(c, base);
    if (u) return u;
  }
  return null;
}

/** Distinct non-empty names joined with ", ", or null. */
function joinNames(names: (string | undefined)[], toText: (s: string) => string): string | null {
  const seen: string[] = [];
  for (const n of names) {
    if (!n) continue;
    const t = toText(n);
    if (t !== '' && !seen.includes(t)) seen.push(t);
  }
  return seen.length > 0 ? seen.join(', ') : null;
}

function firstAuthor(...candidates: (string | null)[]): string | null {
  for (const c of candidates) if (c) return c;
  return null;
}

/**
 * The type of an Atom text construct or content without a type attribute. Atom 1.0 says "text" (RFC 4287
 * §3.1.1). Atom 0.3 said text/plain too, but its feeds used mode="escaped" to carry HTML almost without exception
 * (and feedsmith does not report `mode`), so for 0.3 an untyped value is read as HTML.
 */
function defaultAtomType(atom03: boolean): string {
  return atom03 ? 'html' : 'text';
}

/** Atom text construct (RFC 4287 §3.1) → plain text. */
function atomText(t: AtomFeed.Text | undefined, atom03: boolean): string {
  if (!t) return '';
  const type = (t.type ?? defaultAtomType(atom03)).toLowerCase();
  return type === 'text' || type === 'text/plain' ? collapseWhitespace(t.value) : textWithMarkupToText(t.value);
}

/**
 * Atom content or summary (RFC 4287 §4.1.3; Atom 0.3 used MIME types) → HTML, or null for out-of-line (src) and
 * non-text media types, which cannot be shown inline.
 */
function atomHtml(c: AtomFeed.Content | AtomFeed.Text | undefined, atom03: boolean): string | null {
  const value = nonEmpty(c?.value);
  if (!c || !value) return null;
  const type = (c.type ?? defaultAtomType(atom03)).toLowerCase();
  if (type === 'html' || type === 'xhtml' || type === 'text/html' || type === 'application/xhtml+xml') return value;
  if (type === 'text' || type.startsWith('text/')) return textToHtml(value);
  return null;
}

/** Media RSS <media:description type="plain|html"> → HTML. */
function mediaDescriptionHtml(d: MediaNs.TitleOrDescription | undefined): string | null {
  const value = nonEmpty(d?.value);
  if (!d || !value) return null;
  return d.type?.toLowerCase() === 'html' ? value : textToHtml(value);
}

const SY_PERIOD_MINUTES: Record<string, number> = {
  hourly: 60,
  daily: 1440,
  weekly: 10080,
  monthly: 43200,
  yearly: 525600,
};

/** RSS 2.0 <ttl> (minutes), else the Syndication module (RSS 1.0 mod_syndication: period / frequency). */
function ttlMinutes(ttl: number | undefined, sy: SyNs.Feed<string> | undefined): number | null {
  if (typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0) return Math.max(1, Math.round(ttl));
  const period = sy?.updatePeriod ? SY_PERIOD_MINUTES[sy.updatePeriod.trim().toLowerCase()] : undefined;
  if (!period) return null;
  const frequency =
    typeof sy?.updateFrequency === 'number' && Number.isFinite(sy.updateFrequency) && sy.updateFrequency > 0
      ? sy.updateFrequency
      : 1;
  return Math.max(1, Math.round(period / frequency));
}

function positiveInt(n: number | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : null;
}

/** Collects enclosures by URL and image candidates in priority order. */
class MediaCollector {
  private readonly byUrl = new Map<string, Enclosure>();
  private readonly images: string[] = [];
  private readonly lateImages: string[] = [];

  constructor(private readonly base: string | null) {}

  enclosure(rawUrl: string | undefined, type: string | undefined, length: number | undefined, duration: number | undefined) {
    const url = resolveHttpUrl(rawUrl, this.base);
    if (!url) return;
    const mime = nonEmpty(type)?.toLowerCase() ?? null;
    if (mime === 'application/x-shockwave-flash') return;
    const existing = this.byUrl.get(url);
    const next: Enclosure = { url, type: mime, length: positiveInt(length), duration: positiveInt(duration) };
    if (!existing) {
      this.byUrl.set(url, next);
      return;
    }
    existing.type ??= next.type;
    existing.length ??= next.length;
    existing.duration ??= next.duration;
  }

  /** A lead-image candidate; `late` ones (images found among media files) rank after explicit thumbnails. */
  image(rawUrl: string | undefined, late = false) {
    const url = resolveHttpUrl(rawUrl, this.base);
    if (url) (late ? this.lateImages : this.images).push(url);
  }

  mediaContent(c: MediaNs.Content) {
    this.enclosure(c.url, c.type, c.fileSize, c.duration);
    for (const t of c.thumbnails ?? []) this.image(t.url);
    if (c.medium?.toLowerCase() === 'image' || c.type?.toLowerCase().startsWith('image/')) this.image(c.url, true);
  }

  /** Media RSS at item level: thumbnails first, then groups, then bare media:content. */
  media(m: MediaNs.ItemOrFeed | undefined) {
    if (!m) return;
    for (const t of m.thumbnails ?? []) this.image(t.url);
    for (const g of m.groups ?? []) {
      for (const t of g.thumbnails ?? []) this.image(t.url);
      for (const c of g.contents ?? []) this.mediaContent(c);
    }
    for (const c of m.contents ?? []) this.mediaContent(c);
  }

  /** Sets the podcast duration (itunes:duration) on the first enclosure that has none. */
  duration(seconds: number | undefined) {
    const d = positiveInt(seconds);
    if (d === null) return;
    const firstEnclosure = this.byUrl.values().next().value;
    if (firstEnclosure && firstEnclosure.duration === null) firstEnclosure.duration = d;
  }

  enclosures(): Enclosure[] {
    return [...this.byUrl.values()];
  }

  imageUrl(...fallbacks: (string | undefined)[]): string | null {
    return this.images[0] ?? firstUrl(this.base, ...fallbacks) ?? this.lateImages[0] ?? this.imageEnclosure();
  }

  private imageEnclosure(): string | null {
    for (const e of this.byUrl.values()) if (e.type?.startsWith('image/')) return e.url;
    return null;
  }
}

function mediaTitle(m: MediaNs.ItemOrFeed | undefined): string | undefined {
  return m?.title?.value ?? m?.groups?.find((g) => g.title)?.title?.value;
}

function mediaDescription(m: MediaNs.ItemOrFeed | undefined): string | null {
  if (!m) return null;
  const d =
    m.description ??
    m.groups?.find((g) => g.description)?.description ??
    m.contents?.find((c) => c.description)?.description;
  return mediaDescriptionHtml(d);
}

/** The alternate (HTML) link among Atom links (RFC 4287 §4.2.7.2: a link without rel is "alternate"). */
function atomAlternate(links: AtomFeed.Link<string>[] | undefined): string | undefined {
  let fallback: string | undefined;
  for (const l of links ?? []) {
    const rel = (l.rel ?? 'alternate').toLowerCase();
    if (rel !== 'alternate') continue;
    if (!l.type || l.type.toLowerCase().includes('html')) return l.href;
    fallback ??= l.href;
  }
  return fallback;
}

function atomEnclosures(links: AtomFeed.Link<string>[] | undefined, media: MediaCollector) {
  for (const l of links ?? []) {
    if (l.rel?.toLowerCase() === 'enclosure') media.enclosure(l.href, l.type, l.length, undefined);
  }
}

function atomNames(people: AtomFeed.Person[] | undefined): string | null {
  return joinNames((people ?? []).map((p) => p.name), collapseWhitespace);
}

// ---------------------------------------------------------------------------------------------------------------
// Identity

function finishItems(drafts: ItemDraft[]): ParsedItem[] {
  const seen = new Set<string>();
  const items: ParsedItem[] = [];
  for (const d of drafts) {
    let guid =
      d.id ??
      d.url ??
      d.rawLink ??
      d.enclosures[0]?.url ??
      `sha256:${sha256(`${d.title}\n${d.content ?? d.summary ?? ''}`)}`;
    if (guid.length > MAX_GUID_LENGTH) guid = `sha256:${sha256(guid)}`;
    if (seen.has(guid)) continue;
    seen.add(guid);
    items.push({
      guid,
      url: d.url,
      title: d.title,
      author: d.author,
      content: d.content,
      summary: d.summary,
      publishedAt: d.publishedAt,
      updatedAt: d.updatedAt,
      imageUrl: d.imageUrl,
      enclosures: d.enclosures,
    });
  }
  return items;
}

function feedOf(
  format: FeedFormat,
  fields: Omit<ParsedFeed, 'format' | 'items'>,
  drafts: ItemDraft[],
): ParsedFeed {
  return { format, ...fields, items: finishItems(drafts) };
}

// ---------------------------------------------------------------------------------------------------------------
// RSS 0.9x / 2.0

export function normalizeRss(feed: RssFeed.Feed<string>, ctx: NormalizeContext): ParsedFeed {
  const xmlBase = feed.xml?.base;
  const docBase = resolveBase(xmlBase, ctx.url);
  const siteUrl = firstUrl(docBase, feed.link, atomAlternate(feed.atom?.links));
  // RSS has no base; relative item links mean "on the site" (see urls.ts). An explicit xml:base wins.
  const itemParentBase = xmlBase ? docBase : (siteUrl ?? ctx.url);

  const feedAuthor = firstAuthor(
    joinNames([feed.managingEditor?.name], textWithMarkupToText),
    joinNames(feed.dc?.creators ?? [], textWithMarkupToText),
    joinNames([feed.itunes?.author], textWithMarkupToText),
    atomNames(feed.atom?.authors),
  );

  const drafts = (feed.items ?? []).map((item): ItemDraft => {
    const base = resolveBase(item.xml?.base, itemParentBase);
    const media = new MediaCollector(base);
    for (const e of item.enclosures ?? []) media.enclosure(e.url, e.type, e.length, undefined);
    media.media(item.media);
    atomEnclosures(item.atom?.links, media);
    media.duration(item.itunes?.duration);

    const guid = nonEmpty(item.guid?.value);
    const atomId = nonEmpty(item.atom?.id);
    // RSS 2.0: a guid is a permalink unless isPermaLink="false".
    const permalink = guid && item.guid?.isPermaLink !== false && /^https?:\/\//i.test(guid) ? guid : undefined;
    const summary =
      nonEmpty(item.description) ??
      (item.itunes?.summary ? textToHtml(item.itunes.summary) : null) ??
      mediaDescription(item.media);
    const content = nonEmpty(item.content?.encoded) ?? summary;
    const title = textWithMarkupToText(item.title ?? item.itunes?.title ?? mediaTitle(item.media) ?? item.atom?.title?.value);

    return {
      id: guid ?? atomId,
      url: firstUrl(base, item.link, atomAlternate(item.atom?.links), permalink),
      rawLink: nonEmpty(item.link),
      title,
      author: firstAuthor(
        joinNames((item.authors ?? []).map((a) => a.name), textWithMarkupToText),
        joinNames(item.dc?.creators ?? [], textWithMarkupToText),
        joinNames([item.itunes?.author], textWithMarkupToText),
        atomNames(item.atom?.authors),
        feedAuthor,
      ),
      content,
      summary,
      publishedAt: firstDate(
        ctx,
        item.pubDate,
        first(item.dc?.dates),
        first(item.dcterms?.issued),
        first(item.dcterms?.created),
        item.atom?.published,
        item.atom?.updated,
        first(item.dcterms?.modified),
      ),
      updatedAt: firstDate(ctx, item.atom?.updated, first(item.dcterms?.modified)),
      imageUrl: media.imageUrl(item.itunes?.image),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'rss',
    {
      title: textWithMarkupToText(feed.title ?? feed.itunes?.title ?? first(feed.dc?.titles)),
      siteUrl,
      description: nonEmpty(textWithMarkupToText(feed.description ?? feed.itunes?.summary ?? feed.itunes?.subtitle)),
      imageUrl: firstUrl(itemParentBase, feed.image?.url, feed.itunes?.image, first(feed.media?.thumbnails)?.url),
      language: nonEmpty(feed.language ?? first(feed.dc?.languages)),
      ttlMinutes: ttlMinutes(feed.ttl, feed.sy),
    },
    drafts,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// RSS 1.0 / 0.90 (RDF)

export function normalizeRdf(feed: RdfFeed.Feed<string>, ctx: NormalizeContext): ParsedFeed {
  const xmlBase = feed.xml?.base;
  const docBase = resolveBase(xmlBase, ctx.url);
  const siteUrl = firstUrl(docBase, feed.link, feed.rdf?.about);
  const itemParentBase = xmlBase ? docBase : (siteUrl ?? ctx.url);
  const feedAuthor = joinNames(feed.dc?.creators ?? [], textWithMarkupToText);

  const drafts = (feed.items ?? []).map((item): ItemDraft => {
    const base = resolveBase(item.xml?.base, itemParentBase);
    const media = new MediaCollector(base);
    media.media(item.media);
    const summary = nonEmpty(item.description) ?? mediaDescription(item.media);
    return {
      // rdf:about is the item's URI, its identity in RDF (RSS 1.0 §5.5).
      id: nonEmpty(item.rdf?.about),
      url: firstUrl(base, item.link, item.rdf?.about),
      rawLink: nonEmpty(item.link),
      title: textWithMarkupToText(item.title ?? first(item.dc?.titles)),
      author: firstAuthor(joinNames(item.dc?.creators ?? [], textWithMarkupToText), feedAuthor),
      content: nonEmpty(item.content?.encoded) ?? summary,
      summary,
      publishedAt: firstDate(ctx, first(item.dc?.dates), first(item.dcterms?.issued), first(item.dcterms?.created),
        first(item.dcterms?.modified)),
      updatedAt: firstDate(ctx, first(item.dcterms?.modified)),
      imageUrl: media.imageUrl(),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'rdf',
    {
      title: textWithMarkupToText(feed.title ?? first(feed.dc?.titles)),
      siteUrl,
      description: nonEmpty(textWithMarkupToText(feed.description)),
      imageUrl: firstUrl(itemParentBase, feed.image?.url),
      language: nonEmpty(first(feed.dc?.languages)),
      ttlMinutes: ttlMinutes(undefined, feed.sy),
    },
    drafts,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Atom 0.3 / 1.0 (RFC 4287), including YouTube channel feeds

export function normalizeAtom(feed: AtomFeed.Feed<string>, ctx: NormalizeContext, atom03 = false): ParsedFeed {
  const feedBase = resolveBase(feed.xml?.base, ctx.url);
  const feedAuthor = firstAuthor(
    atomNames(feed.authors),
    joinNames(feed.dc?.creators ?? [], textWithMarkupToText),
    joinNames([feed.itunes?.author], textWithMarkupToText),
  );

  const drafts = (feed.entries ?? []).map((entry): ItemDraft => {
    const base = resolveBase(entry.xml?.base, feedBase);
    const media = new MediaCollector(base);
    atomEnclosures(entry.links, media);
    media.media(entry.media);
    media.duration(entry.itunes?.duration);

    const videoId = nonEmpty(entry.yt?.videoId);
    // YouTube feeds carry the description only in media:group (https://www.youtube.com/feeds/videos.xml).
    const summary = atomHtml(entry.summary, atom03) ?? mediaDescription(entry.media);
    const content = atomHtml(entry.content, atom03) ?? summary;
    const rawLink = atomAlternate(entry.links);
    return {
      id: nonEmpty(entry.id),
      url: firstUrl(
        base,
        rawLink,
        videoId ? `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}` : undefined,
      ),
      rawLink: nonEmpty(rawLink),
      title: entry.title ? atomText(entry.title, atom03) : textWithMarkupToText(mediaTitle(entry.media) ?? entry.itunes?.title),
      author: firstAuthor(
        atomNames(entry.authors),
        joinNames(entry.dc?.creators ?? [], textWithMarkupToText),
        joinNames([entry.itunes?.author], textWithMarkupToText),
        atomNames(entry.source?.authors),
        feedAuthor,
      ),
      content,
      summary,
      publishedAt: firstDate(ctx, entry.published, entry.updated, first(entry.dc?.dates)),
      updatedAt: firstDate(ctx, entry.updated),
      imageUrl: media.imageUrl(entry.itunes?.image),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'atom',
    {
      title: atomText(feed.title, atom03),
      siteUrl: firstUrl(feedBase, atomAlternate(feed.links)),
      description: nonEmpty(atomText(feed.subtitle, atom03)),
      imageUrl: firstUrl(feedBase, feed.logo, feed.icon, feed.itunes?.image),
      language: nonEmpty(feed.xml?.lang ?? first(feed.dc?.languages)),
      ttlMinutes: ttlMinutes(undefined, feed.sy),
    },
    drafts,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// JSON Feed 1.0 / 1.1 (https://www.jsonfeed.org/version/1.1/)

export function normalizeJson(feed: JsonFeed.Feed<string>, ctx: NormalizeContext): ParsedFeed {
  const base = ctx.url;
  const names = (authors: JsonFeed.Author[] | undefined) =>
    joinNames((authors ?? []).map((a) => a.name), collapseWhitespace);
  const feedAuthor = names(feed.authors);

  const drafts = (feed.items ?? []).map((item): ItemDraft => {
    const media = new MediaCollector(base);
    for (const a of item.attachments ?? []) {
      media.enclosure(a.url, a.mime_type, a.size_in_bytes, a.duration_in_seconds);
    }
    // JSON Feed: summary is "a plain text sentence or two"; content_text is plain text.
    const summary = item.summary ? nonEmpty(textToHtml(item.summary)) : null;
    const content =
      nonEmpty(item.content_html) ?? (item.content_text ? nonEmpty(textToHtml(item.content_text)) : null) ?? summary;
    return {
      id: nonEmpty(item.id),
      url: firstUrl(base, item.url, item.external_url),
      rawLink: nonEmpty(item.url ?? item.external_url),
      title: collapseWhitespace(item.title ?? ''),
      author: firstAuthor(names(item.authors), feedAuthor),
      content,
      summary,
      publishedAt: firstDate(ctx, item.date_published, item.date_modified),
      updatedAt: firstDate(ctx, item.date_modified),
      imageUrl: media.imageUrl(item.image, item.banner_image),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'json',
    {
      title: collapseWhitespace(feed.title ?? ''),
      siteUrl: firstUrl(base, feed.home_page_url),
      description: nonEmpty(collapseWhitespace(feed.description ?? '')),
      imageUrl: firstUrl(base, feed.icon, feed.favicon),
      language: nonEmpty(feed.language),
      ttlMinutes: null,
    },
    drafts,
  );
}
