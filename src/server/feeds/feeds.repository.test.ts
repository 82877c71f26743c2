import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createTestDatabase, DIALECTS } from '../test/dialects.js';
import { createTestUser } from '../test/test-app.js';
import { acquireLeases, claimDueFeeds, ensureFeed, findFeed, recordNotModified } from './feeds.repository.js';
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

for (const dialect of DIALECTS) {
  describe(`leases and 304s of several feeds in one statement (${dialect})`, () => {
    let database: Database;
    const now = '2026-11-22T12:00:00.000Z';
    const until = '2026-11-22T12:00:30.000Z';
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(() => database.destroy());

    const feed = async (url: string) => (await ensureFeed(database.db, url, '2026-11-22T11:00:00.000Z')).feed.id;

    it('acquireLeases leases the free feeds and those whose lease ran out, not one another worker holds', async () => {
      const [free, held, expired] = [await feed('https://a.example/1'), await feed('https://a.example/2'), await feed('https://a.example/3')];
      await database.db.updateTable('feeds').set({ lease_until: '2026-11-22T12:00:10.000Z', lease_owner: 'other' }).where('id', '=', held).execute();
      await database.db.updateTable('feeds').set({ lease_until: '2026-11-22T11:59:00.000Z', lease_owner: 'dead' }).where('id', '=', expired).execute();

      const rows = await acquireLeases(database.db, dialect, [held, free, expired, 999_999], 'me', now, until);
      expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([free, expired].sort((a, b) => a - b));
      const row = rows.find((r) => r.id === free)!;
      expect(row).toMatchObject({ url: 'https://a.example/1', lease_until: until, lease_owner: 'me', next_check_at: now, error_count: 0 });
      expect(row).not.toHaveProperty('icon_data');
      expect(await findFeed(database.db, held)).toMatchObject({ lease_owner: 'other', lease_until: '2026-11-22T12:00:10.000Z' });
      expect(await findFeed(database.db, expired)).toMatchObject({ lease_owner: 'me', lease_until: until });
      // Leased now: a second ask gets nothing.
      expect(await acquireLeases(database.db, dialect, [free, expired], 'someone else', now, until)).toEqual([]);
    });

    it('acquireLeases run at once over overlapping feeds lease each feed to exactly one of them, without a deadlock', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 60; i++) ids.push(await feed(`https://c.example/${i}`));
      for (let round = 0; round < 3; round++) {
        await database.db.updateTable('feeds').set({ lease_until: null, lease_owner: null }).where('id', 'in', ids).execute();
        // Six workers, each asking for every feed in an order of its own (reversed, rotated).
        const orders = Array.from({ length: 6 }, (_, w) => {
          const rotated = [...ids.slice(w * 10), ...ids.slice(0, w * 10)];
          return w % 2 ? rotated.reverse() : rotated;
        });
        const leased = await Promise.all(orders.map((order, w) => acquireLeases(database.db, dialect, order, `worker-${w}`, now, until)));
        const all = leased.flatMap((rows) => rows.map((r) => r.id));
        expect(all.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
        for (const [w, rows] of leased.entries()) for (const r of rows) expect(r.lease_owner).toBe(`worker-${w}`);
      }
    });

    it('recordNotModified writes each row its own validators and next check, clears the error and releases the lease', async () => {
      const ids = [await feed('https://b.example/1'), await feed('https://b.example/2'), await feed('https://b.example/3')];
      await database.db
        .updateTable('feeds')
        .set({ title: 'Kept', error_count: 3, last_error: 'boom', last_error_code: 'FETCH_HTTP_ERROR', lease_until: until, lease_owner: 'me', etag: '"old"' })
        .where('id', 'in', ids)
        .execute();
      // Validators as servers send them, with the characters an array or JSON literal must escape.
      const etags = ['W/"a,b{c}"', '"back\\slash \'quote\' NULL"', null];
      await recordNotModified(
        database.db,
        ids.map((id, i) => ({
          id,
          fetchedAt: `2026-11-22T12:0${i}:00.000Z`,
          etag: etags[i],
          lastModified: i === 1 ? null : 'Sat, 21 Nov 2026 10:00:00 GMT',
          nextCheckAt: `2026-11-22T13:0${i}:00.000Z`,
        })),
      );
      for (const [i, id] of ids.entries()) {
        expect(await findFeed(database.db, id)).toMatchObject({
          title: 'Kept',
          etag: etags[i],
          last_modified: i === 1 ? null : 'Sat, 21 Nov 2026 10:00:00 GMT',
          last_fetched_at: `2026-11-22T12:0${i}:00.000Z`,
          updated_at: `2026-11-22T12:0${i}:00.000Z`,
          next_check_at: `2026-11-22T13:0${i}:00.000Z`,
          error_count: 0,
          last_error: null,
          last_error_code: null,
          lease_until: null,
          lease_owner: null,
        });
      }
    });
  });
}
