import type { Kysely } from 'kysely';

/**
 * Public API v1: an API token remembers the session epoch of its user when it was issued, so a password
 * change or reset (which moves users.session_epoch on and ends every sign-in, docs/decisions.md "Accounts and
 * sessions") also voids the 365-day API tokens, exactly as it voids the web app's access tokens.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_tokens')
    .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').dropColumn('session_epoch').execute();
}
