import { describe, expect, it } from 'vitest';
import type { ReadingListRule } from '../../common/api.js';
import { compileRules, feedsInScope, matchesAny, parseStoredRules, patternError, rulesForFeed } from './smart-rules.js';

/** Smart-list rules (decisions.md "Smart reading lists"): pure matching, as the store and the list service use it. */
const r = (rule_value: string, o: Partial<ReadingListRule> = {}): ReadingListRule => ({
  rule_type: 'keyword',
  rule_scope: 'both',
  rule_value,
  include_all_feeds: true,
  selected_feeds: [],
  ...o,
});
const subject = (title: string, text = '', feedId = 1) => ({ feedId, title, text });

describe('smart-list rules', () => {
  it('matches keywords case-insensitively as substrings, in the scope asked', async () => {
    expect(matchesAny(await compileRules([r('Über')]), subject('Das ÜBERBLICK-Heft'))).toBe(true);
    expect(matchesAny(await compileRules([r('rust', { rule_scope: 'title' })]), subject('Go', 'rust belt'))).toBe(false);
    expect(matchesAny(await compileRules([r('rust', { rule_scope: 'content' })]), subject('Go', 'rust belt'))).toBe(true);
    expect(matchesAny(await compileRules([r('rust', { rule_scope: 'content' })]), subject('Rust', 'Go'))).toBe(false);
    // Spaces are part of a keyword (a whole-word trick).
    expect(matchesAny(await compileRules([r(' ai ')]), subject('said it', 'paint'))).toBe(false);
    expect(matchesAny(await compileRules([r(' ai ')]), subject('the AI race'))).toBe(true);
  });

  it("matches when any rule matches, and only in the rule's feeds", async () => {
    const rules = await compileRules([r('cats', { include_all_feeds: false, selected_feeds: [2] }), r('dogs')]);
    expect(matchesAny(rules, subject('cats', '', 1))).toBe(false);
    expect(matchesAny(rules, subject('cats', '', 2))).toBe(true);
    expect(matchesAny(rules, subject('dogs', '', 1))).toBe(true);
    expect(rulesForFeed(rules, 1)).toHaveLength(1);
    expect(feedsInScope(rules)).toBeNull();
    expect(feedsInScope(await compileRules([r('a', { include_all_feeds: false, selected_feeds: [3, 4] })]))).toEqual(new Set([3, 4]));
  });

  it('runs regexes case-insensitively on RE2, refusing what needs backtracking', async () => {
    expect(matchesAny(await compileRules([r('^breaking\\b', { rule_type: 'regex' })]), subject('BREAKING: news'))).toBe(true);
    expect(matchesAny(await compileRules([r('^breaking\\b', { rule_type: 'regex' })]), subject('Breakingviews'))).toBe(false);
    for (const bad of ['(a)\\1', '(?=a)', '(?<!a)b', '[', 'a{1001}', '(?P<n>a)(?P=n)']) expect(await patternError(bad), bad).not.toBeNull();
    expect(await patternError('(a+)+$')).toBeNull();
    // Catastrophic for a backtracking engine (2^n steps); linear here, so this returns at once.
    const evil = await compileRules([r('(a+)+$', { rule_type: 'regex' }), r('(a|a)*b', { rule_type: 'regex' }), r('(.*a){20}x', { rule_type: 'regex' })]);
    expect(matchesAny(evil, subject('a'.repeat(5000) + '!', 'a'.repeat(100_000) + '!'))).toBe(false);
  });

  it("undoes the web app's escaping of angle brackets before matching (dashboard.md §5)", async () => {
    expect(matchesAny(await compileRules([r('&lt;3 Rust')]), subject('We <3 rust'))).toBe(true);
    expect(matchesAny(await compileRules([r('a&lt;b&gt;c', { rule_type: 'regex' })]), subject('x a<b>c y'))).toBe(true);
    expect(matchesAny(await compileRules([r('&lt;3')]), subject('We &lt;3 rust'))).toBe(false);
    expect(await patternError('(?P&lt;n&gt;a)')).toBeNull();
  });

  it('ignores blank values, unreadable stored rules and stored patterns that no longer compile', async () => {
    expect(await compileRules([r('  '), r('(', { rule_type: 'regex' })])).toEqual([]);
    expect(parseStoredRules('not json')).toEqual([]);
    expect(parseStoredRules('{"a":1}')).toEqual([]);
    expect(parseStoredRules(JSON.stringify([r('x')]))).toEqual([r('x')]);
  });
});
