import { useEffect, useRef } from 'react';

export interface ShortcutHandlers {
  next(): void;
  previous(): void;
  toggleRead(): void;
  favorite(): void;
  open(): void;
  extended(): void;
  refresh(): void;
  search(): void;
  help(): void;
  /** The next / previous feed with unread articles (n / p). */
  nextFeed(): void;
  previousFeed(): void;
}

/** Typing somewhere (a field, an editable region, a select) is never a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/**
 * The keys a heavy reader expects: j/k next and previous, m read/unread, s or f favourite, o or Enter
 * open the original, v extended view, n/p next and previous feed with unread articles, r refresh, / search, ? help. They never fire while typing, with Ctrl, Alt or
 * Meta held, or while a dialog is open; Enter only when no button or link has the focus (there it keeps its meaning).
 */
export function useArticleShortcuts(handlers: ShortcutHandlers, enabled = true): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (isTyping(e.target) || document.querySelector('dialog[open], [role="dialog"][aria-modal="true"]')) return;
      const h = ref.current;
      const target = e.target as HTMLElement | null;
      const onControl = !!target?.closest?.('button, a, summary, [role="button"], [role="menuitem"]');
      const actions: Record<string, (() => void) | undefined> = {
        j: h.next,
        k: h.previous,
        m: h.toggleRead,
        s: h.favorite,
        f: h.favorite,
        o: h.open,
        Enter: onControl ? undefined : h.open,
        v: h.extended,
        n: h.nextFeed,
        p: h.previousFeed,
        r: h.refresh,
        '/': h.search,
        '?': h.help,
      };
      // Shift only counts where it makes the key ("?" on most layouts).
      if (e.shiftKey && e.key !== '?') return;
      const action = actions[e.key];
      if (!action) return;
      e.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
