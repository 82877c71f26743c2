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

/** A feed's text shorter than this (characters of plain text) is a teaser (docs/decisions.md "Reading flow"). */
export const TEASER_MAX_CHARS = 500;
/** A single paragraph shorter than this is a teaser too; a full article has more than one paragraph. */
export const SINGLE_PARAGRAPH_MAX_CHARS = 1500;

/** The words of a "read on" link that ends a teaser, English and German. */
const READ_ON =
  /(?:read\s+(?:the\s+)?(?:more|full\s+(?:article|story)|on)|continue\s+reading|keep\s+reading|full\s+(?:article|story)|more\s*(?:»|›|>|→|\.\.\.|…)|weiterlesen|weiter\s+lesen|mehr\s+lesen|lesen\s+sie\s+(?:mehr|weiter)|zum\s+(?:vollständigen\s+)?artikel|ganzen\s+artikel|mehr\s*(?:»|›|>|→|\.\.\.|…))\s*[»›>→.…]*$/i;
/** A text that stops short: "…", "...", "[…]", "[...]", "(…)". */
const CUT_OFF = /(?:…|\.\.\.|\[\s*(?:…|\.\.\.)\s*\]|\(\s*(?:…|\.\.\.)\s*\))\s*$/;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', raquo: '»', rsaquo: '›' };

/** Plain text of (sanitised) HTML, without a DOM: tags out, common entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  return (
    html
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
      // Block boundaries separate words; inline tags (<b>, <a>) do not.
      .replace(/<\/?(?:p|div|br|li|ul|ol|h[1-6]|blockquote|pre|figure|figcaption|table|tr|td|th|section|article|hr)\b[^>]*>/gi, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, name: string) => {
        if (name[0] === '#') {
          const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
          return Number.isFinite(code) ? String.fromCodePoint(code) : m;
        }
        return ENTITIES[name.toLowerCase()] ?? m;
      })
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * Whether a feed's content is only a teaser of the article, so the extended card fetches the original page
 * (dashboard.md §4 "Card mode"; the rule is in docs/decisions.md "Reading flow"). A teaser is: no text; less than
 * 500 characters; text ending cut off ("…", "[…]") or in a "read more" / "Weiterlesen" link or phrase; or a single
 * paragraph of less than 1500 characters. Anything else is the full article and is shown as the feed carries it.
 */
export function looksLikeTeaser(html: string | null | undefined): boolean {
  const text = plainText(html ?? '');
  if (text.length < TEASER_MAX_CHARS) return true;
  if (CUT_OFF.test(text) || READ_ON.test(text)) return true;
  const blocks = (html ?? '').match(/<(p|li|h[1-6]|blockquote|pre|figure|table)\b/gi)?.length ?? 0;
  const breaks = (html ?? '').match(/<br\b/gi)?.length ?? 0;
  return blocks + breaks <= 1 && text.length < SINGLE_PARAGRAPH_MAX_CHARS;
}
