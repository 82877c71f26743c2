import { Info, Plus, Sparkles } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReadingList, ReadingListRule } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { Switch } from '../../../components/ui/Switch.js';
import { TextField } from '../../../components/ui/TextField.js';
import { ApiError } from '../../../lib/api.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { NAME_MAX, toInput, unescapeAngles, useCreateReadingList, useUpdateReadingList } from '../api.js';
import { basicErrors, newRule, nextRuleKey, ruleErrors, validate, type RuleDraft } from './readingListForm.js';
import { Counter, DescriptionField } from './ReadingListFields.js';
import { RuleEditor } from './RuleEditor.js';

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

type Tab = 0 | 1;

function DialogBody({ list, onClose, onSaved }: Omit<ReadingListDialogProps, 'open'>) {
  const { t, i18n } = useTranslation();
  const createReadingList = useCreateReadingList();
  const updateReadingList = useUpdateReadingList();
  const id = useId();
  const [name, setName] = useState(() => unescapeAngles(list?.name ?? ''));
  const [description, setDescription] = useState(() => unescapeAngles(list?.description ?? ''));
  const [isSmart, setIsSmart] = useState(list?.is_smart ?? false);
  const [rules, setRules] = useState<RuleDraft[]>(() =>
    (list?.rules ?? []).map((r) => ({ ...r, rule_value: unescapeAngles(r.rule_value), selected_feeds: [...(r.selected_feeds ?? [])], key: nextRuleKey() })),
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
