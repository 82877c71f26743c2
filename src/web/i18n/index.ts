import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, STORAGE_KEYS, type Language } from '../../common/constants.js';
import { storage } from '../lib/storage.js';
import de from './de.json';
import en from './en.json';

/**
 * Translations: every UI text goes through t(), with its key in de.json and en.json. Language: the stored
 * choice, else the browser's (German when it begins with "de"), else English; a signed-in user's
 * language_preference wins (lib/auth.tsx applies it).
 * A missing key shows its last segment in readable form: "auth.passwordTooShort" → "Password too short".
 */
export function readableKey(key: string): string {
  const last = key.split('.').pop() ?? key;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function detectLanguage(): Language {
  const stored = storage.get(STORAGE_KEYS.language);
  if (isLanguage(stored)) return stored;
  const browser = globalThis.navigator?.language ?? '';
  return browser.toLowerCase().startsWith('de') ? 'de' : 'en';
}

void i18n.use(initReactI18next).init({
  resources: { de: { translation: de }, en: { translation: en } },
  lng: detectLanguage(),
  fallbackLng: false,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  parseMissingKeyHandler: (key: string) => readableKey(key),
});

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

/** Switches and persists the interface language (the server is told by auth.tsx when signed in). */
export function setLanguage(lng: Language): Promise<unknown> {
  storage.set(STORAGE_KEYS.language, lng);
  return i18n.changeLanguage(lng);
}

export default i18n;
