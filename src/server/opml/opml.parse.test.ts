import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { escapeXml, generateOpmlDocument } from './opml.generate.js';
import { cleanName, parseOpmlFile, type OpmlDocument } from './opml.parse.js';

/**
 * The OPML reader and writer on their own (docs/ARCHITECTURE.md "Rules" 3: fixtures beside the code). The fixtures in testdata/
 * follow the exact structure of the exports of Feedly, Inoreader, NetNewsWire, Miniflux, FreshRSS and Tiny Tiny RSS,
 * plus hand-edited and broken files of the kinds people upload.
 */
const fixture = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url));
const parse = (name: string) => parseOpmlFile(fixture(name));
const urls = (doc: OpmlDocument) => doc.entries.map((e) => e.xmlUrl);

function refusal(bytes: Buffer | string): AppError {
  try {
    parseOpmlFile(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected the file to be refused');
}

describe('reading the exports of other readers', () => {
  it('Feedly: categories become folders; a feed in two categories is listed twice (the import keeps the first)', () => {
    const doc = parse('feedly.opml');
    expect(doc.title).toBe('Anna subscriptions in feedly Cloud');
    expect(doc.folders).toEqual(['Tech', 'News', 'Must Read']);
    expect(doc.entries.map((e) => [e.folder, e.name])).toEqual([
      ['Tech', 'Ars Technica'],
      ['Tech', 'heise online News'],
      ['Tech', 'Stratechery by Ben Thompson'],
      ['News', 'BBC News - World'],
      ['News', 'tagesschau.de - Die Nachrichten der ARD'],
      ['Must Read', 'Ars Technica'],
    ]);
    expect(doc.entries[0]).toMatchObject({ htmlUrl: 'https://arstechnica.com', customTitle: null });
  });

  it('Inoreader (.xml): a folder and a feed at the root', () => {
    const doc = parse('inoreader.xml');
    expect(doc.entries.map((e) => e.folder)).toEqual(['Wissenschaft', 'Wissenschaft', null]);
    expect(urls(doc)[2]).toBe('https://rss.golem.de/rss.php?feed=ATOM1.0');
  });

  it('NetNewsWire: comment before the root, OPML 1.1, tab indentation, root feeds before a folder', () => {
    const doc = parse('netnewswire.opml');
    expect(doc.entries.map((e) => [e.folder, e.name])).toEqual([
      [null, 'NetNewsWire News'],
      [null, 'Daring Fireball'],
      ['Apple', 'Six Colors'],
      ['Apple', 'MacRumors'],
    ]);
  });

  it('Miniflux: no type attribute, open/close outline elements, foreign namespace attributes', () => {
    const doc = parse('miniflux.opml');
    expect(doc.folders).toEqual(['All', 'Politik']);
    expect(urls(doc)).toEqual(['https://lwn.net/headlines/rss', 'https://www.phoronix.com/rss.php', 'https://netzpolitik.org/feed/']);
  });

  it('FreshRSS: only text on feeds, escaped ampersand in a category, feeds of other types (HTML+XPath) kept', () => {
    const doc = parse('freshrss.opml.xml');
    expect(doc.folders).toEqual(['Sans catégorie', 'Kultur & Medien']);
    expect(doc.entries.map((e) => e.name)).toEqual(['FreshRSS releases', 'DWDL.de', 'Übermedien']);
    expect(doc.entries.every((e) => e.customTitle === null)).toBe(true);
  });

  it('Tiny Tiny RSS: its settings, labels and filters outlines (with CDATA) are not folders', () => {
    const doc = parse('ttrss.opml');
    expect(doc.folders).toEqual(['Nachrichten']);
    expect(doc.entries).toHaveLength(3);
    expect(doc.entries[2]).toMatchObject({ folder: null, name: 'The Register' });
  });
});

describe('broken and unusual files', () => {
  it('hand-edited: BOM, no head, unescaped &, HTML entities, upper-case tags, xmlurl/XMLURL, single quotes', () => {
    const doc = parse('broken-hand-edited.opml');
    expect(doc.title).toBeNull();
    expect(doc.folders).toEqual(['Blogs & Friends']);
    expect(doc.entries.map((e) => e.xmlUrl)).toEqual([
      'https://blog.example.org/feed?format=rss&lang=de',
      'feed://cafe.example.net/rss.xml',
      'news.example.com/atom.xml',
      'https://deep.example.com/feed',
      'https://single.example.com/rss',
      'javascript:alert(1)',
      'mailto:someone@example.com',
      'https://blog.example.org/feed?format=rss&lang=de#comments',
    ]);
    expect(doc.entries[0].name).toBe("Anna & Ben's blog");
    // text and title differ: text is the user's own name for the feed.
    expect(doc.entries[1]).toMatchObject({ name: 'Café', customTitle: 'Café Kultur' });
    // A feed nested inside a feed outline sits in the same (top-level) folder.
    expect(doc.entries[3].folder).toBe('Blogs & Friends');
    // A lone text outline is a note, not a folder; a link outline is neither.
    expect(doc.emptyFolders).toEqual([]);
  });

  it('windows-1252 declared as ISO-8859-1 is decoded (umlauts and dashes)', () => {
    const doc = parse('latin1.opml');
    expect(doc.folders).toEqual(['Österreich']);
    expect(doc.entries[0]).toMatchObject({ name: 'Der Standard', customTitle: 'Der Standard – Überblick' });
    expect(doc.entries[1].customTitle).toBe('ORF.at – Nachrichten für Österreich');
  });

  it('deeper nesting flattens into the top-level folder; an empty folder with text and title is kept', () => {
    const doc = parse('nested-deep.opml');
    expect(doc.entries.map((e) => [e.folder, e.name])).toEqual([
      ['Tech', 'LWN.net'],
      ['Tech', 'OMG! Ubuntu'],
      ['Tech', 'The Verge'],
      [null, 'Hacker News'],
    ]);
    expect(doc.folders).toEqual(['Tech', 'Empty folder']);
    expect(doc.emptyFolders).toEqual(['Empty folder']);
  });

  it('a truncated file is read up to its last complete outline', () => {
    const doc = parse('truncated.opml');
    expect(urls(doc)).toEqual(['https://feeds.bbci.co.uk/news/rss.xml', 'https://feeds.npr.org/1001/rss.xml']);
  });

  it('refuses entity declarations, non-XML, other XML, empty files and files without feeds', () => {
    expect(refusal(fixture('entities.opml')).code).toBe('OPML_ENTITIES');
    expect(refusal('').code).toBe('OPML_EMPTY');
    expect(refusal('just some text, no markup').code).toBe('OPML_INVALID');
    expect(refusal(Buffer.from([0x00, 0xff, 0x13, 0x37, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a])).code).toBe('OPML_INVALID');
    expect(refusal('<!doctype html><html><body>Hello</body></html>').code).toBe('OPML_INVALID');
    expect(refusal('<?xml version="1.0"?><rss version="2.0"><channel><title>x</title></channel></rss>').code).toBe('OPML_INVALID');
    expect(refusal('<opml version="2.0"><head><title>x</title></head><body></body></opml>').code).toBe('OPML_NO_FEEDS');
    expect(refusal('<opml version="2.0"><body><outline text="note"/></body></opml>').code).toBe('OPML_NO_FEEDS');
    for (const err of [refusal(''), refusal('<html/>')]) expect(err.status).toBe(400);
  });

  it('answers any input with a document or a 400, never another error (property)', () => {
    const outline = fc
      .record({ text: fc.string(), title: fc.option(fc.string()), xmlUrl: fc.option(fc.oneof(fc.webUrl(), fc.string())), nest: fc.boolean() })
      .map((o) => {
        const attr = (name: string, v: string | null) => (v === null ? '' : ` ${name}="${v}"`);
        const tag = `<outline${attr('text', o.text)}${attr('title', o.title)}${attr('xmlUrl', o.xmlUrl)}`;
        return o.nest ? `${tag}><outline text="x" xmlUrl="https://a.example/"/></outline>` : `${tag}/>`;
      });
    const documents = fc.oneof(
      fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
      fc.string().map((s) => Buffer.from(s)),
      fc.array(outline, { maxLength: 8 }).map((os) => Buffer.from(`<opml version="2.0"><body>${os.join('')}</body></opml>`)),
      fc.tuple(fc.array(outline, { maxLength: 6 }), fc.nat()).map(([os, cut]) => {
        const full = `<?xml version="1.0"?><opml><head><title>t</title></head><body>${os.join('\n')}</body></opml>`;
        return Buffer.from(full.slice(0, cut % (full.length + 1)));
      }),
    );
    fc.assert(
      fc.property(documents, (bytes) => {
        try {
          const doc = parseOpmlFile(bytes);
          expect(doc.entries.length + doc.folders.length).toBeGreaterThan(0);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          expect((err as AppError).status).toBe(400);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('cleans names: whitespace and control characters, at most 200 characters', () => {
    expect(cleanName('  a\n\tb\u0007 c  ')).toBe('a b c');
    expect([...cleanName('ä'.repeat(250))]).toHaveLength(200);
  });
});

describe('writing OPML', () => {
  it('escapes every attribute and reads back to the same names and addresses', () => {
    const tricky = 'Tom & Jerry <"quoted"> \'apostrophe\' \u0001';
    const xml = generateOpmlDocument({
      title: 'Feeder & friends',
      dateCreated: new Date('2026-11-22T10:00:00Z'),
      folders: [
        { name: 'Ä & <Ö>', feeds: [{ url: 'https://a.example/feed?x=1&y=2', siteUrl: 'https://a.example/?q="1"', title: 'A', customTitle: tricky }] },
        { name: 'Leer', feeds: [] },
      ],
      feeds: [{ url: 'https://b.example/rss', siteUrl: null, title: '', customTitle: null }],
    });
    expect(xml).toContain('<opml version="2.0">');
    expect(xml).toContain('<dateCreated>Sun, 22 Nov 2026 10:00:00 GMT</dateCreated>');
    expect(xml).toContain('xmlUrl="https://a.example/feed?x=1&amp;y=2"');
    expect(xml).not.toContain('\u0001');
    const doc = parseOpmlFile(Buffer.from(xml));
    expect(doc.title).toBe('Feeder & friends');
    expect(doc.folders).toEqual(['Ä & <Ö>', 'Leer']);
    expect(doc.emptyFolders).toEqual(['Leer']);
    expect(doc.entries).toEqual([
      {
        xmlUrl: 'https://a.example/feed?x=1&y=2',
        htmlUrl: 'https://a.example/?q="1"',
        name: 'A',
        customTitle: 'Tom & Jerry <"quoted"> \'apostrophe\'',
        folder: 'Ä & <Ö>',
      },
      // Never fetched and no name: the address stands in, and it is not taken for a custom title.
      { xmlUrl: 'https://b.example/rss', htmlUrl: null, name: 'https://b.example/rss', customTitle: null, folder: null },
    ]);
  });

  it('escapeXml keeps tabs and line breaks as character references', () => {
    expect(escapeXml('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
  });
});
