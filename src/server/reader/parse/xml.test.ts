/**
 * The XML feed reader on hostile input (caps, scans that would take quadratic work), the independence of its calls,
 * its entity decoding and its name tables (docs/decisions.md "Parse threads: our own XML feed reader"). Equality
 * with the reading before on ordinary and damaged feeds is xml.differential.test.ts's.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReaderError } from '../types.js';
import { parseFeed } from './index.js';
import { MAX_DEPTH, MAX_ELEMENTS, readXmlTree } from './xml.js';
import { PREFIX_BY_URI, PRIMARY_URIS, RAW_NAMES, RAW_PATHS, RAW_UNDER } from './xml-tables.js';
import { decodeHtml, parseString } from './xml-text.js';

const URL = 'https://example.com/feed.xml';

function outcome(body: string): { error: string; message: string } | { items: string[] } {
  try {
    return { items: parseFeed(body, { url: URL }).items.map((i) => i.title) };
  } catch (error) {
    if (error instanceof ReaderError) return { error: error.code, message: error.message };
    throw error;
  }
}

const rss = (items: string) => `<rss version="2.0"><channel><title>T</title>${items}</channel></rss>`;
const item = (title: string, body = '') => `<item><title>${title}</title><guid>${title}</guid>${body}</item>`;

/** feedsmith's package directory, for the tests that compare with its parts (its entities and its name tables). */
const feedsmithDir = dirname(dirname(createRequire(import.meta.url).resolve('feedsmith')));
const fromFeedsmith = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(feedsmithDir, path)).href)) as T;

describe('caps on hostile input', () => {
  it(`reads ${MAX_DEPTH + 1} nested elements and treats one more as malformed, read up to the last complete item`, () => {
    const nest = (n: number) => `${'<d>'.repeat(n)}x${'</d>'.repeat(n)}`;
    // The root, <channel> and <item> are three levels.
    expect(outcome(rss(item('A') + item('B', nest(MAX_DEPTH - 2))))).toEqual({ items: ['A', 'B'] });
    // Too deep in the last complete item: nothing is left to read up to.
    expect(outcome(rss(item('A') + item('B', nest(MAX_DEPTH - 1))))).toMatchObject({ error: 'PARSE_INVALID' });
    // Too deep in a document cut off inside its last item: the items before it are read.
    expect(outcome(`<rss version="2.0"><channel>${item('A')}<item><title>B</title>${'<d>'.repeat(100_000)}`)).toEqual({ items: ['A'] });
  });

  it(`refuses a document of more than ${MAX_ELEMENTS.toLocaleString('en')} elements with a clear PARSE_INVALID`, () => {
    const many = rss(item('A', '<x/>'.repeat(MAX_ELEMENTS)));
    expect(outcome(many)).toEqual({ error: 'PARSE_INVALID', message: expect.stringContaining('more than 500,000 elements') });
    expect(outcome(rss(item('A', '<x/>'.repeat(1000))))).toEqual({ items: ['A'] });
  });

  it('refuses tag scans inside raw elements that would take quadratic work', () => {
    // Every "<" in the description starts a tag whose end is hidden behind the unmatched quote.
    const hostile = rss(`<item><title>A</title><description>${'<'.repeat(200_000)}"></description></item>`);
    expect(outcome(hostile)).toEqual({ error: 'PARSE_INVALID', message: expect.stringContaining('too much work') });
    // A few such tags are read as before.
    expect(outcome(rss(`<item><title>A</title><description>${'<'.repeat(20)}"></description></item>${item('B')}`))).toEqual({ items: ['A', 'B'] });
  });

  it('reads an element with a <length> child as the list it looks like without making a list of that length', () => {
    // As before: a single item with a child named "length" is read as a list of its children named 0, 1, ….
    expect(outcome(rss('<item><title>A</title><length>4000000000</length></item>'))).toEqual({ items: [] });
    expect(outcome(rss('<item><title>A</title><length>2</length><0><title>B</title></0></item>'))).toEqual({ items: ['B'] });
    expect(outcome(rss('<item><title>A</title><length>Infinity</length></item>'))).toMatchObject({ error: 'PARSE_INVALID' });
  });

  it('reads an author made of unbalanced brackets in linear time', () => {
    const feed = parseFeed(rss(`<item><title>A</title><author>${'('.repeat(300_000)}Jo</author></item>`), { url: URL });
    // Each bracket that is never closed is a part of the name of its own.
    expect(feed.items[0].author).toBe(`${'( '.repeat(299_999)}(Jo`);
  });

  it('keeps no state between calls: clean documents read the same around hostile ones', () => {
    const clean = rss(item('Clean', '<description>&lt;b&gt;x&lt;/b&gt; &eacute;</description>'));
    const hostile = [
      `<rss version="2.0" xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/rss/1.0/modules/content/"><channel>${'<d>'.repeat(200)}`,
      `<rss version="2.0"><channel><item><title>${'<x'.repeat(1000)}`,
      rss(item('A', '<x/>'.repeat(MAX_ELEMENTS + 1))),
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry><content type="xhtml"><div>`,
      `<rss version="2.0"><channel><!DOCTYPE x [<!ENTITY e "v">]><item><title>&e;</title></item>`,
    ];
    const first = outcome(clean);
    expect(first).toEqual({ items: ['Clean'] });
    for (const h of hostile) {
      outcome(h);
      expect(outcome(clean)).toEqual(first);
    }
  });

  it('reads a tree the same whether the document is read alone or after another', () => {
    const doc = `<rss version="2.0" xmlns:d="http://purl.org/dc/elements/1.1/"><channel><item><d:creator>Jo</d:creator></item></channel></rss>`;
    const alone = readXmlTree('rss', doc);
    readXmlTree('rss', `<rss xmlns:d="http://purl.org/dc/terms/"><channel><item><d:creator>X</d:creator></item></channel></rss>`);
    expect(readXmlTree('rss', doc)).toEqual(alone);
    expect(alone).toEqual({
      rss: { channel: { item: { 'dc:creator': 'Jo' } }, '@version': '2.0', '@xmlns:d': 'http://purl.org/dc/elements/1.1/' },
    });
  });
});

describe('values', () => {
  it('decodes entities as the entities package does in HTML text', async () => {
    const { decodeHTML } = await fromFeedsmith<{ decodeHTML: (s: string) => string }>('node_modules/entities/dist/esm/decode.js');
    const piece = fc.constantFrom(
      'a',
      ' ',
      '&',
      ';',
      '<',
      '#',
      'x',
      'amp',
      'lt',
      'gt',
      'quot',
      'apos',
      'AMP',
      'LT',
      'copy',
      'not',
      'notin',
      'eacute',
      'nbsp',
      '&amp;',
      '&lt;',
      '&#',
      '&#x',
      '&#X',
      '65',
      '0',
      '128',
      '1114112',
      'D800',
      'ffff',
      '00000000065',
      'é',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const s = pieces.join('');
        expect(decodeHtml(s)).toBe(decodeHTML(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads element text: comments dropped, CDATA literal, the rest decoded, trimmed', () => {
    expect(parseString(' a <!-- c --> &amp; <![CDATA[&amp;<b>]]> &eacute; ')).toBe('a  & &amp;<b> é');
    expect(parseString('<![CDATA[unclosed &amp;')).toBe('<![CDATA[unclosed &');
    expect(parseString('   ')).toBeUndefined();
  });
});

describe('name tables', () => {
  it("equal the namespace URIs and raw-text elements feeds were read with (feedsmith 3.0.1's)", async () => {
    const config = await fromFeedsmith<{ namespaceUris: Record<string, string[]>; namespaceStopNodes: string[] }>('dist/common/config.mjs');
    const expected = new Map(Object.entries(config.namespaceUris).flatMap(([prefix, uris]) => uris.map((u) => [u.toLowerCase(), prefix.toLowerCase()] as const)));
    expect(new Map([...PREFIX_BY_URI].sort())).toEqual(new Map([...expected].sort()));
    expect([...PRIMARY_URIS.atom].sort()).toEqual(config.namespaceUris.atom.map((u) => u.toLowerCase()).sort());
    expect([...PRIMARY_URIS.rdf].sort()).toEqual([...config.namespaceUris.rdf, ...config.namespaceUris.rss].map((u) => u.toLowerCase()).sort());

    const ours = [...[...RAW_NAMES].map((n) => `*.${n}`), ...RAW_UNDER.map((seq) => `*.${seq.join('.')}`)].sort();
    expect(ours).toEqual([...new Set(config.namespaceStopNodes)].sort());
    for (const format of ['rss', 'atom', 'rdf'] as const) {
      const { stopNodes } = await fromFeedsmith<{ stopNodes: string[] }>(`dist/feeds/${format}/parse/config.mjs`);
      const formatOnly = stopNodes.filter((s) => !s.startsWith('*.'));
      expect([...RAW_PATHS[format]].sort()).toEqual([...new Set(formatOnly)].sort());
    }
  });
});
