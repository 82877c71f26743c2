/**
 * Text helpers of the parser. Titles, authors and feed descriptions are stored as plain text (types.ts), while
 * content and summary stay HTML; these functions convert between the two without a DOM.
 *
 * Entities: the XML reader already decodes every HTML named entity in element text (xml-text.ts, as feedsmith did
 * before it), so `&nbsp;`, `&eacute;` or `&hellip;` in a feed that declares no DTD never break parsing. What reaches these helpers is therefore the *HTML* value of a
 * field, which may carry a second level of escaping (`&amp;lt;b&amp;gt;` in the XML is the literal text `<b>`),
 * and htmlparser2 decodes that level with the full HTML5 entity table.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** Elements whose boundaries separate words when HTML is flattened ("<p>a</p><p>b</p>" is "a b", not "ab"). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);
/** Elements whose text is never visible. */
const HIDDEN_TAGS = new Set(['script', 'style', 'template']);

/**
 * Every HTML element name (the living standard's, obsolete ones that still occur in feeds, and svg/math). In a
 * field that is text which may carry markup (textWithMarkupToText), only these are tags: `<int>`, `<T>` or
 * `<Weekly>` are text.
 */
const HTML_ELEMENTS = new Set([
  'a',
  'abbr',
  'acronym',
  'address',
  'applet',
  'area',
  'article',
  'aside',
  'audio',
  'b',
  'base',
  'basefont',
  'bdi',
  'bdo',
  'big',
  'blink',
  'blockquote',
  'body',
  'br',
  'button',
  'canvas',
  'caption',
  'center',
  'cite',
  'code',
  'col',
  'colgroup',
  'data',
  'datalist',
  'dd',
  'del',
  'details',
  'dfn',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'em',
  'embed',
  'fieldset',
  'figcaption',
  'figure',
  'font',
  'footer',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hgroup',
  'hr',
  'html',
  'i',
  'iframe',
  'img',
  'input',
  'ins',
  'kbd',
  'label',
  'legend',
  'li',
  'link',
  'main',
  'map',
  'mark',
  'marquee',
  'math',
  'menu',
  'meta',
  'meter',
  'nav',
  'nobr',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'ol',
  'optgroup',
  'option',
  'output',
  'p',
  'param',
  'picture',
  'plaintext',
  'pre',
  'progress',
  'q',
  'rb',
  'rp',
  'rt',
  'rtc',
  'ruby',
  's',
  'samp',
  'script',
  'search',
  'section',
  'select',
  'slot',
  'small',
  'source',
  'span',
  'strike',
  'strong',
  'style',
  'sub',
  'summary',
  'sup',
  'svg',
  'table',
  'tbody',
  'td',
  'template',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'time',
  'title',
  'tr',
  'track',
  'tt',
  'u',
  'ul',
  'var',
  'video',
  'wbr',
  'xmp',
]);
/** Elements without content: their tag alone is markup. */
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Elements whose end tag HTML lets authors leave out (`<p>a<p>b`): an open tag of one is markup even unpaired. */
const OPTIONAL_END_TAGS = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'option',
  'optgroup',
  'rb',
  'rt',
  'rtc',
  'rp',
  'colgroup',
  'html',
  'head',
  'body',
]);

// C0/C1 control characters other than tab, LF and CR are not allowed in XML 1.0 text (§2.2) and never meant
// anything in a title; they appear when a feed was produced from mis-decoded bytes.
// eslint-disable-next-line no-control-regex -- deliberate: the pattern matches exactly those control characters
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// eslint-disable-next-line no-control-regex -- the same characters as CONTROL_CHARS, to test for them first
const HAS_CONTROL_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/**
 * Whitespace runs that are not already a single space: a run of two or more, or one character other than U+0020.
 * Replacing only these gives what replacing every \s+ run gives, without a match (and a new string) per word.
 */
const WHITESPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

/** Collapses every whitespace run (including no-break spaces, \s in JS) to one space and trims. */
export function collapseWhitespace(s: string): string {
  const visible = HAS_CONTROL_CHAR.test(s) ? s.replace(CONTROL_CHARS, '') : s;
  return visible.replace(WHITESPACE_TO_COLLAPSE, ' ').trim();
}

/** A token of htmlparser2's Tokenizer with its place in the source: text (decoded), an open or an end tag. */
const TEXT = 0;
const OPEN = 1;
const CLOSE = 2;
interface Token {
  kind: typeof TEXT | typeof OPEN | typeof CLOSE;
  /** Decoded text, or the lower-cased tag name. */
  value: string;
  /** Source range of a tag, `<` to `>` inclusive-exclusive. */
  start: number;
  end: number;
  /** Whether the tag is markup (set by the pairing pass of textWithMarkupToText). */
  markup: boolean;
}

/**
 * Collects the tokens of one string. One instance per call, with htmlparser2's Tokenizer of its own: nothing of
 * one call survives into the next (docs/decisions.md "Parsing: text and markup"; a shared parser that was reset
 * kept the raw-text state of an unclosed <textarea> or <style> and broke every later call). A class rather than
 * an object of closures, so the tokenizer's callback sites stay monomorphic.
 *
 * Comments, CDATA sections, declarations and processing instructions are dropped, as browsers do. The Tokenizer
 * keeps no element stack, so the work is linear in the input however deeply it nests (htmlparser2's Parser keeps
 * its stack with Array#unshift: quadratic on 100,000 nested <div>).
 */
class TokenCollector implements TokenizerCallbacks {
  readonly tokens: Token[] = [];
  /** End of the source the last token covered; what follows it when the input ends inside an unfinished tag. */
  cursor = 0;
  private openStart = 0;
  private openName = '';

  constructor(readonly source: string) {}

  protected text(value: string, end: number): void {
    this.tokens.push({ kind: TEXT, value, start: this.cursor, end, markup: false });
    this.cursor = end;
  }

  protected tag(kind: typeof OPEN | typeof CLOSE, value: string, start: number, end: number): void {
    this.tokens.push({ kind, value, start, end, markup: false });
    this.cursor = end;
  }

  ontext(start: number, end: number): void {
    this.text(this.source.slice(start, end), end);
  }

  ontextentity(cp: number, end: number): void {
    this.text(String.fromCodePoint(cp), end);
  }

  onopentagname(start: number, end: number): void {
    this.openStart = start - 1;
    this.openName = this.source.slice(start, end).toLowerCase();
  }

  onopentagend(end: number): void {
    this.tag(OPEN, this.openName, this.openStart, end + 1);
  }

  onselfclosingtag(end: number): void {
    this.onopentagend(end);
  }

  onclosetag(start: number, end: number): void {
    // The tokenizer skips to the next ">" after an end tag's name.
    const gt = this.source.indexOf('>', end);
    const close = gt === -1 ? this.source.length : gt + 1;
    this.tag(CLOSE, this.source.slice(start, end).toLowerCase(), this.cursor, close);
  }

  oncomment(_start: number, end: number, offset: number): void {
    this.cursor = Math.min(this.source.length, end + offset + 1);
  }

  oncdata(start: number, end: number, offset: number): void {
    this.oncomment(start, end, offset);
  }

  ondeclaration(_start: number, end: number): void {
    this.cursor = end + 1;
  }

  onprocessinginstruction(_start: number, end: number): void {
    this.cursor = end + 1;
  }

  onattribname(): void {}
  onattribdata(): void {}
  onattribentity(): void {}
  onattribend(): void {}
  onend(): void {}
}

/** htmlToText's collector: every tag is markup, so the text is built as the tokens come, without a token list. */
class TextCollector extends TokenCollector {
  out = '';
  private hidden = 0;

  protected override text(value: string, end: number): void {
    if (this.hidden === 0) this.out += value;
    this.cursor = end;
  }

  protected override tag(kind: typeof OPEN | typeof CLOSE, name: string, _start: number, end: number): void {
    if (HIDDEN_TAGS.has(name)) this.hidden = kind === OPEN ? this.hidden + 1 : Math.max(0, this.hidden - 1);
    else if (BLOCK_TAGS.has(name)) this.out += ' ';
    this.cursor = end;
  }
}

function tokenize<C extends TokenCollector>(collector: C): C {
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, collector);
  tokenizer.write(collector.source);
  tokenizer.end();
  return collector;
}

/** Flattens tokens to text: markup tags removed (a space at block boundaries), hidden elements' text dropped. */
function flatten(s: string, tokens: Token[]): string {
  let out = '';
  let hidden = 0;
  for (const t of tokens) {
    if (t.kind === TEXT) {
      if (hidden === 0) out += t.value;
    } else if (!t.markup) {
      if (hidden === 0) out += s.slice(t.start, t.end);
    } else if (HIDDEN_TAGS.has(t.value)) {
      hidden = t.kind === OPEN ? hidden + 1 : Math.max(0, hidden - 1);
    } else if (BLOCK_TAGS.has(t.value)) {
      out += ' ';
    }
  }
  return out;
}

/**
 * HTML to plain text: every tag removed, the content of script/style/template dropped, all HTML5 named and
 * numeric entities decoded, whitespace collapsed. For fields that are HTML (content, summary).
 */
export function htmlToText(s: string | null | undefined): string {
  if (!s) return '';
  // Fast path: most strings carry neither markup nor entities.
  if (s.indexOf('<') === -1 && s.indexOf('&') === -1) return collapseWhitespace(s);
  return collapseWhitespace(tokenize(new TextCollector(s)).out);
}

/**
 * Text that may carry HTML markup (RSS and RDF titles, authors and descriptions; Atom text constructs of type
 * html/xhtml) to plain text, removing only what is really markup (docs/decisions.md "Parsing: text and markup"):
 * a tag of a known HTML element that is void (`<br>`, `<img>`), has its partner (`<b>…</b>`), or is the open tag
 * of an element whose end tag may be left out (`<p>`). Everything else is the text it looks like: `<int>` in
 * `std::vector<int>`, `<Weekly>`, `a < b > c`, the lone `<textarea>` in "Why the <textarea> element is special",
 * an unfinished `x<y` at the end. Entities are decoded; whitespace is collapsed.
 */
export function textWithMarkupToText(s: string | null | undefined): string {
  if (!s) return '';
  if (s.indexOf('<') === -1 && s.indexOf('&') === -1) return collapseWhitespace(s);
  const { tokens, cursor } = tokenize(new TokenCollector(s));
  // The Tokenizer drops an unfinished tag at the end (`if x<y`); in text it is text.
  const rest = cursor < s.length ? s.slice(cursor) : '';
  // Pairing: each end tag of a known element takes the nearest unpaired open tag of the same name. A stack per
  // name keeps this linear.
  let open: Map<string, Token[]> | undefined;
  for (const t of tokens) {
    if (t.kind === TEXT || !HTML_ELEMENTS.has(t.value)) continue;
    if (VOID_TAGS.has(t.value)) {
      t.markup = true;
    } else if (t.kind === OPEN) {
      if (OPTIONAL_END_TAGS.has(t.value)) t.markup = true;
      open ??= new Map();
      const stack = open.get(t.value);
      if (stack) stack.push(t);
      else open.set(t.value, [t]);
    } else {
      const partner = open?.get(t.value)?.pop();
      if (partner) partner.markup = t.markup = true;
    }
  }
  return collapseWhitespace(flatten(s, tokens) + rest);
}

/**
 * A title that may carry markup → plain text (textWithMarkupToText). A title that is nothing but tags (`<br>`,
 * an escaped `<p></p>`) keeps them as its text rather than becoming empty: the publisher wrote something.
 */
export function titleToText(s: string | null | undefined): string {
  const text = textWithMarkupToText(s);
  return text === '' && s ? collapseWhitespace(s) : text;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const ESCAPE_CHARS = /[&<>"']/g;

/** Escapes text for use as HTML text or attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(ESCAPE_CHARS, (c) => ESCAPES[c]);
}

const NEWLINES = /\r\n?|\n/g;

/**
 * Plain text to HTML: escaped, line breaks kept as <br>. Used for Atom type="text" (RFC 4287 §3.1.1.1), JSON Feed
 * content_text and Media RSS descriptions of type "plain", so the content field is always HTML.
 */
export function textToHtml(s: string): string {
  return escapeHtml(s.replace(CONTROL_CHARS, '').trim()).replace(NEWLINES, '<br>\n');
}

/** Trimmed string or null when absent or blank. */
export function nonEmpty(s: string | null | undefined): string | null {
  if (typeof s !== 'string') return null;
  const t = s.trim();
  return t === '' ? null : t;
}
