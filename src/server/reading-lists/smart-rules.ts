import type { RE2JS } from 're2js';
import type { ReadingListRule } from '../../common/api.js';
import { ModuleLoadError, onFirstUse } from '../../common/lazy.js';

/**
 * Smart reading-list rules (dashboard.md §3 "Rule", decisions.md "Smart reading lists"): an article belongs to a
 * smart list when it matches ANY of its rules. A keyword rule is a case-insensitive substring test, a regex rule
 * runs on re2js, a linear-time engine (no backtracking), so no pattern can hang the server; regexes are
 * case-insensitive too, like keywords. A rule looks at the title, the article's plain text or both (the same text
 * feed filters match: filter-match.ts filterSubjectOf, i.e. articleBody), and at every feed of the user or only its
 * selected feeds. Pure, so the store (articles arrive) and the list service (rules change) decide alike.
 */

/** What a rule is matched against: the title and the article's text (articleBody), both plain text. */
export interface RuleSubject {
  feedId: number;
  title: string;
  text: string;
}

export interface CompiledRule {
  scope: ReadingListRule['rule_scope'];
  /** null: every feed of the user. */
  feeds: ReadonlySet<number> | null;
  /** Lower-cased keyword, or null for a regex rule. */
  keyword: string | null;
  regex: RE2JS | null;
}

/**
 * The text a rule value stands for. The web app escapes angle brackets before sending (dashboard.md §5: "Angle
 * brackets in names, descriptions and rule values are escaped before sending"), while titles and texts are matched
 * as plain text; so `&lt;3` must match "<3" and a regex `a&lt;b` must mean `a<b`. Only the two escapes the spec
 * names are undone.
 */
export const ruleText = (value: string) => value.replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/** Compiled patterns by source: the store matches the same rules feed after feed. Bounded. */
const regexCache = new Map<string, RE2JS>();
const REGEX_CACHE_MAX = 1000;

/**
 * re2js is loaded when the first regex rule is compiled, not at start: most installations have no regex rule
 * (docs/decisions.md "Process memory: modules on first use").
 */
const loadRe2 = onFirstUse('the regular expression engine (re2js)', () => import('re2js'));

/** Compiles a regex rule's pattern (case-insensitive); throws RE2JSException when it is not valid RE2 syntax. */
async function compilePattern(pattern: string): Promise<RE2JS> {
  const cached = regexCache.get(pattern);
  if (cached) return cached;
  const { RE2JS } = await loadRe2();
  const compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  if (regexCache.size >= REGEX_CACHE_MAX) regexCache.delete(regexCache.keys().next().value!);
  regexCache.set(pattern, compiled);
  return compiled;
}

/** The syntax error of a pattern, or null when it compiles. */
export async function patternError(pattern: string): Promise<string | null> {
  const { RE2JSException } = await loadRe2();
  try {
    await compilePattern(ruleText(pattern));
    return null;
  } catch (err) {
    if (err instanceof RE2JSException) return err.message;
    throw err;
  }
}

/**
 * Rules as stored (JSON) to matchers. A stored pattern that no longer compiles (never saved so: the service refuses
 * it) matches nothing rather than failing the refresh that stores articles.
 */
export async function compileRules(rules: readonly ReadingListRule[]): Promise<CompiledRule[]> {
  const out: CompiledRule[] = [];
  for (const r of rules) {
    const value = ruleText(r.rule_value ?? '');
    if (value.trim() === '') continue;
    const feeds = r.include_all_feeds ? null : new Set(r.selected_feeds ?? []);
    if (r.rule_type === 'regex') {
      try {
        out.push({ scope: r.rule_scope, feeds, keyword: null, regex: await compilePattern(value) });
      } catch (err) {
        if (err instanceof ModuleLoadError) throw err;
        continue;
      }
    } else {
      out.push({ scope: r.rule_scope, feeds, keyword: value.toLowerCase(), regex: null });
    }
  }
  return out;
}

/** The rules that can match articles of this feed (none: the list never takes that feed's articles). */
export function rulesForFeed(rules: readonly CompiledRule[], feedId: number): CompiledRule[] {
  return rules.filter((r) => r.feeds === null || r.feeds.has(feedId));
}

/** Feeds the rules look at: null when any rule takes every feed. */
export function feedsInScope(rules: readonly CompiledRule[]): Set<number> | null {
  const feeds = new Set<number>();
  for (const r of rules) {
    if (r.feeds === null) return null;
    for (const id of r.feeds) feeds.add(id);
  }
  return feeds;
}

/** true when any rule needs the article's text (not only its title). */
export const needsText = (rules: readonly CompiledRule[]) => rules.some((r) => r.scope !== 'title');

/** true when the article matches any of the rules. */
export function matchesAny(rules: readonly CompiledRule[], subject: RuleSubject): boolean {
  let lowerTitle: string | undefined;
  let lowerText: string | undefined;
  for (const r of rules) {
    if (r.feeds !== null && !r.feeds.has(subject.feedId)) continue;
    if (r.keyword !== null) {
      if (r.scope !== 'content' && (lowerTitle ??= subject.title.toLowerCase()).includes(r.keyword)) return true;
      if (r.scope !== 'title' && (lowerText ??= subject.text.toLowerCase()).includes(r.keyword)) return true;
    } else if (r.regex) {
      if (r.scope !== 'content' && r.regex.test(subject.title)) return true;
      if (r.scope !== 'title' && r.regex.test(subject.text)) return true;
    }
  }
  return false;
}

/** Rules from the stored JSON text; anything unreadable is no rule. */
export function parseStoredRules(json: string): ReadingListRule[] {
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? (value as ReadingListRule[]) : [];
  } catch {
    return [];
  }
}
