import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';

export type AlertTone = 'success' | 'error' | 'info' | 'warning';

const tones: Record<AlertTone, { cls: string; Icon: typeof Info }> = {
  success: { cls: 'bg-success-soft text-success border-success/30', Icon: CheckCircle2 },
  error: { cls: 'bg-danger-soft text-danger border-danger/30', Icon: XCircle },
  info: { cls: 'bg-info-soft text-info border-info/30', Icon: Info },
  warning: { cls: 'bg-warning-soft text-warning border-warning/30', Icon: AlertTriangle },
};

/** A status message; errors are announced assertively, the rest politely. */
export function Alert({ tone, children, className = '' }: { tone: AlertTone; children: ReactNode; className?: string }) {
  const { cls, Icon } = tones[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`flex items-start gap-2.5 rounded-lg border px-3.5 py-3 text-sm ${cls} ${className}`}>
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 flex-1 text-text [&_a]:font-medium [&_a]:text-accent [&_a]:underline">{children}</div>
    </div>
  );
}
