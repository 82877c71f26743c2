import type { Migration } from 'kysely';
import * as m0001 from './0001_accounts.js';
import * as m0002 from './0002_session_epoch.js';
import * as m0003 from './0003_feeds.js';
import * as m0004 from './0004_reading.js';
import * as m0005 from './0005_organising_and_apps.js';
import * as m0006p from './0006_public_api.js';
import * as m0007 from './0007_lease_owner.js';
import * as m0008 from './0008_article_teaser.js';
import * as m0009 from './0009_reading_flow.js';
import * as m0010 from './0010_feed_posting_frequency.js';
import * as m0011 from './0011_reading_list_counters.js';
import * as m0012 from './0012_feed_list_version.js';

/**
 * Every migration, in order. A static list (rather than a folder scan) works the same from
 * TypeScript sources under tsx/vitest and from the compiled dist/.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': m0001,
  '0002_session_epoch': m0002,
  '0003_feeds': m0003,
  '0004_reading': m0004,
  '0005_organising_and_apps': m0005,
  '0006_public_api': m0006p,
  '0007_lease_owner': m0007,
  '0008_article_teaser': m0008,
  '0009_reading_flow': m0009,
  '0010_feed_posting_frequency': m0010,
  '0011_reading_list_counters': m0011,
  '0012_feed_list_version': m0012,
};
