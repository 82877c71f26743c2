import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../config.js';
import type { Database, Dialect } from '../db/database.js';
import { ensureFeed } from '../feeds/feeds.repository.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import { normalizeFeedUrl } from '../feeds/feed-url.js';
import { createRefreshEngine, type RefreshEngine, type RefreshEngineDeps } from '../refresh/engine.js';
import { createTestDatabase } from './dialects.js';
import { createTestUser, TestClock, uniqueEmail } from './test-app.js';

/**
 * A database, a config that may fetch from 127.0.0.1 and a refresh engine, for feed-engine tests:
 *
 *   const env = await createRefreshEnv('sqlite');
 *   const userId = await env.user();
 *   const feedId = await env.subscribe(userId, server.url('/a.xml'));
 *   await env.engine.refreshFeed(feedId);
 */
export interface RefreshEnv {
  config: Readonly<Config>;
  database: Database;
  clock: TestClock;
  engine: RefreshEngine;
  user(): Promise<number>;
  /** Creates (or finds) the feed of this URL and subscribes the user; returns the feed id. */
  subscribe(userId: number, url: string): Promise<number>;
  close(): Promise<void>;
}

export async function createRefreshEnv(
  dialect: Dialect,
  options: { env?: Record<string, string>; database?: Database; engine?: Partial<RefreshEngineDeps> } = {},
): Promise<RefreshEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'feeder-refresh-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET: 'test-secret-0123456789abcdef',
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_FEED_HOSTS: 'true',
    FEED_FETCH_TIMEOUT: '5',
    ...options.env,
  });
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(dialect));
  const clock = new TestClock();
  const engine = createRefreshEngine({ config, database, role: 'all', now: clock.now, ...options.engine });
  return {
    config,
    database,
    clock,
    engine,
    async user() {
      const { user } = await createTestUser(database.db, { email: uniqueEmail('reader'), name: 'Reader' }, clock.now);
      return user.id;
    },
    async subscribe(userId, url) {
      const normal = normalizeFeedUrl(url);
      if (!normal) throw new Error(`not a feed URL: ${url}`);
      const now = clock.now().toISOString();
      const { feed } = await ensureFeed(database.db, normal, now);
      await subscribe(database.db, userId, feed.id, now);
      return feed.id;
    },
    async close() {
      await engine.stop(1000);
      if (ownsDatabase) await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
