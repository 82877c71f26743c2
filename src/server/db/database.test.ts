import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, nowIso, openSqlite, type Database } from './database.js';
import { DIALECTS, createTestDatabase } from '../test/dialects.js';

for (const dialect of DIALECTS) {
  describe(`database (${dialect})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(() => database.destroy());

    it('migrations are idempotent: a second run applies nothing', async () => {
      let told = 0;
      expect(await migrateToLatest(database.db, { beforeRunning: () => void told++ })).toEqual([]);
      // Nothing to run: the start is not told that migrations run (bin/feeder.js keeps its start-up settings).
      expect(told).toBe(0);
    });

    it('runs the same parameterised statement again and again, and more distinct statements than are kept prepared', async () => {
      // PostgreSQL sends parameterised queries as named prepared statements (database.ts withNamedStatements); the
      // same text must keep answering with new parameters, and texts past the per-connection bound run unnamed.
      for (let i = 0; i < 8; i++) {
        const row = await sql<{ v: number }>`select ${i} + 1 as v`.execute(database.db);
        expect(Number(row.rows[0].v)).toBe(i + 1);
      }
      const distinct = await Promise.all(Array.from({ length: 700 }, (_, i) => sql<{ v: number }>`select ${sql.raw(String(i))} + ${1} as v`.execute(database.db)));
      expect(distinct.map((r) => Number(r.rows[0].v))).toEqual(Array.from({ length: 700 }, (_, i) => i + 1));
    });

    it('stores and reads users with generated ids and a unique e-mail', async () => {
      const now = nowIso();
      const row = { email: 'a@example.com', name: 'A', password_hash: 'x', is_verified: 0, language_preference: 'en', created_at: now, updated_at: now };
      const { id } = await database.db.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow();
      expect(typeof id).toBe('number');
      await expect(database.db.insertInto('users').values(row).execute()).rejects.toThrow();
      const back = await database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(back).toMatchObject({ email: 'a@example.com', is_verified: 0, created_at: now });
    });
  });
}

describe('migrations of a database that is behind', () => {
  it('are loaded and run after the start is told that they run', async () => {
    const database = openSqlite(':memory:');
    try {
      const told: string[][] = [];
      const tables = async () => (await database.db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('kysely_'));
      const applied = await migrateToLatest(database.db, { beforeRunning: () => void tables().then((names) => told.push(names)) });
      expect(applied[0]).toBe('0001_accounts');
      expect(told).toEqual([[]]);
      expect(await tables()).toContain('feeds');
    } finally {
      await database.destroy();
    }
  });
});

describe.skipIf(!DIALECTS.includes('postgres'))('migrations on a shared PostgreSQL database', () => {
  it('migrate a fresh schema even while another schema holds a migrated Feeder', async () => {
    const other = await createTestDatabase('postgres'); // a migrated schema, with Kysely's bookkeeping tables
    try {
      const fresh = await createTestDatabase('postgres');
      try {
        const tables = await fresh.db.introspection.getTables();
        expect(tables.filter((t) => t.name === 'feeds').length).toBeGreaterThanOrEqual(2);
        expect(await migrateToLatest(fresh.db)).toEqual([]);
        await fresh.db.selectFrom('feeds').select('id').execute();
      } finally {
        await fresh.destroy();
      }
    } finally {
      await other.destroy();
    }
  });
});
