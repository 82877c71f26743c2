import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_MAX } from '../api.js';

/** Fields of the reading-list dialog: the length counter and the description (dashboard.md §5 limits). */

export function Counter({ count, max }: { count: number; max: number }) {
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

export function DescriptionField({ value, onChange, error }: { value: string; onChange(v: string): void; error: string | null }) {
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
