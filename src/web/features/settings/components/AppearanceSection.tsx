import { Palette } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../../../common/constants.js';
import { useAuth } from '../../../lib/auth.js';
import { useTheme } from '../../../lib/theme.js';
import { Switch } from '../../../components/ui/Switch.js';
import { ReadingSetting } from './ReadingSetting.js';
import { SettingsSection } from './SettingsSection.js';

/**
 * Settings section 5, Appearance (dashboard.md §2): the dark-mode switch with title and description, and
 * the interface language (persisted and, signed in, sent to the server by changeLanguage), and Reading: when
 * articles are marked read (ReadingSetting).
 */
export function AppearanceSection() {
  const { t, i18n } = useTranslation();
  const { theme, setTheme } = useTheme();
  const { changeLanguage } = useAuth();
  const current = i18n.language as Language;
  const id = useId();

  return (
    <SettingsSection icon={Palette} title={t('settings.appearance.title')} description={t('settings.appearance.description')}>
      <div className="flex flex-col gap-6">
        <Switch
          checked={theme === 'dark'}
          onChange={(dark) => setTheme(dark ? 'dark' : 'light')}
          label={t('settings.appearance.darkMode')}
          description={t('settings.appearance.darkModeDescription')}
        />
        <div className="flex flex-col gap-3 border-t border-border pt-5 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0">
            <p id={`${id}-language`} className="text-sm font-medium text-text">
              {t('settings.appearance.language')}
            </p>
            <p id={`${id}-language-description`} className="mt-0.5 text-sm text-muted">
              {t('settings.appearance.languageDescription')}
            </p>
          </div>
          <div
            role="radiogroup"
            aria-labelledby={`${id}-language`}
            aria-describedby={`${id}-language-description`}
            className="inline-flex shrink-0 self-start rounded-lg border border-border bg-surface-2 p-1"
          >
            {LANGUAGES.map((lng) => (
              <label key={lng} className="relative cursor-pointer">
                <input type="radio" name="interface-language" value={lng} checked={current === lng} onChange={() => void changeLanguage(lng)} className="peer sr-only" />
                <span
                  lang={lng}
                  className="flex min-h-9 items-center rounded-md px-4 text-sm font-medium text-muted transition-colors hover:text-text peer-checked:bg-surface peer-checked:text-text peer-checked:shadow-sm peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent"
                >
                  {t(`settings.languages.${lng}`)}
                </span>
              </label>
            ))}
          </div>
        </div>
        <ReadingSetting />
      </div>
    </SettingsSection>
  );
}
