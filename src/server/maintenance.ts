import type { Database } from './db/database.js';
import type { Logger } from './log.js';
import { nowIso } from './db/database.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { fillMissingTeasers } from './articles/articles.repository.js';
import { cleanupArticles } from './refresh/cleanup.js';

/** How often background maintenance runs. */
export const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Removes what can never be used again: expired or spent mail tokens, refresh tokens past their expiry, and undo
 * tokens of read marks past theirs (docs/decisions.md "Reading flow: undo, mark-read setting, loading the original").
 * Returns how many rows went. Safe to run from several processes at once (plain deletes).
 */
export async function purgeExpiredTokens(database: Database, now = nowIso()): Promise<number> {
  const a = await database.db
    .deleteFrom('email_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  const b = await database.db.deleteFrom('refresh_tokens').where('expires_at', '<', now).executeTakeFirst();
  const c = await database.db.deleteFrom('read_undo').where('expires_at', '<', now).executeTakeFirst();
  return Number(a.numDeletedRows) + Number(b.numDeletedRows) + Number(c.numDeletedRows);
}

/** Articles per teaser chunk: each costs at most one bounded teaser (article-text.ts), so a chunk stays short. */
export const TEASER_CHUNK = 20;

/**
 * Gives every article stored before migration 0008 its teaser (docs/decisions.md "Parsing: teasers"), a chunk at
 * a time, yielding to the event loop between chunks so requests are answered in between. Returns how many.
 */
export async function backfillTeasers(database: Database): Promise<number> {
  let filled = 0;
  for (;;) {
    const n = await fillMissingTeasers(database.db, TEASER_CHUNK);
    filled += n;
    if (n < TEASER_CHUNK) return filled;
    await yieldToEventLoop();
  }
}

/**
 * Hourly background work of `feeder all` and `feeder worker`: expired tokens, old articles nobody keeps
 * (decisions.md "Old articles"), and teasers missing from articles stored before migration 0008. The feed
 * refresh itself is the refresh engine's (src/server/refresh).
 */
export function startMaintenance(database: Database, log: Pick<Logger, 'info' | 'error'>, options: { retentionDays: number }): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      const tokens = await purgeExpiredTokens(database);
      if (tokens > 0) log.info({ tokens }, `purged ${tokens} expired tokens`);
      const removed = await cleanupArticles(database, { retentionDays: options.retentionDays });
      if (removed.articles > 0 || removed.feeds > 0) log.info(removed, `removed ${removed.articles} old articles and ${removed.feeds} unsubscribed feeds`);
      const teasers = await backfillTeasers(database);
      if (teasers > 0) log.info({ teasers }, `stored the teasers of ${teasers} older articles`);
    })().catch((err: unknown) => log.error({ err }, 'maintenance failed'));
  };
  tick();
  const timer = setInterval(tick, MAINTENANCE_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
