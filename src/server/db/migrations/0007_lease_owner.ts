import type { Kysely } from 'kysely';

/**
 * feeds.lease_owner: the engine instance that holds a feed's refresh lease. Leases are short and renewed by their
 * owner while the fetch runs (docs/decisions.md "Feed engine", "Leases and crashed workers"), so a lease whose owner
 * died runs out within a minute; the owner lets the heartbeat renew exactly its own leases in one statement.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('feeds').addColumn('lease_owner', 'varchar(100)').execute();
  await db.schema.createIndex('feeds_lease_owner_idx').on('feeds').column('lease_owner').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('feeds_lease_owner_idx').execute();
  await db.schema.alterTable('feeds').dropColumn('lease_owner').execute();
}
