import { Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterScopeName, ReadingListRule, RuleTypeName } from '../../../../common/api.js';
import { Switch } from '../../../components/ui/Switch.js';
import { TextField } from '../../../components/ui/TextField.js';
import { ChoiceGroup, FeedIcon, feedTitle, filterScopeChoices, useFeedSummaries } from '../../feeds/index.js';
import type { RuleDraft } from './readingListForm.js';

/** One rule of a smart list (dashboard.md §3 "Rule", §4 "Reading-list dialog"): type, scope, value and feeds. */

export function RuleEditor({
  n,
  rule,
  onChange,
  onRemove,
  valueError,
  feedsError,
}: {
  n: number;
  rule: RuleDraft;
  onChange(change: Partial<ReadingListRule>): void;
  onRemove(): void;
  valueError: string | null;
  feedsError: string | null;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-4 rounded-xl border border-border bg-bg/40 p-4" data-testid="rule">
      <div className="-my-1 flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold">
          {t('readingLists.dialog.rule', { n })}
        </h3>
        <button
          type="button"
          onClick={onRemove}
          aria-label={t('readingLists.dialog.removeRule', { n })}
          title={t('readingLists.dialog.removeRule', { n })}
          className="-mr-2 inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-danger"
        >
          <Trash2 aria-hidden className="size-4" />
        </button>
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap">
        <ChoiceGroup<RuleTypeName>
          legend={t('readingLists.dialog.ruleType')}
          value={rule.rule_type}
          onChange={(rule_type) => onChange({ rule_type })}
          options={[
            { value: 'keyword', label: t('readingLists.dialog.keyword') },
            { value: 'regex', label: t('readingLists.dialog.regex') },
          ]}
        />
        <ChoiceGroup<FilterScopeName>
          legend={t('readingLists.dialog.ruleScope')}
          value={rule.rule_scope}
          onChange={(rule_scope) => onChange({ rule_scope })}
          options={filterScopeChoices(t)}
        />
      </div>
      <TextField
        label={t('readingLists.dialog.ruleValue')}
        value={rule.rule_value}
        onChange={(e) => onChange({ rule_value: e.target.value })}
        placeholder={rule.rule_type === 'regex' ? t('readingLists.dialog.regexPlaceholder') : t('readingLists.dialog.keywordPlaceholder')}
        hint={rule.rule_type === 'regex' ? t('readingLists.dialog.regexHint') : t('readingLists.dialog.keywordHint')}
        error={valueError}
        autoComplete="off"
        spellCheck={rule.rule_type !== 'regex'}
        className={rule.rule_type === 'regex' ? '[&_input]:font-mono' : ''}
      />
      <Switch
        checked={rule.include_all_feeds}
        onChange={(include_all_feeds) => onChange({ include_all_feeds })}
        label={t('readingLists.dialog.allFeeds')}
        description={rule.include_all_feeds ? t('readingLists.dialog.allFeedsDescription') : t('readingLists.dialog.someFeedsDescription')}
      />
      {!rule.include_all_feeds && <FeedPicker selected={rule.selected_feeds} onChange={(selected_feeds) => onChange({ selected_feeds })} error={feedsError} />}
    </li>
  );
}

/** The rule's feeds (§3: a loaded feed list for rule selection): a checkbox per feed, in the user's order. */
function FeedPicker({ selected, onChange, error }: { selected: number[]; onChange(ids: number[]): void; error: string | null }) {
  const { t } = useTranslation();
  const feeds = useFeedSummaries();
  const errorId = useId();
  const chosen = new Set(selected);
  return (
    <fieldset aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined} className="min-w-0">
      <legend className="mb-1.5 flex w-full items-baseline justify-between gap-2 text-sm font-medium text-text">
        {t('readingLists.dialog.feeds')}
        <span className="text-xs font-normal text-muted">{t('readingLists.dialog.feedsSelected', { count: chosen.size })}</span>
      </legend>
      {feeds.data && feeds.data.length === 0 ? (
        <p className="text-sm text-muted">{t('readingLists.dialog.noFeeds')}</p>
      ) : (
        <ul className={`max-h-48 overflow-y-auto rounded-lg border bg-surface p-1 ${error ? 'border-danger' : 'border-border-strong'}`}>
          {(feeds.data ?? []).map((feed) => (
            <li key={feed.id}>
              <label className="flex min-h-10 cursor-pointer items-center gap-3 rounded-md px-2 text-sm hover:bg-surface-2 has-focus-visible:outline-2 has-focus-visible:outline-[var(--focus)]">
                <input
                  type="checkbox"
                  checked={chosen.has(feed.id)}
                  onChange={(e) => onChange(e.target.checked ? [...selected, feed.id] : selected.filter((x) => x !== feed.id))}
                  className="size-4 shrink-0 accent-[var(--accent)]"
                />
                <FeedIcon feed={feed} size="sm" />
                <span className="min-w-0 truncate">{feedTitle(feed, t)}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={errorId} role="alert" className="mt-1.5 text-sm text-danger">
          {error}
        </p>
      )}
    </fieldset>
  );
}
