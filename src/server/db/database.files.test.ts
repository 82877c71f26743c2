import { chmodSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openSqlite, type Database } from './database.js';

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
