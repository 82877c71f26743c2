import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Reading a response body: content-coding removal (RFC 9110 §8.4.1) and the size cap.
 *
 * The cap counts decompressed bytes, because that is what ends up in memory: a 10 KB gzip body can inflate to 10 GB.
 * Decoders run as streams and the reader stops the moment the count passes the cap, so a compression bomb costs
 * at most about maxBytes of memory and a few milliseconds.
 */

/** What we send as Accept-Encoding: the codings node:zlib can undo on Node 20 (zstd needs Node 22.15). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The decompressed body passed the cap; the caller turns this into FETCH_TOO_LARGE. */
export class BodyTooLargeError extends Error {
  constructor() {
    super('body exceeds the size cap');
    this.name = 'BodyTooLargeError';
  }
}

/** A content-coding that could not be undone (corrupt or truncated beyond repair). */
export class BodyDecodeError extends Error {
  constructor(
    readonly coding: string,
    cause: unknown,
  ) {
    super(`could not decode ${coding} body`, { cause });
    this.name = 'BodyDecodeError';
  }
}

/**
 * Decides on the first bytes which decoder to use, and passes the body through untouched when the bytes show it is
 * not encoded after all. Misconfigured servers label plain bodies "gzip", and "deflate" comes both zlib-wrapped (as
 * RFC 9110 §8.4.1.2 says) and raw (as old IIS sent it); browsers accept all of these, so feed readers must too.
 */
class SniffingDecoder extends Transform {
  #inner: Transform | null | undefined;

  constructor(
    private readonly coding: string,
    private readonly choose: (first: Buffer) => Transform | null,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#inner === undefined) {
      this.#inner = this.choose(chunk);
      if (this.#inner) {
        this.#inner.on('data', (data: Buffer) => this.push(data));
        this.#inner.on('error', (err) => this.destroy(new BodyDecodeError(this.coding, err)));
      }
    }
    if (this.#inner === null) {
      callback(null, chunk);
      return;
    }
    this.#inner.write(chunk, (err) => {
      if (!err) callback();
    });
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#inner) {
      callback();
      return;
    }
    this.#inner.once('end', () => callback());
    this.#inner.end();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.#inner?.destroy();
    callback(err);
  }
}

// Truncated streams end with what was decoded so far instead of an error, as browsers do: a feed cut short by a
// dropped connection is still mostly readable, and the parser decides whether it is usable.
const zlibLenient = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const brotliLenient = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

function decoderFor(coding: string): Transform | null {
  switch (coding) {
    case 'gzip':
    case 'x-gzip': // RFC 9110 §8.4.1.3: recipients should treat x-gzip as gzip
      return new SniffingDecoder('gzip', (first) => (first[0] === 0x1f && (first.length < 2 || first[1] === 0x8b) ? zlib.createGunzip(zlibLenient) : null));
    case 'deflate':
      return new SniffingDecoder('deflate', (first) => {
        // A zlib stream (RFC 1950) starts with CMF/FLG: method 8 and a header checksum divisible by 31.
        const zlibWrapped = first.length >= 2 && (first[0] & 0x0f) === 8 && ((first[0] << 8) | first[1]) % 31 === 0;
        return zlibWrapped ? zlib.createInflate(zlibLenient) : zlib.createInflateRaw(zlibLenient);
      });
    case 'br':
      return new SniffingDecoder('br', () => zlib.createBrotliDecompress(brotliLenient));
    default:
      return null;
  }
}

/**
 * The decoders for a Content-Encoding header, outermost first, or null when the body is to be taken as it is:
 * no coding, or one we do not know. Servers send nonsense here ("utf-8", "none"); the bytes are then most likely
 * plain, and the parser is the better judge than a refusal.
 */
function decodersFor(contentEncoding: string | undefined): Transform[] | null {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return null;
  // Codings are listed in the order they were applied (RFC 9110 §8.4), so they are undone from the last one.
  const decoders = codings.reverse().map(decoderFor);
  return decoders.every((d): d is Transform => d !== null) ? decoders : null;
}

/** Drops a body we will not read. undici's body emits an abort error on destroy; nobody is listening any more. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Reads the whole body, decoded, or fails with BodyTooLargeError as soon as it passes maxBytes. */
export async function readBody(body: Readable, contentEncoding: string | undefined, contentLength: string | undefined, maxBytes: number): Promise<Buffer> {
  const decoders = decodersFor(contentEncoding);
  // Without a coding, a declared length over the cap is refused before a single byte is read.
  if (!decoders && contentLength !== undefined && Number(contentLength) > maxBytes) {
    discard(body);
    throw new BodyTooLargeError();
  }
  let stream: Readable = body;
  for (const decoder of decoders ?? []) {
    // pipeline() forwards errors and destruction both ways; the last stream is destroyed with the first error, so
    // iterating it below throws that error.
    stream = pipeline(stream, decoder, () => {});
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw new BodyTooLargeError();
      chunks.push(chunk);
    }
  } finally {
    // Leaving the loop early (cap, error) destroys `stream`; make sure the socket side is released as well.
    if (!body.destroyed && !body.readableEnded) discard(body);
  }
  return Buffer.concat(chunks, size);
}
