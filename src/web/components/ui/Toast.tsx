import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { emit, on } from '../../lib/events.js';

export type ToastTone = 'success' | 'error' | 'info' | 'warning';

/** The detail of the app-wide `toast` event (dashboard.md §7 "Browser events"). */
export interface ToastDetail {
  message: string;
  tone?: ToastTone;
  /** A button in the toast (e.g. "Undo"); pressing it runs `run` and closes the toast. */
  action?: { label: string; run(): void };
  /** How long the toast stays, when not the default. */
  durationMs?: number;
}

/** Shows a short message in the toast area, from anywhere in the app (a component, an api module, a hook). */
export function toast(message: string, tone: ToastTone = 'success', extra: Pick<ToastDetail, 'action' | 'durationMs'> = {}): void {
  emit<ToastDetail>('toast', { message, tone, ...extra });
}

/** How long a toast stays: long enough to read a sentence; an error a little longer. */
export const TOAST_MS = 4000;
export const ERROR_TOAST_MS = 6000;
/** At most this many at once; older ones give way (a burst of drags must not pile up a tower). */
const MAX_TOASTS = 3;

interface Item extends Required<Pick<ToastDetail, 'message' | 'tone'>>, Pick<ToastDetail, 'action' | 'durationMs'> {
  id: number;
}

const tones: Record<ToastTone, { cls: string; Icon: typeof Info }> = {
  success: { cls: 'text-success', Icon: CheckCircle2 },
  error: { cls: 'text-danger', Icon: XCircle },
  info: { cls: 'text-info', Icon: Info },
  warning: { cls: 'text-warning', Icon: AlertTriangle },
};

/**
 * The toast area: listens for `toast` events and shows each message for a few seconds at the bottom of the screen
 * (centred on a phone, right on wide screens). The list is a polite live region, so screen readers read a message
 * out without interrupting; hovering or focusing a toast keeps it until the pointer or focus leaves; each has a
 * close button. Rendered into <body> so no transformed or hidden ancestor (the sidebar drawer) affects it.
 */
export function Toaster() {
  const [items, setItems] = useState<Item[]>([]);
  const nextId = useRef(1);

  useEffect(
    () =>
      on<ToastDetail>('toast', (detail) => {
        if (!detail?.message) return;
        const item: Item = { id: nextId.current++, message: detail.message, tone: detail.tone ?? 'success', action: detail.action, durationMs: detail.durationMs };
        setItems((current) => [...current.filter((i) => i.message !== item.message), item].slice(-MAX_TOASTS));
      }),
    [],
  );

  const dismiss = useCallback((id: number) => setItems((current) => current.filter((i) => i.id !== id)), []);

  if (typeof document === 'undefined') return null;
  return createPortal(
    <div
      role="status"
      aria-live="polite"
      aria-relevant="additions text"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center gap-2 p-4 sm:items-end sm:p-6"
      data-testid="toasts"
    >
      {items.map((item) => (
        <ToastItem key={item.id} item={item} onDismiss={dismiss} />
      ))}
    </div>,
    document.body,
  );
}

function ToastItem({ item, onDismiss }: { item: Item; onDismiss(id: number): void }) {
  const { t } = useTranslation();
  const [held, setHeld] = useState(false);
  const { cls, Icon } = tones[item.tone];

  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => onDismiss(item.id), item.durationMs ?? (item.tone === 'error' ? ERROR_TOAST_MS : TOAST_MS));
    return () => clearTimeout(timer);
  }, [held, item.id, item.tone, item.durationMs, onDismiss]);

  return (
    <div
      className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border border-border bg-surface py-2.5 pl-4 pr-1.5 text-sm text-text shadow-card"
      data-tone={item.tone}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <Icon aria-hidden className={`mt-2.5 size-4 shrink-0 ${cls}`} />
      <p className="min-w-0 flex-1 py-2 leading-snug">{item.message}</p>
      {item.action && (
        <button
          type="button"
          onClick={() => {
            item.action!.run();
            onDismiss(item.id);
          }}
          className="inline-flex min-h-10 shrink-0 items-center rounded-lg px-3 font-semibold text-accent hover:bg-surface-2"
        >
          {item.action.label}
        </button>
      )}
      <button
        type="button"
        onClick={() => onDismiss(item.id)}
        aria-label={t('common.close')}
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text"
      >
        <X aria-hidden className="size-4" />
      </button>
    </div>
  );
}
