import { chmodSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openSqlite, optimizePlanner, type Database } from './database.js';

/** The SQLite files hold password hashes, tokens and the Fever keys: owner only (decisions.md "Data files are the owner's only"). */
describe('SQLite file modes', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });
  const mode = (file: string) => statSync(file).mode & 0o777;

  it('creates the database and its -wal and -shm files readable by the owner only, whatever the umask', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'feeder-db-')), 'data', 'feeder.db');
    const umask = process.umask(0o022);
    try {
      database = openSqlite(file);
      await migrateToLatest(database.db);
      await sql`create table mode_probe (x text)`.execute(database.db);
      await sql`insert into mode_probe values ('written')`.execute(database.db);
    } finally {
      process.umask(umask);
    }
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      expect(existsSync(f), f).toBe(true);
      expect(mode(f), f).toBe(0o600);
    }
  });

  it('tightens the files of an existing database at open', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'feeder-db-')), 'feeder.db');
    database = openSqlite(file);
    await migrateToLatest(database.db);
    await database.destroy();
    chmodSync(file, 0o644);
    database = openSqlite(file);
    expect(mode(file)).toBe(0o600);
  });
});

/**
 * FTS5's own statements on its data table are planned from the statistics; those of an almost empty index made its
 * range delete (every merge step) a scan of the whole index (decisions.md "Refresh engine: what grew with the database
 * on SQLite").
 */
describe('SQLite planner statistics of the full-text index', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });
  const rangePlan = async (db: Database['db']) =>
    (await sql<{ detail: string }>`explain query plan select id from articles_fts_data where id >= ${1} and id <= ${2}`.execute(db)).rows.map((r) => r.detail).join(' ');
  const ftsDataStat = async (db: Database['db']) =>
    (await sql<{ stat: string }>`select stat from sqlite_stat1 where tbl = 'articles_fts_data' and idx is null`.execute(db)).rows[0]?.stat;

  it('keeps a large row estimate for the index data when it was analysed nearly empty, at open and after optimizing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'feeder-db-')), 'feeder.db');
    database = openSqlite(file);
    await migrateToLatest(database.db);
    await sql`insert into articles_fts (rowid, title, body) values (1, 'a title', 'a body')`.execute(database.db);
    await database.destroy();

    // The open analyses the tables never analysed: the index data has 2 rows then.
    database = openSqlite(file);
    expect(await ftsDataStat(database.db)).toBe('1000');
    expect(await rangePlan(database.db)).toMatch(/SEARCH articles_fts_data USING INTEGER PRIMARY KEY/);

    // The hourly optimize may analyse it again (here: statistics as an analysis of the small table leaves them).
    await sql`update sqlite_stat1 set stat = '2' where tbl = 'articles_fts_data'`.execute(database.db);
    await sql`analyze sqlite_schema`.execute(database.db);
    expect(await rangePlan(database.db)).toMatch(/SCAN articles_fts_data/);
    await optimizePlanner(database);
    expect(await ftsDataStat(database.db)).toBe('1000');
    expect(await rangePlan(database.db)).toMatch(/SEARCH articles_fts_data USING INTEGER PRIMARY KEY/);
  });
});
