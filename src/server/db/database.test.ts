import SQLite from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paddedRows } from '../articles/articles.repository.js';
import { markAllRead, markReadUndoable, setRead } from '../articles/reading-state.js';
import {
  compactSqlite,
  migrateToLatest,
  nowIso,
  openSqlite,
  SQLITE_PAGE_SIZE,
  walCheckpointPages,
  withBulkCache,
  withStatementCache,
  type Database,
  type Db,
} from './database.js';
import type { Tables } from './tables.js';
import { ROOT } from '../test/built-server.js';
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

describe('prepared statements kept (SQLite) and the sizes of multi-row inserts', () => {
  it('keeps the statements used last, within a bound on their SQL', () => {
    const prepared: string[] = [];
    const sqlite = { prepare: (sql: string) => (prepared.push(sql), { sql }) as unknown as SQLite.Statement, close: () => sqlite };
    const cache = withStatementCache(sqlite as unknown as SQLite.Database, 40);
    const [a, b, c] = ['select 1 as aaaa', 'select 2 as bbbb', 'select 3 as cccc'];
    const first = cache.prepare(a);
    cache.prepare(b);
    expect(cache.prepare(a)).toBe(first);
    // 16 characters each, two fit in 40: the third pushes out the one used least recently (b, not a).
    cache.prepare(c);
    expect(cache.kept).toEqual({ statements: 2, chars: 32 });
    expect(cache.prepare(a)).toBe(first);
    cache.prepare(b);
    expect(prepared).toEqual([a, b, c, b]);
    // A statement longer than the whole bound is kept alone, until the next one.
    cache.prepare('select 4 as a_very_long_column_name');
    expect(cache.kept).toEqual({ statements: 1, chars: 35 });
  });

  it('pads inserts of 17 rows and more to multiples of 8, so that 1 to 64 rows make 22 sizes', () => {
    expect([1, 2, 15, 16, 17, 24, 25, 50, 63, 64].map(paddedRows)).toEqual([1, 2, 15, 16, 24, 24, 32, 56, 64, 64]);
    expect(new Set(Array.from({ length: 64 }, (_, i) => paddedRows(i + 1))).size).toBe(22);
  });
});

describe("SQLite's page size, and `feeder compact`", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'feeder-page-size-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const pragma = (file: string, name: string) => {
    const sqlite = new SQLite(file, { readonly: true });
    try {
      return sqlite.pragma(name, { simple: true });
    } finally {
      sqlite.close();
    }
  };
  /** A pragma's value on a connection of Feeder's. */
  const pragmaOf = async (db: Db, name: 'page_size' | 'wal_autocheckpoint') => (await sql<Record<string, number>>`pragma ${sql.raw(name)}`.execute(db)).rows[0][name];
  /** A database as Feeder made it before 8 KB pages: 4 KB pages, WAL, migrated, with rows. */
  async function olderDatabase(file: string): Promise<void> {
    const sqlite = new SQLite(file);
    sqlite.pragma('page_size = 4096');
    sqlite.pragma('journal_mode = WAL');
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrateToLatest(db);
    for (let i = 0; i < 300; i++) {
      await db
        .insertInto('users')
        .values({
          email: `u${i}@example.com`,
          password_hash: 'x',
          name: `User ${i}`,
          is_verified: 1,
          language_preference: 'en',
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
    }
    await db.deleteFrom('users').where('id', '<=', 200).execute();
    await db.destroy();
  }

  it('makes a new database with 8 KB pages; an older one keeps its 4 KB pages, and both checkpoint at 16 MB of WAL', async () => {
    const fresh = openSqlite(join(dir, 'new.db'));
    try {
      expect(await pragmaOf(fresh.db, 'page_size')).toBe(SQLITE_PAGE_SIZE);
      expect(await pragmaOf(fresh.db, 'wal_autocheckpoint')).toBe(2048);
    } finally {
      await fresh.destroy();
    }
    await olderDatabase(join(dir, 'old.db'));
    const old = openSqlite(join(dir, 'old.db'));
    try {
      expect(await pragmaOf(old.db, 'page_size')).toBe(4096);
      expect(await pragmaOf(old.db, 'wal_autocheckpoint')).toBe(4096);
      expect(
        await old.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ).toEqual({ n: 100 });
    } finally {
      await old.destroy();
    }
    expect(walCheckpointPages(16384)).toBe(1024);
  });

  it('compact gives an older database 8 KB pages and keeps every row; while the file is open elsewhere it changes nothing', async () => {
    const file = join(dir, 'compact.db');
    await olderDatabase(file);
    const server = openSqlite(file);
    try {
      expect(() => compactSqlite(file)).toThrow('The database is in use');
    } finally {
      await server.destroy();
    }
    expect(pragma(file, 'page_size')).toBe(4096);
    expect(pragma(file, 'journal_mode')).toBe('wal');

    const { before, after } = compactSqlite(file);
    expect(before.pageSize).toBe(4096);
    expect(after.pageSize).toBe(SQLITE_PAGE_SIZE);
    expect(pragma(file, 'journal_mode')).toBe('wal');
    const reopened = openSqlite(file);
    try {
      const users = await reopened.db.selectFrom('users').select('email').orderBy('id').execute();
      expect(users).toHaveLength(100);
      expect(users[0].email).toBe('u200@example.com');
      // Still migrated, and writable.
      expect(await migrateToLatest(reopened.db)).toEqual([]);
      await reopened.db
        .insertInto('users')
        .values({ email: 'after@example.com', password_hash: 'x', name: 'After', is_verified: 1, language_preference: 'en', created_at: nowIso(), updated_at: nowIso() })
        .execute();
    } finally {
      await reopened.destroy();
    }
    expect(() => compactSqlite(join(dir, 'missing.db'))).toThrow('There is no SQLite database');
  });

  it('`feeder compact` says what it did, and fails with a clear message when there is no database', async () => {
    const dataDir = mkdtempSync(join(dir, 'cli-'));
    const feeder = () => spawnSync(process.execPath, ['bin/feeder.js', 'compact'], { cwd: ROOT, env: { PATH: process.env.PATH, DATA_DIR: dataDir }, encoding: 'utf8' });
    const missing = feeder();
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Could not compact the database: There is no SQLite database at');
    const file = join(dataDir, 'feeder.db');
    await olderDatabase(file);
    const done = feeder();
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(/^Compacted .*feeder\.db: [\d.]+ MB → [\d.]+ MB, pages of 4096 → 8192 bytes\.\n$/);
    expect(pragma(file, 'page_size')).toBe(8192);
  });
});

describe("SQLite's page cache for a scope's rewrite (withBulkCache)", () => {
  const cacheSize = async (db: Db) => (await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0].cache_size;

  it('runs with 16 MB when the setting is smaller, and returns to the setting after, also when the work fails', async () => {
    const database = openSqlite(':memory:', 8);
    try {
      expect(await cacheSize(database.db)).toBe(-8192);
      const inside = await withBulkCache(database.db, () => database.db.transaction().execute((trx) => cacheSize(trx)));
      expect(inside).toBe(-16384);
      expect(await cacheSize(database.db)).toBe(-8192);
      await expect(
        withBulkCache(database.db, async () => {
          expect(await cacheSize(database.db)).toBe(-16384);
          throw new Error('the rewrite failed');
        }),
      ).rejects.toThrow('the rewrite failed');
      expect(await cacheSize(database.db)).toBe(-8192);
    } finally {
      await database.destroy();
    }
  });

  it('leaves a larger setting alone, and does nothing inside a transaction it was handed', async () => {
    const large = openSqlite(':memory:', 32);
    const small = openSqlite(':memory:', 8);
    try {
      expect(await withBulkCache(large.db, () => cacheSize(large.db))).toBe(-32768);
      expect(await cacheSize(large.db)).toBe(-32768);
      expect(await small.db.transaction().execute((trx) => withBulkCache(trx, () => cacheSize(trx)))).toBe(-8192);
    } finally {
      await large.destroy();
      await small.destroy();
    }
  });

  it('returns to the setting when two rewrites run at once', async () => {
    const database = openSqlite(':memory:', 8);
    try {
      const seen = await Promise.all([0, 1, 2].map(() => withBulkCache(database.db, () => database.db.transaction().execute(async (trx) => cacheSize(trx)))));
      // Each reads the size and raises it, or finds it raised and leaves it alone: in any order the cache ends at the
      // setting.
      expect(seen[0]).toBe(-16384);
      expect(await cacheSize(database.db)).toBe(-8192);
    } finally {
      await database.destroy();
    }
  });

  it("is what mark-all-read and an undoable scope's mark run with; a mark by ids and a caller's transaction keep the setting", async () => {
    const statements: string[] = [];
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('cache_size = -8192');
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }), log: (e) => void (e.level === 'query' && statements.push(e.query.sql)) });
    try {
      await migrateToLatest(db);
      const now = nowIso();
      const { id: userId } = await db
        .insertInto('users')
        .values({ email: 'bulk@example.com', name: 'B', password_hash: 'x', is_verified: 1, language_preference: 'en', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const pragmas = () => statements.splice(0).filter((q) => q.startsWith('pragma cache_size ='));
      statements.length = 0;
      await markAllRead(db, userId, now);
      expect(pragmas()).toEqual(['pragma cache_size = -16384', 'pragma cache_size = -8192']);
      await markReadUndoable(db, userId, now, now, { scope: {} });
      expect(pragmas()).toEqual(['pragma cache_size = -16384', 'pragma cache_size = -8192']);
      await setRead(db, userId, now, [1, 2], true);
      await markReadUndoable(db, userId, now, now, { articleIds: [1], reach: 'visible' });
      await db.transaction().execute((trx) => markAllRead(trx, userId, now));
      expect(pragmas()).toEqual([]);
      expect(await cacheSize(db)).toBe(-8192);
    } finally {
      await db.destroy();
    }
  });
});

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
