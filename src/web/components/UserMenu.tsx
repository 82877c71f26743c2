import { Languages, LogOut, Settings, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Language } from '../../common/constants.js';
import { useAuth } from '../lib/auth.js';
import { isLanguage } from '../i18n/index.js';
import { menuItemClass, useMenuButton } from './ui/useMenuButton.js';

/** One entry of the menu: out of the tab order, reached with the arrow keys (roving focus over role="menuitem"). */
function MenuItem({ onClick, children, 'aria-label': ariaLabel }: { onClick: () => void; children: ReactNode; 'aria-label'?: string }) {
  return (
    <button type="button" role="menuitem" tabIndex={-1} className={`${menuItemClass} text-text`} aria-label={ariaLabel} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * The signed-in user's menu (public-area-and-api.md §2 "User menu"): an account icon opens a dropdown with the
 * user's name (or e-mail, or the word for login) and e-mail, then account settings, a language toggle showing
 * the current code, and logout. A WAI-ARIA menu button (components/ui/useMenuButton); choosing an item closes it.
 */
export function UserMenu({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const { user, signOut, changeLanguage } = useAuth();
  const navigate = useNavigate();
  const { open, close, rootRef, buttonProps, menuProps } = useMenuButton();

  const current: Language = isLanguage(i18n.language) ? i18n.language : 'de';
  const next: Language = current === 'de' ? 'en' : 'de';
  const displayName = user?.name?.trim() || user?.email || t('userMenu.login');

  return (
    <div ref={rootRef} className={`relative ${className}`}>
      <button
        {...buttonProps}
        aria-label={t('userMenu.button')}
        className={`inline-flex size-10 items-center justify-center rounded-full border transition-colors hover:bg-surface-2 ${
          open ? 'border-border-strong bg-surface-2 text-text' : 'border-border bg-surface text-muted hover:text-text'
        }`}
      >
        <UserRound aria-hidden className="size-5" />
      </button>

      {open && (
        <div
          {...menuProps}
          aria-label={t('userMenu.button')}
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
                void navigate('/dashboard/settings');
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
              <span className="rounded-md border border-border px-1.5 py-0.5 text-xs font-semibold tracking-wide text-muted">{current.toUpperCase()}</span>
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
