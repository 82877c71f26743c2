import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/dialects.js';
import { createRefreshEnv, type RefreshEnv } from '../test/refresh-env.js';
import { WriteGroups, type BatchWrite } from './write-groups.js';

for (const dialect of DIALECTS) {
  describe(`write groups (${dialect})`, () => {
    let env: RefreshEnv | undefined;
    afterEach(async () => {
      await env?.close();
      env = undefined;
    });

    it('commits jobs that arrive together in one transaction, and a failing job loses only its own writes', async () => {
      env = await createRefreshEnv(dialect);
      const db = env.database.db;
      const now = env.clock.now().toISOString();
      const feed = (url: string) =>
        db.insertInto('feeds').values({ url, title: '', next_check_at: now, error_count: 0, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
      const ids = [await feed('https://a.example/feed'), await feed('https://b.example/feed'), await feed('https://c.example/feed')].map((r) => r.id);
      const setTitle = (trx: typeof db, id: number, title: string) => trx.updateTable('feeds').set({ title }).where('id', '=', id);

      const groups = new WriteGroups(db, { maxJobs: 8, concurrency: 1, windowMs: 50 });
      const transactions = new Set<unknown>();
      const results = await Promise.allSettled([
        groups.run(async (trx) => {
          transactions.add(trx);
          await setTitle(trx, ids[0], 'A').execute();
          return 'a';
        }),
        groups.run(async (trx) => {
          transactions.add(trx);
          await setTitle(trx, ids[1], 'B').execute();
          throw new Error('this feed failed');
        }),
        groups.run(async (trx) => {
          transactions.add(trx);
          await setTitle(trx, ids[2], 'C').execute();
          return 'c';
        }),
      ]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['a', 'this feed failed', 'c']);
      // One group transaction first; after its rollback each job ran again in its own.
      expect(transactions.size).toBe(4);
      const titles = await db.selectFrom('feeds').select(['id', 'title']).where('id', 'in', ids).orderBy('id').execute();
      expect(titles.map((t) => t.title)).toEqual(['A', '', 'C']);

      // Without a failure, the group is one transaction and every job's writes are there.
      transactions.clear();
      const ok = await Promise.all(ids.map((id, i) => groups.run(async (trx) => (transactions.add(trx), await setTitle(trx, id, `T${i}`).execute(), i))));
      expect(ok).toEqual([0, 1, 2]);
      expect(transactions.size).toBe(1);
      expect((await db.selectFrom('feeds').select('title').where('id', 'in', ids).orderBy('id').execute()).map((t) => t.title)).toEqual(['T0', 'T1', 'T2']);
    });

    it("runs what the jobs leave for the end once, after every job, with all their items; a lone writer's group starts at once", async () => {
      env = await createRefreshEnv(dialect);
      const db = env.database.db;
      const now = env.clock.now().toISOString();
      const ids: number[] = [];
      for (const url of ['https://d.example/feed', 'https://e.example/feed']) {
        const row = await db
          .insertInto('feeds')
          .values({ url, title: '', next_check_at: now, error_count: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(row.id);
      }
      const events: string[] = [];
      // Titles every job left for the end, written in one go: it sees every job's own writes.
      const writeTitles = async (trx: typeof db, items: { id: number; title: string }[]) => {
        const before = await trx.selectFrom('feeds').select('description').where('id', 'in', ids).orderBy('id').execute();
        events.push(`end ${items.map((i) => i.title).join(',')} after ${before.map((b) => b.description).join(',')}`);
        for (const i of items) await trx.updateTable('feeds').set({ title: i.title }).where('id', '=', i.id).execute();
      };
      let writers = 2;
      const groups = new WriteGroups(db, { maxJobs: 8, concurrency: 1, windowMs: 60_000, writers: () => writers });
      const started = Date.now();
      await Promise.all(
        ids.map((id, i) =>
          groups.run(async (trx, end) => {
            await trx
              .updateTable('feeds')
              .set({ description: `job ${i}` })
              .where('id', '=', id)
              .execute();
            end.add(writeTitles, [{ id, title: `T${i}` }]);
            events.push(`job ${i}`);
          }),
        ),
      );
      expect(events).toEqual(['job 0', 'job 1', 'end T0,T1 after job 0,job 1']);
      expect((await db.selectFrom('feeds').select('title').where('id', 'in', ids).orderBy('id').execute()).map((t) => t.title)).toEqual(['T0', 'T1']);

      // One writer left: its job does not wait out the window; nor does a job whose companion finished without one.
      writers = 1;
      await groups.run(async (trx) => void (await trx.updateTable('feeds').set({ title: 'alone' }).where('id', '=', ids[0]).execute()));
      writers = 2;
      const waiting = groups.run(async (trx) => void (await trx.updateTable('feeds').set({ title: 'left alone' }).where('id', '=', ids[1]).execute()));
      writers = 1;
      groups.writerDone();
      await waiting;
      expect(Date.now() - started).toBeLessThan(30_000);
      expect((await db.selectFrom('feeds').select('title').where('id', 'in', ids).orderBy('id').execute()).map((t) => t.title)).toEqual(['alone', 'left alone']);
    });

    it('writes the batch items of a group in one statement without a transaction; when it fails, each item alone', async () => {
      env = await createRefreshEnv(dialect);
      const db = env.database.db;
      const now = env.clock.now().toISOString();
      const ids: number[] = [];
      for (const url of ['https://f.example/feed', 'https://g.example/feed', 'https://h.example/feed']) {
        const row = await db
          .insertInto('feeds')
          .values({ url, title: '', next_check_at: now, error_count: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(row.id);
      }
      const calls: { titles: string[]; inTransaction: boolean }[] = [];
      // One statement's worth: it fails as a whole when any item is bad, as a constraint violation would.
      const writeTitles: BatchWrite<{ id: number; title: string }> = async (trx, items) => {
        calls.push({ titles: items.map((i) => i.title), inTransaction: trx.isTransaction });
        if (items.some((i) => i.title === 'bad')) throw new Error('bad title');
        for (const i of items) await trx.updateTable('feeds').set({ title: i.title }).where('id', '=', i.id).execute();
      };
      const groups = new WriteGroups(db, { maxJobs: 1, maxEntries: 8, concurrency: 1, windowMs: 60_000, writers: () => 3 });
      await Promise.all(ids.map((id, i) => groups.add(writeTitles, { id, title: `T${i}` })));
      expect(calls).toEqual([{ titles: ['T0', 'T1', 'T2'], inTransaction: false }]);
      expect((await db.selectFrom('feeds').select('title').where('id', 'in', ids).orderBy('id').execute()).map((t) => t.title)).toEqual(['T0', 'T1', 'T2']);

      calls.length = 0;
      const results = await Promise.allSettled(ids.map((id, i) => groups.add(writeTitles, { id, title: i === 1 ? 'bad' : `U${i}` })));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(calls.map((c) => c.titles)).toEqual([['U0', 'bad', 'U2'], ['U0'], ['bad'], ['U2']]);
      expect((await db.selectFrom('feeds').select('title').where('id', 'in', ids).orderBy('id').execute()).map((t) => t.title)).toEqual(['U0', 'T1', 'U2']);

      // With a job in the group, the items are written at the end of its transaction, and do not count as jobs: a
      // group of one job (maxJobs 1) still takes them.
      calls.length = 0;
      const events: string[] = [];
      const items = [groups.add(writeTitles, { id: ids[0], title: 'V0' }), groups.add(writeTitles, { id: ids[1], title: 'V1' })];
      const job = groups.run(async (trx) => {
        events.push(`job in transaction: ${trx.isTransaction}`);
        await trx.updateTable('feeds').set({ description: 'job' }).where('id', '=', ids[2]).execute();
        return 'done';
      });
      expect(await job).toBe('done');
      await Promise.all(items);
      expect(events).toEqual(['job in transaction: true']);
      expect(calls).toEqual([{ titles: ['V0', 'V1'], inTransaction: true }]);
      expect((await db.selectFrom('feeds').select('title').where('id', 'in', ids).orderBy('id').execute()).map((t) => t.title)).toEqual(['V0', 'V1', 'U2']);

      // A group holds maxEntries at most: the rest go to the next.
      calls.length = 0;
      const small = new WriteGroups(db, { maxJobs: 1, maxEntries: 2, concurrency: 1, windowMs: 60_000, writers: () => 3 });
      await Promise.all(ids.map((id, i) => small.add(writeTitles, { id, title: `W${i}` })));
      expect(calls.map((c) => c.titles)).toEqual([['W0', 'W1'], ['W2']]);
    });
  });
}
