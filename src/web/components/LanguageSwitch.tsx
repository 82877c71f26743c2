import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../common/constants.js';
import { useAuth } from '../lib/auth.js';
import { isLanguage } from '../i18n/index.js';

/**
 * Toggles between the two interface languages and shows the current code (public-area-and-api.md §2, §9).
 * changeLanguage persists the choice and, when signed in, tells the server.
 */
export function LanguageSwitch({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const { changeLanguage } = useAuth();
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const next: Language = current === 'de' ? 'en' : 'de';
  // The accessible name starts with the visible code (WCAG 2.5.3 label in name).
  const label = t('language.switchLabel', { code: current.toUpperCase(), language: t(`language.names.${next}`) });
  return (
    <button
      type="button"
      onClick={() => void changeLanguage(next)}
      aria-label={label}
      title={label}
      className={`inline-flex h-10 items-center justify-center gap-1.5 rounded-lg px-2.5 text-sm font-semibold tracking-wide text-muted transition-colors hover:bg-surface-2 hover:text-text ${className}`}
    >
      <Languages aria-hidden className="size-4" />
      <span>{current.toUpperCase()}</span>
    </button>
  );
}
