import { describe, expect, it } from 'vitest';
import { adjacentUnreadFeed, sidebarFeedOrder } from './feedOrder.js';

describe('n / p: the next and previous feed with unread articles, in the sidebar order', () => {
  // Folder A holds 3 and 1, folder B holds 5; 2 and 4 sit at the root.
  const order = sidebarFeedOrder({ folders: [{ feeds: [3, 1] }, { feeds: [5] }], root: [2, 4] });
  const counts = { '3': 2, '1': 0, '5': 1, '2': 0, '4': 7 };

  it('orders folders first, then the root', () => {
    expect(order).toEqual([3, 1, 5, 2, 4]);
  });

  it('skips feeds without unread articles and goes round at the ends', () => {
    expect(adjacentUnreadFeed(order, counts, { feedId: 3 }, 1)).toBe(5);
    expect(adjacentUnreadFeed(order, counts, { feedId: 5 }, 1)).toBe(4);
    expect(adjacentUnreadFeed(order, counts, { feedId: 4 }, 1)).toBe(3);
    expect(adjacentUnreadFeed(order, counts, { feedId: 5 }, -1)).toBe(3);
    expect(adjacentUnreadFeed(order, counts, { feedId: 3 }, -1)).toBe(4);
  });

  it('starts before the first feed from the all view, and after (or before) a folder from its stream', () => {
    expect(adjacentUnreadFeed(order, counts, null, 1)).toBe(3);
    expect(adjacentUnreadFeed(order, counts, null, -1)).toBe(4);
    expect(adjacentUnreadFeed(order, counts, { folderFeeds: [3, 1] }, 1)).toBe(5);
    expect(adjacentUnreadFeed(order, counts, { folderFeeds: [3, 1] }, -1)).toBe(4);
  });

  it('has nowhere to go when no other feed has unread articles (muted feeds have no count)', () => {
    expect(adjacentUnreadFeed(order, { '3': 4 }, { feedId: 3 }, 1)).toBeNull();
    expect(adjacentUnreadFeed([], {}, null, 1)).toBeNull();
  });
});
