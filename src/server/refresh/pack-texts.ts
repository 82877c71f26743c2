import type { StoredDocument } from './process-document.js';

/** The long texts of an item that packTexts moves into the document's buffer. */
const PACKED_FIELDS = ['content', 'summary', 'teaser', 'text'] as const;

/**
 * Replaces the HTML, text and teaser of the document's new items with their UTF-8 bytes, as views of one buffer,
 * and returns that buffer for the thread's answer to transfer (null when there is nothing to pack). The main thread
 * then holds a document's texts off its heap while they wait for their write group: as strings they were most of
 * what its young generation copied, and what survived into the old one; the store binds the bytes as they are
 * (docs/decisions.md "Refresh engine: new items' texts as bytes"). Edited items, rare, keep their strings, and so
 * does an empty text. The buffer is the document's own, made here and handed over whole: nothing is shared.
 */
export function packTexts(doc: StoredDocument): ArrayBuffer | null {
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
  return bytes.buffer;
}
