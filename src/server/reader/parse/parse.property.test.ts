/**
 * Property tests: whatever bytes arrive, parseFeed either returns a ParsedFeed or throws a ReaderError with a
 * parse code. Inputs are arbitrary strings and bytes and, more usefully, fixture
 * documents mutated the way real downloads and broken generators damage them (truncation, flipped bytes, markup
 * spliced into random places).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReaderError } from '../types.js';
import { looksLikeFeed, parseFeed } from './index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'testdata');
const corpus = readdirSync(dir)
  .filter((n) => /\.(xml|json)$/.test(n) && !n.endsWith('.expected.json') && !n.endsWith('.meta.json'))
  .map((n) => readFileSync(join(dir, n)));

const PARSE_CODES = new Set(['PARSE_NOT_A_FEED', 'PARSE_INVALID', 'PARSE_ENTITY_LIMIT']);
function check(body: Buffer | Uint8Array | string, contentType?: string) {
  try {
    const feed = parseFeed(body, { url: 'https://example.com/feed.xml', contentType });
    expect(Array.isArray(feed.items)).toBe(true);
    for (const item of feed.items) expect(typeof item.guid).toBe('string');
    expect(new Set(feed.items.map((i) => i.guid)).size).toBe(feed.items.length);
  } catch (error) {
    if (!(error instanceof ReaderError)) throw error;
    expect(PARSE_CODES.has(error.code)).toBe(true);
  }
  expect(looksLikeFeed(body, contentType)).toBeTypeOf('boolean');
}

const SPLICES = [
  '<item>',
  '</item>',
  '<entry>',
  '</channel>',
  '</rss>',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<!DOCTYPE x [',
  '<!ENTITY e "v">',
  ']>',
  '&',
  '&amp;',
  '&bogus;',
  '&#x0;',
  '<',
  '>',
  '"',
  "'",
  '\u0000',
  '\uFEFF',
  '<?xml ',
  '?>',
  '<a:b xmlns:a="urn:x">',
  'xml:base="javascript:alert(1)"',
  '{',
  '}',
  '<title>',
  '</title>',
  '<link>javascript:x</link>',
  '<pubDate>Mon, 99 Foo 2024</pubDate>',
  '<guid>dup</guid>',
];

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'splice'; at: number; text: string }
  | { kind: 'repeat'; at: number; length: number; times: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), text: fc.constantFrom(...SPLICES) }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    length: fc.integer({ min: 1, max: 200 }),
    times: fc.integer({ min: 2, max: 50 }),
  }),
);

function mutate(doc: Buffer, mutations: Mutation[]): Buffer {
  let out = doc;
  for (const m of mutations) {
    const at = Math.floor(m.at * out.length);
    switch (m.kind) {
      case 'truncate':
        out = out.subarray(0, at);
        break;
      case 'flip': {
        out = Buffer.from(out);
        if (at < out.length) out[at] = m.byte;
        break;
      }
      case 'splice':
        out = Buffer.concat([out.subarray(0, at), Buffer.from(m.text), out.subarray(at)]);
        break;
      case 'repeat': {
        const slice = out.subarray(at, at + m.length);
        out = Buffer.concat([out.subarray(0, at), ...Array<Buffer>(m.times).fill(slice), out.subarray(at)]);
        break;
      }
    }
  }
  return out;
}

describe('parseFeed on arbitrary input', () => {
  it('arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => check(s)),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes with arbitrary content types', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.constantFrom(undefined, 'text/xml; charset=utf-16', 'application/rss+xml; charset=shift_jis', 'text/html; charset=bogus'),
        (bytes, contentType) => check(bytes, contentType),
      ),
      { numRuns: 300 },
    );
  });

  it('strings built from feed-like tokens', () => {
    const token = fc.constantFrom(...SPLICES, 'rss version="2.0"', 'feed xmlns="http://www.w3.org/2005/Atom"', ' ', 'x');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => check(tokens.join(''))),
      { numRuns: 300 },
    );
  });

  it('mutated fixture documents', () => {
    fc.assert(
      fc.property(fc.constantFrom(...corpus), fc.array(mutation, { minLength: 1, maxLength: 4 }), (doc, mutations) => check(mutate(doc, mutations))),
      { numRuns: 400 },
    );
  });
});
