import type { PageLink } from '../discover/html.js';
import type { DiscoveryParsers } from '../discover/index.js';
import type { Fetcher } from '../fetch/index.js';
import type { FetchResult, Icon } from '../types.js';

/**
 * A feed's site icon, stored with the feed (base64) so the UI never loads images from third-party hosts.
 * Looked for in this order: the site page's declared icons, best first; /favicon.ico of the site; the feed's own
 * image. Every candidate is checked by its bytes, not by its Content-Type: servers answer a missing favicon with
 * their HTML error page and status 200, and that must not end up as an "icon".
 */

/** Icons are small; anything bigger is a photo or a mistake, and is stored in every feed row. */
const MAX_ICON_BYTES = 256 * 1024;
/** Declared icons tried before falling back to /favicon.ico. */
const MAX_DECLARED = 3;
const ICON_ACCEPT = 'image/png, image/svg+xml, image/x-icon, image/*;q=0.8, */*;q=0.1';
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1';

/**
 * Where the icon finder parses what it fetched: the site page (its links) and an SVG icon (sanitised). The server
 * passes its worker pool (a 110 KB SVG of nested groups took sanitize-html 1.3 s); `inlineIconParsers` are the same
 * functions on the calling thread, for the pipeline's tests and the worker itself.
 */
export interface IconParsers extends Pick<DiscoveryParsers, 'page'> {
  /** The SVG's drawing, sanitised (sanitize/svg.ts), or null when nothing usable is left. */
  svg(markup: string): Promise<string | null>;
}

export const inlineIconParsers: IconParsers = {
  page: async (fetched) => (await import('../discover/parsers.js')).scanPage(fetched),
  svg: async (markup) => (await import('../sanitize/svg.js')).sanitizeSvg(markup),
};

export async function fetchIcon(
  input: { siteUrl: string | null; feedUrl: string; feedImageUrl: string | null },
  fetcher: Fetcher,
  parsers: IconParsers,
): Promise<Icon | null> {
  const candidates: string[] = [];
  const add = (url: string | null) => {
    if (url && !candidates.includes(url)) candidates.push(url);
  };

  const pageUrl = httpUrl(input.siteUrl) ?? originOf(input.feedUrl);
  if (pageUrl) {
    const page = await fetchOrNull(fetcher, pageUrl, { accept: PAGE_ACCEPT });
    if (page?.status === 'ok') {
      const { links } = await parsers.page(page);
      // Declared icons first, best first; then the conventional /favicon.ico of where the page really was.
      for (const link of rankIcons(links).slice(0, MAX_DECLARED)) add(link.href);
      add(`${new URL(page.url).origin}/favicon.ico`);
    }
    add(`${new URL(pageUrl).origin}/favicon.ico`);
  }
  add(httpUrl(input.feedImageUrl) ?? dataUrl(input.feedImageUrl));

  for (const url of candidates) {
    try {
      const icon = await loadIcon(url, fetcher, parsers);
      if (icon) return icon;
    } catch {
      // A candidate that cannot be read (odd bytes the SVG sanitiser chokes on, …) is skipped like a 404.
    }
  }
  return null;
}

function httpUrl(text: string | null): string | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function dataUrl(text: string | null): string | null {
  return text && /^data:image\//i.test(text.trim()) ? text.trim() : null;
}

function originOf(text: string): string | null {
  const url = httpUrl(text);
  return url ? `${new URL(url).origin}/` : null;
}

async function fetchOrNull(fetcher: Fetcher, url: string, options: { accept: string; maxBytes?: number }): Promise<FetchResult | null> {
  try {
    return await fetcher.fetch(url, options);
  } catch {
    // Icons are a nicety: a site that is down, slow or refuses us simply has no icon this time.
    return null;
  }
}

/** The largest edge of a `sizes` attribute ("16x16 32x32" → 32); Infinity for "any" (scalable); null if absent. */
function declaredSize(sizes: string): number | null {
  if (sizes === 'any') return Infinity;
  const edges = [...sizes.matchAll(/(\d+)x(\d+)/g)].map((m) => Math.max(Number(m[1]), Number(m[2])));
  return edges.length > 0 ? Math.max(...edges) : null;
}

function iconKind(link: PageLink): 'svg' | 'png' | 'ico' | 'other' {
  const path = link.href.startsWith('data:') ? '' : new URL(link.href).pathname.toLowerCase();
  if (link.type === 'image/svg+xml' || path.endsWith('.svg') || link.href.startsWith('data:image/svg')) return 'svg';
  if (link.type === 'image/png' || path.endsWith('.png') || link.href.startsWith('data:image/png')) return 'png';
  if (link.type.includes('icon') || path.endsWith('.ico')) return 'ico';
  return 'other';
}

/**
 * Declared icons, best first. The UI shows icons at 16–32 CSS px (so 32–64 device px), hence "reasonably sized":
 * something from 32 to 256 px, nearest 64 best; scalable SVG is as good; tiny or huge ones come last. PNG, ICO and
 * SVG are preferred over JPEG/GIF/WebP, which rarely have transparency. Ties keep document order.
 */
function rankIcons(links: PageLink[]): PageLink[] {
  const icons = links.filter((l) => l.rel.includes('icon') || l.rel.includes('apple-touch-icon') || l.rel.includes('apple-touch-icon-precomposed'));
  const score = (link: PageLink): number => {
    const kind = iconKind(link);
    const appleTouch = !link.rel.includes('icon');
    // Apple touch icons are 180 px unless said otherwise; an undeclared rel="icon" is usually the 16 px favicon,
    // which looks blurred at 32 device px, so the touch icon wins over it.
    const size = declaredSize(link.sizes) ?? (kind === 'svg' ? Infinity : appleTouch ? 180 : 16);
    let sizeScore: number;
    if (size === Infinity) sizeScore = 25;
    else if (size >= 32 && size <= 256) sizeScore = 30 - Math.abs(Math.log2(size / 64)) * 5;
    else if (size < 32) sizeScore = 10 + size / 4;
    else sizeScore = 5;
    const kindScore = kind === 'other' ? 0 : 10;
    return sizeScore + kindScore;
  };
  return icons
    .map((link, index) => ({ link, index, score: score(link) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((s) => s.link);
}

async function loadIcon(url: string, fetcher: Fetcher, parsers: IconParsers): Promise<Icon | null> {
  let bytes: Buffer | null;
  if (url.startsWith('data:')) {
    bytes = decodeDataUrl(url);
  } else {
    const result = await fetchOrNull(fetcher, url, { accept: ICON_ACCEPT, maxBytes: MAX_ICON_BYTES });
    bytes = result?.status === 'ok' ? result.body : null;
  }
  if (!bytes || bytes.length === 0 || bytes.length > MAX_ICON_BYTES) return null;
  return toIcon(bytes, parsers);
}

/** RFC 2397 data: URL → bytes, or null when malformed. */
function decodeDataUrl(url: string): Buffer | null {
  const comma = url.indexOf(',');
  if (comma === -1) return null;
  const meta = url.slice('data:'.length, comma);
  const payload = url.slice(comma + 1);
  try {
    return /;base64$/i.test(meta) ? Buffer.from(decodeURIComponent(payload), 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    return null;
  }
}

/** The image type by magic bytes (WHATWG MIME Sniffing §7.1 "image type pattern"), or SVG by its root element. */
function sniffImageType(bytes: Buffer): string | null {
  const startsWith = (signature: number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a') return 'image/gif';
  if (startsWith([0xff, 0xd8, 0xff])) return 'image/jpeg';
  // ICO: reserved 0, type 1 (icon), then at least one image.
  if (startsWith([0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && bytes.readUInt16LE(4) > 0) return 'image/x-icon';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (looksLikeSvg(bytes)) return 'image/svg+xml';
  return null;
}

/** An XML document whose root element is <svg> (after an optional XML declaration, comments and DOCTYPE). */
function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head);
}

async function toIcon(bytes: Buffer, parsers: IconParsers): Promise<Icon | null> {
  const mimeType = sniffImageType(bytes);
  if (!mimeType) return null;
  if (mimeType !== 'image/svg+xml') return { mimeType, data: bytes.toString('base64') };
  // SVG can carry script and external references; only what the sanitiser's drawing allowlist keeps is stored.
  const clean = await parsers.svg(bytes.toString('utf8'));
  return clean ? { mimeType, data: Buffer.from(clean, 'utf8').toString('base64') } : null;
}
