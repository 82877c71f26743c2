import type { ReadingListRule } from '../../../../common/api.js';
import { DESCRIPTION_MAX, NAME_MAX } from '../api.js';

/** The reading-list dialog's form: a rule being edited, and the checks of dashboard.md §5 before saving. */

export interface RuleDraft extends ReadingListRule {
  key: number;
}

export interface Errors {
  name?: string;
  description?: string;
  rules?: string;
  /** Per rule (by key): the value and the feed selection. */
  ruleValue: Record<number, string>;
  ruleFeeds: Record<number, string>;
}

let nextKey = 1;
/** A key for a rule on screen (React's list key; rules have no id of their own). */
export function nextRuleKey(): number {
  return nextKey++;
}

/** §3 "Rule": keyword, both, all feeds by default. */
export function newRule(): RuleDraft {
  return { key: nextRuleKey(), rule_type: 'keyword', rule_scope: 'both', rule_value: '', include_all_feeds: true, selected_feeds: [] };
}

/** §5, with the spec's German texts (readingLists.validation.*). Lengths count what the user typed. */
export function validate(form: { name: string; description: string; is_smart: boolean; rules: RuleDraft[] }): Errors {
  const errors: Errors = { ruleValue: {}, ruleFeeds: {} };
  const name = form.name.trim();
  if (!name) errors.name = 'readingLists.validation.nameRequired';
  else if (name.length > NAME_MAX) errors.name = 'readingLists.validation.nameTooLong';
  if (form.description.trim().length > DESCRIPTION_MAX) errors.description = 'readingLists.validation.descriptionTooLong';
  if (form.is_smart) {
    if (form.rules.length === 0) errors.rules = 'readingLists.validation.rulesRequired';
    for (const rule of form.rules) {
      if (!rule.rule_value.trim()) errors.ruleValue[rule.key] = 'readingLists.validation.ruleValueRequired';
      if (!rule.include_all_feeds && rule.selected_feeds.length === 0) errors.ruleFeeds[rule.key] = 'readingLists.validation.feedsRequired';
    }
  }
  return errors;
}

export function basicErrors(e: Errors) {
  return Boolean(e.name || e.description);
}
export function ruleErrors(e: Errors) {
  return Boolean(e.rules || Object.keys(e.ruleValue).length || Object.keys(e.ruleFeeds).length);
}
