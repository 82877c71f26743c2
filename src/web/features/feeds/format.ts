import type { TFunction } from 'i18next';
import type { Feed } from '../../../common/api.js';

/**
 * A UTC time from the API as a Date. The wire form has a Z; the spec's older zone-less form is read as UTC too
 * (decisions.md "Times are UTC"), never as local time.
 */
export function parseUtc(value: string): Date {
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim());
  return new Date(hasZone ? value : `${value.trim().replace(' ', 'T')}Z`);
}

/** Date and time in the user's locale (German: day first, 24 h), e.g. "22.11.2026, 07:08". */
export function formatDateTime(value: string, language: string): string {
  const date = parseUtc(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** "Muted permanently" / "Muted until <local time>", or null when the feed is not muted (dashboard.md §9). */
export function mutedNotice(feed: Pick<Feed, 'is_muted' | 'muted_permanently' | 'muted_until'>, t: TFunction, language: string): string | null {
  if (!feed.is_muted) return null;
  if (feed.muted_permanently || !feed.muted_until) return t('feeds.page.mutedPermanently');
  return t('feeds.page.mutedUntil', { time: formatDateTime(feed.muted_until, language) });
}

/** A feed's last refresh problem in the user's language (feedErrors.<CODE>), falling back to a generic text. */
export function feedErrorText(code: string, t: TFunction, exists: (key: string) => boolean): string {
  const key = `feedErrors.${code}`;
  return exists(key) ? t(key) : t('feeds.page.unknownError');
}
