import type { Kysely } from 'kysely';

/**
 * users.session_epoch: access tokens carry the epoch they were issued in; ending every sign-in (password change
 * or reset) increments it, so access tokens issued before stop working at once, not 15 minutes later.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('session_epoch').execute();
}
