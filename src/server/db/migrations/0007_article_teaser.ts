import type { Kysely } from 'kysely';

/**
 * The compact card's teaser is stored with the article (docs/decisions.md "Parsing: teasers"): the refresh computes
 * it once on its parse threads, so listing articles never parses their HTML. Null for articles stored before this
 * migration until the maintenance job fills them in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').addColumn('teaser', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').dropColumn('teaser').execute();
}
