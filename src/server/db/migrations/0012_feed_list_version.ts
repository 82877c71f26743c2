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
 * - PostgreSQL: the bumps run at the commit (deferred constraint triggers), so the version row is locked last, after
 *   every row the transaction writes; one bump per user and transaction (txid), so reordering 12,000 feeds writes
 *   the row once; a refreshed feed bumps its subscribers in user order.
 * - subscriptions.feed_title, feed_icon_hash, feed_error_code, feed_fetched: the subscribed feed's title, icon
 *   address, last error and whether it was ever fetched, copied onto the subscription by the same triggers (on
 *   insert, on a change of feed_id, and when the feed's own columns change), so the summaries read one range of
 *   subscriptions in the user's order (subscriptions_user_order_idx) and join nothing.
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
  await db.schema
    .alterTable('subscriptions')
    .addColumn('feed_title', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('feed_icon_hash', 'varchar(64)').execute();
  await db.schema.alterTable('subscriptions').addColumn('feed_error_code', 'varchar(40)').execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('feed_fetched', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql
    .raw(
      `update subscriptions set (feed_title, feed_icon_hash, feed_error_code, feed_fetched) =
  (select f.title, f.icon_hash, f.last_error_code, case when f.last_fetched_at is null then 0 else 1 end from feeds f where f.id = subscriptions.feed_id)`,
    )
    .execute(db);

  const subscriptionChanged = (distinct: string) =>
    ['custom_title', 'folder_id', 'sort_order', 'muted_permanently', 'muted_until', 'always_load_original', 'feed_id', 'user_id']
      .map((c) => `old.${c} ${distinct} new.${c}`)
      .join(' or ');
  const feedChanged = (distinct: string) =>
    ['title', 'icon_hash', 'last_error_code'].map((c) => `old.${c} ${distinct} new.${c}`).join(' or ') +
    ' or (old.last_fetched_at is null) <> (new.last_fetched_at is null)';
  const subscriptionColumns = 'custom_title, folder_id, sort_order, muted_permanently, muted_until, always_load_original, feed_id, user_id';
  const feedColumns = 'title, icon_hash, last_error_code, last_fetched_at';
  const copyFrom = (f: string) => `${f}.title, ${f}.icon_hash, ${f}.last_error_code, case when ${f}.last_fetched_at is null then 0 else 1 end`;

  if (pg) {
    const statements = [
      // One bump per user and transaction; never a row for a user that is gone.
      `create function feed_list_bump(uid integer) returns void language sql as $$
  insert into feed_list_versions as v (user_id, version, txid) select uid, 1, txid_current() where exists (select 1 from users where id = uid)
  on conflict (user_id) do update set version = v.version + 1, txid = excluded.txid where v.txid is distinct from excluded.txid
$$`,
      `create function subscriptions_feed_copy() returns trigger language plpgsql as $$
begin
  select ${copyFrom('f')} into new.feed_title, new.feed_icon_hash, new.feed_error_code, new.feed_fetched from feeds f where f.id = new.feed_id;
  return new;
end $$`,
      `create function subscriptions_feed_list() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then perform feed_list_bump(old.user_id); end if;
  if tg_op <> 'DELETE' then perform feed_list_bump(new.user_id); end if;
  return null;
end $$`,
      `create function feeds_feed_copy() returns trigger language plpgsql as $$
begin
  update subscriptions set (feed_title, feed_icon_hash, feed_error_code, feed_fetched) = (select ${copyFrom('new')}) where feed_id = new.id;
  return null;
end $$`,
      `create function feeds_feed_list() returns trigger language plpgsql as $$
begin
  insert into feed_list_versions as v (user_id, version, txid)
    select s.user_id, 1, txid_current() from subscriptions s where s.feed_id = new.id order by s.user_id
  on conflict (user_id) do update set version = v.version + 1, txid = excluded.txid where v.txid is distinct from excluded.txid;
  return null;
end $$`,
      `create trigger subscriptions_feed_copy before insert or update of feed_id on subscriptions for each row execute function subscriptions_feed_copy()`,
      `create trigger feeds_feed_copy after update of ${feedColumns} on feeds for each row when (${feedChanged('is distinct from')}) execute function feeds_feed_copy()`,
      // The bumps wait for the commit (constraint triggers, deferred): the version row is locked last and briefly,
      // after every row the transaction writes, so a request and a refresh cannot each hold what the other waits for.
      `create constraint trigger subscriptions_feed_list_add_remove after insert or delete on subscriptions deferrable initially deferred
  for each row execute function subscriptions_feed_list()`,
      `create constraint trigger subscriptions_feed_list_update after update of ${subscriptionColumns} on subscriptions deferrable initially deferred
  for each row when (${subscriptionChanged('is distinct from')}) execute function subscriptions_feed_list()`,
      `create constraint trigger feeds_feed_list after update of ${feedColumns} on feeds deferrable initially deferred
  for each row when (${feedChanged('is distinct from')}) execute function feeds_feed_list()`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  } else {
    const bump = (uid: string) => `insert into feed_list_versions (user_id, version) values (${uid}, 1) on conflict (user_id) do update set version = version + 1;`;
    const copy = (id: string) =>
      `update subscriptions set (feed_title, feed_icon_hash, feed_error_code, feed_fetched) = (select ${copyFrom('f')} from feeds f where f.id = subscriptions.feed_id) where id = ${id};`;
    const statements = [
      `create trigger subscriptions_feed_list_insert after insert on subscriptions begin ${copy('new.id')} ${bump('new.user_id')} end`,
      `create trigger subscriptions_feed_list_feed after update of feed_id on subscriptions begin ${copy('new.id')} end`,
      // Update only: when the user's own deletion cascades here, their row is gone and must stay gone.
      `create trigger subscriptions_feed_list_delete after delete on subscriptions begin update feed_list_versions set version = version + 1 where user_id = old.user_id; end`,
      `create trigger subscriptions_feed_list_update after update of ${subscriptionColumns} on subscriptions when ${subscriptionChanged('is not')}
  begin ${bump('old.user_id')} ${bump('new.user_id')} end`,
      `create trigger feeds_feed_list after update of ${feedColumns} on feeds when ${feedChanged('is not')} begin
  update subscriptions set (feed_title, feed_icon_hash, feed_error_code, feed_fetched) = (select ${copyFrom('new')}) where feed_id = new.id;
  update feed_list_versions set version = version + 1 where user_id in (select user_id from subscriptions where feed_id = new.id);
end`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const [trigger, table] of [
      ['feeds_feed_list', 'feeds'],
      ['feeds_feed_copy', 'feeds'],
      ['subscriptions_feed_list_update', 'subscriptions'],
      ['subscriptions_feed_list_add_remove', 'subscriptions'],
      ['subscriptions_feed_copy', 'subscriptions'],
    ])
      await sql.raw(`drop trigger if exists ${trigger} on ${table}`).execute(db);
    for (const f of ['feeds_feed_list()', 'feeds_feed_copy()', 'subscriptions_feed_list()', 'subscriptions_feed_copy()', 'feed_list_bump(integer)'])
      await sql.raw(`drop function if exists ${f}`).execute(db);
  } else {
    for (const t of [
      'feeds_feed_list',
      'subscriptions_feed_list_update',
      'subscriptions_feed_list_delete',
      'subscriptions_feed_list_feed',
      'subscriptions_feed_list_insert',
    ])
      await sql.raw(`drop trigger if exists ${t}`).execute(db);
  }
  for (const c of ['feed_fetched', 'feed_error_code', 'feed_icon_hash', 'feed_title']) await db.schema.alterTable('subscriptions').dropColumn(c).execute();
  await db.schema.dropTable('feed_list_versions').execute();
}

/** Which dialect the bare Kysely talks to (database.ts dialectOf as released). */
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes('postgres');
}
