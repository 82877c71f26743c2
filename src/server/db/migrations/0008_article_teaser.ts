import { sql, type Kysely } from 'kysely';

/**
 * The compact card's teaser is stored with the article (docs/decisions.md "Parsing: teasers"): the refresh computes
 * it once on its parse threads, so listing articles never parses their HTML. Null for articles stored before this
 * migration until the maintenance job fills them in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').addColumn('teaser', 'text').execute();
  // Partial: only articles still without a teaser are in it, so the hourly fill-in finds them (in id order) without
  // scanning every article, and once they are filled the index is empty and costs nothing to keep.
  await sql`create index articles_teaser_missing_idx on articles (id) where teaser is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('articles_teaser_missing_idx').execute();
  await db.schema.alterTable('articles').dropColumn('teaser').execute();
}
