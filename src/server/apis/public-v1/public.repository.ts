import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * The queries only the public API needs (its tokens, a few per-feed figures); everything else goes through the
 * feeds and reading repositories, and every state change through articles/reading-state.ts (its 30-day read-all is
 * markAllRead with publishedSince). Every query is scoped to its user (docs/ARCHITECTURE.md "Rules" 2).
 */

/* ───────────── API tokens (table api_tokens, migrations 0005 and 0006) ───────────── */

export async function insertToken(db: Db, row: { user_id: number; token_hash: string; session_epoch: number; created_at: string; expires_at: string }): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/**
 * Removes the user's expired tokens and, beyond the newest `keep`, the least recently used ones: a script that
 * authenticates on every run must not pile up a year's worth of live tokens.
 */
export async function pruneTokens(db: Db, userId: number, now: string, keep: number): Promise<void> {
  await db.deleteFrom('api_tokens').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
  const surplus = await db
    .selectFrom('api_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy(sql`coalesce(last_used_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1_000_000)
    .execute();
  if (surplus.length > 0)
    await db
      .deleteFrom('api_tokens')
      .where(
        'id',
        'in',
        surplus.map((r) => r.id),
      )
      .execute();
}

/**
 * The token with this hash, if its user still exists and has not ended every sign-in since it was issued
 * (a password change or reset moves users.session_epoch on). One unique-index read per request.
 */
export async function findLiveToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', (j) => j.onRef('users.id', '=', 'api_tokens.user_id').onRef('users.session_epoch', '=', 'api_tokens.session_epoch'))
    .select(['api_tokens.id', 'api_tokens.user_id', 'api_tokens.expires_at', 'api_tokens.last_used_at'])
    .where('api_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchToken(db: Db, tokenId: number, now: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
}

/* ───────────── feeds ───────────── */

/** Filters per feed of the user (feeds without filters are absent). */
export async function filterCounts(db: Db, userId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('feed_filters')
    .select(['feed_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .groupBy('feed_id')
    .execute();
  return new Map(rows.map((r) => [r.feed_id, Number(r.n)]));
}

/**
 * Icons sent inline as base64 on request. The feeds list inlines only tiny icons (feeds/icons.ts); an API client
 * that asks for icons wants them all, but a site's 256 KB logo in every answer would be absurd: above this many
 * base64 characters (48 KB of image) only the icon's address is given.
 */
export const API_INLINE_ICON_MAX_CHARS = 65_536;

/** The icons of the user's feeds (all, or the given ones) that are small enough to inline. */
export async function feedIcons(db: Db, userId: number, feedIds?: readonly number[]): Promise<Map<number, { data: string; type: string | null }>> {
  if (feedIds && feedIds.length === 0) return new Map();
  let q = db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select(['feeds.id', 'feeds.icon_data', 'feeds.icon_type'])
    .where('subscriptions.user_id', '=', userId)
    .where('feeds.icon_data', 'is not', null)
    .where(sql<boolean>`length(feeds.icon_data) <= ${sql.lit(API_INLINE_ICON_MAX_CHARS)}`);
  if (feedIds) q = q.where('feeds.id', 'in', [...feedIds]);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.id, { data: r.icon_data!, type: r.icon_type }]));
}
