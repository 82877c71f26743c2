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
  });
}
