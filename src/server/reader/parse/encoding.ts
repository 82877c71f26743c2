/**
 * Bytes → string for feed and HTML bodies.
 *
 * The charset is chosen in this order (RFC 7303 §3 / WHATWG Encoding "decode" + HTML "encoding sniffing"):
 *   0. UTF-32, which the WHATWG table does not know but XML 1.0 Appendix F does: a UTF-32 BOM, a `<?xml` (or
 *      `<`) in four-byte units without one, or a `charset=utf-32…` header on bytes that fit it;
 *   1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE);
 *   2. the `charset` parameter of the HTTP Content-Type;
 *   3. the XML declaration (`<?xml … encoding="…"?>`), a UTF-16 `<?xml` prefix without BOM, or an HTML
 *      `<meta charset>` / `<meta http-equiv="Content-Type">` in the first 2 KB;
 *   4. UTF-8.
 * Labels are mapped with the WHATWG label table (encoding-sniffer), so aliases such as `latin1`, `cp1252`,
 * `x-sjis` or `utf8` work, and ISO-8859-1 / US-ASCII are decoded as windows-1252, as browsers do: real-world
 * "ISO-8859-1" feeds routinely contain windows-1252 quotes and dashes in 0x80–0x9F.
 *
 * One deliberate exception to step 2: servers often send a default `charset=ISO-8859-1` for every file while the
 * feed itself says UTF-8 and is UTF-8. When the header names windows-1252, the document declares UTF-8 and the
 * bytes are valid UTF-8, UTF-8 wins; decoding such a feed as windows-1252 would turn every "é" into "Ã©".
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { getEncoding } from 'encoding-sniffer';
import iconv from 'iconv-lite';

/** How many bytes are inspected for a BOM, XML declaration or meta charset. */
const SNIFF_BYTES = 2048;

const utf8Decoder = new TextDecoder('utf-8');

/** The `charset` parameter of a Content-Type header (RFC 9110 §8.3), or null. */
export function charsetFromContentType(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(contentType);
  const label = (match?.[1] ?? match?.[2] ?? '').trim();
  return label === '' ? null : label;
}

function toBuffer(body: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/**
 * UTF-32LE / UTF-32BE when the bytes are UTF-32 (XML 1.0 Appendix F: a BOM, or the first character `<` as four
 * bytes), or when the header says UTF-32 and the length fits; else null.
 */
function utf32Of(buf: Buffer, contentType: string | null | undefined): 'UTF-32LE' | 'UTF-32BE' | null {
  if (buf.length < 4) return null;
  const [a, b, c, d] = buf;
  if (a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff) return 'UTF-32BE';
  if (a === 0xff && b === 0xfe && c === 0x00 && d === 0x00) return 'UTF-32LE';
  if (a === 0x00 && b === 0x00 && c === 0x00 && d === 0x3c) return 'UTF-32BE';
  if (a === 0x3c && b === 0x00 && c === 0x00 && d === 0x00) return 'UTF-32LE';
  const label = charsetFromContentType(contentType)?.toLowerCase().replace(/[-_]/g, '');
  if ((label === 'utf32' || label === 'ucs4' || label === 'utf32le' || label === 'utf32be') && buf.length % 4 === 0) {
    if (label === 'utf32le') return 'UTF-32LE';
    if (label === 'utf32be') return 'UTF-32BE';
    // Without a BOM or a leading "<", the zero bytes of ASCII text tell the order.
    return a === 0x00 && b === 0x00 ? 'UTF-32BE' : 'UTF-32LE';
  }
  return null;
}

/** The WHATWG name of the encoding `decodeBody` would use for these bytes (UTF-32LE/BE besides, see above). */
export function detectEncoding(body: Buffer | Uint8Array, contentType?: string | null): string {
  const buf = toBuffer(body);
  const utf32 = utf32Of(buf, contentType);
  if (utf32) return utf32;
  const transport = charsetFromContentType(contentType);
  const options = { defaultEncoding: 'UTF-8', maxBytes: SNIFF_BYTES };
  if (!transport) return getEncoding(buf, options);
  const chosen = getEncoding(buf, { ...options, transportLayerEncodingLabel: transport });
  if (chosen === 'windows-1252' && getEncoding(buf, options) === 'UTF-8' && declaresUtf8(buf) && isUtf8(buf)) {
    return 'UTF-8';
  }
  return chosen;
}

/** True when the document itself names UTF-8 (not merely defaults to it). */
function declaresUtf8(buf: Buffer): boolean {
  const head = buf.subarray(0, SNIFF_BYTES).toString('latin1');
  return /encoding\s*=\s*["']\s*utf-?8\s*["']|charset\s*=\s*["']?\s*utf-?8/i.test(head);
}

/** Decodes a response body to a string (BOM removed); see the file comment for the charset rules. */
export function decodeBody(body: Buffer | Uint8Array, contentType?: string | null): string {
  const buf = toBuffer(body);
  return decodeAs(buf, detectEncoding(buf, contentType));
}

/**
 * A body as the XML feed reader takes it: `utf8Bytes` false, `text` the decoded document (decodeBody); or, for a
 * UTF-8 document that starts with markup and is not plain ASCII, `utf8Bytes` true and `text` its bytes after the
 * BOM, one character per byte (Latin-1), which the reader turns into text piece by piece (fromUtf8Bytes).
 *
 * Why (docs/decisions.md "Parse threads: a UTF-8 feed read as bytes"): one character outside Latin-1 makes V8 store
 * the whole decoded document as a two-byte string, and a document over 64 K characters is then a large object,
 * which V8 maps and unmaps on its own (0.6 ms for a 75 KB feed, most of what decoding cost) and frees only in a full
 * collection. The bytes as Latin-1 are a copy; the markup the reader scans is ASCII either way; only the pieces it
 * keeps are decoded, each split at ASCII markup, so each decodes exactly as it would within the whole document. A
 * document of ASCII bytes only is its own text.
 */
export function decodeXmlBody(body: Buffer | Uint8Array, contentType?: string | null): { text: string; utf8Bytes: boolean } {
  const buf = toBuffer(body);
  const encoding = detectEncoding(buf, contentType);
  if (encoding !== 'UTF-8') return { text: decodeAs(buf, encoding), utf8Bytes: false };
  if (isAscii(buf)) return { text: buf.toString('latin1'), utf8Bytes: false };
  const start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let first = start;
  while (first < buf.length && isAsciiSpace(buf[first])) first++;
  if (buf[first] !== 0x3c /* < */) return { text: decodeAs(buf, encoding), utf8Bytes: false };
  return { text: buf.toString('latin1', start), utf8Bytes: true };
}

/** Space, tab, LF, VT, FF, CR: the ASCII characters JavaScript's `\s` matches. */
function isAsciiSpace(b: number): boolean {
  return b === 0x20 || (b >= 0x09 && b <= 0x0d);
}

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * A piece of a document read as UTF-8 bytes (decodeXmlBody) as text: decoded when it holds a byte outside ASCII
 * (malformed sequences become U+FFFD as in TextDecoder), else itself. The piece must end where the document has an
 * ASCII character or ends, so that no sequence is cut.
 */
export function fromUtf8Bytes(piece: string): string {
  return NON_ASCII.test(piece) ? Buffer.from(piece, 'latin1').toString('utf8') : piece;
}

function decodeAs(buf: Buffer, encoding: string): string {
  if (encoding === 'UTF-8') return utf8Decoder.decode(buf);
  if (encoding === 'UTF-32LE' || encoding === 'UTF-32BE') {
    // iconv-lite keeps a BOM when the byte order is named; U+FEFF is dropped like the other BOMs.
    const text = iconv.decode(buf, encoding);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  if (iconv.encodingExists(encoding)) return iconv.decode(buf, encoding);
  // A few WHATWG encodings (ISO-2022-JP, x-mac-cyrillic, …) are not in iconv-lite; Node's ICU has them.
  try {
    return new TextDecoder(encoding).decode(buf);
  } catch {
    return utf8Decoder.decode(buf);
  }
}
