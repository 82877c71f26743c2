/**
 * canonicalHttpUrl against the WHATWG URL parser (the slow path it replaces): for every string it accepts, the parser
 * gives the same href (the string itself, with or without a base) and the same protocol, hostname, pathname and
 * search, which is all that the callers (sanitize/urls.ts, ads cleanLink, resolveHttpUrl) read of a parsed URL. So
 * each caller's fast path writes byte for byte what the parser's path writes (docs/decisions.md "Parse threads: less
 * work per item").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHttpUrl, canonicalPathReference, isUsableBase, resolveHttpUrl } from './urls.js';

const SCHEMES = ['http://', 'https://', 'HTTP://', 'Https://', 'http:/', 'http:\\\\', 'ftp://', 'https:', ' https://', '\thttp://', ''];
const HOST_PIECES = [
  'a',
  'b',
  'z',
  'x',
  'A',
  'Q',
  '0',
  '1',
  '9',
  '12',
  '255',
  '0x7f',
  '0X1',
  '-',
  '_',
  '.',
  '..',
  'xn--',
  'xn--nxasmq6b',
  'ab--c',
  'é',
  'ß',
  '%41',
  ':',
  ':80',
  ':443',
  ':0',
  ':65536',
  '@',
  'u:p@',
  '[',
  '::1]',
  ' ',
  '\t',
  'example',
  'com',
  'www',
  'localhost',
  'a'.repeat(64),
];
const PATH_PIECES = [
  '/',
  '//',
  'a',
  'Z',
  '0',
  '.',
  '..',
  '/.',
  '/..',
  '/./',
  '/../',
  '%2e',
  '%2E',
  '.%2e',
  '%',
  '%zz',
  '%20',
  '%41',
  '\\',
  ' ',
  '\t',
  '\n',
  '"',
  '<',
  '>',
  '`',
  '{',
  '}',
  '^',
  '|',
  "'",
  '[',
  ']',
  'é',
  '\u00a0',
  '\u2028',
  '\0',
  '?',
  '??',
  '#',
  '##',
  '&',
  '=',
  ';',
  ',',
  '+',
  '*',
  '!',
  '$',
  '(',
  ')',
  '~',
  '_',
  '-',
  ':',
  '@',
  'utm_source=x',
  'x.jpg',
];

const piece = (list: string[]) => fc.constantFrom(...list);
const url = fc
  .tuple(piece(SCHEMES), fc.array(piece(HOST_PIECES), { minLength: 0, maxLength: 6 }), fc.array(piece(PATH_PIECES), { minLength: 0, maxLength: 12 }))
  .map(([scheme, host, path]) => scheme + host.join('') + path.join(''));
/** Mostly well-formed: a host of letters and dots and a path of plain characters, with one odd piece now and then. */
const plainUrl = fc
  .tuple(
    piece(['http://', 'https://']),
    fc.array(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 4 }),
    fc.array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9\-._~!$&()*+,;=:@/%?#]{0,12}$/), piece(PATH_PIECES)), { maxLength: 6 }),
  )
  .map(([scheme, labels, path]) => `${scheme}${labels.join('.')}/${path.join('')}`);
const BASES = ['https://example.com/feed.xml', 'http://site.example/a/b?c#d', 'https://127.0.0.1:8080/', 'https://example.com/%2e%2e/'];

function sameAsParser(s: string): boolean {
  const parts = canonicalHttpUrl(s);
  if (parts === null) return false;
  const parsed = new URL(s);
  expect(parts).toEqual({ href: parsed.href, protocol: parsed.protocol, hostname: parsed.hostname, pathname: parsed.pathname, search: parsed.search });
  expect(parts.href).toBe(s);
  for (const base of BASES) expect(new URL(s, base).href).toBe(s);
  return true;
}

describe('canonicalHttpUrl', () => {
  it('gives the URL parser’s parts for every URL it takes (random compositions)', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(url, plainUrl, plainUrl), (s) => {
        if (sameAsParser(s)) taken++;
      }),
      { numRuns: 60_000 },
    );
    // Not vacuous: a good share of the inputs took the fast path.
    expect(taken).toBeGreaterThan(3_000);
  });

  it('takes the URLs feeds are full of, and leaves to the parser what it would change', () => {
    for (const s of ['https://img.site1.example/3/photo.jpg?w=800', 'https://site1.example/posts/3', 'http://a.b/c?d=e#f?g', 'https://x.example/?']) {
      expect(sameAsParser(s)).toBe(true);
    }
    for (const s of [
      'https://Example.com/',
      'https://example.com',
      'https://example.com:443/',
      'https://example.com./',
      'https://1.2.3/',
      'https://a.0x10/',
      'https://xn--nxasmq6b.example/',
      'https://a.b/./c',
      'https://a.b/c/..',
      'https://a.b/%2e%2E/c',
      'https://a.b/c d',
      "https://a.b/?q='",
      'https://a.b/c#d#e',
      'https://a.b/c\\d',
      'https://u@a.b/',
      ' https://a.b/',
      'javascript:alert(1)//https://a.b/',
    ]) {
      expect(canonicalHttpUrl(s)).toBeNull();
    }
  });

  it('is used only with a base the parser accepts (one it refuses makes every reference fail)', () => {
    expect(isUsableBase('https://example.com/feed')).toBe(true);
    expect(isUsableBase('mailto:x@example.com')).toBe(true);
    expect(isUsableBase('not a url')).toBe(false);
    expect(resolveHttpUrl('https://example.com/a', 'not a url')).toBeNull();
    expect(resolveHttpUrl('https://example.com/a', 'https://other.example/')).toBe('https://example.com/a');
  });
});

describe('canonicalPathReference', () => {
  const bases = [...BASES, 'https://site1.example', 'https://site1.example/posts/3?x=1#y', 'http://a-b.c/', 'https://Example.com/', 'not a url', 'mailto:x@example.com'];
  /** A reference: mostly "/" then path pieces, sometimes anything from the pieces. */
  const reference = fc.oneof(
    fc.array(piece(PATH_PIECES), { minLength: 0, maxLength: 10 }).map((path) => `/${path.join('')}`),
    fc.array(fc.oneof(piece(PATH_PIECES), piece(HOST_PIECES)), { minLength: 0, maxLength: 10 }).map((path) => path.join('')),
    fc.stringMatching(/^\/[A-Za-z0-9\-._~!$&()*+,;=:@/%?#]{0,20}$/),
  );

  it('gives what the URL parser gives for every reference it takes (random compositions)', () => {
    let taken = 0;
    fc.assert(
      fc.property(reference, piece(bases), (ref, base) => {
        const parts = canonicalPathReference(ref, base);
        if (parts === null) return;
        taken++;
        const parsed = new URL(ref, base);
        expect(parts).toEqual({ href: parsed.href, protocol: parsed.protocol, hostname: parsed.hostname, pathname: parsed.pathname, search: parsed.search });
      }),
      { numRuns: 60_000 },
    );
    expect(taken).toBeGreaterThan(3_000);
  });

  it('takes links to a path of the same site, and leaves every other reference to the parser', () => {
    expect(canonicalPathReference('/tags/river', 'https://site1.example/posts/3')?.href).toBe('https://site1.example/tags/river');
    expect(canonicalPathReference('/', 'http://a.b/c/d')?.href).toBe('http://a.b/');
    for (const [ref, base] of [
      ['//evil.example/x', 'https://a.b/'],
      ['/\\evil.example/x', 'https://a.b/'],
      ['/\t/evil.example', 'https://a.b/'],
      ['tags/x', 'https://a.b/c/'],
      ['/a/../b', 'https://a.b/'],
      ['/x', 'https://a.b:8080/'],
      ['/x', 'https://u@a.b/'],
      ['/x', 'not a url'],
      ['/x y', 'https://a.b/'],
    ]) {
      expect(canonicalPathReference(ref, base), `${ref} against ${base}`).toBeNull();
    }
  });
});
