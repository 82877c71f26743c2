import { sql, type Kysely } from 'kysely';

/**
 * The feed list's version (docs/decisions.md "Feed summaries: the list's version"): a number per user that changes
 * with every write that changes what GET /api/feeds/summaries answers, so the answer can be kept and served again
 * while the number stands.
 * - feed_list_versions: per user, the version. A user without a row has version 0 (no feed ever subscribed).
 * - The database keeps it, by triggers, so no write path can forget it: a subscription added, removed or changed in
 *   what the summaries show (its feed, title, folder, position, mute, "always load the original"), and a feed's
 *   shown title, icon, last error or first fetch changing (every subscriber's version). The counters the refresh and
 *   the reading state write on subscriptions are not among the trigger's columns, so they cost nothing extra.
 * - PostgreSQL: one bump per user and transaction (txid), so reordering 12,000 feeds writes the version row once;
 *   a refresh bumps its feed's subscribers in user order, so two transactions take the rows in one order.
 * Every user starts at 1.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('feed_list_versions')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    // The transaction that last bumped it (PostgreSQL only).
    .addColumn('txid', 'bigint')
    .execute();
  await sql`insert into feed_list_versions (user_id, version) select id, 1 from users`.execute(db);

  const subscriptionChanged = (o: string, n: string, distinct: string) =>
    ['custom_title', 'folder_id', 'sort_order', 'muted_permanently', 'muted_until', 'always_load_original', 'feed_id', 'user_id']
      .map((c) => `${o}.${c} ${distinct} ${n}.${c}`)
      .join(' or ');
  const feedChanged = (distinct: string) =>
    ['title', 'icon_hash', 'last_error_code'].map((c) => `old.${c} ${distinct} new.${c}`).join(' or ') +
    ' or (old.last_fetched_at is null) <> (new.last_fetched_at is null)';
  const subscriptionColumns = 'custom_title, folder_id, sort_order, muted_permanently, muted_until, always_load_original, feed_id, user_id';
  const feedColumns = 'title, icon_hash, last_error_code, last_fetched_at';

  if (pg) {
    await sql
      .raw(
        `create function feed_list_bump(uid integer) returns void language sql as $$
  insert into feed_list_versions as v (user_id, version, txid) values (uid, 1, txid_current())
  on conflict (user_id) do update set version = v.version + 1, txid = excluded.txid where v.txid is distinct from excluded.txid
$$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function subscriptions_feed_list() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    -- Update only: when the user's own deletion cascades here, their row is gone and must stay gone.
    update feed_list_versions set version = version + 1, txid = txid_current() where user_id = old.user_id and txid is distinct from txid_current();
    return null;
  end if;
  perform feed_list_bump(new.user_id);
  if tg_op = 'UPDATE' and new.user_id <> old.user_id then perform feed_list_bump(old.user_id); end if;
  return null;
end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function feeds_feed_list() returns trigger language plpgsql as $$
begin
  insert into feed_list_versions as v (user_id, version, txid)
    select s.user_id, 1, txid_current() from subscriptions s where s.feed_id = new.id order by s.user_id
  on conflict (user_id) do update set version = v.version + 1, txid = excluded.txid where v.txid is distinct from excluded.txid;
  return null;
end $$`,
      )
      .execute(db);
    await sql
      .raw(`create trigger subscriptions_feed_list_add_remove after insert or delete on subscriptions for each row execute function subscriptions_feed_list()`)
      .execute(db);
    await sql
      .raw(
        `create trigger subscriptions_feed_list_update after update of ${subscriptionColumns} on subscriptions for each row
  when (${subscriptionChanged('old', 'new', 'is distinct from')}) execute function subscriptions_feed_list()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger feeds_feed_list after update of ${feedColumns} on feeds for each row when (${feedChanged('is distinct from')}) execute function feeds_feed_list()`,
      )
      .execute(db);
  } else {
    const bump = (uid: string) => `insert into feed_list_versions (user_id, version) values (${uid}, 1) on conflict (user_id) do update set version = version + 1;`;
    await sql.raw(`create trigger subscriptions_feed_list_insert after insert on subscriptions begin ${bump('new.user_id')} end`).execute(db);
    // Update only: when the user's own deletion cascades here, their row is gone and must stay gone.
    await sql
      .raw(
        `create trigger subscriptions_feed_list_delete after delete on subscriptions begin update feed_list_versions set version = version + 1 where user_id = old.user_id; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger subscriptions_feed_list_update after update of ${subscriptionColumns} on subscriptions
  when ${subscriptionChanged('old', 'new', 'is not')} begin ${bump('old.user_id')} ${bump('new.user_id')} end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger feeds_feed_list after update of ${feedColumns} on feeds when ${feedChanged('is not')}
  begin update feed_list_versions set version = version + 1 where user_id in (select user_id from subscriptions where feed_id = new.id); end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists feeds_feed_list on feeds`.execute(db);
    await sql`drop trigger if exists subscriptions_feed_list_update on subscriptions`.execute(db);
    await sql`drop trigger if exists subscriptions_feed_list_add_remove on subscriptions`.execute(db);
    await sql`drop function if exists feeds_feed_list()`.execute(db);
    await sql`drop function if exists subscriptions_feed_list()`.execute(db);
    await sql`drop function if exists feed_list_bump(integer)`.execute(db);
  } else {
    for (const t of ['feeds_feed_list', 'subscriptions_feed_list_update', 'subscriptions_feed_list_delete', 'subscriptions_feed_list_insert'])
      await sql.raw(`drop trigger if exists ${t}`).execute(db);
  }
  await db.schema.dropTable('feed_list_versions').execute();
}

/** Which dialect the bare Kysely talks to (database.ts dialectOf as released). */
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres');
}
