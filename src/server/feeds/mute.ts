import type { ExpressionBuilder } from 'kysely';
import type { Tables } from '../db/tables.js';

/**
 * Mute state (dashboard.md §4 "Feed mute", decisions.md): muted permanently, or until muted_until (a timed mute
 * ends by itself, nothing has to clear it). Muted feeds are left out of lists, counts and search, and state
 * changes on their articles are refused (403).
 */
export interface MuteState {
  muted_permanently: number;
  muted_until: string | null;
}

export function isMuted(s: MuteState, now: string): boolean {
  return s.muted_permanently === 1 || (s.muted_until !== null && s.muted_until > now);
}

/** SQL: the subscription (alias `subscriptions`) is muted at `now`. */
export function mutedSql(eb: ExpressionBuilder<Tables, 'subscriptions'>, now: string) {
  return eb.or([eb('subscriptions.muted_permanently', '=', 1), eb('subscriptions.muted_until', '>', now)]);
}

/** SQL: the subscription is not muted at `now` (NULL-safe: a NULL muted_until is no mute, never an unknown). */
export function notMutedSql(eb: ExpressionBuilder<Tables, 'subscriptions'>, now: string) {
  return eb.and([eb('subscriptions.muted_permanently', '=', 0), eb.or([eb('subscriptions.muted_until', 'is', null), eb('subscriptions.muted_until', '<=', now)])]);
}

/** SQL: the feed ids a user has muted at `now`, as a subquery for `user_articles.feed_id not in (…)`. */
export function mutedFeedIds(eb: ExpressionBuilder<Tables, 'user_articles'>, userId: number, now: string) {
  return eb
    .selectFrom('subscriptions')
    .select('subscriptions.feed_id')
    .where('subscriptions.user_id', '=', userId)
    .where((w) => mutedSql(w, now));
}

/**
 * SQL: user_articles.feed_id is not one of the user's muted feeds at `now` (a subquery of the few muted
 * subscriptions). The condition every list, count and mark-read of the web app and the reader APIs applies.
 */
export function notMutedArticle(eb: ExpressionBuilder<Tables, 'user_articles'>, userId: number, now: string) {
  return eb('user_articles.feed_id', 'not in', mutedFeedIds(eb, userId, now));
}
