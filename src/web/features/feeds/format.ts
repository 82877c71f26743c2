import type { TFunction } from 'i18next';
import type { Feed } from '../../../common/api.js';
import { formatDateTime } from '../../lib/dates.js';

/**
 * Date and time in the user's language, in the app's one style (lib/dates, docs/decisions.md "One date style per
 * language"): "22.11.2026, 07:08" / "22 Nov 2026, 07:08".
 */
export { formatDateTime, parseUtc } from '../../lib/dates.js';

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
