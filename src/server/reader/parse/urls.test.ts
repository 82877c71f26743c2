/**
 * canonicalHttpUrl against the WHATWG URL parser (the slow path it replaces): for every string it accepts, the parser
 * gives the same href (the string itself, with or without a base) and the same protocol, hostname, pathname and
 * search, which is all that the callers (sanitize/urls.ts, ads cleanLink, resolveHttpUrl) read of a parsed URL. So
 * each caller's fast path writes byte for byte what the parser's path writes (docs/decisions.md "Parse threads: less
 * work per item").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHttpUrl, canonicalPathReference, isUsableBase, resolveHttpUrl, urlBase } from './urls.js';

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
/** Numbers that may be an IPv4 address's parts, in and out of the parser's canonical form. */
const OCTETS = [
  '0',
  '1',
  '7',
  '9',
  '10',
  '42',
  '99',
  '100',
  '127',
  '199',
  '200',
  '249',
  '250',
  '255',
  '256',
  '299',
  '300',
  '999',
  '1000',
  '4294967295',
  '00',
  '01',
  '007',
  '010',
  '0255',
  '0x7f',
  '0X1',
  '0x',
  '1e2',
  '-1',
  '+1',
  '',
  'a',
  'a1',
  '1a',
];
/** Ports, in and out of the parser's canonical form: defaults, leading zeros, out of range, too many digits, near-misses. */
const PORTS = [
  '',
  '',
  ':',
  ':0',
  ':00',
  ':1',
  ':8',
  ':80',
  ':443',
  ':080',
  ':0080',
  ':0443',
  ':00443',
  ':81',
  ':8080',
  ':3901',
  ':44300',
  ':65535',
  ':65536',
  ':70000',
  ':99999',
  ':100000',
  ':123456',
  ':08080',
  ':1a',
  ':a',
  ':+1',
  ':-1',
  ': 1',
  ':1 ',
  '::1',
  ':80:80',
  ':8080@',
  '.:8080',
  ':８０',
];
const port = fc.oneof(
  fc.constant(''),
  piece(PORTS),
  fc.integer({ min: 0, max: 70_000 }).map((p) => `:${p}`),
);
/** An http(s) URL on an IPv4-looking host of 2–5 numbers (sometimes a domain), with a port or none. */
const ipUrl = fc
  .tuple(
    piece(['http://', 'https://', 'http://', 'https://', 'HTTP://', 'http:/']),
    fc.oneof(
      { weight: 3, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }).map(String), { minLength: 4, maxLength: 4 }) },
      { weight: 2, arbitrary: fc.array(piece(OCTETS), { minLength: 4, maxLength: 4 }) },
      { weight: 2, arbitrary: fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), piece(OCTETS)), { minLength: 2, maxLength: 5 }) },
      { weight: 1, arbitrary: fc.array(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,6}$/), { minLength: 1, maxLength: 3 }) },
    ),
    piece(['', '', '', '', '', '', '', '.', '..']),
    port,
    fc.oneof(
      { weight: 4, arbitrary: fc.stringMatching(/^\/[a-z0-9/._-]{0,16}$/) },
      {
        weight: 4,
        arbitrary: fc.array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9\-._~!$&()*+,;=:@/%?#]{0,12}$/), piece(PATH_PIECES)), { maxLength: 4 }).map((p) => `/${p.join('')}`),
      },
      { weight: 1, arbitrary: fc.array(piece(PATH_PIECES), { maxLength: 3 }).map((p) => p.join('')) },
    ),
  )
  .map(([scheme, labels, end, p, path]) => `${scheme}${labels.join('.')}${end}${p}${path}`);
const url = fc
  .tuple(piece(SCHEMES), fc.array(piece(HOST_PIECES), { minLength: 0, maxLength: 6 }), fc.array(piece(PATH_PIECES), { minLength: 0, maxLength: 12 }))
  .map(([scheme, host, path]) => scheme + host.join('') + path.join(''));
/** Mostly well-formed: a host of letters and dots and a path of plain characters, with one odd piece now and then. */
const plainUrl = fc
  .tuple(
    piece(['http://', 'https://']),
    fc.array(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 4 }),
    fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: port }),
    fc.array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9\-._~!$&()*+,;=:@/%?#]{0,12}$/), piece(PATH_PIECES)), { maxLength: 6 }),
  )
  .map(([scheme, labels, p, path]) => `${scheme}${labels.join('.')}${p}/${path.join('')}`);
const BASES = [
  'https://example.com/feed.xml',
  'http://site.example/a/b?c#d',
  'https://127.0.0.1:8080/',
  'https://example.com/%2e%2e/',
  'http://127.0.3.7:3901/feed/3.xml',
];

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

  it('gives the URL parser’s parts for every URL on an IPv4 host or with a port it takes (random compositions)', () => {
    let taken = 0;
    let ipv4 = 0;
    let withPort = 0;
    fc.assert(
      fc.property(ipUrl, (s) => {
        if (!sameAsParser(s)) return;
        taken++;
        const { hostname, port } = new URL(s);
        if (/^[0-9.]+$/.test(hostname)) ipv4++;
        if (port !== '') withPort++;
      }),
      { numRuns: 60_000 },
    );
    // Not vacuous: IPv4 hosts and ports (most of them valid, so the near-misses are next to taken ones) were taken.
    expect(taken).toBeGreaterThan(5_000);
    expect(ipv4).toBeGreaterThan(4_500);
    expect(withPort).toBeGreaterThan(2_500);
  });

  it('takes the URLs feeds are full of, and leaves to the parser what it would change', () => {
    for (const s of [
      'https://img.site1.example/3/photo.jpg?w=800',
      'https://site1.example/posts/3',
      'http://a.b/c?d=e#f?g',
      'https://x.example/?',
      'http://127.0.3.7:3901/posts/3?utm_source=rss',
      'http://0.0.0.0/',
      'https://255.255.255.255/',
      'http://10.0.0.1:65535/',
      'http://a.b:1/',
      'http://a.b:443/',
      'https://a.b:80/',
      'https://1.2.3.a:8443/x',
    ]) {
      expect(sameAsParser(s), s).toBe(true);
    }
    expect(canonicalHttpUrl('http://127.0.3.7:3901/x')?.hostname).toBe('127.0.3.7');
    for (const s of [
      'https://Example.com/',
      'https://example.com',
      'https://example.com:443/',
      'http://example.com:80/',
      'http://127.0.0.1:80/',
      'https://example.com:0443/',
      'http://example.com:080/',
      'http://example.com:08080/',
      'http://example.com:0/',
      'http://example.com:/',
      'http://example.com:65536/',
      'http://example.com:123456/',
      'http://example.com:8080',
      'http://example.com:8080?x',
      'http://example.com:8080:80/',
      'http://example.com:8o80/',
      'https://example.com./',
      'https://1.2.3/',
      'https://1.2.3.4./',
      'https://1.2.3.4.5/',
      'https://01.2.3.4/',
      'https://1.2.3.04/',
      'https://1.2.3.256/',
      'https://1.2.3.1000/',
      'https://0x7f.0.0.1/',
      'https://127.1/',
      'https://a.1.2.3.4/',
      'https://a.1/',
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
    expect(isUsableBase('http://127.0.3.7:3901/feed/3.xml')).toBe(true);
    expect(isUsableBase('http://127.0.3.7:99999/feed/3.xml')).toBe(false);
    expect(isUsableBase('http://1.2.3.256:3901/')).toBe(false);
    expect(resolveHttpUrl('http://127.0.3.7:3901/a', 'http://127.0.3.7:3901/feed/3.xml')).toBe('http://127.0.3.7:3901/a');
    expect(resolveHttpUrl('http://127.0.3.7:80/a', 'https://example.com/')).toBe('http://127.0.3.7/a');
    expect(isUsableBase('mailto:x@example.com')).toBe(true);
    expect(isUsableBase('not a url')).toBe(false);
    expect(resolveHttpUrl('https://example.com/a', 'not a url')).toBeNull();
    expect(resolveHttpUrl('https://example.com/a', 'https://other.example/')).toBe('https://example.com/a');
  });
});

describe('canonicalPathReference', () => {
  const bases = [
    ...BASES,
    'https://site1.example',
    'https://site1.example/posts/3?x=1#y',
    'http://a-b.c/',
    'https://Example.com/',
    'not a url',
    'mailto:x@example.com',
    'http://127.0.3.7:3901/posts/3',
    'http://127.0.3.7:3901',
    'http://127.0.3.7:80/',
    'https://10.0.0.1:443/a',
    'http://010.0.0.1:8080/',
    'http://1.2.3.4:08080/',
    'https://a.b:65535/c?d',
    'https://a.b:65536/',
  ];
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
        const parts = canonicalPathReference(ref, urlBase(base));
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
    expect(canonicalPathReference('/tags/river', urlBase('https://site1.example/posts/3'))?.href).toBe('https://site1.example/tags/river');
    expect(canonicalPathReference('/', urlBase('http://a.b/c/d'))?.href).toBe('http://a.b/');
    expect(canonicalPathReference('/tags/river', urlBase('http://127.0.3.7:3901/posts/3'))).toEqual({
      href: 'http://127.0.3.7:3901/tags/river',
      protocol: 'http:',
      hostname: '127.0.3.7',
      pathname: '/tags/river',
      search: '',
    });
    expect(canonicalPathReference('/x', urlBase('https://a.b:8080/'))?.href).toBe('https://a.b:8080/x');
    for (const [ref, base] of [
      ['//evil.example/x', 'https://a.b/'],
      ['/\\evil.example/x', 'https://a.b/'],
      ['/\t/evil.example', 'https://a.b/'],
      ['tags/x', 'https://a.b/c/'],
      ['/a/../b', 'https://a.b/'],
      ['/x', 'https://a.b:443/'],
      ['/x', 'http://1.2.3.04/'],
      ['/x', 'http://a.b:8080'],
      ['/x', 'https://u@a.b/'],
      ['/x', 'not a url'],
      ['/x y', 'https://a.b/'],
    ]) {
      expect(canonicalPathReference(ref, urlBase(base)), `${ref} against ${base}`).toBeNull();
    }
  });
});
