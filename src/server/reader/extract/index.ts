/**
 * Full-article extraction (dashboard.md §2 "Extended mode", §5 "Extended content is sanitised", §7
 * POST /api/extract-article-content): an article page's HTML → its readable part as safe HTML.
 * Pure: no I/O. Readability (Firefox's reader view) finds the article; linkedom gives it a DOM without a browser
 * (docs/ARCHITECTURE.md "Stack"). The spec's extras (dashboard.md §5) are applied on the DOM, where class, id and size
 * attributes still exist (the sanitiser drops them), with the rules and lists of ../ads:
 *   - before Readability, on the whole page: images declaring a width or height under 10 px (spacers, tracking
 *     pixels) and elements whose class or id names an ad, affiliate or tracking block (`ad-slot`,
 *     `sponsored-links`, `affiliate_box`) are removed;
 *   - after Readability, on the article it kept (small, so reading each element's text is cheap): also short blocks
 *     whose text is an ad label, an affiliate disclosure or a shop box ("Anzeige", "Als Amazon-Partner…",
 *     "Jetzt kaufen bei"); links through affiliate networks lead to their target or lose the link (their text stays),
 *     tracking and affiliate parameters leave every link, and images served by ad networks go.
 * The result always goes through sanitizeContent (the same allowlist as feed content), so nothing the page
 * sends can run script in Feeder.
 */
import { Readability } from '@mozilla/readability';
import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import { cleanLink, isAdBlock, isAffiliateLink } from '../ads/index.js';
import { sanitizeContent } from '../sanitize/index.js';
import { ReaderError } from '../types.js';

/** Images declaring a dimension below this many CSS pixels are removed (dashboard.md §5, §9). */
export const MIN_IMAGE_PX = 10;

/**
 * The text rules read each element's text, which costs the article's text times its depth: an article with more
 * text than this (hundreds of pages) keeps the class, id, link and image rules only.
 */
export const MAX_TEXT_RULE_CHARS = 300_000;

/** Less readable text than this is not an article (a navigation page, an error page): extraction fails. */
export const MIN_TEXT_CHARS = 140;

/** Input larger than this is cut before parsing: a page's article is never megabytes of markup. */
export const MAX_HTML_CHARS = 3_000_000;

/**
 * Readability's work grows much faster than linearly with nesting depth (a 22 KB page of 2,000 nested <div>s took
 * 26 s), and linkedom's and Readability's with the element count. A page beyond either cap is refused
 * (EXTRACT_TOO_COMPLEX) after one linear htmlparser2 pass, before a DOM is built; real article pages stay far
 * below both (docs/decisions.md "Worker pool"). The pool's time limit catches whatever is slow within them.
 */
export const MAX_EXTRACT_DEPTH = 150;
export const MAX_EXTRACT_ELEMENTS = 50_000;

/** Refuses a page whose element nesting or count is over the caps (one pass, no DOM, no recursion). */
export function checkComplexity(html: string): void {
  let depth = 0;
  let elements = 0;
  const refuse = (why: string) => new ReaderError('EXTRACT_TOO_COMPLEX', `The article page is too complex to be read (${why}).`);
  const parser = new Parser(
    {
      // Thrown out of the parser: the rest of the page is not read.
      onopentag() {
        if (++depth > MAX_EXTRACT_DEPTH) throw refuse(`nested more than ${MAX_EXTRACT_DEPTH} elements deep`);
        if (++elements > MAX_EXTRACT_ELEMENTS) throw refuse(`more than ${MAX_EXTRACT_ELEMENTS} elements`);
      },
      // htmlparser2 closes void and implicitly closed elements itself, so depth follows the tree a browser builds.
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: false, lowerCaseTags: true },
  );
  parser.end(html);
}

/**
 * The little of the DOM used here, typed locally: the server's TypeScript settings have no DOM library, and
 * linkedom's objects provide these members.
 */
interface DomNode {
  textContent: string | null;
}
interface DomElement extends DomNode {
  tagName: string;
  childNodes: ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  remove(): void;
  replaceWith(...nodes: DomNode[]): void;
}
interface DomRoot extends DomNode {
  querySelectorAll(selector: string): Iterable<DomElement>;
  innerHTML: string;
}
interface DomDocument {
  documentElement: DomRoot | null;
  body: DomRoot | null;
}

export interface ExtractedArticle {
  title: string | null;
  /** Sanitised HTML of the readable part. */
  content: string;
  /** Plain-text length of the readable part (Readability's measure). */
  length: number;
}

/** A width/height attribute or inline style value in pixels, or null when not given in px (or unitless). */
function pixels(value: string | null | undefined): number | null {
  if (value == null) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(value);
  return m ? Number(m[1]) : null;
}

function styleDimension(style: string, name: 'width' | 'height'): number | null {
  const m = new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`, 'i').exec(style);
  return m ? pixels(m[1]) : null;
}

export function isTinyImage(img: DomElement): boolean {
  const style = img.getAttribute('style') ?? '';
  const dims = [pixels(img.getAttribute('width')), pixels(img.getAttribute('height')), styleDimension(style, 'width'), styleDimension(style, 'height')];
  return dims.some((d) => d !== null && d < MIN_IMAGE_PX);
}

const isAdMarked = (el: DomElement) => isAdBlock({ tag: el.tagName, className: el.getAttribute('class'), id: el.getAttribute('id') });

/**
 * Removes ad/affiliate/tracking blocks and tiny images from a document (in place). `thorough`: the text rules and
 * the link and image rules too (the article Readability kept; a whole page is left to the class and id rule, since
 * reading every element's text there costs the page's text times its depth).
 */
function clean(document: DomDocument, thorough: boolean): void {
  const body = document.documentElement ? (document.body ?? document.documentElement) : null;
  if (!body) return;
  for (const el of [...body.querySelectorAll('[class], [id]')]) {
    // An element inside one already removed is detached with it; removing it again is harmless.
    if (isAdMarked(el)) el.remove();
  }
  for (const img of [...body.querySelectorAll('img')]) if (isTinyImage(img)) img.remove();
  if (!thorough) return;
  const articleChars = (body.textContent ?? '').length;
  if (articleChars <= MAX_TEXT_RULE_CHARS) {
    for (const el of [...body.querySelectorAll('*')]) {
      const text = el.textContent ?? '';
      // The element holding (nearly) the whole article is the article, however short it is.
      if (text.length < articleChars * 0.9 && isAdBlock({ tag: el.tagName, text })) el.remove();
    }
  }
  for (const a of [...body.querySelectorAll('a[href]')]) {
    const href = a.getAttribute('href') ?? '';
    const cleaned = cleanLink(href);
    // An affiliate network's link without a readable target: the words stay, the link goes.
    if (cleaned === null) a.replaceWith(...Array.from(a.childNodes));
    else if (cleaned !== href) a.setAttribute('href', cleaned);
  }
  for (const media of [...body.querySelectorAll('img[src], iframe[src]')]) if (isAffiliateLink(media.getAttribute('src') ?? '')) media.remove();
}

/**
 * The readable article of a page, or null when Readability finds none (an index page, an error page, an empty
 * body). `baseUrl` is the page's final URL: relative links and images resolve against it. Throws ReaderError
 * EXTRACT_TOO_COMPLEX for a page over the caps. Its cost still grows with the page: the server runs it on its
 * worker pool with a time limit (refresh/document-pool.ts).
 */
export function extractArticle(html: string, baseUrl: string): ExtractedArticle | null {
  let source = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  checkComplexity(source);
  // linkedom builds no document element for a fragment; a browser would wrap it in <html><body>.
  if (!/<html[\s>]/i.test(source)) source = `<!doctype html><html><body>${source}</body></html>`;
  const { document } = parseHTML(source);
  const dom = document as unknown as DomDocument;
  if (!dom.documentElement) return null;
  clean(dom, false);
  const article = new Readability(document, { charThreshold: 200 }).parse();
  if (!article?.content || (article.textContent ?? '').trim().length < MIN_TEXT_CHARS) return null;
  // Readability copies what it keeps, so a last pass over its output catches blocks it rebuilt.
  const out = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document as unknown as DomDocument;
  clean(out, true);
  const content = sanitizeContent(out.body?.innerHTML ?? '', { baseUrl });
  if (content.trim() === '') return null;
  return { title: article.title ?? null, content, length: article.length ?? 0 };
}
