/**
 * PostgreSQL's search vector of an article, made on a parse thread: `to_tsvector('simple', text)` in tsvector's
 * binary form for the texts whose result this module knows exactly, null for every other (the store then asks
 * PostgreSQL's to_tsvector, as before). docs/decisions.md "Refresh engine: the search vector on the parse threads".
 *
 * PostgreSQL's default text search parser knows words, numbers, hyphenated words, hosts, e-mail addresses, URLs,
 * file paths, versions, XML tags and entities; the 'simple' configuration lower-cases every token it indexes and
 * numbers them from 1. Only a safe part of that grammar is done here: runs of letters and digits, letter-only
 * hyphenated words, and separators that stay separators whatever surrounds them. Anything that could start another
 * kind of token (a dot or `@` inside a word, `/`, `~`, an entity's `&x`, a tag's `<x`, a sign before a digit,
 * a digit next to a hyphen, `1e5`), any character outside the tables below, and any word too long for a plain
 * lexeme gives null. The tables' agreement with the database (its locale's letters and lower case) is checked once
 * per engine with searchVectorProbe before any vector made here is used.
 *
 * The tables are built on first use and never written after; the scratch arrays (Tokens) are reused by every call.
 */

/** to_tsvector keeps at most this many positions per lexeme (MAXNUMPOS - 1) ... */
const MAX_POSITIONS = 255;
/** ... and positions up to this one (MAXENTRYPOS - 1); later ones count as this one. */
const MAX_POSITION = 16_383;
/** Longer words give null: far below PostgreSQL's 2,047-byte token limit, in any encoding of these letters. */
const MAX_WORD = 200;

const LETTER = 1;
const DIGIT = 2;
const BLANK = 3;

/** Non-ASCII letters this module handles: the cased letters of Latin-1, Latin Extended-A/B, Greek and Cyrillic. */
const LETTER_RANGES: [number, number][] = [
  [0x00c0, 0x024f],
  [0x0370, 0x03ff],
  [0x0400, 0x04ff],
];
/**
 * Non-ASCII characters that separate words wherever they stand (not letters, digits, marks or zero-width):
 * no-break and typographic spaces, Latin-1 punctuation and signs, dashes, quotes, bullets, ellipsis, primes,
 * guillemets, currency signs.
 */
const BLANK_CHARS =
  '\u00a0\u00a1\u00a2\u00a3\u00a4\u00a5\u00a6\u00a7\u00a8\u00a9\u00ab\u00ac\u00ae\u00af\u00b0\u00b1\u00b4\u00b6\u00b7\u00b8\u00bb\u00bf\u00d7\u00f7' +
  '\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2010\u2011\u2012\u2013\u2014\u2015\u2016\u2017\u2018\u2019\u201a\u201b' +
  '\u201c\u201d\u201e\u201f\u2020\u2021\u2022\u2026\u2030\u2032\u2033\u2039\u203a\u202f\u205f\u20ac\u3000';
/** ASCII separators with no meaning to the parser in any position this module lets them stand in. */
const ASCII_BLANKS = ' \t\n\r\f\v!"#$%\'()*,:;=>?[\\]^_`{|}';

/**
 * Character class by UTF-16 code unit (the tables hold only BMP characters); 0 = not handled. The tables and the
 * scratch space are made on first use (tables()): a parse thread that never makes a vector (SQLite) holds none.
 */
let CLASS = new Uint8Array(0);
/**
 * Lower case of each handled letter, one code unit each (the database lower-cases character by character); digits
 * and the hyphen map to themselves.
 */
let LOWER = new Uint16Array(0);

function tables(): void {
  if (CLASS.length > 0) return;
  CLASS = new Uint8Array(0x10000);
  LOWER = new Uint16Array(0x10000);
  const codes = new Uint16Array(SCRATCH_CODES);
  SCRATCH = {
    codes,
    codeBytes: Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength),
    firsts: new Int32Array(SCRATCH_TOKENS),
    starts: new Int32Array(SCRATCH_TOKENS),
    ends: new Int32Array(SCRATCH_TOKENS),
    table: new Int32Array(SCRATCH_TOKENS * 2),
    hashes: new Int32Array(SCRATCH_TOKENS),
    last: new Int32Array(SCRATCH_TOKENS),
    npos: new Int32Array(SCRATCH_TOKENS),
    next: new Int32Array(SCRATCH_TOKENS),
  };
  for (let c = 0x41; c <= 0x5a; c++) {
    CLASS[c] = LETTER;
    LOWER[c] = c + 32;
    CLASS[c + 32] = LETTER;
    LOWER[c + 32] = c + 32;
  }
  for (let c = 0x30; c <= 0x39; c++) {
    CLASS[c] = DIGIT;
    LOWER[c] = c;
  }
  // A hyphenated word's whole holds its hyphens.
  LOWER[0x2d] = 0x2d;
  for (const ch of ASCII_BLANKS) CLASS[ch.charCodeAt(0)] = BLANK;
  // '-', '.', '+', '&', '<' and '@' are separators too, checked in context below.
  for (const ch of '-.+&<@') CLASS[ch.charCodeAt(0)] = BLANK;
  for (const ch of BLANK_CHARS) CLASS[ch.charCodeAt(0)] = BLANK;
  for (const [from, to] of LETTER_RANGES) {
    for (let c = from; c <= to; c++) {
      const ch = String.fromCharCode(c);
      if (!/^[\p{Lu}\p{Ll}\p{Lt}]$/u.test(ch)) continue;
      // One character to one character, as the database's towlower maps (İ becomes "i̇" in JavaScript: left out),
      // and below U+0800, two bytes of UTF-8 at most (encodeVector; Ⱥ's lower case is U+2C65: left out).
      const lower = ch.toLowerCase();
      if (lower.length !== 1 || lower.charCodeAt(0) >= 0x800 || !/^[\p{Lu}\p{Ll}\p{Lt}]$/u.test(lower)) continue;
      CLASS[c] = LETTER;
      LOWER[c] = lower.charCodeAt(0);
    }
  }
}

const isWordChar = (c: number) => CLASS[c] === LETTER || CLASS[c] === DIGIT;
const isLetter = (c: number) => CLASS[c] === LETTER;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** ASCII whitespace. */
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/**
 * The code unit after the text (twice): no word character, digit, '.', '-', '@' or '_' (not handled: CLASS 0), so
 * every look past the end reads as what ends a token. Where the end and a real U+FFFF would differ (what follows
 * '&' or '<'), the index is compared with the length instead.
 */
const END = 0xffff;
/** Code units the scratch space holds (a benchmark item's title and text are about 760); longer texts get their own. */
const SCRATCH_CODES = 16 * 1024;
/** Typed arrays are in the machine's byte order: a Uint16Array over UTF-16LE bytes reads the code units there. */
const LITTLE_ENDIAN = new Uint16Array(new Uint8Array([1, 0]).buffer)[0] === 1;

/**
 * The code units of `first` (and of ' ' + `second` when given), then END twice, in the scratch space (or an array
 * of their own when longer). Node copies a string's code units into the array natively (UTF-16LE), so the scans
 * below read a typed array rather than call charCodeAt per character.
 */
function codesOf(first: string, second: string | null, n: number): Uint16Array {
  const own = n + 2 > SCRATCH_CODES;
  const codes = own ? new Uint16Array(n + 2) : SCRATCH.codes;
  if (LITTLE_ENDIAN) {
    const bytes = own ? Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength) : SCRATCH.codeBytes;
    bytes.write(first, 0, 'utf16le');
    if (second !== null) {
      codes[first.length] = 0x20;
      bytes.write(second, 2 * (first.length + 1), 'utf16le');
    }
  } else {
    for (let k = 0; k < first.length; k++) codes[k] = first.charCodeAt(k);
    if (second !== null) {
      codes[first.length] = 0x20;
      for (let k = 0, at = first.length + 1; k < second.length; k++) codes[at + k] = second.charCodeAt(k);
    }
  }
  codes[n] = END;
  codes[n + 1] = END;
  return codes;
}

/** Whether codes [from, to) hold a number's exponent, as /\d[eE][+-]?\d/ would find it in that slice. */
function hasExponent(codes: Uint16Array, from: number, to: number): boolean {
  for (let p = from; p + 2 < to; p++) {
    if (!isDigit(codes[p]) || (codes[p + 1] | 0x20) !== 0x65) continue;
    let q = p + 2;
    if (codes[q] === 0x2b || codes[q] === 0x2d) q++;
    if (q < to && isDigit(codes[q])) return true;
  }
  return false;
}

/**
 * `to_tsvector('simple', text)` in PostgreSQL's binary form (encodeVector; a query binds it as `$n::tsvector`), or
 * null when the text holds anything this module does not reproduce exactly.
 */
export function simpleTsvector(text: string): Uint8Array | null {
  tables();
  const n = text.length;
  const codes = codesOf(text, null, n);
  const tokens = tokenize(codes, n);
  return tokens === null ? null : encodeVector(codes, tokens, null);
}

/**
 * The vectors of many texts (a document's items) written one after the other into one buffer, so that the copy to
 * the main thread is one ArrayBuffer, and no array is allocated per vector. One list per document: nothing in it
 * is shared.
 */
export class TsvectorList {
  bytes = new Uint8Array(0);
  private at = 0;
  /** Start and end of each vector in `bytes`; -1, -1 for a text left to PostgreSQL. */
  private readonly ranges: number[] = [];

  /** Adds simpleTsvector(`${title} ${text}`): what the store indexes (articles.repository.ts). */
  add(title: string, text: string): void {
    tables();
    const n = title.length + 1 + text.length;
    const codes = codesOf(title, text, n);
    const tokens = tokenize(codes, n);
    if (tokens === null) {
      this.ranges.push(-1, -1);
      return;
    }
    const start = this.at;
    encodeVector(codes, tokens, this);
    this.ranges.push(start, this.at);
  }

  /** Room for `size` more bytes; returns where they start. */
  reserve(size: number): number {
    const at = this.at;
    if (at + size > this.bytes.length) {
      const bytes = new Uint8Array(Math.max(2 * this.bytes.length, at + size, 16 * 1024));
      bytes.set(this.bytes.subarray(0, at));
      this.bytes = bytes;
    }
    this.at = at + size;
    return at;
  }

  /** The vectors in the order added (null: left to PostgreSQL), as views of one buffer of exactly their bytes. */
  finish(): (Uint8Array | null)[] {
    const all = this.bytes.slice(0, this.at);
    const out: (Uint8Array | null)[] = [];
    for (let k = 0; k < this.ranges.length; k += 2) out.push(this.ranges[k] === -1 ? null : all.subarray(this.ranges[k], this.ranges[k + 1]));
    return out;
  }
}

/** The tokens of codes [0, n) in order (token t has position t + 1), or null for a text left to PostgreSQL. */
function tokenize(codes: Uint16Array, n: number): Tokens | null {
  const tokens = new Tokens();
  let i = 0;
  while (i < n) {
    const c = codes[i];
    const cls = CLASS[c];
    if (cls === 0) return null;
    if (cls === BLANK) {
      const next = codes[i + 1];
      if (c === 0x2e) {
        // A dot before a letter, digit or '_' (host, file, decimal, version) and '..' (a path) are tokens of their
        // own; an ellipsis is not.
        let k = i + 1;
        while (codes[k] === 0x2e) k++;
        const after = codes[k];
        if (k - i === 2 || (k - i === 1 && (isWordChar(after) || after === 0x5f))) return null;
        i = k;
        continue;
      }
      // '-1' / '+1' (signed numbers), '&x' / '&#' (entity), '<x' (tag): left to PostgreSQL.
      if ((c === 0x2d || c === 0x2b) && isDigit(next)) return null;
      if ((c === 0x26 || c === 0x3c) && i + 1 < n && !isSpace(next)) return null;
      i++;
      continue;
    }
    // A run of letters and digits.
    let j = i;
    let digits = false;
    for (let d = c; j < n && isWordChar(d); d = codes[++j]) {
      if (d <= 0x39) digits = true;
    }
    if (j - i > MAX_WORD) return null;
    const after = codes[j];
    // After a word: '@' (e-mail) starts another token, and so does a number's exponent (1e5); '/' (path) is not
    // handled at all, '.' and '-' before a digit are checked by the loop.
    if (after === 0x40) return null;
    if (digits && hasExponent(codes, i, Math.min(j + 2, n))) return null;
    if (after === 0x2d) {
      const next = codes[j + 1];
      if (digits || isDigit(next)) return null; // numbers and hyphens: left to PostgreSQL
      if (isLetter(next)) {
        // A hyphenated word of letters: the whole, then each part.
        const first = tokens.count;
        tokens.push(i, j); // the whole's place; its end is set below
        tokens.push(i, j);
        let k = j;
        while (codes[k] === 0x2d && isWordChar(codes[k + 1])) {
          let m = k + 1;
          for (let d = codes[m]; m < n && isWordChar(d); d = codes[++m]) {
            if (d <= 0x39) return null;
          }
          if (m - k - 1 > MAX_WORD) return null;
          tokens.push(k + 1, m);
          k = m;
        }
        if (k - i > MAX_WORD) return null;
        // What follows is checked as after a word ('.' and '-' by the loop).
        if (codes[k] === 0x40) return null;
        tokens.ends[first] = k;
        i = k;
        continue;
      }
    }
    tokens.push(i, j);
    i = j;
  }
  return tokens;
}

/**
 * Token ranges [start, end) of the text. The arrays are the module's scratch space, reused by every call: a call
 * is synchronous and writes every entry it reads before reading it (article-text.property.test.ts runs hostile and
 * clean texts through it in turn). A text with more tokens than they hold gets arrays of its own.
 */
class Tokens {
  starts = SCRATCH.starts;
  ends = SCRATCH.ends;
  count = 0;
  push(start: number, end: number): void {
    if (this.count === this.starts.length) {
      const starts = new Int32Array(this.count * 2);
      starts.set(this.starts);
      this.starts = starts;
      const ends = new Int32Array(this.count * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.count++;
  }
}

/** Tokens the scratch space holds (a benchmark item has about 130). */
const SCRATCH_TOKENS = 4096;
let SCRATCH = {
  codes: new Uint16Array(0),
  codeBytes: Buffer.alloc(0),
  starts: new Int32Array(0),
  ends: new Int32Array(0),
  table: new Int32Array(0),
  hashes: new Int32Array(0),
  last: new Int32Array(0),
  npos: new Int32Array(0),
  next: new Int32Array(0),
  firsts: new Int32Array(0),
};

/** Whether tokens a and b are the same lexeme: the same characters once lower-cased. */
function sameLexeme(codes: Uint16Array, tokens: Tokens, a: number, b: number): boolean {
  const sa = tokens.starts[a];
  const sb = tokens.starts[b];
  const length = tokens.ends[a] - sa;
  if (tokens.ends[b] - sb !== length) return false;
  for (let k = 0; k < length; k++) if (LOWER[codes[sa + k]] !== LOWER[codes[sb + k]]) return false;
  return true;
}

/**
 * The vector in PostgreSQL's binary form of tsvector (tsvectorrecv): the number of lexemes, then each lexeme as
 * UTF-8 ending in a zero byte, its number of positions and the positions (weight D: the top bits stay 0), all
 * integers big-endian. Lexemes go in the order they first occur (the database sorts them, faster than JavaScript
 * would); positions ascend, at most MAX_POSITIONS each, as to_tsvector keeps them. The lexemes are found with a
 * hash table over the tokens' lower-cased characters, so no string is made per word; the bytes are written from
 * the text through the lower-case table (every handled character is below U+0800: one or two bytes). Written into
 * `list` when given (and null returned), else into an array of its own, returned.
 */
function encodeVector(codes: Uint16Array, tokens: Tokens, list: TsvectorList | null): Uint8Array | null {
  const count = tokens.count;
  let slots = 16;
  while (slots < count * 2) slots *= 2;
  const mask = slots - 1;
  const scratch = count <= SCRATCH_TOKENS;
  const table = scratch ? SCRATCH.table.subarray(0, slots) : new Int32Array(slots);
  table.fill(-1);
  // Per lexeme (by its first token): the hash, the last token, the number of positions (written when the lexeme
  // is first met, read only after); per token: the next token of the same lexeme. The lexemes' first tokens in
  // order: `firsts`.
  const hashes = scratch ? SCRATCH.hashes : new Int32Array(count);
  const last = scratch ? SCRATCH.last : new Int32Array(count);
  const npos = scratch ? SCRATCH.npos : new Int32Array(count);
  const next = scratch ? SCRATCH.next : new Int32Array(count);
  const firsts = scratch ? SCRATCH.firsts : new Int32Array(count);
  next.fill(-1, 0, count);
  let lexemes = 0;
  let size = 4;
  for (let t = 0; t < count; t++) {
    const start = tokens.starts[t];
    const end = tokens.ends[t];
    let h = 0x811c9dc5;
    let bytes = 0;
    for (let k = start; k < end; k++) {
      const u = LOWER[codes[k]];
      h = Math.imul(h ^ u, 0x01000193);
      bytes += u < 0x80 ? 1 : 2;
    }
    let slot = h & mask;
    let found = -1;
    for (let e = table[slot]; e !== -1; e = table[slot]) {
      if (hashes[e] === h && sameLexeme(codes, tokens, e, t)) {
        found = e;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (found === -1) {
      table[slot] = t;
      hashes[t] = h;
      last[t] = t;
      npos[t] = 1;
      firsts[lexemes++] = t;
      size += bytes + 5;
      continue;
    }
    // A later position of a lexeme: kept while it has fewer than MAX_POSITIONS and the position differs from the
    // last one kept (positions past MAX_POSITION all count as MAX_POSITION).
    const position = t + 1 > MAX_POSITION ? MAX_POSITION : t + 1;
    const lastPosition = last[found] + 1 > MAX_POSITION ? MAX_POSITION : last[found] + 1;
    if (npos[found] < MAX_POSITIONS && lastPosition !== position) {
      next[last[found]] = t;
      last[found] = t;
      npos[found]++;
      size += 2;
    }
  }
  if (list === null) {
    const out = new Uint8Array(size);
    writeVector(codes, tokens, out, 0, lexemes, firsts, npos, next);
    return out;
  }
  // reserve may replace the list's buffer: it is read after.
  const at = list.reserve(size);
  writeVector(codes, tokens, list.bytes, at, lexemes, firsts, npos, next);
  return null;
}

/** encodeVector's bytes, from `at` in `out`. */
function writeVector(codes: Uint16Array, tokens: Tokens, out: Uint8Array, at: number, lexemes: number, firsts: Int32Array, npos: Int32Array, next: Int32Array): void {
  out[at] = lexemes >>> 24;
  out[at + 1] = (lexemes >>> 16) & 0xff;
  out[at + 2] = (lexemes >>> 8) & 0xff;
  out[at + 3] = lexemes & 0xff;
  at += 4;
  for (let l = 0; l < lexemes; l++) {
    const first = firsts[l];
    for (let k = tokens.starts[first], end = tokens.ends[first]; k < end; k++) {
      const u = LOWER[codes[k]];
      if (u < 0x80) out[at++] = u;
      else {
        out[at++] = 0xc0 | (u >> 6);
        out[at++] = 0x80 | (u & 0x3f);
      }
    }
    out[at++] = 0;
    out[at++] = npos[first] >> 8;
    out[at++] = npos[first] & 0xff;
    for (let t = first; t !== -1; t = next[t]) {
      const position = t + 1 > MAX_POSITION ? MAX_POSITION : t + 1;
      out[at++] = position >> 8;
      out[at++] = position & 0xff;
    }
  }
}

/**
 * A text holding every letter and separator of the tables, in words: the engine compares PostgreSQL's to_tsvector
 * of it with simpleTsvector's once, and uses the vectors made here only when they are the same (a database whose
 * locale classes or lower-cases a character differently, or another parser, computes every vector itself).
 */
export function searchVectorProbe(): string {
  tables();
  const words: string[] = ['Hyphen-ated state-of-the-art x-Y', 'end. Next', "don't", 'a - b', 'C++', 'Tom & Jerry', 'a < b', 'x:y', 'foo_bar'];
  for (let c = 0; c < 0x10000; c++) {
    if (CLASS[c] === LETTER) words.push(`a${String.fromCharCode(c)}b`);
    else if (CLASS[c] === BLANK && c > 0x7f) words.push(`a${String.fromCharCode(c)}b 1${String.fromCharCode(c)}2`);
  }
  return words.join(' ');
}
