import { useId, type ReactNode } from 'react';

export interface SwitchProps {
  checked: boolean;
  onChange(checked: boolean): void;
  /** Visible title; also the switch's accessible name. */
  label: ReactNode;
  /** Visible explanation under the title; announced as the switch's description. */
  description?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/**
 * An on/off setting (dashboard.md §2 "Appearance": a toggle with title and description): a button with
 * role="switch" and aria-checked, named by its title and described by its description. The whole row is
 * clickable, the knob is the focusable control.
 */
export function Switch({ checked, onChange, label, description, disabled, className = '' }: SwitchProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className={`flex items-start justify-between gap-4 ${className}`}>
      <div className="min-w-0">
        <span id={labelId} className="block text-sm font-medium text-text" onClick={() => !disabled && onChange(!checked)}>
          {label}
        </span>
        {description && (
          <span id={descriptionId} className="mt-0.5 block text-sm text-muted">
            {description}
          </span>
        )}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={descriptionId}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border transition-colors focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60 ${
          checked ? 'border-accent bg-accent' : 'border-border-strong bg-surface-2'
        }`}
      >
        <span
          aria-hidden
          className={`inline-block size-5 rounded-full shadow-sm transition-transform ${
            checked ? 'translate-x-6 bg-accent-fg' : 'translate-x-1 bg-surface ring-1 ring-border-strong'
          }`}
        />
      </button>
    </div>
  );
}
