import { describe, expect, it } from 'vitest';
import { FILTER_TEXT_MAX, filterSubjectOf, isHiddenByFilters, type FilterRule } from './filter-match.js';

/** decisions.md "Feeds and articles": include filters keep only what matches one of them; excludes hide. */
const rule = (filter_type: FilterRule['filter_type'], filter_text: string, filter_scope: FilterRule['filter_scope'] = 'both'): FilterRule => ({
  filter_type,
  filter_scope,
  filter_text,
});

describe('isHiddenByFilters', () => {
  const rust = { title: 'Rust 2.0 Released', text: 'The compiler is faster' };

  it('shows everything without filters', () => {
    expect(isHiddenByFilters([], rust)).toBe(false);
  });

  it('includes: shown when any include matches, case-insensitively', () => {
    expect(isHiddenByFilters([rule('include', 'RUST')], rust)).toBe(false);
    expect(isHiddenByFilters([rule('include', 'python')], rust)).toBe(true);
    expect(isHiddenByFilters([rule('include', 'python'), rule('include', 'Compiler')], rust)).toBe(false);
  });

  it('excludes win over includes', () => {
    expect(isHiddenByFilters([rule('include', 'rust'), rule('exclude', 'faster')], rust)).toBe(true);
    expect(isHiddenByFilters([rule('exclude', 'python')], rust)).toBe(false);
  });

  it('scopes look at the title, the text, or both', () => {
    expect(isHiddenByFilters([rule('exclude', 'compiler', 'title')], rust)).toBe(false);
    expect(isHiddenByFilters([rule('exclude', 'compiler', 'content')], rust)).toBe(true);
    expect(isHiddenByFilters([rule('exclude', 'released', 'content')], rust)).toBe(false);
    expect(isHiddenByFilters([rule('exclude', 'released', 'both')], rust)).toBe(true);
  });
});

describe('filterSubjectOf', () => {
  it('matches the plain text of the content, else of the summary', () => {
    expect(filterSubjectOf({ title: 'T', content: '<p>The <b>compiler</b> &amp; more</p>', summary: 'ignored' })).toEqual({
      title: 'T',
      text: 'The compiler & more',
    });
    expect(filterSubjectOf({ title: 'T', content: null, summary: '<p>Short &lt;summary&gt;</p>' }).text).toBe('Short <summary>');
    expect(filterSubjectOf({ title: 'T', content: null, summary: null }).text).toBe('');
  });

  it('cuts enormous texts as the store does', () => {
    expect(filterSubjectOf({ title: 'T', content: 'a '.repeat(FILTER_TEXT_MAX), summary: null }).text).toHaveLength(FILTER_TEXT_MAX);
  });
});
