import type { StoredDocument } from './process-document.js';

/** The long texts of an item that packTexts moves into the document's buffer. */
const PACKED_FIELDS = ['content', 'summary', 'teaser', 'text'] as const;

/**
 * Replaces the HTML, text and teaser of the document's new items with their UTF-8 bytes, as views of one buffer,
 * and returns that buffer (null when there is nothing to pack). `doc.buffers` then lists it and the buffer of the
 * items' search vectors, if they have any: what the thread's answer transfers, and what releaseTexts gives back.
 * The main thread then holds a document's texts off its heap while they wait for their write group: as strings they
 * were most of what its young generation copied, and what survived into the old one; the store binds the bytes as
 * they are (docs/decisions.md "Refresh engine: new items' texts as bytes"). Edited items, rare, keep their strings,
 * and so does an empty text. The buffer is the document's own, made here and handed over whole: nothing is shared.
 */
export function packTexts(doc: StoredDocument): ArrayBuffer | null {
  // The vectors of one document share a buffer made for it (process-document.ts withSearchVectors).
  const vectors = [...doc.fresh, ...doc.changed].find((item) => item.searchVector)?.searchVector?.buffer;
  doc.buffers = vectors instanceof ArrayBuffer ? [vectors] : [];
  let size = 0;
  for (const item of doc.fresh) {
    for (const field of PACKED_FIELDS) {
      const value = item[field];
      if (typeof value === 'string') size += Buffer.byteLength(value, 'utf8');
    }
  }
  if (size === 0) return null;
  // A buffer of its own (allocUnsafeSlow, not the shared pool of small Buffers), written to its last byte below.
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const item of doc.fresh) {
    for (const field of PACKED_FIELDS) {
      const value = item[field];
      if (typeof value !== 'string' || value.length === 0) continue;
      const length = bytes.write(value, at, 'utf8');
      item[field] = new Uint8Array(bytes.buffer, bytes.byteOffset + at, length);
      at += length;
    }
  }
  doc.buffers.push(bytes.buffer);
  return bytes.buffer;
}

/**
 * Gives back the memory of a stored document's texts (call once its transaction has committed, when nothing reads
 * them again): detaches the buffers made for it (`doc.buffers`: its new items' packed texts, its search vectors),
 * moving each to a new buffer object nothing refers to. The document waited for its write group long enough for V8
 * to move its buffer objects into the old generation, which only a full collection frees, and V8 counts their memory
 * towards that generation's limit: on PostgreSQL, where documents wait longest, they set off most of the main
 * thread's full collections. Moved out, the memory goes at the next young collection (docs/decisions.md "Refresh
 * engine: a stored document's buffers given back"). The views read as empty afterwards; strings stay as they are.
 */
export function releaseTexts(doc: StoredDocument): void {
  const buffers = doc.buffers;
  doc.buffers = undefined;
  if (!buffers || buffers.length === 0) return;
  try {
    structuredClone(buffers, { transfer: buffers });
  } catch {
    // A buffer already detached or not detachable is left to the garbage collector, as before.
  }
}
