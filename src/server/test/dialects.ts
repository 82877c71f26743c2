import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openPostgres, openSqlite, type Database, type Dialect } from '../db/database.js';

/**
 * The dialects every storage test runs on (docs/ARCHITECTURE.md "Rules" 4): real SQLite and real PostgreSQL.
 * PostgreSQL comes from TEST_POSTGRES_URL (default: the local test database). When it cannot be reached the
 * PostgreSQL half is skipped with a warning, unless CI=true or REQUIRE_POSTGRES=1, where that is a failure.
 */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const postgresRequired = process.env.CI === 'true' || process.env.REQUIRE_POSTGRES === '1';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (err) {
    if (postgresRequired) throw new Error(`PostgreSQL is required for the tests but not reachable at ${TEST_POSTGRES_URL}: ${String(err)}`);
    console.warn(`[tests] PostgreSQL not reachable at ${TEST_POSTGRES_URL}; PostgreSQL storage tests are skipped`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export const DIALECTS: Dialect[] = (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];

/** A fresh, migrated database: an in-memory SQLite, or a throw-away PostgreSQL schema dropped on destroy. */
export async function createTestDatabase(dialect: Dialect): Promise<Database> {
  if (dialect === 'sqlite') {
    const database = openSqlite(':memory:');
    await migrateToLatest(database.db);
    return database;
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openPostgres(TEST_POSTGRES_URL, { schema, max: 4 });
  await migrateToLatest(database.db);
  return {
    ...database,
    async destroy() {
      await database.destroy();
      const c = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
