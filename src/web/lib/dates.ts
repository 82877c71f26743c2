import { differenceInHours, formatDistanceStrict } from 'date-fns';
import { de } from 'date-fns/locale/de';
import { enUS } from 'date-fns/locale/en-US';

/**
 * The app's one date style per language (dashboard.md §1: German formatting, day first; docs/decisions.md
 * "One date style per language"): German "22.11.2026, 17:48", English "22 Nov 2026, 17:48". Every screen that
 * shows a time (article cards, feed management, settings) formats it here, so the styles cannot drift apart.
 */

/**
 * A UTC time from the API as a Date. The wire form has a Z; the spec's older zone-less form is read as UTC too
 * (docs/ARCHITECTURE.md "Rules" 10), never as local time.
 */
export function parseUtc(value: string): Date {
  const trimmed = value.trim();
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed);
  return new Date(hasZone ? trimmed : `${trimmed.replace(' ', 'T')}Z`);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(language: string, timeZone?: string): Intl.DateTimeFormat {
  const locale = language.startsWith('de') ? 'de-DE' : 'en-GB';
  const key = `${locale}|${timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    const german = locale === 'de-DE';
    f = new Intl.DateTimeFormat(locale, {
      day: german ? '2-digit' : 'numeric',
      month: german ? '2-digit' : 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    });
    formatters.set(key, f);
  }
  return f;
}

/**
 * Date and time in the user's language: "22.11.2026, 17:48" (German) or "22 Nov 2026, 17:48" (English), in the
 * browser's time zone (`timeZone` for tests). An unreadable value comes back as it is.
 */
export function formatDateTime(value: string | Date, language: string, timeZone?: string): string {
  const date = typeof value === 'string' ? parseUtc(value) : value;
  if (Number.isNaN(date.getTime())) return typeof value === 'string' ? value : '';
  return formatter(language, timeZone).format(date);
}

/**
 * An article's date (dashboard.md §2 "Article card"): within the last day relative ("vor 3 Stunden",
 * "3 hours ago"), older ones as formatDateTime. `full` is always the absolute form (the tooltip), `iso` the
 * machine-readable one for <time>; all three are '' for an unreadable value.
 */
export function formatPublished(value: string, language: string, now: Date = new Date(), timeZone?: string): { text: string; full: string; iso: string } {
  const date = parseUtc(value);
  if (Number.isNaN(date.getTime())) return { text: '', full: '', iso: '' };
  const full = formatDateTime(date, language, timeZone);
  const hours = differenceInHours(now, date);
  const locale = language.startsWith('de') ? de : enUS;
  const text = hours >= 0 && hours < 24 ? formatDistanceStrict(date, now, { addSuffix: true, locale }) : full;
  return { text, full, iso: date.toISOString() };
}
