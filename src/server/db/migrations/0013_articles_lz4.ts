import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL compresses the articles' large columns with lz4 instead of pglz (docs/decisions.md "Refresh engine: the
 * search vector on the parse threads"). A new article's row (its HTML, teaser and search vector) is larger than the
 * 2 KB at which PostgreSQL compresses values before storing them, so every inserted article was compressed with
 * pglz: a tenth of the backends' time in the refresh's first round. lz4 takes a third of that time and stores about
 * as small. Values stored before keep pglz (both are read alike); a server built without lz4 keeps pglz. SQLite:
 * nothing to do.
 */
const COLUMNS = ['content', 'summary', 'teaser', 'extracted_content', 'search_vector'];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db) || !(await lz4Available(db))) return;
  for (const column of COLUMNS) await sql`alter table articles alter column ${sql.ref(column)} set compression lz4`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const column of COLUMNS) await sql`alter table articles alter column ${sql.ref(column)} set compression default`.execute(db);
}

async function lz4Available(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ lz4: boolean }>`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  return rows[0]?.lz4 === true;
}

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres');
}
