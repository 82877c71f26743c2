/**
 * Unread counts as deltas (docs/decisions.md "Sidebar at scale"). The counts are split into buckets by feed id
 * (id mod the bucket count), and each bucket gets a content hash; the version token is the list of those hashes.
 * A client that sends back its last token gets only the buckets whose hash differs, whole (so a feed that left
 * them, muted or unsubscribed, is known to be gone). Nothing is kept on the server: the answer depends on the
 * counts as they are and the token alone, so it is right for any number of devices, after mutes, filters and
 * restarts, and on every process of a cluster.
 */

const TOKEN_PREFIX = 'u1';
/** Hash characters per bucket (base64url, 6 bits each): 42 bits. */
const HASH_CHARS = 7;
/** About this many feeds per bucket, in at most MAX_BUCKETS buckets (a token of at most 900 characters). */
const FEEDS_PER_BUCKET = 64;
const MAX_BUCKETS = 128;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function bucketCount(feeds: number): number {
  let buckets = 1;
  while (buckets < MAX_BUCKETS && buckets * FEEDS_PER_BUCKET < feeds) buckets *= 2;
  return buckets;
}

/** A 32-bit mix of (feed, count) (murmur3's finaliser), different per lane. */
function mix(feedId: number, count: number, lane: number): number {
  let h = Math.imul(feedId ^ lane, 0x9e3779b1) ^ Math.imul((count + 0x7f4a7c15) | 0, 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface UnreadVersion {
  buckets: number;
  hashes: string[];
  token: string;
}

/** The version of a set of counts: each bucket's hash (a sum of its entries' mixes, so order does not matter). */
export function unreadVersion(rows: readonly { feed_id: number; unread_count: number }[]): UnreadVersion {
  const buckets = bucketCount(rows.length);
  const a = new Uint32Array(buckets);
  const b = new Uint32Array(buckets);
  for (const row of rows) {
    const i = row.feed_id % buckets;
    a[i] = (a[i] + mix(row.feed_id, row.unread_count, 0x51ed270b)) >>> 0;
    b[i] = (b[i] + mix(row.feed_id, row.unread_count, 0x2c1b3c6d)) >>> 0;
  }
  const hashes: string[] = [];
  for (let i = 0; i < buckets; i++) {
    // 32 bits of lane a and 10 of lane b, 6 bits per character.
    let hi = a[i];
    let lo = b[i] & 0x3ff;
    let text = '';
    for (let c = 0; c < HASH_CHARS; c++) {
      text += ALPHABET[lo & 63];
      lo = (lo >>> 6) | ((hi & 63) << 4);
      hi >>>= 6;
    }
    hashes.push(text);
  }
  return { buckets, hashes, token: `${TOKEN_PREFIX}.${buckets}.${hashes.join('')}` };
}

/** The bucket hashes of a token a client sent, or null when it is not one (then the whole answer goes). */
export function parseUnreadToken(token: string | undefined): { buckets: number; hashes: string[] } | null {
  if (!token) return null;
  const match = /^u1\.(\d{1,3})\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match) return null;
  const buckets = Number(match[1]);
  if (buckets < 1 || buckets > MAX_BUCKETS || (buckets & (buckets - 1)) !== 0 || match[2].length !== buckets * HASH_CHARS) return null;
  const hashes: string[] = [];
  for (let i = 0; i < buckets; i++) hashes.push(match[2].slice(i * HASH_CHARS, (i + 1) * HASH_CHARS));
  return { buckets, hashes };
}

/** The buckets that changed since `since` (null: everything, as the bucket counts differ or there is no token). */
export function changedBuckets(current: UnreadVersion, since: { buckets: number; hashes: string[] } | null): number[] | null {
  if (!since || since.buckets !== current.buckets) return null;
  const changed: number[] = [];
  for (let i = 0; i < current.buckets; i++) if (since.hashes[i] !== current.hashes[i]) changed.push(i);
  return changed;
}
