/**
 * Text helpers of the parser. Titles, authors and feed descriptions are stored as plain text (types.ts), while
 * content and summary stay HTML; these functions convert between the two without a DOM.
 *
 * Entities: feedsmith already decodes every HTML named entity in element text (it runs fast-xml-parser with
 * `processEntities: false` and decodes with the `entities` package), so `&nbsp;`, `&eacute;` or `&hellip;` in a
 * feed that declares no DTD never break parsing. What reaches these helpers is therefore the *HTML* value of a
 * field, which may carry a second level of escaping (`&amp;lt;b&amp;gt;` in the XML is the literal text `<b>`),
 * and htmlparser2 decodes that level with the full HTML5 entity table.
 */
import { Parser } from 'htmlparser2';

/** Elements whose boundaries separate words when HTML is flattened ("<p>a</p><p>b</p>" is "a b", not "ab"). */
const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
  'td', 'th', 'tr', 'ul',
]);
/** Elements whose text is never visible. */
const HIDDEN_TAGS = new Set(['script', 'style', 'template']);

// C0/C1 control characters other than tab, LF and CR are not allowed in XML 1.0 text (§2.2) and never meant
// anything in a title; they appear when a feed was produced from mis-decoded bytes.
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const WHITESPACE_RUN = /\s+/g;

/** Collapses every whitespace run (including no-break spaces, \s in JS) to one space and trims. */
export function collapseWhitespace(s: string): string {
  return s.replace(CONTROL_CHARS, '').replace(WHITESPACE_RUN, ' ').trim();
}

// One parser, reset per call: constructing an htmlparser2 Parser (and its Tokenizer) per title costs more than
// parsing the title. htmlToText is synchronous and not re-entrant, so shared state is safe.
let textOut = '';
let hiddenDepth = 0;
const textParser = new Parser(
  {
    onopentag(name) {
      if (HIDDEN_TAGS.has(name)) hiddenDepth++;
      else if (BLOCK_TAGS.has(name)) textOut += ' ';
    },
    onclosetag(name) {
      if (HIDDEN_TAGS.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
      else if (BLOCK_TAGS.has(name)) textOut += ' ';
    },
    ontext(text) {
      if (hiddenDepth === 0) textOut += text;
    },
  },
  { decodeEntities: true, lowerCaseTags: true },
);

/**
 * HTML (or text that may contain HTML) to plain text: tags removed, the content of script/style dropped, all
 * HTML5 named and numeric entities decoded, whitespace collapsed.
 */
export function htmlToText(s: string | null | undefined): string {
  if (!s) return '';
  // Fast path: most titles carry neither markup nor entities.
  if (s.indexOf('<') === -1 && s.indexOf('&') === -1) return collapseWhitespace(s);
  textOut = '';
  hiddenDepth = 0;
  textParser.reset();
  textParser.end(s);
  const out = textOut;
  textOut = '';
  return collapseWhitespace(out);
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
