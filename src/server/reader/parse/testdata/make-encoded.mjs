// Writes the encoding fixtures (enc-*.xml) as real bytes in their charsets with iconv-lite, plus their
// .meta.json where the HTTP Content-Type matters. Run from the repository root after changing a template:
//   node src/server/reader/parse/testdata/make-encoded.mjs
// then regenerate the expectations with UPDATE_GOLDEN=1 and review them.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';

const here = dirname(fileURLToPath(import.meta.url));

/** A small RSS document whose title and description carry characters of the charset under test. */
function rss(declaration, title, description) {
  const decl = declaration === null ? '' : `<?xml version="1.0" encoding="${declaration}"?>\n`;
  return `${decl}<rss version="2.0">
  <channel>
    <title>${title}</title>
    <link>https://charset.example.com/</link>
    <description>${description}</description>
    <item>
      <title>${title}</title>
      <link>https://charset.example.com/1</link>
      <description>${description}</description>
    </item>
  </channel>
</rss>
`;
}

const fixtures = [
  // name, bytes charset, XML declaration label (null: none), BOM, Content-Type, title, description
  ['enc-windows-1252', 'windows-1252', 'windows-1252', false, null, 'Caf\u00e9 \u201cquotes\u201d \u2013 dash', 'Price: 5\u20ac \u2026'],
  // The classic: the prolog says ISO-8859-1 but 0x93/0x94/0x92 are windows-1252 quotes.
  ['enc-iso-8859-1-prolog', 'windows-1252', 'ISO-8859-1', false, null, 'It\u2019s \u201cfine\u201d', 'na\u00efve r\u00e9sum\u00e9'],
  ['enc-iso-8859-15', 'ISO-8859-15', 'ISO-8859-15', false, null, 'Euro \u20ac and \u0153uvre', 'Fran\u00e7ais'],
  ['enc-koi8-r', 'KOI8-R', 'KOI8-R', false, null, '\u041d\u043e\u0432\u043e\u0441\u0442\u0438 \u0434\u043d\u044f', '\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440'],
  ['enc-utf16le-bom', 'UTF-16LE', 'UTF-16', true, null, 'UTF-16 \u00fcber \u65e5\u672c', 'Little endian \u2713'],
  ['enc-utf16be-bom', 'UTF-16BE', 'UTF-16', true, null, 'UTF-16 \u00fcber \u65e5\u672c', 'Big endian \u2713'],
  ['enc-utf16le-nobom', 'UTF-16LE', 'UTF-16', false, null, 'No BOM \u00e4\u00f6\u00fc', 'Detected from the UTF-16 declaration prefix'],
  // UTF-32 (XML 1.0 Appendix F): with a BOM, and detected from the four-byte "<" without one.
  ['enc-utf32le-bom', 'UTF-32LE', 'UTF-32', true, null, 'UTF-32 \u00e9t\u00e9 \u{1F600}', 'Little endian \u65e5\u672c'],
  ['enc-utf32be-bom', 'UTF-32BE', 'UTF-32', true, null, 'UTF-32 \u00e9t\u00e9 \u{1F600}', 'Big endian \u65e5\u672c'],
  ['enc-utf32le-nobom', 'UTF-32LE', 'UTF-32', false, null, 'No BOM \u00e4\u00f6\u00fc', 'Detected from the four-byte "<"'],
  ['enc-utf32be-nobom', 'UTF-32BE', null, false, null, 'No BOM, no declaration \u2713', 'Detected from the four-byte "<"'],
  ['enc-shift_jis', 'Shift_JIS', 'Shift_JIS', false, null, '\u65e5\u672c\u8a9e\u306e\u30cb\u30e5\u30fc\u30b9', '\u3053\u3093\u306b\u3061\u306f'],
  ['enc-gb2312-label', 'GBK', 'GB2312', false, null, '\u4e2d\u6587\u65b0\u95fb', '\u4f60\u597d\u4e16\u754c'],
  ['enc-euc-kr', 'EUC-KR', 'EUC-KR', false, null, '\ud55c\uad6d\uc5b4 \ub274\uc2a4', '\uc548\ub155\ud558\uc138\uc694'],
  ['enc-utf8-bom', 'UTF-8', 'UTF-8', true, null, 'BOM \u00e9t\u00e9', 'UTF-8 with a byte order mark'],
  ['enc-no-declaration-utf8', 'UTF-8', null, false, null, 'No declaration \u00e9\u00e8', 'Defaults to UTF-8 \u2713'],
  ['enc-label-alias-cp1252', 'windows-1252', 'cp1252', false, null, 'Alias \u201ccp1252\u201d', 'D\u00e9j\u00e0 vu'],
  ['enc-label-alias-latin1', 'windows-1252', 'latin1', false, null, 'Alias latin1 \u00e5\u00e6\u00f8', 'Gr\u00fc\u00dfe'],
  // HTTP charset beats the (wrong) XML declaration (RFC 7303 §3).
  ['enc-http-charset-wins', 'windows-1252', 'UTF-8', false, 'application/rss+xml; charset=windows-1252', 'Header wins: \u00e9', 'Cr\u00e8me br\u00fbl\u00e9e'],
  // ...except the common server default ISO-8859-1 on a document that declares and is UTF-8.
  ['enc-latin1-header-utf8-body', 'UTF-8', 'UTF-8', false, 'text/xml; charset=ISO-8859-1', 'UTF-8 body \u00e9\u2019', 'Not mojibake \u2603'],
  // The header names KOI8-R, the document names nothing.
  ['enc-http-charset-only', 'KOI8-R', null, false, 'application/xml; charset="koi8-r"', '\u0417\u0430\u0433\u043e\u043b\u043e\u0432\u043e\u043a', '\u0422\u0435\u043a\u0441\u0442'],
];

for (const [name, charset, declaration, bom, contentType, title, description] of fixtures) {
  const text = rss(declaration, title, description);
  const bytes = iconv.encode(text, charset, { addBOM: bom });
  writeFileSync(join(here, `${name}.xml`), bytes);
  if (contentType) {
    writeFileSync(join(here, `${name}.meta.json`), `${JSON.stringify({ contentType }, null, 2)}\n`);
  }
}
