import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createTestDatabase, DIALECTS } from '../test/dialects.js';
import { createTestUser } from '../test/test-app.js';
import { claimDueFeeds, ensureFeed } from './feeds.repository.js';
import { subscribe } from './subscriptions.repository.js';

for (const dialect of DIALECTS) {
  describe(`claimDueFeeds (${dialect})`, () => {
    let database: Database;
    const now = '2026-11-22T12:00:00.000Z';
    const later = '2026-11-22T12:15:00.000Z';

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const { user } = await createTestUser(database.db);
      for (let i = 0; i < 120; i++) {
        const { feed } = await ensureFeed(database.db, `https://example.com/${i}.xml`, now);
        await subscribe(database.db, user.id, feed.id, now);
      }
    });
    afterAll(() => database.destroy());

    it('hands every due feed to exactly one of many schedulers claiming at once', async () => {
      // Six schedulers with room for 150 claim 120 due feeds in one wave: each feed goes to exactly one of them.
      for (let round = 0; round < 5; round++) {
        await database.db.updateTable('feeds').set({ next_check_at: now }).execute();
        const claims = await Promise.all(Array.from({ length: 6 }, () => claimDueFeeds(database.db, dialect, now, later, 25)));
        const all = claims.flat();
        expect(all).toHaveLength(120);
        expect(new Set(all).size).toBe(120);
        expect(await claimDueFeeds(database.db, dialect, now, later, 500)).toEqual([]);
      }
    });
  });
}
