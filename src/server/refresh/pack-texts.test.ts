import { describe, expect, it } from 'vitest';
import { storedString } from '../articles/article-text.js';
import { packTexts, releaseTexts } from './pack-texts.js';
import type { StoredItem } from '../articles/articles.repository.js';
import { processDocument, type StoredDocument } from './process-document.js';

const NOW = Date.UTC(2025, 0, 1);

/** An RSS document of items (guid, title, description HTML). */
const rssOf = (items: [string, string, string][]) =>
  Buffer.from(
    `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://example.com/</link>${items
      .map(([guid, title, html]) => `<item><guid>${guid}</guid><title>${title}</title><description><![CDATA[${html}]]></description></item>`)
      .join('')}</channel></rss>`,
  );

const processed = (body: Buffer, known = new Map<string, string>(), searchVectors = false): StoredDocument =>
  processDocument({ body, url: 'https://example.com/feed.xml', contentType: null, known, now: NOW, searchVectors });

/** The long texts of each new item, as strings. */
const textsOf = (doc: StoredDocument) =>
  doc.fresh.map((item) => ({
    content: storedString(item.content),
    summary: storedString(item.summary),
    teaser: storedString(item.teaser ?? null),
    text: storedString(item.text ?? null),
  }));

describe('packTexts: a document’s new texts as UTF-8 views of one buffer (docs/decisions.md "Refresh engine: new items’ texts as bytes")', () => {
  const body = rssOf([
    ['1', 'Latin', '<p>Plain ASCII text, then Grüße and déjà vu.</p>'],
    ['2', 'Beyond', '<p>Em dash — “quotes”, 日本語 and a bird 🐦 (a surrogate pair).</p>'],
    ['3', 'Empty', ''],
  ]);

  it('gives every text back as it was, from views of the one buffer it returns', () => {
    const doc = processed(body);
    const before = textsOf(doc);
    const buffer = packTexts(doc);
    expect(buffer).toBeInstanceOf(ArrayBuffer);
    const views = doc.fresh.flatMap((item: StoredItem) => [item.content, item.summary, item.teaser, item.text]).filter((v) => v instanceof Uint8Array);
    // Items 1 and 2: content, teaser and text (an RSS description is the content; no separate summary).
    expect(views).toHaveLength(6);
    for (const view of views) expect(view.buffer).toBe(buffer);
    // Written to its last byte, with nothing in between.
    expect(views.reduce((n, v) => n + v.byteLength, 0)).toBe(buffer!.byteLength);
    expect(textsOf(doc)).toEqual(before);
    expect(before[1].text).toContain('日本語 and a bird 🐦');
  });

  it('keeps empty texts and missing ones as they are', () => {
    const doc = processed(body);
    packTexts(doc);
    const empty = doc.fresh[2];
    expect(empty.content).toBeNull();
    expect(empty.summary).toBeNull();
    expect(empty.text).toBe('');
    expect(empty.teaser).toBe('');
  });

  it('arrives whole on the other side of a transfer, and leaves the sender nothing', () => {
    const doc = processed(body);
    const before = textsOf(doc);
    const buffer = packTexts(doc)!;
    // What postMessage with the buffer in its transfer list does (document-worker.ts).
    const received = structuredClone(doc, { transfer: [buffer] });
    expect(buffer.byteLength).toBe(0);
    expect(textsOf(received)).toEqual(before);
    expect(received.fresh[0].content).toBeInstanceOf(Uint8Array);
  });

  it("lists the buffers the answer moves: the texts' and, when the items have them, the search vectors'", () => {
    const plain = processed(body);
    const texts = packTexts(plain)!;
    expect(plain.buffers).toEqual([texts]);
    const withVectors = processed(body, new Map(), true);
    const vectors = withVectors.fresh[0].searchVector!.buffer;
    const packed = packTexts(withVectors)!;
    expect(withVectors.buffers).toEqual([vectors, packed]);
    for (const item of withVectors.fresh) if (item.searchVector) expect(item.searchVector.buffer).toBe(vectors);
  });

  it('gives the buffers back once stored: the views read empty, strings and other documents stay as they were', () => {
    const edited = processed(body, new Map(processed(body).fresh.map((item) => [item.guidHash, 'older'])));
    packTexts(edited);
    const other = processed(body);
    packTexts(other);
    const otherTexts = textsOf(other);
    const doc = processed(body, new Map(), true);
    packTexts(doc);
    const received = structuredClone(doc, { transfer: doc.buffers ?? [] });
    const views = received.fresh.flatMap((item: StoredItem) => [item.content, item.teaser, item.text, item.searchVector]).filter((v) => v instanceof Uint8Array);
    expect(views.length).toBeGreaterThan(0);
    releaseTexts(received);
    expect(received.buffers).toBeUndefined();
    for (const view of views) expect(view.byteLength).toBe(0);
    // The empty item's strings, the edited items' strings and another document's buffer are untouched; a second call
    // does nothing.
    expect(received.fresh[2].teaser).toBe('');
    releaseTexts(edited);
    for (const item of edited.changed) expect(typeof item.text).toBe('string');
    releaseTexts(received);
    expect(textsOf(other)).toEqual(otherTexts);
  });

  it('leaves edited items their strings, and gives null when no item is new', () => {
    const first = processed(body);
    const known = new Map(first.fresh.map((item) => [item.guidHash, 'an older version']));
    const edited = processed(body, known);
    expect(edited.fresh).toHaveLength(0);
    expect(edited.changed).toHaveLength(3);
    expect(packTexts(edited)).toBeNull();
    for (const item of edited.changed) expect(typeof item.text).toBe('string');
  });

  it('packs each document into a buffer of its own, whatever came before', () => {
    // Alternating hostile and clean documents: nothing is kept between calls.
    const hostile = rssOf([['h', 'Hostile', `<p>${'\u{1F426}\uD800'.repeat(2000)}</p>`]]);
    const buffers = new Set<ArrayBuffer>();
    for (const next of [hostile, body, hostile, body]) {
      const doc = processed(next);
      const before = textsOf(doc);
      buffers.add(packTexts(doc)!);
      expect(textsOf(doc)).toEqual(before);
    }
    expect(buffers.size).toBe(4);
  });
});
