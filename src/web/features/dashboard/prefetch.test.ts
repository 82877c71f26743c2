import { describe, expect, it } from 'vitest';
import { firstView } from './prefetch.js';

describe('the first article view of an address (what the session start asks for)', () => {
  const at = (path: string, search = '') => firstView(path, new URLSearchParams(search));

  it('reads the views as the dashboard routes do', () => {
    expect(at('/dashboard')).toEqual({ view: { kind: 'all' }, showRead: false });
    expect(at('/dashboard/')).toEqual({ view: { kind: 'all' }, showRead: false });
    expect(at('/dashboard', '?feed=42')).toEqual({ view: { kind: 'feed', feedId: 42 }, showRead: false });
    expect(at('/dashboard', '?folder=5')).toEqual({ view: { kind: 'folder', folderId: 5 }, showRead: false });
    expect(at('/dashboard/favorites')).toEqual({ view: { kind: 'favorites' }, showRead: false });
    expect(at('/dashboard/reading-list/7')).toEqual({ view: { kind: 'reading-list', listId: 7 }, showRead: true });
  });

  it('guesses nothing for searches, other screens and addresses that do not exist', () => {
    expect(at('/dashboard', '?q=rust')).toBeNull();
    expect(at('/dashboard', '?feed=abc')).toBeNull();
    expect(at('/dashboard', '?feed=0')).toBeNull();
    expect(at('/dashboard', '?folder=-1')).toBeNull();
    expect(at('/dashboard/settings')).toBeNull();
    expect(at('/dashboard/reading-list/x')).toBeNull();
  });
});
