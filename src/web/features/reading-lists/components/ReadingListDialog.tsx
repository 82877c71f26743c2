import { Info, Plus, Sparkles, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterScopeName, ReadingList, ReadingListRule, RuleTypeName } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { Switch } from '../../../components/ui/Switch.js';
import { TextField } from '../../../components/ui/TextField.js';
import { ApiError } from '../../../lib/api.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { ChoiceGroup, FeedIcon, feedTitle, filterScopeChoices, useFeeds } from '../../feeds/index.js';
import { DESCRIPTION_MAX, NAME_MAX, toInput, unescapeAngles, useCreateReadingList, useUpdateReadingList } from '../api.js';

/** §9: the hint shown when the disabled smart-rules tab is clicked stays 3 s. */
export const SMART_TAB_HINT_MS = 3000;

export interface ReadingListDialogProps {
  open: boolean;
  onClose(): void;
  /** The list to edit; without it a new list is created. */
  list?: ReadingList;
  onSaved?(list: ReadingList, created: boolean): void;
}

/**
 * The reading-list dialog (dashboard.md §2 "Reading-list dialog", §3 "Collection dialog state", §4 "Smart rules
 * tab", §5, §8 "Reading-list management"): tab 0 basic info (name, description, the smart switch), tab 1 the
 * smart rules. The body mounts only while open, so every opening starts from the list (or empty).
 */
export function ReadingListDialog({ open, onClose, list, onSaved }: ReadingListDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={list ? t('readingLists.dialog.editTitle') : t('readingLists.dialog.createTitle')}>
      <DialogBody list={list} onClose={onClose} onSaved={onSaved} />
    </Modal>
  );
}

interface RuleDraft extends ReadingListRule {
  key: number;
}

type Tab = 0 | 1;

interface Errors {
  name?: string;
  description?: string;
  rules?: string;
  /** Per rule (by key): the value and the feed selection. */
  ruleValue: Record<number, string>;
  ruleFeeds: Record<number, string>;
}

let nextKey = 1;
/** §3 "Rule": keyword, both, all feeds by default. */
function newRule(): RuleDraft {
  return { key: nextKey++, rule_type: 'keyword', rule_scope: 'both', rule_value: '', include_all_feeds: true, selected_feeds: [] };
}

/** §5, with the spec's German texts (readingLists.validation.*). Lengths count what the user typed. */
function validate(form: { name: string; description: string; is_smart: boolean; rules: RuleDraft[] }): Errors {
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

function basicErrors(e: Errors) {
  return Boolean(e.name || e.description);
}
function ruleErrors(e: Errors) {
  return Boolean(e.rules || Object.keys(e.ruleValue).length || Object.keys(e.ruleFeeds).length);
}

function DialogBody({ list, onClose, onSaved }: Omit<ReadingListDialogProps, 'open'>) {
  const { t, i18n } = useTranslation();
  const createReadingList = useCreateReadingList();
  const updateReadingList = useUpdateReadingList();
  const id = useId();
  const [name, setName] = useState(() => unescapeAngles(list?.name ?? ''));
  const [description, setDescription] = useState(() => unescapeAngles(list?.description ?? ''));
  const [isSmart, setIsSmart] = useState(list?.is_smart ?? false);
  const [rules, setRules] = useState<RuleDraft[]>(() =>
    (list?.rules ?? []).map((r) => ({ ...r, rule_value: unescapeAngles(r.rule_value), selected_feeds: [...(r.selected_feeds ?? [])], key: nextKey++ })),
  );
  // §2: tab 1 when editing a smart list, tab 0 otherwise.
  const [tab, setTab] = useState<Tab>(list?.is_smart ? 1 : 0);
  const [nameTouched, setNameTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [hint, showHint] = useTimedMessage(SMART_TAB_HINT_MS);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const tabRefs = [useRef<HTMLButtonElement>(null), useRef<HTMLButtonElement>(null)];
  const rulesEndRef = useRef<HTMLDivElement>(null);

  const errors = validate({ name, description, is_smart: isSmart, rules });
  // Length errors show while typing; "required" ones once the field was left or a save was tried.
  const nameError = errors.name && (submitted || nameTouched || errors.name.endsWith('TooLong')) ? t(errors.name) : null;
  const descriptionError = errors.description ? t(errors.description) : null;
  const hasErrors = basicErrors(errors) || ruleErrors(errors);

  const selectTab = (next: Tab, focus = false) => {
    if (next === 1 && !isSmart) {
      // §4: the rules tab is disabled for a simple list; trying it explains why for 3 s.
      showHint(t('readingLists.dialog.rulesDisabledHint'));
      return;
    }
    setTab(next);
    if (focus) tabRefs[next].current?.focus();
  };

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const keys: Record<string, Tab | undefined> = { ArrowRight: tab === 0 ? 1 : 0, ArrowLeft: tab === 0 ? 1 : 0, Home: 0, End: 1 };
    const next = keys[e.key];
    if (next === undefined) return;
    e.preventDefault();
    if (next === 1 && !isSmart) {
      tabRefs[1].current?.focus();
      showHint(t('readingLists.dialog.rulesDisabledHint'));
      return;
    }
    selectTab(next, true);
  };

  const setSmart = (on: boolean) => {
    setIsSmart(on);
    if (on) {
      // §4: switching the smart toggle on jumps to the rules tab, with a first rule ready to fill in.
      if (rules.length === 0) setRules([newRule()]);
      setTab(1);
    } else {
      setTab(0);
    }
  };

  const updateRule = (key: number, change: Partial<ReadingListRule>) => setRules((rs) => rs.map((r) => (r.key === key ? { ...r, ...change } : r)));

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    setServerError(null);
    if (hasErrors) {
      // Show the tab holding the first problem (§5: saving is blocked while errors exist).
      setTab(basicErrors(errors) || !isSmart ? 0 : 1);
      return;
    }
    setBusy(true);
    try {
      const input = toInput({ name, description, is_smart: isSmart, rules });
      const saved = list ? await updateReadingList.mutateAsync({ id: list.id, input }) : await createReadingList.mutateAsync(input);
      onSaved?.(saved, !list);
      onClose();
    } catch (err) {
      // §8: the server's message (by its code where we know it), else an unknown-error text.
      console.error('Saving the reading list failed', err);
      if (err instanceof ApiError && !err.isNetwork && err.code) {
        const key = `readingLists.errorCodes.${err.code}`;
        setServerError(i18n.exists(key) ? t(key) : t('readingLists.errors.save', { message: err.message }));
      } else if (err instanceof ApiError && !err.isNetwork && err.message) {
        setServerError(t('readingLists.errors.save', { message: err.message }));
      } else {
        setServerError(t('readingLists.errors.unknown'));
      }
      setBusy(false);
    }
  };

  const tabClass = (selected: boolean, disabled: boolean) =>
    `-mb-px inline-flex min-h-11 shrink-0 items-center gap-2 whitespace-nowrap border-b-2 px-3 text-sm transition-colors ${
      selected ? 'border-accent font-semibold text-text' : 'border-transparent font-medium text-muted hover:text-text'
    } ${disabled ? 'cursor-not-allowed opacity-60' : ''}`;

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col">
      <div className="px-5">
        <div role="tablist" aria-label={t('readingLists.dialog.tabs')} className="flex gap-1 border-b border-border">
          {([0, 1] as const).map((i) => {
            const disabled = i === 1 && !isSmart;
            const invalid = submitted && (i === 0 ? basicErrors(errors) : isSmart && ruleErrors(errors));
            return (
              <button
                key={i}
                ref={tabRefs[i]}
                type="button"
                role="tab"
                id={`${id}-tab-${i}`}
                aria-selected={tab === i}
                aria-controls={`${id}-panel-${i}`}
                aria-disabled={disabled || undefined}
                tabIndex={tab === i ? 0 : -1}
                onClick={() => selectTab(i)}
                onKeyDown={onTabKey}
                className={tabClass(tab === i, disabled)}
              >
                {i === 1 && <Sparkles aria-hidden className="size-4" />}
                {i === 0 ? t('readingLists.dialog.tabBasic') : t('readingLists.dialog.tabRules')}
                {invalid && <span aria-hidden className="size-1.5 rounded-full bg-danger" />}
              </button>
            );
          })}
        </div>
        <p role="status" aria-live="polite" className={hint ? 'mt-3' : 'sr-only'}>
          {hint && (
            <span className="flex items-start gap-2 rounded-lg border border-info/30 bg-info-soft px-3 py-2 text-sm text-text">
              <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-info" />
              {hint}
            </span>
          )}
        </p>
      </div>

      <div className="max-h-[min(60dvh,32rem)] overflow-y-auto px-5 py-4">
        <div role="tabpanel" id={`${id}-panel-0`} aria-labelledby={`${id}-tab-0`} hidden={tab !== 0} className="flex flex-col gap-5">
          <div className="flex flex-col gap-1">
          <TextField
            id={`${id}-name`}
            aria-describedby={`${id}-name-counter${nameError ? ` ${id}-name-error` : ''}`}
            label={t('readingLists.dialog.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setNameTouched(true)}
            placeholder={t('readingLists.dialog.namePlaceholder')}
            autoFocus={tab === 0}
            autoComplete="off"
            required
            error={nameError}
          />
          <p id={`${id}-name-counter`} className="text-xs text-muted">
            <Counter count={name.trim().length} max={NAME_MAX} />
          </p>
          </div>
          <DescriptionField value={description} onChange={setDescription} error={descriptionError} />
          <Switch
            checked={isSmart}
            onChange={setSmart}
            label={
              <span className="inline-flex items-center gap-1.5">
                <Sparkles aria-hidden className="size-4 text-accent" />
                {t('readingLists.dialog.smart')}
              </span>
            }
            description={t('readingLists.dialog.smartDescription')}
          />
        </div>

        <div role="tabpanel" id={`${id}-panel-1`} aria-labelledby={`${id}-tab-1`} hidden={tab !== 1} className="flex flex-col gap-4">
          <p className="text-sm text-muted">{t('readingLists.dialog.rulesIntro')}</p>
          {rules.length === 0 && <p className="text-sm text-muted">{t('readingLists.dialog.noRules')}</p>}
          {errors.rules && submitted && (
            <p role="alert" className="text-sm text-danger">
              {t(errors.rules)}
            </p>
          )}
          <ol className="flex flex-col gap-4">
            {rules.map((rule, i) => (
              <RuleEditor
                key={rule.key}
                n={i + 1}
                rule={rule}
                onChange={(change) => updateRule(rule.key, change)}
                onRemove={() => setRules((rs) => rs.filter((r) => r.key !== rule.key))}
                valueError={submitted && errors.ruleValue[rule.key] ? t(errors.ruleValue[rule.key]) : null}
                feedsError={submitted && errors.ruleFeeds[rule.key] ? t(errors.ruleFeeds[rule.key]) : null}
              />
            ))}
          </ol>
          <div ref={rulesEndRef}>
            <Button
              variant="secondary"
              onClick={() => {
                setRules((rs) => [...rs, newRule()]);
                setTimeout(() => rulesEndRef.current?.scrollIntoView?.({ block: 'nearest' }), 0);
              }}
            >
              <Plus aria-hidden className="size-4" />
              {t('readingLists.dialog.addRule')}
            </Button>
          </div>
        </div>
      </div>

      <div className="flex flex-col gap-3 border-t border-border px-5 py-4">
        {submitted && hasErrors && <Alert tone="error">{t('readingLists.validation.formErrors')}</Alert>}
        {serverError && <Alert tone="error">{serverError}</Alert>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('readingLists.dialog.cancel')}
          </Button>
          <Button type="submit" disabled={busy || (submitted && hasErrors)}>
            {busy ? t('readingLists.dialog.saving') : list ? t('readingLists.dialog.save') : t('readingLists.dialog.create')}
          </Button>
        </div>
      </div>
    </form>
  );
}

function Counter({ count, max }: { count: number; max: number }) {
  const { t } = useTranslation();
  return (
    <span className={`tabular-nums ${count > max ? 'text-danger' : ''}`}>
      <span aria-hidden>
        {count}/{max}
      </span>
      <span className="sr-only">{t('readingLists.dialog.counter', { count, max })}</span>
    </span>
  );
}

function DescriptionField({ value, onChange, error }: { value: string; onChange(v: string): void; error: string | null }) {
  const { t } = useTranslation();
  const id = useId();
  const count = value.trim().length;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-text">
        {t('readingLists.dialog.description')}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={3}
        placeholder={t('readingLists.dialog.descriptionPlaceholder')}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-counter${error ? ` ${id}-error` : ''}`}
        className={`w-full resize-y rounded-lg border bg-surface px-3 py-2 text-base text-text placeholder:text-muted/70 focus:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/40 ${
          error ? 'border-danger' : 'border-border-strong'
        }`}
      />
      <p id={`${id}-counter`} className="text-xs text-muted">
        <Counter count={count} max={DESCRIPTION_MAX} />
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

function RuleEditor({
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
  const feeds = useFeeds();
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
