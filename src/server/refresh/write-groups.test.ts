import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/dialects.js';
import { createRefreshEnv, type RefreshEnv } from '../test/refresh-env.js';
import { WriteGroups } from './write-groups.js';

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
  });
}
