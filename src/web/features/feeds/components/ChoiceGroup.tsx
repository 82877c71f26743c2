import type { TFunction } from 'i18next';
import { useId } from 'react';
import type { FilterScopeName } from '../../../../common/api.js';

export interface Choice<T extends string> {
  value: T;
  label: string;
}

/** Where a feed filter or a smart-list rule looks (dashboard.md §4): title, content, or both; the same words in both dialogs. */
export function filterScopeChoices(t: TFunction): Choice<FilterScopeName>[] {
  return [
    { value: 'title', label: t('feeds.filters.scopeTitle') },
    { value: 'content', label: t('feeds.filters.scopeContent') },
    { value: 'both', label: t('feeds.filters.scopeBoth') },
  ];
}

/**
 * A set of mutually exclusive options shown as a segmented control: native radio buttons (arrow keys move
 * between them, the group has its legend as name) drawn as pills, with the focus ring on the pill.
 */
export function ChoiceGroup<T extends string>({
  legend,
  value,
  options,
  onChange,
  disabled,
  className = '',
  columns,
}: {
  legend: string;
  value: T;
  options: Choice<T>[];
  onChange(value: T): void;
  disabled?: boolean;
  className?: string;
  /** Lay the options out as a grid (e.g. the mute durations) instead of one row. */
  columns?: 2 | 3 | 4;
}) {
  const name = useId();
  const layout = columns ? { 2: 'grid grid-cols-2', 3: 'grid grid-cols-2 sm:grid-cols-3', 4: 'grid grid-cols-2 sm:grid-cols-4' }[columns] : 'flex flex-wrap';
  return (
    <fieldset className={`min-w-0 ${className}`} disabled={disabled}>
      <legend className="mb-1.5 text-sm font-medium text-text">{legend}</legend>
      <div className={`${layout} gap-1.5`}>
        {options.map((option) => (
          <label
            key={option.value}
            className="inline-flex min-h-10 cursor-pointer items-center justify-center rounded-lg border last:col-span-2 border-border-strong bg-surface px-3 text-sm font-medium text-text transition-colors hover:bg-surface-2 has-checked:border-accent has-checked:bg-accent-soft has-checked:text-accent has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-[var(--focus)] has-disabled:cursor-not-allowed has-disabled:opacity-60"
          >
            <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} className="sr-only" />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
