import type { Kysely, Migration } from 'kysely';

/** What every migration module exports. */
interface MigrationModule {
  up(db: Kysely<any>): Promise<void>;
  down(db: Kysely<any>): Promise<void>;
}

/**
 * A migration whose module is loaded when it runs: a database that is up to date (every start but the first after
 * an upgrade) loads none of them, and 0004's search backfill brings an HTML parser (docs/decisions.md "Process
 * memory: modules on first use"). A module that cannot be loaded fails its migration, so the start fails.
 */
const onRun = (load: () => Promise<MigrationModule>): Migration => ({
  up: async (db) => (await load()).up(db),
  down: async (db) => (await load()).down(db),
});

/**
 * Every migration, in order. A static list (rather than a folder scan) works the same from
 * TypeScript sources under tsx/vitest and from the compiled dist/.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': onRun(() => import('./0001_accounts.js')),
  '0002_session_epoch': onRun(() => import('./0002_session_epoch.js')),
  '0003_feeds': onRun(() => import('./0003_feeds.js')),
  '0004_reading': onRun(() => import('./0004_reading.js')),
  '0005_organising_and_apps': onRun(() => import('./0005_organising_and_apps.js')),
  '0006_public_api': onRun(() => import('./0006_public_api.js')),
  '0007_lease_owner': onRun(() => import('./0007_lease_owner.js')),
  '0008_article_teaser': onRun(() => import('./0008_article_teaser.js')),
  '0009_reading_flow': onRun(() => import('./0009_reading_flow.js')),
  '0010_feed_posting_frequency': onRun(() => import('./0010_feed_posting_frequency.js')),
  '0011_reading_list_counters': onRun(() => import('./0011_reading_list_counters.js')),
  '0012_feed_list_version': onRun(() => import('./0012_feed_list_version.js')),
  '0013_articles_lz4': onRun(() => import('./0013_articles_lz4.js')),
};
