import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { articleBody, teaser } from '../articles/article-text.js';
import { containsNul } from '../nul.js';
import { simpleTsvector } from '../articles/search-vector.js';
import { processDocument } from './process-document.js';

const fixture = (name: string) => readFileSync(new URL(`../reader/parse/testdata/${name}`, import.meta.url));

function contents(name: string): (string | null)[] {
  const result = processDocument({
    body: fixture(name),
    url: 'https://example.com/feed.xml',
    contentType: null,
    known: new Map(),
    now: Date.UTC(2025, 0, 1),
  });
  return result.fresh.map((item) => item.content);
}

describe('processDocument: the base of relative URLs in Atom content (RFC 4287 §2)', () => {
  it('resolves against the xml:base in scope for the content element, not the entry link', () => {
    const [feedBase, entryBase, elementBase] = contents('xmlbase-atom-content.xml');
    expect(feedBase).toContain('href="https://base.example.org/blog/page.html"');
    expect(feedBase).toContain('src="https://base.example.org/img/a.png"');
    expect(entryBase).toContain('href="https://base.example.org/entries/2/page.html"');
    expect(elementBase).toContain('href="https://content.example.net/c/page.html"');
    for (const c of [feedBase, entryBase, elementBase]) expect(c).not.toContain('elsewhere.example.com');
  });

  it('keeps the entry link as the base when the feed declares no xml:base', () => {
    const [content] = contents('xmlbase-atom-content-none.xml');
    expect(content).toContain('href="https://site.example.com/posts/1/page.html"');
  });
});

describe('processDocument: search text and teaser from the sanitising pass', () => {
  it('gives the text and teaser that articleBody and teaser read from the stored HTML', () => {
    const long = `<p>${'A sentence of the article, with <b>bold</b> &amp; an entity. '.repeat(40)}</p>`;
    const rssDoc = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://example.com/</link>
      <item><guid>1</guid><title>One</title><description><![CDATA[<p>Summary <em>text</em></p><script>x()</script>]]></description>
        <content:encoded xmlns:content="http://purl.org/rss/1.0/modules/content/"><![CDATA[<h2>Head</h2>${long}<img src="https://t.example/p.gif" width="1" height="1">]]></content:encoded></item>
      <item><guid>2</guid><title>Two</title><description><![CDATA[${long}<ul><li>a</li><li>b</li></ul>]]></description></item>
    </channel></rss>`;
    const { fresh } = processDocument({ body: Buffer.from(rssDoc), url: 'https://example.com/feed.xml', contentType: null, known: new Map(), now: Date.UTC(2025, 0, 1) });
    expect(fresh).toHaveLength(2);
    for (const item of fresh) {
      expect(item.text).toBe(articleBody(item.content, item.summary));
      expect(item.teaser).toBe(teaser(item.summary ?? item.content));
    }
    expect(fresh[0].teaser).toBe('Summary text');
    expect(fresh[0].text?.startsWith('Head A sentence of the article, with bold & an entity.')).toBe(true);
    expect(fresh[1].teaser?.endsWith('…')).toBe(true);
  });
});

describe('processDocument: no U+0000 in what is stored (decisions.md "No NUL characters")', () => {
  it('drops it from every field, whichever it came in, and keeps the hashes of the document as written', () => {
    const doc = `<?xml version="1.0"?><rss version="2.0"><channel><title>T\0itle</title><link>https://example.com/\0</link>
      <item><guid>g\0uid</guid><title>O\0ne</title><author>a@example.com (A\0da)</author><link>https://example.com/a\0</link>
        <enclosure url="https://example.com/e\0.mp3" type="audio/mp\0eg" length="1"/>
        <description><![CDATA[<p title="x\0y">Sum\0mary &#0; <a href="https://example.com/\0l">link</a></p>]]></description></item>
      <item><guid>cle\0an</guid><title>Two</title><description>plain\0 text</description></item>
    </channel></rss>`;
    const input = { body: Buffer.from(doc), url: 'https://example.com/feed.xml', contentType: null, known: new Map<string, string>(), now: Date.UTC(2025, 0, 1) };
    const result = processDocument(input);
    expect(containsNul(result)).toBe(false);
    const [one, two] = result.fresh;
    expect([result.feed.title, one.guid, one.title, one.author, one.enclosures[0].type]).toEqual(['Title', 'guid', 'One', 'Ada', 'audio/mpeg']);
    expect(one.content).toContain('Summary');
    expect(two.guid).toBe('clean');
    expect(two.content).toBe('plain text');
    // The hashes are those of the document's own values: a re-fetch of the same document finds the same items.
    const again = processDocument({ ...input, known: new Map(result.fresh.map((item) => [item.guidHash, item.contentHash])) });
    expect(again.fresh).toEqual([]);
    expect(again.changed).toEqual([]);
    expect(again.seen).toEqual(result.seen);
  });
});

describe('processDocument: item HTML handed to the sanitiser as compact strings', () => {
  it('keeps every character, Latin-1 or beyond, whatever else the document holds', () => {
    // The channel title's dash makes the whole decoded document a two-byte string; Latin-1-only item HTML is copied
    // to a one-byte string before sanitising (process-document.ts latin1Compact), which must change no character.
    const doc = `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Blog — news</title><link>https://example.com/</link>
      <item><guid>1</guid><title>Café</title><description><![CDATA[<p>Café crème à 2,50 € – “quoted” ’s</p>]]></description></item>
      <item><guid>2</guid><title>Plain</title><description><![CDATA[<p>Straße, naïve, ½ × 3 ÷ 4 ¿ © ÿ</p>]]></description></item>
      <item><guid>3</guid><title>Ascii</title><description>plain &amp; simple</description></item>
    </channel></rss>`;
    const { fresh } = processDocument({ body: Buffer.from(doc), url: 'https://example.com/feed.xml', contentType: null, known: new Map(), now: Date.UTC(2025, 0, 1) });
    expect(fresh.map((item) => item.content)).toEqual(['<p>Café crème à 2,50 € – “quoted” ’s</p>', '<p>Straße, naïve, ½ × 3 ÷ 4 ¿ © ÿ</p>', 'plain &amp; simple']);
    expect(fresh.map((item) => item.text)).toEqual(['Café crème à 2,50 € – “quoted” ’s', 'Straße, naïve, ½ × 3 ÷ 4 ¿ © ÿ', 'plain & simple']);
  });
});

describe('processDocument: search vectors for PostgreSQL (decisions.md "Refresh engine: the search vector on the parse threads")', () => {
  const rssOf = (items: string) => Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${items}</channel></rss>`);
  const input = { url: 'https://example.com/feed.xml', contentType: null, known: new Map<string, string>(), now: Date.UTC(2025, 0, 1) };

  it('gives each item the vector of its title and text when asked, null when PostgreSQL has to make it, in one buffer', () => {
    const body = rssOf(
      '<item><guid>a</guid><title>Kestrel\u0000 sighted</title><description>&lt;p&gt;A well-known bird&lt;/p&gt;</description></item>' +
        '<item><guid>b</guid><title>Release 2.5</title><description>see example.org</description></item>' +
        '<item><guid>c</guid><title>Heron</title><description>nests</description></item>',
    );
    const { fresh } = processDocument({ ...input, body, searchVectors: true });
    const [a, b, c] = fresh;
    // The title without its NUL, as it is stored: the vector of "Kestrel sighted A well-known bird".
    expect(a.searchVector).toEqual(simpleTsvector(`${a.title} ${a.text}`));
    expect(a.title).toBe('Kestrel sighted');
    expect(b.searchVector).toBeNull();
    expect(c.searchVector).toEqual(simpleTsvector('Heron nests'));
    expect(a.searchVector!.buffer).toBe(c.searchVector!.buffer);
    expect(processDocument({ ...input, body }).fresh.every((item) => item.searchVector === undefined)).toBe(true);
  });
});
