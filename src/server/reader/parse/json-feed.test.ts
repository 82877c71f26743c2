/**
 * Differential test of the JSON Feed reader (json-feed.ts): every JSON value is read by readJsonFeed and by the
 * reading Feeder had before, feedsmith 3.0.1's parseJsonFeed, and the two must give the same feed (or both no feed,
 * or both an empty one). The values: the JSON fixtures in testdata/ and generated objects with JSON Feed's member
 * names in any case, and values of every JSON kind where strings, numbers, lists and objects are expected.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { DetectError, ParseError, parseJsonFeed } from 'feedsmith';
import { describe, expect, it } from 'vitest';
import { readJsonFeed } from './json-feed.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'testdata');

function before(value: unknown): unknown {
  try {
    return { feed: parseJsonFeed(value as object) };
  } catch (error) {
    if (error instanceof DetectError) return 'not-json-feed';
    if (error instanceof ParseError) return 'empty';
    throw error;
  }
}

const FEED_MEMBERS = [
  'version',
  'title',
  'home_page_url',
  'feed_url',
  'description',
  'user_comment',
  'next_url',
  'icon',
  'favicon',
  'language',
  'expired',
  'hubs',
  'authors',
  'author',
  'items',
];
const ITEM_MEMBERS = [
  'id',
  'url',
  'external_url',
  'title',
  'content_html',
  'content_text',
  'summary',
  'image',
  'banner_image',
  'date_published',
  'date_modified',
  'tags',
  'authors',
  'author',
  'language',
  'attachments',
];
const AUTHOR_MEMBERS = ['name', 'url', 'avatar'];
const ATTACHMENT_MEMBERS = ['url', 'mime_type', 'title', 'size_in_bytes', 'duration_in_seconds'];
const HUB_MEMBERS = ['type', 'url'];

/** A member name as written, in upper case, or capitalised: the reader matches names in any case. */
const nameOf = (names: string[]) =>
  fc
    .tuple(fc.constantFrom(...names), fc.constantFrom('as is', 'upper', 'capital'))
    .map(([n, c]) => (c === 'upper' ? n.toUpperCase() : c === 'capital' ? n[0].toUpperCase() + n.slice(1) : n));

/** Strings of the kinds feeds send, and the blank, padded, entity, CDATA and comment cases the readers treat apart. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '\u00a0',
    ' padded ',
    'Tom &amp; Jerry',
    '2024-01-05T10:20:30Z',
    ' 2024-01-05 ',
    '<![CDATA[x]]>',
    'a<!-- c -->b',
    '12',
    ' 3.5 ',
    'true',
    ' FALSE ',
    'https://jsonfeed.org/version/1.1',
    'jsonfeed.org/version/1',
  ),
);
const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null));

/** A value where the reader expects one kind: the kind itself, or a list of values, or an object, or anything. */
function objectOf(names: string[], value: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fc.tuple(nameOf(names), value), { maxLength: 6 }).map((pairs) => Object.fromEntries(pairs));
}
/**
 * Lists also as objects: with a `length`, or with the keys 0, 1, … (the readers take both as lists). A number as
 * `length` stays small: feedsmith, the reference, walks every index below it (a hostile length has a test of its own).
 */
const smallLength = (object: Record<string, unknown>) => (typeof object.length === 'number' && !(Math.abs(object.length) <= 8) ? { ...object, length: 3 } : object);
const loose = (inner: fc.Arbitrary<unknown>) =>
  fc.oneof(
    inner,
    fc.array(inner, { maxLength: 3 }),
    scalar,
    fc.dictionary(fc.constantFrom('0', '1', 'length', 'x'), fc.oneof(inner, fc.integer({ min: 0, max: 3 })), { maxKeys: 3 }).map(smallLength),
  );

const author = loose(fc.oneof(objectOf(AUTHOR_MEMBERS, loose(scalar)), text));
const attachment = loose(objectOf(ATTACHMENT_MEMBERS, loose(scalar)));
const hub = loose(objectOf(HUB_MEMBERS, loose(scalar)));
const itemValue = fc.oneof(loose(scalar), author, attachment);
const item = objectOf(ITEM_MEMBERS, itemValue);
const feedValue = fc.oneof(loose(scalar), author, hub, loose(item), fc.array(item, { maxLength: 4 }));
const feed = objectOf(FEED_MEMBERS, feedValue);

describe('JSON Feed reader', () => {
  it('reads every JSON fixture as feedsmith did', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json') && !f.endsWith('.meta.json'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      } catch {
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      expect(readJsonFeed(value), file).toEqual(before(value));
    }
  });

  it('reads lists written as objects, single values, mixed case and numbers as feedsmith did', () => {
    const v = 'https://jsonfeed.org/version/1.1';
    const values: unknown[] = [
      { version: v, items: { length: 2, 0: { id: 'a' }, 1: { id: 'b', TITLE: 'T' } } },
      { version: v, items: { 0: { id: 'a' }, 1: { id: 'b' } } },
      { version: v, items: { 1: { id: 'b' } } },
      { version: v, items: { id: 'single' } },
      { version: v, Items: [{ ID: 7, Url: ['https://a.example/1', 'https://a.example/2'], date_published: 1704067200 }] },
      { version: v, author: 'Ann', authors: [] },
      {
        version: v,
        authors: [{ name: ' ' }, 'Bo', 12],
        items: [{ id: 'x', author: { name: 'Cy' }, attachments: { url: 'https://a.example/a.mp3', size_in_bytes: '12' } }],
      },
      { version: v, expired: ' TRUE ', hubs: [{ type: 'websub', url: 'https://hub.example/' }, 3] },
      { version: v, items: [{ id: 'x', date_modified: 'a<!-- c -->&amp;b', tags: ['t', ' ', 3] }] },
    ];
    for (const value of values) expect(readJsonFeed(value), JSON.stringify(value)).toEqual(before(value));
  });

  it('reads generated documents as feedsmith did', () => {
    fc.assert(
      fc.property(feed, (value) => {
        // Through JSON text, as documents arrive: what JSON.parse makes of them (no undefined, -0 as 0).
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        expect(readJsonFeed(parsed)).toEqual(before(parsed));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a list written as an object with a huge length from the members it holds, at once', () => {
    const v = 'https://jsonfeed.org/version/1.1';
    for (const length of [2 ** 32 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, 1e300, '4294967295']) {
      const items = { length, 5: { id: 'five' }, 0: { id: 'zero' }, 4294967296: { id: 'far' }, x: { id: 'not an index' } };
      const reading = readJsonFeed(JSON.parse(JSON.stringify({ version: v, items, authors: { length, 1: 'Ann' } })) as unknown);
      // Index 2^32 is below the length only for the two largest.
      const far = Number(length) > 2 ** 32 ? [{ id: 'far' }] : [];
      expect(reading, String(length)).toEqual({ feed: { items: [{ id: 'zero' }, { id: 'five' }, ...far], authors: [{ name: 'Ann' }] } });
    }
    // Below the length only: as Array.from reads it.
    expect(readJsonFeed({ version: v, items: { length: 2.9, 0: { id: 'a' }, 1: { id: 'b' }, 2: { id: 'c' } } })).toEqual(
      before({ version: v, items: { length: 2.9, 0: { id: 'a' }, 1: { id: 'b' }, 2: { id: 'c' } } }),
    );
  });

  it('tells a JSON Feed with nothing usable from a document that is none', () => {
    expect(readJsonFeed({ version: 'https://jsonfeed.org/version/1.1', items: [] })).toBe('empty');
    expect(readJsonFeed({ version: 'https://example.com/not-a-feed', title: 'x', items: [] })).toBe('not-json-feed');
    expect(readJsonFeed({ title: 'No version', items: [{ id: 1, content_text: ' Hi ' }] })).toEqual({
      feed: { title: 'No version', items: [{ id: '1', content_text: 'Hi' }] },
    });
    // An object whose own `constructor` member hides Object's is not read as one, as before.
    expect(readJsonFeed({ version: 'https://jsonfeed.org/version/1', constructor: 1, title: 't' })).toBe('not-json-feed');
  });
});
