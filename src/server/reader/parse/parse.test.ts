import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ReaderError, type ReaderErrorCode } from '../types.js';
import { looksLikeFeed, parseFeed } from './index.js';

const testdata = join(dirname(fileURLToPath(import.meta.url)), 'testdata');
const fixture = (name: string) => readFileSync(join(testdata, name));
const URL = 'https://example.com/feed.xml';

function codeOf(fn: () => unknown): ReaderErrorCode | 'no error' {
  try {
    fn();
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(ReaderError);
    return (error as ReaderError).code;
  }
}

const rss = (items: string) => `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://s.example.com/</link>${items}</channel></rss>`;

describe('identity', () => {
  it('gives the same guids when the same document is parsed twice, for every fixture', () => {
    for (const name of [
      'rss20-basic.xml',
      'identity-hash-fallback.xml',
      'youtube-channel.xml',
      'json11-basic.json',
      'rdf10-basic.xml',
      'identity-enclosure-fallback.xml',
      'rss092-enclosure.xml',
    ]) {
      const a = parseFeed(fixture(name), { url: URL }).items.map((i) => i.guid);
      const b = parseFeed(fixture(name), { url: URL }).items.map((i) => i.guid);
      expect(a.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
    }
  });

  it('keeps the guid of an edited item (guid, link or enclosure identity) while its content changes', () => {
    const before = rss(`
      <item><title>Draft</title><guid isPermaLink="false">post-7</guid><description>v1</description></item>
      <item><title>Linked</title><link>/p/8</link><description>v1</description></item>
      <item><title>Episode</title><enclosure url="https://cdn.example.com/9.mp3" type="audio/mpeg"/></item>`);
    const after = rss(`
      <item><title>Final title</title><guid isPermaLink="false">post-7</guid><description>v2, longer</description></item>
      <item><title>Linked, renamed</title><link>/p/8</link><description>v2</description></item>
      <item><title>Episode (remastered)</title><enclosure url="https://cdn.example.com/9.mp3" type="audio/mpeg"/></item>`);
    const a = parseFeed(before, { url: URL }).items;
    const b = parseFeed(after, { url: URL }).items;
    expect(b.map((i) => i.guid)).toEqual(a.map((i) => i.guid));
    expect(a.map((i) => i.guid)).toEqual(['post-7', 'https://s.example.com/p/8', 'https://cdn.example.com/9.mp3']);
    expect(b[0].content).toBe('v2, longer');
    expect(a[0].content).toBe('v1');
    expect(b[0].title).toBe('Final title');
  });

  it('derives a stable hash when there is no guid, link or enclosure, and a different one for other content', () => {
    const doc = (body: string) => rss(`<item><title>Same</title><description>${body}</description></item>`);
    const g1 = parseFeed(doc('one'), { url: URL }).items[0].guid;
    expect(parseFeed(doc('one'), { url: 'https://elsewhere.example.net/' }).items[0].guid).toBe(g1);
    expect(g1).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(parseFeed(doc('two'), { url: URL }).items[0].guid).not.toBe(g1);
  });

  it('never outputs a guid twice: the first item with a guid wins', () => {
    const items = parseFeed(
      rss(`<item><title>A</title><guid>x</guid></item><item><title>B</title><guid> x </guid></item>
           <item><title>C</title><guid>y</guid></item>`),
      { url: URL },
    ).items;
    expect(items.map((i) => [i.guid, i.title])).toEqual([
      ['x', 'A'],
      ['y', 'C'],
    ]);
  });
});

describe('entity declarations and DOCTYPEs', () => {
  it('refuses a billion-laughs document without expanding anything', () => {
    let doc = '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a0 "lol">';
    for (let i = 1; i < 30; i++) doc += `<!ENTITY a${i} "${`&a${i - 1};`.repeat(10)}">`;
    doc += `]><rss version="2.0"><channel><title>&a29;</title></channel></rss>`;
    const heapBefore = process.memoryUsage().heapUsed;
    expect(codeOf(() => parseFeed(doc, { url: URL }))).toBe('PARSE_ENTITY_LIMIT');
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(20 * 1024 * 1024);
  });

  it('refuses external and parameter entities, also as bytes and in UTF-16', () => {
    expect(codeOf(() => parseFeed(fixture('doctype-xxe-system.xml'), { url: URL }))).toBe('PARSE_ENTITY_LIMIT');
    expect(codeOf(() => parseFeed(fixture('doctype-parameter-entity.xml'), { url: URL }))).toBe('PARSE_ENTITY_LIMIT');
    const utf16 = Buffer.from(`\uFEFF${fixture('doctype-xxe-system.xml').toString('utf8')}`, 'utf16le');
    expect(codeOf(() => parseFeed(utf16, { url: URL }))).toBe('PARSE_ENTITY_LIMIT');
  });

  it('parses the Netscape RSS 0.91 DOCTYPE and internal subsets that declare no entities', () => {
    expect(parseFeed(fixture('rss091-netscape-doctype.xml'), { url: URL }).items).toHaveLength(2);
    expect(parseFeed(fixture('doctype-harmless-subset.xml'), { url: URL }).items).toHaveLength(1);
  });

  it('never resolves an entity declared outside the prolog', () => {
    const doc = rss('<!DOCTYPE x [<!ENTITY e "EXPANDED">]><item><title>&e;</title><guid>g</guid></item>');
    const result = parseFeed(doc, { url: URL });
    expect(JSON.stringify(result)).not.toContain('EXPANDED');
  });

  it('reads past a huge DOCTYPE', () => {
    // 200,000 comments: a scan that went back over the subset for each one would not end within the test's time
    // limit. How fast it is, is the parse benchmark's to say (bench/README.md), not a timed assertion's.
    const doc = `<!DOCTYPE rss [${'<!-- filler -->'.repeat(200_000)}]><rss version="2.0"><channel><title>x</title></channel></rss>`;
    expect(parseFeed(doc, { url: URL }).title).toBe('x');
  });
});

describe('errors', () => {
  it.each([
    ['', 'PARSE_NOT_A_FEED'],
    ['   \n ', 'PARSE_NOT_A_FEED'],
    ['just some text', 'PARSE_NOT_A_FEED'],
    ['<!doctype html><html><head><title>x</title></head></html>', 'PARSE_NOT_A_FEED'],
    ['<?xml version="1.0"?><opml version="2.0"><body/></opml>', 'PARSE_NOT_A_FEED'],
    ['<feed><foo/></feed>', 'PARSE_NOT_A_FEED'],
    ['{"hello": "world"}', 'PARSE_NOT_A_FEED'],
    ['[1,2]', 'PARSE_NOT_A_FEED'],
    ['{"version": "https://jsonfeed.org/version/1.1", "title": ', 'PARSE_INVALID'],
    ['<rss version="2.0"><channel><title>cut', 'PARSE_INVALID'],
    ['<!-- unterminated comment <rss>', 'PARSE_NOT_A_FEED'],
    ['<![CDATA[x]]>', 'PARSE_NOT_A_FEED'],
  ] as const)('%j → %s', (body, code) => {
    expect(codeOf(() => parseFeed(body, { url: URL }))).toBe(code);
  });

  it('turns absurd nesting (a stack overflow in the XML parser) into PARSE_INVALID or a result, never a crash', () => {
    const doc = `<rss version="2.0"><channel><title>deep</title><item><description>${'<a>'.repeat(200_000)}</description></item></channel></rss>`;
    const code = codeOf(() => parseFeed(doc, { url: URL }));
    expect(['no error', 'PARSE_INVALID']).toContain(code);
  });

  it('treats an empty channel as an empty feed, not an error', () => {
    const feed = parseFeed('<rss version="2.0"><channel></channel></rss>', { url: URL });
    expect(feed).toMatchObject({ format: 'rss', title: '', items: [] });
  });

  it('accepts string, Buffer and Uint8Array bodies alike', () => {
    const text = fixture('rss20-basic.xml').toString('utf8');
    const fromString = parseFeed(text, { url: URL });
    expect(parseFeed(Buffer.from(text), { url: URL })).toEqual(fromString);
    expect(parseFeed(new Uint8Array(Buffer.from(text)), { url: URL })).toEqual(fromString);
    expect(parseFeed(`\uFEFF${text}`, { url: URL })).toEqual(fromString);
  });
});

describe('looksLikeFeed', () => {
  it.each([
    ['rss20-basic.xml', true],
    ['rss091-netscape-doctype.xml', true],
    ['rdf10-basic.xml', true],
    ['rss090-rdf.xml', true],
    ['atom10-basic.xml', true],
    ['atom03-basic.xml', true],
    ['youtube-channel.xml', true],
    ['json11-basic.json', true],
    ['json10-basic.json', true],
    ['enc-utf16le-bom.xml', true],
    ['enc-shift_jis.xml', true],
    ['leniency-leading-junk.xml', true],
    ['garbage-html.html', false],
    ['garbage-binary.bin', false],
    ['garbage-empty.txt', false],
    ['garbage-other-xml.xml', false],
    ['json-not-a-feed.json', false],
    ['doctype-billion-laughs.xml', false],
  ])('%s → %s', (name, expected) => {
    expect(looksLikeFeed(fixture(name))).toBe(expected);
  });

  it('only reads the head of a large body', () => {
    const huge = Buffer.concat([fixture('rss20-basic.xml').subarray(0, 600), Buffer.alloc(50 * 1024 * 1024, 0x20)]);
    expect(looksLikeFeed(huge, 'application/rss+xml')).toBe(true);
    // A feed that starts after the first 4 KB is not seen: nothing past the head is read.
    const late = Buffer.concat([Buffer.alloc(5000, 0x20), fixture('rss20-basic.xml')]);
    expect(looksLikeFeed(late, 'application/rss+xml')).toBe(false);
    expect(looksLikeFeed(late.toString('utf8'), 'application/rss+xml')).toBe(false);
  });

  it('works on strings', () => {
    expect(looksLikeFeed('<rss version="2.0"><channel>')).toBe(true);
    expect(looksLikeFeed('<html><head><link rel="alternate" type="application/rss+xml"></head></html>')).toBe(false);
  });
});
