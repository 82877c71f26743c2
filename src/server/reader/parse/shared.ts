/**
 * Helpers shared by the per-format normalisers (rss.ts, atom.ts, rdf.ts, json.ts): the first usable date, URL or
 * author among fallbacks, the feed's refresh hint, and the collector of enclosures and lead images. The decisions
 * they carry are listed in normalize.ts.
 */
import type { Enclosure } from '../types.js';
import type { RawAtomContent, RawAtomLink, RawAtomPerson, RawAtomText, RawMedia, RawMediaContent, RawMediaText, RawSy } from './raw-feed.js';
import { parseDate } from './dates.js';
import { collapseWhitespace, nonEmpty, textToHtml, textWithMarkupToText } from './text.js';
import { resolveHttpUrl } from './urls.js';

export interface NormalizeContext {
  /** The document URL (after redirects): the outermost base. */
  url: string;
  /** Reference time for the future-date check (ms since the epoch). */
  now: number;
}

export function first<T>(values: readonly T[] | undefined): T | undefined {
  return values && values.length > 0 ? values[0] : undefined;
}

/** The first candidate that parses as a plausible date. */
export function firstDate(ctx: NormalizeContext, ...candidates: (string | undefined)[]): string | null {
  for (const c of candidates) {
    const d = parseDate(c, ctx.now);
    if (d) return d;
  }
  return null;
}

/** The first candidate that is not blank (an empty <title/> does not hide a <dc:title>). */
export function firstText(...candidates: (string | undefined)[]): string | undefined {
  for (const c of candidates) if (c && c.trim() !== '') return c;
  return undefined;
}

/** The first candidate that resolves to an absolute http(s) URL. */
export function firstUrl(base: string | null, ...candidates: (string | undefined)[]): string | null {
  for (const c of candidates) {
    const u = resolveHttpUrl(c, base);
    if (u) return u;
  }
  return null;
}

/** Distinct non-empty names joined with ", ", or null. */
export function joinNames(names: (string | undefined)[], toText: (s: string) => string): string | null {
  const seen: string[] = [];
  for (const n of names) {
    if (!n) continue;
    const t = toText(n);
    if (t !== '' && !seen.includes(t)) seen.push(t);
  }
  return seen.length > 0 ? seen.join(', ') : null;
}

export function firstAuthor(...candidates: (string | null)[]): string | null {
  for (const c of candidates) if (c) return c;
  return null;
}

/** Media RSS <media:description type="plain|html"> → HTML. */
function mediaDescriptionHtml(d: RawMediaText | undefined): string | null {
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
export function ttlMinutes(ttl: number | undefined, sy: RawSy | undefined): number | null {
  if (typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0) return Math.max(1, Math.round(ttl));
  const period = sy?.updatePeriod ? SY_PERIOD_MINUTES[sy.updatePeriod.trim().toLowerCase()] : undefined;
  if (!period) return null;
  const frequency = typeof sy?.updateFrequency === 'number' && Number.isFinite(sy.updateFrequency) && sy.updateFrequency > 0 ? sy.updateFrequency : 1;
  return Math.max(1, Math.round(period / frequency));
}

function positiveInt(n: number | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : null;
}

/** Collects enclosures by URL and image candidates in priority order. */
export class MediaCollector {
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

  mediaContent(c: RawMediaContent) {
    this.enclosure(c.url, c.type, c.fileSize, c.duration);
    for (const t of c.thumbnails ?? []) this.image(t.url);
    if (c.medium?.toLowerCase() === 'image' || c.type?.toLowerCase().startsWith('image/')) this.image(c.url, true);
  }

  /** Media RSS at item level: thumbnails first, then groups, then bare media:content. */
  media(m: RawMedia | undefined) {
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

export function mediaTitle(m: RawMedia | undefined): string | undefined {
  return m?.title?.value ?? m?.groups?.find((g) => g.title)?.title?.value;
}

export function mediaDescription(m: RawMedia | undefined): string | null {
  if (!m) return null;
  const d = m.description ?? m.groups?.find((g) => g.description)?.description ?? m.contents?.find((c) => c.description)?.description;
  return mediaDescriptionHtml(d);
}

/** The alternate (HTML) link among Atom links (RFC 4287 §4.2.7.2: a link without rel is "alternate"). */
export function atomAlternate(links: RawAtomLink[] | undefined): string | undefined {
  let fallback: string | undefined;
  for (const l of links ?? []) {
    const rel = (l.rel ?? 'alternate').toLowerCase();
    if (rel !== 'alternate') continue;
    if (!l.type || l.type.toLowerCase().includes('html')) return l.href;
    fallback ??= l.href;
  }
  return fallback;
}

export function atomEnclosures(links: RawAtomLink[] | undefined, media: MediaCollector) {
  for (const l of links ?? []) {
    if (l.rel?.toLowerCase() === 'enclosure') media.enclosure(l.href, l.type, l.length, undefined);
  }
}

export function atomNames(people: RawAtomPerson[] | undefined): string | null {
  return joinNames(
    (people ?? []).map((p) => p.name),
    collapseWhitespace,
  );
}

/**
 * The type of an Atom text construct or content without a type attribute. Atom 1.0 says "text" (RFC 4287
 * §3.1.1). Atom 0.3 said text/plain too, but its feeds used mode="escaped" to carry HTML almost without exception
 * (and the reader does not report `mode`), so for 0.3 an untyped value is read as HTML.
 */
function defaultAtomType(atom03: boolean): string {
  return atom03 ? 'html' : 'text';
}

/** Atom text construct (RFC 4287 §3.1) → plain text; `markupToText` reads the html and xhtml types. */
export function atomText(t: RawAtomText | undefined, atom03: boolean, markupToText: (s: string) => string = textWithMarkupToText): string {
  if (!t) return '';
  const type = (t.type ?? defaultAtomType(atom03)).toLowerCase();
  return type === 'text' || type === 'text/plain' ? collapseWhitespace(t.value) : markupToText(t.value);
}

/**
 * Atom content or summary (RFC 4287 §4.1.3; Atom 0.3 used MIME types) → HTML, or null for out-of-line (src) and
 * non-text media types, which cannot be shown inline.
 */
export function atomHtml(c: RawAtomContent | RawAtomText | undefined, atom03: boolean): string | null {
  const value = nonEmpty(c?.value);
  if (!c || !value) return null;
  const type = (c.type ?? defaultAtomType(atom03)).toLowerCase();
  if (type === 'html' || type === 'xhtml' || type === 'text/html' || type === 'application/xhtml+xml') return value;
  if (type === 'text' || type.startsWith('text/')) return textToHtml(value);
  return null;
}
