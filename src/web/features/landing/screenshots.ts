import { useTranslation } from 'react-i18next';
import { useTheme } from '../../lib/theme.js';

/**
 * The landing page's product pictures, produced by `npm run screenshots` (scripts/screenshots.ts) from a running
 * Feeder in each interface language and theme, so the English page shows an English Feeder and dark mode a dark
 * one. The picture follows the page's language and the theme chosen in the header (not only the system's), hence
 * a switch here rather than a media query.
 */
export const SCREENSHOTS = {
  dashboard: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

export type ScreenshotKind = keyof typeof SCREENSHOTS;

export function screenshotSrc(kind: ScreenshotKind, language: string, theme: 'light' | 'dark'): string {
  return `/screenshots/${kind}-${language === 'de' ? 'de' : 'en'}-${theme}.webp`;
}

/** The picture of `kind` for the current language and theme, with its size. */
export function useScreenshot(kind: ScreenshotKind): { src: string; width: number; height: number } {
  const { i18n } = useTranslation();
  const { theme } = useTheme();
  return { src: screenshotSrc(kind, i18n.language, theme), ...SCREENSHOTS[kind] };
}
