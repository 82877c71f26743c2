import { differenceInHours, format, formatDistanceStrict, isValid, parseISO } from 'date-fns';
import { de } from 'date-fns/locale/de';
import { enUS } from 'date-fns/locale/en-US';

/** §9: the compact card shows the first three sentences of the summary (and CSS clamps them to three lines). */
export const SUMMARY_SENTENCES = 3;
/** §5/§9: images smaller than this (width or height, in CSS pixels) are tracking pixels or spacers, not content. */
export const MIN_IMAGE_PX = 10;

/** The first `count` sentences of a plain text, by the language's sentence rules where the browser has them. */
export function firstSentences(text: string, count = SUMMARY_SENTENCES, language = 'en'): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return '';
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
  let sentences: string[];
  if (Segmenter) {
    sentences = Array.from(new Segmenter(language, { granularity: 'sentence' }).segment(clean), (s) => s.segment);
  } else {
    sentences = clean.match(/[^.!?…]+(?:[.!?…]+["'”’)\]]*\s*|$)/g) ?? [clean];
  }
  return sentences.slice(0, count).join('').trim();
}

/** Dates on the wire are UTC ISO 8601; zone-less values are read as UTC too (decisions.md). */
export function parseUtc(value: string): Date {
  const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`;
  return parseISO(withZone);
}

/**
 * A published date in the user's language (dashboard.md §1: German formatting in German, day first): within the
 * last day relative ("vor 3 Stunden"), otherwise the date and time ("12. Jan. 2026, 14:05" / "Jan 12, 2026, 2:05 PM").
 */
export function formatPublished(value: string, language: string, now: Date = new Date()): { text: string; full: string; iso: string } {
  const date = parseUtc(value);
  if (!isValid(date)) return { text: '', full: '', iso: '' };
  const locale = language.startsWith('de') ? de : enUS;
  const full = format(date, 'PPPp', { locale });
  const hours = differenceInHours(now, date);
  const text = hours >= 0 && hours < 24 ? formatDistanceStrict(date, now, { addSuffix: true, locale }) : format(date, 'PP, p', { locale });
  return { text, full, iso: date.toISOString() };
}

/** A pixel size from an attribute or inline style ("1", "1px"); undefined when not given in pixels. */
function pixels(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(value);
  return m ? Number(m[1]) : undefined;
}

function declaredTooSmall(img: HTMLImageElement): boolean {
  const w = pixels(img.getAttribute('width')) ?? pixels(img.style?.width);
  const h = pixels(img.getAttribute('height')) ?? pixels(img.style?.height);
  return (w !== undefined && w < MIN_IMAGE_PX) || (h !== undefined && h < MIN_IMAGE_PX);
}

/** After loading: an image whose real size is under the limit goes too (pixels without size attributes). */
export function isTinyLoadedImage(img: HTMLImageElement): boolean {
  return img.naturalWidth > 0 && img.naturalHeight > 0 && (img.naturalWidth < MIN_IMAGE_PX || img.naturalHeight < MIN_IMAGE_PX);
}

/**
 * Prepares the server's sanitised HTML for the extended card (the server already strips scripts, ads and tracking
 * elements; this never adds markup from elsewhere): images declared smaller than 10 px are removed, images load
 * lazily, and links open in a new tab without handing the page a reference to Feeder. Parsing happens in an
 * inert document (DOMParser), so nothing in the HTML loads or runs here.
 */
export function prepareContent(html: string): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const img of Array.from(doc.body.querySelectorAll('img'))) {
    if (declaredTooSmall(img)) {
      // An image that is a link's only content leaves an empty link behind: remove that too.
      const parent = img.parentElement;
      img.remove();
      if (parent?.tagName === 'A' && !parent.textContent?.trim() && !parent.querySelector('img')) parent.remove();
      continue;
    }
    img.setAttribute('loading', 'lazy');
    img.setAttribute('decoding', 'async');
  }
  for (const a of Array.from(doc.body.querySelectorAll('a[href]'))) {
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
  return doc.body.innerHTML;
}
