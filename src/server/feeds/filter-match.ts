import { INDEX_TEXT_MAX, articleBody } from '../articles/article-text.js';

/**
 * Feed filters (decisions.md "Feeds and articles"): a feed with at least one include filter shows only articles
 * matching one of its include filters; exclude filters hide what they match. Matching is a case-insensitive
 * substring test on the title, the content (plain text of content or summary) or both. Pure, so the store (new
 * articles) and the filter service (filters changed) decide alike.
 */
export type FilterType = 'include' | 'exclude';
export type FilterScope = 'title' | 'content' | 'both';

export interface FilterRule {
  filter_type: FilterType;
  filter_scope: FilterScope;
  filter_text: string;
}

/** What a filter is matched against: the title and the article's text, both already plain text. */
export interface FilterSubject {
  title: string;
  text: string;
}

function matches(rule: FilterRule, title: string, text: string): boolean {
  const needle = rule.filter_text.toLowerCase();
  if (needle === '') return false;
  if (rule.filter_scope !== 'content' && title.includes(needle)) return true;
  return rule.filter_scope !== 'title' && text.includes(needle);
}

/** true when the filters hide the article. */
export function isHiddenByFilters(rules: readonly FilterRule[], subject: FilterSubject): boolean {
  if (rules.length === 0) return false;
  const title = subject.title.toLowerCase();
  const text = subject.text.toLowerCase();
  let hasInclude = false;
  let included = false;
  for (const rule of rules) {
    if (rule.filter_type === 'exclude') {
      if (matches(rule, title, text)) return true;
    } else {
      hasInclude = true;
      if (!included && matches(rule, title, text)) included = true;
    }
  }
  return hasInclude && !included;
}

/** Text matched per article is cut where the store cuts what it indexes. */
export const FILTER_TEXT_MAX = INDEX_TEXT_MAX;

/**
 * What filters look at in a stored article: its title (plain text already) and the plain text of its content, or of
 * its summary when it has no content. The filter service (filters changed) and the store (articles arrived) must
 * judge an article alike, so this is the store's own text (articleBody).
 */
export function filterSubjectOf(article: { title: string; content: string | null; summary: string | null }): FilterSubject {
  return { title: article.title, text: articleBody(article.content, article.summary) };
}
