import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { charsetFromContentType, decodeBody, decodeXmlBody, detectEncoding, fromUtf8Bytes } from './encoding.js';

const xml = (encoding: string | null, body: string) =>
  `${encoding ? `<?xml version="1.0" encoding="${encoding}"?>` : ''}<rss version="2.0"><channel><title>${body}</title></channel></rss>`;

describe('charsetFromContentType', () => {
  it.each([
    ['application/rss+xml; charset=UTF-8', 'UTF-8'],
    ['text/xml;charset="iso-8859-1"', 'iso-8859-1'],
    ['text/html; Charset = windows-1252 ; foo=bar', 'windows-1252'],
    ['application/xml', null],
    ['text/xml; charset=', null],
    [null, null],
  ])('%s → %s', (header, expected) => {
    expect(charsetFromContentType(header)).toBe(expected);
  });
});

describe('decodeBody', () => {
  it('defaults to UTF-8 and removes a UTF-8 BOM', () => {
    expect(decodeBody(Buffer.from(xml(null, 'été ✓')))).toBe(xml(null, 'été ✓'));
    expect(decodeBody(Buffer.from(`\uFEFF${xml(null, 'x')}`, 'utf8'))).toBe(xml(null, 'x'));
  });

  it('accepts a plain Uint8Array view', () => {
    const bytes = new Uint8Array(Buffer.from(`xx${xml(null, 'é')}`).buffer.slice(0));
    expect(decodeBody(bytes.subarray(2))).toContain('<title>é</title>');
  });

  it.each([
    ['windows-1252', 'Café “quotes” – €'],
    ['ISO-8859-15', 'Euro € œuvre'],
    ['KOI8-R', 'Новости дня'],
    ['Shift_JIS', '日本語のニュース'],
    ['EUC-JP', '日本語'],
    ['GBK', '中文新闻'],
    ['EUC-KR', '한국어'],
    ['Big5', '繁體中文'],
    ['ISO-8859-2', 'Zażółć gęślą jaźń'],
    ['windows-1251', 'Привет'],
  ])('honours the XML declaration: %s', (charset, text) => {
    const doc = xml(charset, text);
    expect(decodeBody(iconv.encode(doc, charset))).toBe(doc);
  });

  it('decodes an XML declaration saying ISO-8859-1 as windows-1252, as browsers do', () => {
    const doc = xml('ISO-8859-1', 'It’s “fine”');
    const bytes = iconv.encode(doc, 'windows-1252');
    expect(bytes.includes(0x92)).toBe(true);
    expect(decodeBody(bytes)).toBe(doc);
    expect(detectEncoding(bytes)).toBe('windows-1252');
  });

  it.each([['latin1'], ['cp1252'], ['l1'], ['iso_8859-1'], ['us-ascii']])('maps the label %s to windows-1252', (label) => {
    const doc = xml(label, 'déjà “vu”');
    expect(decodeBody(iconv.encode(doc, 'windows-1252'))).toBe(doc);
  });

  it('accepts aliases of multi-byte charsets (x-sjis, gb2312, utf8)', () => {
    expect(decodeBody(iconv.encode(xml('x-sjis', 'ニュース'), 'Shift_JIS'))).toContain('ニュース');
    expect(decodeBody(iconv.encode(xml('gb2312', '新闻'), 'GBK'))).toContain('新闻');
    expect(decodeBody(Buffer.from(xml('utf8', 'ü')))).toContain('<title>ü</title>');
  });

  it('reads UTF-16 with a BOM (LE and BE) and without one from the <?xml prefix', () => {
    const doc = xml('UTF-16', 'UTF-16 über 日本');
    expect(decodeBody(iconv.encode(doc, 'UTF-16LE', { addBOM: true }))).toBe(doc);
    expect(decodeBody(iconv.encode(doc, 'UTF-16BE', { addBOM: true }))).toBe(doc);
    expect(decodeBody(iconv.encode(doc, 'UTF-16LE'))).toBe(doc);
    expect(decodeBody(iconv.encode(doc, 'UTF-16BE'))).toBe(doc);
  });

  it('lets the BOM win over the HTTP charset and the declaration', () => {
    const doc = xml('windows-1252', 'BOM wins é');
    const bytes = iconv.encode(doc, 'UTF-16LE', { addBOM: true });
    expect(decodeBody(bytes, 'text/xml; charset=koi8-r')).toBe(doc);
  });

  it('lets the HTTP charset win over the XML declaration (RFC 7303 §3)', () => {
    const doc = xml('UTF-8', 'Привет');
    expect(decodeBody(iconv.encode(doc, 'KOI8-R'), 'application/xml; charset=KOI8-R')).toBe(doc);
  });

  it('keeps UTF-8 when a server sends charset=ISO-8859-1 for a UTF-8 feed that says so', () => {
    const doc = xml('utf-8', 'été — ☃');
    expect(decodeBody(Buffer.from(doc), 'text/xml; charset=ISO-8859-1')).toBe(doc);
    // ...but not when the bytes are not UTF-8: then the header is right.
    const latin = iconv.encode(xml('utf-8', 'été'), 'windows-1252');
    expect(decodeBody(latin, 'text/xml; charset=ISO-8859-1')).toBe(xml('utf-8', 'été'));
  });

  it('reads an HTML meta charset (discovery decodes HTML pages too)', () => {
    const html = '<!doctype html><html><head><meta charset="windows-1251"><title>Привет</title></head></html>';
    expect(decodeBody(iconv.encode(html, 'windows-1251'))).toBe(html);
  });

  it('falls back to UTF-8 for unknown labels and still decodes encodings iconv-lite lacks', () => {
    expect(decodeBody(Buffer.from(xml('klingon-8', 'é')))).toBe(xml('klingon-8', 'é'));
    expect(decodeBody(Buffer.from(xml(null, 'é')), 'text/xml; charset=bogus')).toBe(xml(null, 'é'));
    const jis = new Uint8Array([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42]); // 日本 in ISO-2022-JP
    expect(decodeBody(jis, 'text/plain; charset=iso-2022-jp')).toBe('日本');
  });

  it('decodes UTF-32 by BOM, by the four-byte "<", and by a header on text that starts with whitespace', () => {
    const doc = xml('UTF-32', 'été 😀');
    const le = iconv.encode(doc, 'utf32le', { addBOM: false });
    const be = iconv.encode(doc, 'utf32be', { addBOM: false });
    expect(decodeBody(Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), le]))).toBe(doc);
    expect(decodeBody(Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), be]))).toBe(doc);
    expect(decodeBody(le)).toBe(doc);
    expect(decodeBody(be)).toBe(doc);
    expect(detectEncoding(le)).toBe('UTF-32LE');
    const spaced = iconv.encode(`\n ${doc}`, 'utf32be', { addBOM: false });
    expect(decodeBody(spaced, 'application/xml; charset=UTF-32')).toBe(`\n ${doc}`);
    // A UTF-16LE BOM followed by text is still UTF-16.
    expect(detectEncoding(iconv.encode(doc, 'utf16le', { addBOM: true }))).toBe('UTF-16LE');
  });
});

describe('decodeXmlBody and fromUtf8Bytes', () => {
  /** Keeps a leading BOM, as a piece does (decodeXmlBody takes the document's off before). */
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  it('gives a UTF-8 document with markup and a character outside ASCII as its bytes, after the BOM', () => {
    const doc = xml('utf-8', 'Ärger — 日本語 😀');
    const read = decodeXmlBody(Buffer.from(`\uFEFF  ${doc}`));
    expect(read.utf8Bytes).toBe(true);
    expect(read.text).toBe(Buffer.from(`  ${doc}`).toString('latin1'));
    expect(fromUtf8Bytes(read.text)).toBe(`  ${doc}`);
  });

  it('gives text where the bytes are not needed or not UTF-8', () => {
    // ASCII only: the bytes are the text.
    expect(decodeXmlBody(Buffer.from(xml(null, 'plain')))).toEqual({ text: xml(null, 'plain'), utf8Bytes: false });
    // Not markup (JSON, or a character outside ASCII before the first `<`): decoded as before.
    const json = '{"version":"https://jsonfeed.org/version/1.1","title":"Café"}';
    expect(decodeXmlBody(Buffer.from(json))).toEqual({ text: json, utf8Bytes: false });
    expect(decodeXmlBody(Buffer.from(`\u00a0${xml(null, 'é')}`))).toEqual({ text: `\u00a0${xml(null, 'é')}`, utf8Bytes: false });
    // Another encoding: decoded.
    const latin = iconv.encode(xml('windows-1252', 'café'), 'windows-1252');
    expect(decodeXmlBody(latin)).toEqual({ text: xml('windows-1252', 'café'), utf8Bytes: false });
  });

  it('leaves a piece without a byte outside ASCII as it is', () => {
    const piece = Buffer.from('<b>plain</b>').toString('latin1');
    expect(fromUtf8Bytes(piece)).toBe(piece);
  });

  it('decodes pieces cut at ASCII bytes as TextDecoder decodes the whole, malformed sequences included', () => {
    // Bytes of every kind, with ASCII `<` and `>` among them: the pieces between those decode, joined, to what the
    // whole decodes to (U+FFFD for each malformed sequence, as the WHATWG decoder counts them).
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x3c, 0x3e, 0xc3, 0xa9, 0xe2, 0x80, 0xf0, 0x9f, 0xed, 0xa0));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 200 }), (list) => {
        const bytes = Buffer.from(list);
        const latin1 = bytes.toString('latin1');
        const pieces = latin1.split(/(?=[<>])/);
        expect(pieces.map(fromUtf8Bytes).join('')).toBe(decoder.decode(bytes));
      }),
      { numRuns: 2000 },
    );
  });
});
