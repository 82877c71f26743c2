import { describe, expect, it } from 'vitest';
import { bucketCount, changedBuckets, parseUnreadToken, unreadVersion } from './unread-delta.js';

const rows = (n: number, count = (i: number) => i % 7) => Array.from({ length: n }, (_, i) => ({ feed_id: i + 1, unread_count: count(i) }));

describe('unread counts as deltas (docs/decisions.md "Sidebar at scale")', () => {
  it('uses about 64 feeds per bucket, at most 128 buckets', () => {
    expect([0, 10, 64, 65, 2000, 12_000, 100_000].map(bucketCount)).toEqual([1, 1, 1, 2, 32, 128, 128]);
  });

  it('names a set of counts independent of their order; its token reads back', () => {
    const a = unreadVersion(rows(2000));
    expect(unreadVersion([...rows(2000)].reverse()).token).toBe(a.token);
    expect(a.token.length).toBeLessThanOrEqual(1024);
    expect(parseUnreadToken(a.token)).toEqual({ buckets: a.buckets, hashes: a.hashes });
  });

  it('finds exactly the bucket of a changed count, of a feed that left and of one that came', () => {
    const before = unreadVersion(rows(2000));
    const since = parseUnreadToken(before.token);
    const changedCount = unreadVersion(rows(2000, (i) => (i === 99 ? 50 : i % 7)));
    expect(changedBuckets(changedCount, since)).toEqual([100 % 32]);
    // A feed with no unread articles is still counted (0): leaving is a change too.
    const zero = rows(2000).map((r) => (r.feed_id === 7 ? { ...r, unread_count: 0 } : r));
    const gone = zero.filter((r) => r.feed_id !== 7);
    expect(changedBuckets(unreadVersion(gone), parseUnreadToken(unreadVersion(zero).token))).toEqual([7]);
    expect(changedBuckets(unreadVersion(rows(2000)), since)).toEqual([]);
  });

  it('answers everything for no token, a broken one, or one of another bucket count', () => {
    const now = unreadVersion(rows(2000));
    for (const token of [undefined, '', 'u1.32.short', 'u2.32.' + now.hashes.join(''), 'u1.3.' + 'A'.repeat(21), unreadVersion(rows(10)).token]) {
      expect(changedBuckets(now, parseUnreadToken(token))).toBeNull();
    }
  });
});
