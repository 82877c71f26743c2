import type { Database } from './db/database.js';
import { nowIso } from './db/database.js';
import { cleanupArticles } from './refresh/cleanup.js';

/** How often background maintenance runs. */
export const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes what can never be used again: expired or spent mail tokens, and refresh tokens past their expiry.
 * Returns how many rows went. Safe to run from several processes at once (plain deletes).
 */
export async function purgeExpiredTokens(database: Database, now = nowIso()): Promise<number> {
  const a = await database.db
    .deleteFrom('email_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  const b = await database.db.deleteFrom('refresh_tokens').where('expires_at', '<', now).executeTakeFirst();
  return Number(a.numDeletedRows) + Number(b.numDeletedRows);
}

/**
 * Hourly background work of `feeder all` and `feeder worker`: expired tokens, and old articles nobody keeps
 * (decisions.md "Old articles"). The feed refresh itself is the refresh engine's (src/server/refresh).
 */
export function startMaintenance(database: Database, log: (msg: string) => void, options: { retentionDays: number }): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      const tokens = await purgeExpiredTokens(database);
      if (tokens > 0) log(`purged ${tokens} expired tokens`);
      const removed = await cleanupArticles(database, { retentionDays: options.retentionDays });
      if (removed.articles > 0 || removed.feeds > 0) log(`removed ${removed.articles} old articles and ${removed.feeds} unsubscribed feeds`);
    })().catch((err) => log(`maintenance failed: ${err instanceof Error ? err.message : err}`));
  };
  tick();
  const timer = setInterval(tick, MAINTENANCE_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
