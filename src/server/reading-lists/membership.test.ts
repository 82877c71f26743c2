import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingListCounts } from '../articles/reading.repository.js';
import type { Database } from '../db/database.js';
import { ensureFeed } from '../feeds/feeds.repository.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import { createTestDatabase, DIALECTS } from '../test/dialects.js';
import { createTestUser } from '../test/test-app.js';
import { RECOMPUTE_BATCH, recomputeSmartList } from './membership.js';
import { createReadingList } from './reading-lists.repository.js';

/**
 * The smart-list recompute (membership.ts) over more articles than one step holds: it covers them all, in steps,
 * and a newer change of the list's rules stops an older pass (its own pass takes over).
 */
for (const dialect of DIALECTS) {
  describe(`smart-list recompute (${dialect})`, () => {
    let database: Database;
    let userId: number;
    const total = RECOMPUTE_BATCH * 2 + 17;
    const rules = (value: string) => JSON.stringify([{ rule_type: 'keyword', rule_scope: 'title', rule_value: value, include_all_feeds: true, selected_feeds: [] }]);

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const db = database.db;
      userId = (await createTestUser(db)).user.id;
      const now = new Date().toISOString();
      const feedId = (await ensureFeed(db, 'http://recompute.test/feed.xml', now)).feed.id;
      const rows = Array.from({ length: total }, (_, i) => ({
        feed_id: feedId,
        guid_hash: `h${i}`,
        guid: `g${i}`,
        title: i % 2 === 0 ? `Even ${i}` : `Odd ${i}`,
        content_hash: 'x',
        published_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        created_at: now,
        last_seen_at: now,
      }));
      for (let i = 0; i < rows.length; i += 200)
        await db
          .insertInto('articles')
          .values(rows.slice(i, i + 200))
          .execute();
      await subscribe(db, userId, feedId, now);
    });
    afterAll(() => database.destroy());

    const members = async (listId: number) =>
      Number(
        (
          await database.db
            .selectFrom('reading_list_articles')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('list_id', '=', listId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    const counts = async (listId: number) => {
      const [row] = await readingListCounts(database.db, userId, new Date().toISOString(), { listId });
      return { total: row?.total, unread: row?.unread };
    };

    it('judges every article, a step at a time, yielding between steps', async () => {
      const list = await createReadingList(database.db, userId, { name: 'Even', description: '', is_smart: 1, rules: rules('even') }, new Date().toISOString());
      let steps = 0;
      await recomputeSmartList(database.db, list.id, { now: () => new Date(), between: async () => void steps++ });
      expect(await members(list.id)).toBe(Math.ceil(total / 2));
      expect(steps).toBeGreaterThanOrEqual(2);
      // The counters follow every step (all members unread, none filtered out).
      expect(await counts(list.id)).toEqual({ total: Math.ceil(total / 2), unread: Math.ceil(total / 2) });
    });

    it('stops when the rules change under it', async () => {
      const list = await createReadingList(database.db, userId, { name: 'Odd', description: '', is_smart: 1, rules: rules('odd') }, new Date().toISOString());
      await recomputeSmartList(database.db, list.id, {
        now: () => new Date(),
        // After the first step another save changes the rules (its own pass would follow).
        between: async () => {
          await database.db
            .updateTable('reading_lists')
            .set({ rules: rules('nothing'), updated_at: new Date(Date.now() + 1000).toISOString() })
            .where('id', '=', list.id)
            .execute();
        },
      });
      const after = await members(list.id);
      expect(after).toBeGreaterThan(0);
      expect(after).toBeLessThan(Math.floor(total / 2));
      expect(await counts(list.id)).toEqual({ total: after, unread: after });
    });
  });
}
