import { afterEach, describe, expect, it } from 'vitest';
import { setDocumentTitle, setTitleUnread } from './pageTitle.js';

afterEach(() => setTitleUnread(0));

describe('the browser tab\'s title (docs/decisions.md "Sidebar at scale")', () => {
  it('puts the unread count in front of the page name, and drops it at zero', () => {
    setDocumentTitle('All articles · Feeder');
    expect(document.title).toBe('All articles · Feeder');
    setTitleUnread(12);
    expect(document.title).toBe('(12) All articles · Feeder');
    setDocumentTitle('Favorites · Feeder');
    expect(document.title).toBe('(12) Favorites · Feeder');
    setTitleUnread(0);
    expect(document.title).toBe('Favorites · Feeder');
  });
});
