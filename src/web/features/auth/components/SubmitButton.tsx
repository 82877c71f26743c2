import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/Button.js';

/** The full-width submit of an account form; disabled and showing `busyLabel` while the request runs. */
export function SubmitButton({ busy, busyLabel, children, busyAriaLabel }: { busy: boolean; busyLabel: ReactNode; busyAriaLabel?: string; children: ReactNode }) {
  return (
    <Button type="submit" disabled={busy} aria-busy={busy || undefined} aria-label={busy ? busyAriaLabel : undefined} className="min-h-11 w-full">
      {busy ? busyLabel : children}
    </Button>
  );
}
