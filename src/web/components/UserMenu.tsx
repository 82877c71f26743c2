import { Languages, LogOut, Settings, UserRound } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Language } from '../../common/constants.js';
import { useAuth } from '../app/auth.js';
import { isLanguage } from '../i18n/index.js';

const itemClass =
  'flex min-h-10 w-full items-center gap-3 rounded-lg px-3 text-left text-sm text-text hover:bg-surface-2 focus:bg-surface-2 focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent';

/** One entry of the menu: out of the tab order, reached with the arrow keys (roving focus over role="menuitem"). */
function MenuItem({ onClick, children, 'aria-label': ariaLabel }: { onClick: () => void; children: ReactNode; 'aria-label'?: string }) {
  return (
    <button type="button" role="menuitem" tabIndex={-1} className={itemClass} aria-label={ariaLabel} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * The signed-in user's menu (public-area-and-api.md §2 "User menu"): an account icon opens a dropdown with the
 * user's name (or e-mail, or the word for login) and e-mail, then account settings, a language toggle showing
 * the current code, and logout. It follows the WAI-ARIA menu button pattern: aria-haspopup/aria-expanded on the
 * button, focus moves to the first item on open, arrow keys/Home/End move between items, Escape closes and
 * returns focus to the button; an outside click, Tab or choosing an item closes it.
 */
export function UserMenu({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const { user, signOut, changeLanguage } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const current: Language = isLanguage(i18n.language) ? i18n.language : 'de';
  const next: Language = current === 'de' ? 'en' : 'de';
  const displayName = user?.name?.trim() || user?.email || t('userMenu.login');

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  // Focus the first item when the menu opens.
  useEffect(() => {
    if (open) items()[0]?.focus();
  }, [open]);

  // An outside click (mouse, touch or pen) closes the menu without moving focus.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: Event) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('mousedown', onPointerDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('mousedown', onPointerDown);
    };
  }, [open, close]);

  const onMenuKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const focusAt = (i: number) => list[(i + list.length) % list.length]?.focus();
    switch (e.key) {
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        close(true);
        break;
      case 'ArrowDown':
        e.preventDefault();
        focusAt(index + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        focusAt(index - 1);
        break;
      case 'Home':
        e.preventDefault();
        focusAt(0);
        break;
      case 'End':
        e.preventDefault();
        focusAt(list.length - 1);
        break;
      case 'Tab':
        close(false);
        break;
    }
  };

  const onButtonKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' && !open) {
      e.preventDefault();
      setOpen(true);
    }
  };

  return (
    <div ref={rootRef} className={`relative ${className}`}>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('userMenu.button')}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKeyDown}
        className={`inline-flex size-10 items-center justify-center rounded-full border transition-colors hover:bg-surface-2 ${
          open ? 'border-border-strong bg-surface-2 text-text' : 'border-border bg-surface text-muted hover:text-text'
        }`}
      >
        <UserRound aria-hidden className="size-5" />
      </button>

      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={t('userMenu.button')}
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 top-full z-50 mt-2 w-72 max-w-[calc(100vw-1.5rem)] rounded-xl border border-border bg-surface p-1.5 text-text shadow-card"
        >
          <div className="border-b border-border px-3 pb-2.5 pt-2" role="none">
            <p className="truncate text-sm font-semibold">{displayName}</p>
            {user?.email && <p className="truncate text-xs text-muted">{user.email}</p>}
          </div>
          <div className="pt-1.5" role="none">
            <MenuItem
              onClick={() => {
                close(false);
                navigate('/dashboard/settings');
              }}
            >
              <Settings aria-hidden className="size-4 text-muted" />
              {t('userMenu.settings')}
            </MenuItem>
            <MenuItem
              aria-label={t('userMenu.languageLabel', { current: current.toUpperCase(), next: next.toUpperCase() })}
              onClick={() => {
                close(true);
                void changeLanguage(next);
              }}
            >
              <Languages aria-hidden className="size-4 text-muted" />
              <span className="flex-1">{t('userMenu.language')}</span>
              <span className="rounded-md border border-border px-1.5 py-0.5 text-xs font-semibold tracking-wide text-muted">
                {current.toUpperCase()}
              </span>
            </MenuItem>
            <MenuItem
              onClick={() => {
                close(false);
                // signOut revokes the session and emits the logout event, which sends the user to /.
                void signOut().then(() => navigate('/', { replace: true }));
              }}
            >
              <LogOut aria-hidden className="size-4 text-muted" />
              {t('userMenu.logout')}
            </MenuItem>
          </div>
        </div>
      )}
    </div>
  );
}
