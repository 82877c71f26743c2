/**
 * Values of the XML feed reader (xml.ts, raw-feed.ts): how element text and attribute values become strings,
 * numbers and booleans. The rules are the ones feeds were read with before (docs/decisions.md "Parse threads: our
 * own XML feed reader"): a value is decoded only when it is read, comments are dropped, CDATA sections are taken
 * literally, everything else is decoded as HTML text (every HTML5 named entity, legacy ones without `;` too, numeric
 * ones), and the result is trimmed. Every function here is linear in its input.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** JavaScript's `\s` (and what String#trim removes). */
export function isJsSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    (c > 0x7f &&
      (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff))
  );
}

/** The Unicode White_Space property (which, unlike `\s`, holds U+0085 and not U+FEFF). */
function isUnicodeSpace(c: number): boolean {
  return c === 0x85 || (c !== 0xfeff && isJsSpace(c));
}

/** A string with something in it other than Unicode white space. */
export function isNonEmptyString(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  const c = value.charCodeAt(0);
  if (c > 32 && c < 127) return true;
  for (let i = 0; i < value.length; i++) if (!isUnicodeSpace(value.charCodeAt(i))) return true;
  return false;
}

/** Collects the text htmlparser2's Tokenizer reads from a string without `<`: its runs and decoded entities. */
class EntityText implements TokenizerCallbacks {
  out = '';
  constructor(private readonly source: string) {}
  ontext(start: number, end: number): void {
    this.out += this.source.slice(start, end);
  }
  ontextentity(cp: number): void {
    this.out += String.fromCodePoint(cp);
  }
  onattribdata(): void {}
  onattribentity(): void {}
  onattribend(): void {}
  onattribname(): void {}
  oncdata(): void {}
  onclosetag(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onopentagend(): void {}
  onopentagname(): void {}
  onprocessinginstruction(): void {}
  onselfclosingtag(): void {}
}

/** HTML text decoding of a string without `<` by htmlparser2's Tokenizer (the WHATWG rules and entity table). */
function decodeSegment(s: string): string {
  if (s.indexOf('&') === -1) return s;
  const text = new EntityText(s);
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, text);
  tokenizer.write(s);
  tokenizer.end();
  return text.out;
}

/** `&amp;`, `&lt;`, `&gt;`, `&quot;` or `&apos;` between `amp` and `semi`, read without slicing the name. */
function xmlNamed(s: string, amp: number, semi: number): string | undefined {
  switch (semi - amp) {
    case 3:
      if (s.charCodeAt(amp + 2) !== 0x74 /* t */) return undefined;
      return s.charCodeAt(amp + 1) === 0x6c /* l */ ? '<' : s.charCodeAt(amp + 1) === 0x67 /* g */ ? '>' : undefined;
    case 4:
      return s.startsWith('amp', amp + 1) ? '&' : undefined;
    case 5:
      return s.startsWith('quot', amp + 1) ? '"' : s.startsWith('apos', amp + 1) ? "'" : undefined;
    default:
      return undefined;
  }
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/**
 * The common entities (`&amp;`, `&lt;`, `&#233;`, …) decoded without a tokenizer; null when the string holds any
 * other entity or an ambiguous `&`, which decodeHtml then leaves to the full decoder.
 */
function decodeCommon(s: string, first: number): string | null {
  let out = '';
  let last = 0;
  for (let amp = first; amp !== -1; amp = s.indexOf('&', amp + 1)) {
    const c = s.charCodeAt(amp + 1);
    // A `&` that cannot start a reference is text.
    if (c !== 0x23 /* # */ && !isAlnum(c)) continue;
    const semi = s.indexOf(';', amp + 2);
    if (semi === -1 || semi - amp > 9) return null;
    let decoded: string | undefined;
    if (c === 0x23) {
      const name = s.slice(amp + 1, semi);
      const hex = name.charCodeAt(1) === 0x78 || name.charCodeAt(1) === 0x58;
      const digits = name.slice(hex ? 2 : 1);
      if (digits === '' || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return null;
      const cp = parseInt(digits, hex ? 16 : 10);
      // NUL, C1 controls (read as windows-1252), surrogates and out-of-range values: the full decoder's rules.
      if (cp === 0 || (cp >= 0x80 && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return null;
      decoded = String.fromCodePoint(cp);
    } else {
      decoded = xmlNamed(s, amp, semi);
      if (decoded === undefined) return null;
    }
    out += s.slice(last, amp) + decoded;
    last = semi + 1;
    amp = semi;
  }
  return out + s.slice(last);
}

/**
 * Decodes HTML character references in text as a browser does in element content (entities 7 `decodeHTML`, the
 * Legacy mode): all HTML5 named references, the legacy ones also without `;`, numeric ones with their repairs.
 */
export function decodeHtml(s: string): string {
  const amp = s.indexOf('&');
  if (amp === -1) return s;
  const common = decodeCommon(s, amp);
  if (common !== null) return common;
  // The tokenizer would read `<` as markup; a reference never spans one, so each stretch between them is decoded alone.
  if (s.indexOf('<') === -1) return decodeSegment(s);
  return s.split('<').map(decodeSegment).join('<');
}

/** Text with `&` and a `;` somewhere after it: the only text that is decoded at all. */
function hasEntities(text: string): boolean {
  const amp = text.indexOf('&');
  return amp !== -1 && text.indexOf(';', amp) !== -1;
}

function decodeIfNeeded(text: string): string {
  return hasEntities(text) ? decodeHtml(text) : text;
}

/** Without its `<!-- … -->` comments; unchanged when one of them is not closed. */
function stripComments(text: string): string {
  let at = text.indexOf('<!--');
  if (at === -1) return text;
  let out = '';
  let last = 0;
  while (at !== -1) {
    out += text.slice(last, at);
    const end = text.indexOf('-->', at + 4);
    if (end === -1) return text;
    last = end + 3;
    at = text.indexOf('<!--', last);
  }
  return out + text.slice(last);
}

/** CDATA sections taken literally, the text around them decoded; all of it decoded when a section is not closed. */
function decodeWithCdata(text: string): string {
  let at = text.indexOf('<![CDATA[');
  if (at === -1) return decodeIfNeeded(text);
  let out = '';
  let last = 0;
  while (at !== -1) {
    out += decodeIfNeeded(text.slice(last, at));
    const end = text.indexOf(']]>', at + 9);
    if (end === -1) return decodeIfNeeded(text);
    out += text.slice(at + 9, end);
    last = end + 3;
    at = text.indexOf('<![CDATA[', last);
  }
  return out + decodeIfNeeded(text.slice(last));
}

/** An element's text or an attribute's value as a string: comments dropped, decoded, trimmed; undefined when blank. */
export function parseString(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return decodeWithCdata(stripComments(value)).trim() || undefined;
}

/** Trimmed as written (XHTML content keeps its markup and references); undefined when blank. */
export function parseVerbatimString(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.trim() || undefined;
}

/** A number as JavaScript's `+value` reads it; undefined for blank or non-numeric strings. */
export function parseNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (!isNonEmptyString(value)) return undefined;
  const n = +value;
  return Number.isNaN(n) ? undefined : n;
}

const TRUE = /^\p{White_Space}*true\p{White_Space}*$/iu;
const FALSE = /^\p{White_Space}*false\p{White_Space}*$/iu;

/** `true` or `false` between white space, in any case; undefined otherwise. */
export function parseBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (!isNonEmptyString(value)) return undefined;
  return TRUE.test(value) ? true : FALSE.test(value) ? false : undefined;
}

/** CDATA sections turned into escaped text (`&` and `<`), as XHTML content is read. */
export function escapeCdataSections(value: string): string {
  let at = value.indexOf('<![CDATA[');
  if (at === -1) return value;
  let out = '';
  let last = 0;
  while (at !== -1) {
    const end = value.indexOf(']]>', at + 9);
    if (end === -1) break;
    out +=
      value.slice(last, at) +
      value
        .slice(at + 9, end)
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;');
    last = end + 3;
    at = value.indexOf('<![CDATA[', last);
  }
  return out + value.slice(last);
}
