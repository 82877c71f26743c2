import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/fakeServer.js';
import { fetchUnreadCounts, unreadCountsKey } from './api.js';

afterEach(() => vi.unstubAllGlobals());

describe('unread counts as deltas (docs/decisions.md "Sidebar at scale")', () => {
  it('sends the last version and replaces only the changed buckets; a full answer replaces everything', async () => {
    const client = new QueryClient();
    let reply: unknown = { counts: { '1': 5, '2': 4, '3': 1, '4': 0 }, total: 10, version: 'u1.2.v1' };
    const calls = fakeServer({
      'GET /api/feeds/unread_counts': () => [200, reply],
      'GET /api/feeds/unread_counts?since=u1.2.v1': () => [200, reply],
      'GET /api/feeds/unread_counts?since=u1.2.v2': () => [200, reply],
    });
    const first = await fetchUnreadCounts(client);
    expect(first).toEqual({ counts: { '1': 5, '2': 4, '3': 1, '4': 0 }, total: 10 });
    client.setQueryData(unreadCountsKey, first);

    // Bucket 1 (odd ids) changed: feed 1 went down, feed 3 was muted (absent); bucket 0 stays as it was.
    reply = { counts: { '1': 2 }, total: 6, version: 'u1.2.v2', delta: { buckets: 2, changed: [1] } };
    const second = await fetchUnreadCounts(client);
    expect(calls.at(-1)!.key).toBe('GET /api/feeds/unread_counts?since=u1.2.v1');
    expect(second).toEqual({ counts: { '1': 2, '2': 4, '4': 0 }, total: 6 });
    client.setQueryData(unreadCountsKey, second);

    // An optimistic change in the cache does not become the base: the next delta applies to the server's counts.
    client.setQueryData(unreadCountsKey, { counts: { ...second.counts, '2': 3 }, total: 5 });
    reply = { counts: { '7': 9 }, total: 9, version: 'u1.1.v3' };
    expect(await fetchUnreadCounts(client)).toEqual({ counts: { '7': 9 }, total: 9 });
    expect(calls.at(-1)!.key).toBe('GET /api/feeds/unread_counts?since=u1.2.v2');

    // Without cached counts (a cleared cache) no version is sent.
    client.clear();
    await fetchUnreadCounts(client);
    expect(calls.at(-1)!.key).toBe('GET /api/feeds/unread_counts');
  });
});
