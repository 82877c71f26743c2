import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type Expression, type ExpressionBuilder, type SqlBool, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { withBulkCache, type Db } from '../db/database.js';
import type { Tables } from '../db/tables.js';
import { notMutedArticle } from '../feeds/mute.js';
import { isVisible } from './visible-articles.js';

/**
 * The owner of the reading state (docs/decisions.md "Reading state and visibility: one owner"): the only module
 * that writes user_articles.is_read / is_favorite / is_hidden, the subscriptions' counters (unread_count,
 * article_count; migration 0004) and the reading lists' counters (reading_list_counts; migration 0011). Every verb is scoped to its user, runs in one transaction (the caller's, when
 * given one) and recounts exactly the subscriptions it touched, so no caller can forget a recount. The web API,
 * Fever, Google Reader and the public API call these verbs; none of them writes state SQL of its own.
 *
 * Counters: the visible (not filtered-out) articles of each subscription, unread and in all. A recount per (user,
 * feed) pair reads one range of user_articles_feed_idx, so it costs about the number of articles of one feed;
 * unread counts and list totals are then a read of at most one row per subscription (bench/README.md "Budgets").
 * The reading lists' counters (migration 0011: per list and feed) are recounted beside them for the same (user, feed)
 * scope, and also when a list's members change (listMembersChanged).
 */

/** Ids per statement: bounded statements (SQLite's bound-parameter limit, PostgreSQL's plan size). */
const ID_BATCH = 1000;

/** Which of the user's rows an id-based verb may change. */
export type Reach =
  /** Visible rows only (not filtered out, feed not muted): what the reader APIs change (Google Reader edit-tag). */
  | 'visible'
  /** Rows of feeds not muted now, filtered-out ones included (harmless): the web API's mark-read by ids. */
  | 'unmuted'
  /** Any of the user's rows: the caller has checked the mute state itself in the same transaction (403 answers). */
  | 'own';

export interface FlagChange {
  /** Rows whose state changed. */
  changed: number;
  /** The feeds of the changed rows (distinct). */
  feedIds: number[];
}

/** Runs `fn` in the caller's transaction, or in a new one when given the database itself. */
async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/**
 * inTransaction for a verb that may rewrite a whole scope's rows: a transaction of its own runs with SQLite's larger
 * page cache for rewrites (db/database.ts withBulkCache). In the caller's transaction the caller's scope decides.
 */
async function inBulkTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return withBulkCache(db, () => inTransaction(db, fn));
}

/**
 * Recounts the counters of (user, feed) pairs. `userId` alone: all of that user's subscriptions; `feedIds` alone:
 * every subscriber of those feeds; both narrow to the pairs; neither recounts everything (repairs, migrations).
 * Callers outside this module use the named verbs, so every change of state and its recount stay together; the
 * export is for the tests that compare counters with a full recount.
 */
export async function recountSubscriptions(db: Db, scope: { userId?: number; feedIds?: readonly number[] }): Promise<void> {
  if (scope.feedIds && scope.feedIds.length === 0) return;
  const count = (unreadOnly: boolean) =>
    sql<number>`(select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id${
      unreadOnly ? sql` and ua.is_read = 0` : sql``
    } and ua.is_hidden = 0)`;
  let query = db.updateTable('subscriptions').set({ unread_count: count(true), article_count: count(false) });
  if (scope.userId !== undefined) query = query.where('user_id', '=', scope.userId);
  if (scope.feedIds) query = query.where('feed_id', 'in', [...scope.feedIds]);
  await query.execute();
}

/**
 * Which reading-list counters to recount (docs/decisions.md "Reading-list counters"; migration 0011): the (list, feed)
 * pairs of the user's lists, or of one list, narrowed to these feeds. `feedIds` alone: every list with members of
 * those feeds (articles of those feeds changed for all their subscribers); nothing: every pair (repairs).
 */
export interface ListCounterScope {
  userId?: number;
  listId?: number;
  feedIds?: readonly number[];
}

/**
 * The members of the scope's pairs, as a condition on reading_list_articles (alias `rla`): the feeds' range of
 * reading_list_articles_feed_idx, or the lists' ranges of the primary key when no feed is named.
 */
function memberScope(eb: ExpressionBuilder<Tables & { rla: Tables['reading_list_articles'] }, 'rla'>, scope: ListCounterScope): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [];
  if (scope.feedIds) parts.push(eb('rla.feed_id', 'in', [...scope.feedIds]));
  if (scope.userId !== undefined) parts.push(eb('rla.user_id', '=', scope.userId));
  if (scope.listId !== undefined) parts.push(eb('rla.list_id', '=', scope.listId));
  else if (scope.userId !== undefined && !scope.feedIds)
    parts.push(eb('rla.list_id', 'in', eb.selectFrom('reading_lists').select('reading_lists.id').where('reading_lists.user_id', '=', scope.userId)));
  // Always a WHERE: SQLite reads `INSERT … SELECT … ON CONFLICT` unambiguously only then.
  return parts.length === 0 ? sql<SqlBool>`1 = 1` : eb.and(parts);
}

/**
 * Recounts the reading-list counters of the scope's (list, feed) pairs that have members: the members not filtered
 * out, and of those the unread ones, one grouped read of the members joined with the user's state, written as an
 * upsert that leaves unchanged rows alone. A scope without members reads one empty index range and writes nothing,
 * so users without reading lists pay one probe. Pairs whose last member went are removed by `listMembersChanged`.
 */
async function recountReadingLists(db: Db, scope: ListCounterScope): Promise<void> {
  if (scope.feedIds && scope.feedIds.length === 0) return;
  const counts = db
    .selectFrom('reading_list_articles as rla')
    .leftJoin('user_articles as ua', (j) => j.onRef('ua.user_id', '=', 'rla.user_id').onRef('ua.article_id', '=', 'rla.article_id'))
    .select((eb) => [
      'rla.user_id',
      'rla.list_id',
      'rla.feed_id',
      eb.fn.sum<number>(sql`case when ua.is_hidden = 0 and ua.is_read = 0 then 1 else 0 end`).as('unread_count'),
      eb.fn.sum<number>(sql`case when ua.is_hidden = 0 then 1 else 0 end`).as('article_count'),
    ])
    .where((eb) => memberScope(eb, scope))
    .groupBy(['rla.user_id', 'rla.list_id', 'rla.feed_id']);
  await db
    .insertInto('reading_list_counts')
    .columns(['user_id', 'list_id', 'feed_id', 'unread_count', 'article_count'])
    .expression(counts)
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'list_id', 'feed_id'])
        .doUpdateSet((eb) => ({ unread_count: eb.ref('excluded.unread_count'), article_count: eb.ref('excluded.article_count') }))
        .where((eb) =>
          eb.or([
            eb('reading_list_counts.unread_count', '!=', eb.ref('excluded.unread_count')),
            eb('reading_list_counts.article_count', '!=', eb.ref('excluded.article_count')),
          ]),
        ),
    )
    .execute();
}

/** Both kinds of counters of the scope: the subscriptions' and the reading lists' pairs among them. */
async function recountAll(db: Db, scope: { userId?: number; feedIds?: readonly number[] }): Promise<void> {
  await recountSubscriptions(db, scope);
  await recountReadingLists(db, scope);
}

/**
 * Members of the user's reading lists were added or removed (reading-lists/: by hand, a smart list's recompute or
 * matching, unsubscribing, a list deleted; call in the transaction that changed them): recounts the scope's pairs
 * and, unless the caller only added members (`removed: false`), removes the pairs left without members.
 */
export async function listMembersChanged(
  db: Db,
  scope: { userId: number; listId?: number; feedIds?: readonly number[] },
  o: { removed: boolean } = { removed: true },
): Promise<void> {
  if (scope.feedIds && scope.feedIds.length === 0) return;
  await recountReadingLists(db, scope);
  if (o.removed) await dropEmptyPairs(db, scope);
}

/** Removes the scope's counter rows of (list, feed) pairs without members. */
async function dropEmptyPairs(db: Db, scope: { userId: number; listId?: number; feedIds?: readonly number[] }): Promise<void> {
  let q = db.deleteFrom('reading_list_counts').where('reading_list_counts.user_id', '=', scope.userId);
  if (scope.listId !== undefined) q = q.where('reading_list_counts.list_id', '=', scope.listId);
  else
    q = q.where('reading_list_counts.list_id', 'in', (eb) => eb.selectFrom('reading_lists').select('reading_lists.id').where('reading_lists.user_id', '=', scope.userId));
  if (scope.feedIds) q = q.where('reading_list_counts.feed_id', 'in', [...scope.feedIds]);
  await q
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('reading_list_articles as rla')
            .select('rla.list_id')
            .whereRef('rla.feed_id', '=', 'reading_list_counts.feed_id')
            .whereRef('rla.user_id', '=', 'reading_list_counts.user_id')
            .whereRef('rla.list_id', '=', 'reading_list_counts.list_id'),
        ),
      ),
    )
    .execute();
}

/** A member of a list, as an insert or delete returned it. */
export interface MemberRow {
  article_id: number;
  feed_id: number;
}

/**
 * A smart list's recompute step added and removed these members (reading-lists/membership.ts, in the step's
 * transaction, with the rows its insert and delete returned): moves the list's counters by what exactly those
 * members count now (not filtered out; unread), instead of recounting every member of their pairs. A recount here
 * grew with the pairs' members at every step (a 10,000-member list over 500 feeds doubled the time of creating
 * it); the rows that changed membership are known exactly, read in the same transaction, so the result equals a
 * recount. Pairs left without members are removed.
 */
export async function listMembersMoved(db: Db, userId: number, listId: number, change: { added: readonly MemberRow[]; removed: readonly MemberRow[] }): Promise<void> {
  if (change.added.length === 0 && change.removed.length === 0) return;
  const delta = new Map<number, { unread: number; total: number }>();
  // A pair with a new member has a row, whatever the member counts (as a recount writes one).
  for (const m of change.added) delta.set(m.feed_id, { unread: 0, total: 0 });
  for (const [members, sign] of [
    [change.added, 1],
    [change.removed, -1],
  ] as const) {
    for (let i = 0; i < members.length; i += ID_BATCH) {
      const states = await db
        .selectFrom('user_articles')
        .select((eb) => [
          'feed_id',
          eb.fn.sum<number>(sql`case when is_hidden = 0 and is_read = 0 then 1 else 0 end`).as('unread'),
          eb.fn.sum<number>(sql`case when is_hidden = 0 then 1 else 0 end`).as('total'),
        ])
        .where('user_id', '=', userId)
        .where(
          'article_id',
          'in',
          members.slice(i, i + ID_BATCH).map((m) => m.article_id),
        )
        .groupBy('feed_id')
        .execute();
      for (const r of states) {
        const d = delta.get(r.feed_id) ?? { unread: 0, total: 0 };
        d.unread += sign * Number(r.unread);
        d.total += sign * Number(r.total);
        delta.set(r.feed_id, d);
      }
    }
  }
  const rows = [...delta].map(([feedId, d]) => ({ user_id: userId, list_id: listId, feed_id: feedId, unread_count: d.unread, article_count: d.total }));
  for (let i = 0; i < rows.length; i += ID_BATCH) {
    await db
      .insertInto('reading_list_counts')
      .values(rows.slice(i, i + ID_BATCH))
      .onConflict((oc) =>
        oc.columns(['user_id', 'list_id', 'feed_id']).doUpdateSet((eb) => ({
          unread_count: eb('reading_list_counts.unread_count', '+', eb.ref('excluded.unread_count')),
          article_count: eb('reading_list_counts.article_count', '+', eb.ref('excluded.article_count')),
        })),
      )
      .execute();
  }
  if (change.removed.length > 0) await dropEmptyPairs(db, { userId, listId, feedIds: [...new Set(change.removed.map((m) => m.feed_id))] });
}

type StateUpdate = UpdateQueryBuilder<Tables, 'user_articles', 'user_articles', UpdateResult>;

function reachOf(q: StateUpdate, userId: number, now: string, reach: Reach): StateUpdate {
  if (reach === 'visible') return q.where((eb) => isVisible(eb, userId, now));
  if (reach === 'unmuted') return q.where((eb) => notMutedArticle(eb, userId, now));
  return q;
}

async function setFlag(
  db: Db,
  userId: number,
  now: string,
  articleIds: readonly number[],
  flag: 'is_read' | 'is_favorite',
  on: boolean,
  reach: Reach,
): Promise<FlagChange> {
  const ids = [...new Set(articleIds)];
  if (ids.length === 0) return { changed: 0, feedIds: [] };
  const value = on ? 1 : 0;
  const change = flag === 'is_read' ? { is_read: value, read_at: on ? now : null } : { is_favorite: value, favorited_at: on ? now : null };
  return inTransaction(db, async (trx) => {
    let changed = 0;
    const feeds = new Set<number>();
    for (let i = 0; i < ids.length; i += ID_BATCH) {
      const q = trx
        .updateTable('user_articles')
        .set(change)
        .where('user_id', '=', userId)
        .where('article_id', 'in', ids.slice(i, i + ID_BATCH))
        .where(flag, '=', 1 - value);
      const rows = await reachOf(q, userId, now, reach).returning('feed_id').execute();
      changed += rows.length;
      for (const r of rows) feeds.add(r.feed_id);
    }
    const feedIds = [...feeds];
    // Only read state is counted; favourites have no counter.
    if (flag === 'is_read' && feedIds.length > 0) await recountAll(trx, { userId, feedIds });
    return { changed, feedIds };
  });
}

/** Marks these of the user's articles read (or unread); rows already so are left alone. Foreign ids match nothing. */
export function setRead(db: Db, userId: number, now: string, articleIds: readonly number[], read: boolean, reach: Reach = 'visible'): Promise<FlagChange> {
  return setFlag(db, userId, now, articleIds, 'is_read', read, reach);
}

/** Stars (favourites) or unstars these of the user's articles. Foreign ids match nothing. */
export function setStarred(db: Db, userId: number, now: string, articleIds: readonly number[], starred: boolean, reach: Reach = 'visible'): Promise<FlagChange> {
  return setFlag(db, userId, now, articleIds, 'is_favorite', starred, reach);
}

/**
 * What markAllRead marks: the user's visible unread articles (never those of muted feeds, never filtered-out
 * ones), narrowed by every field given. Without feedIds and listId: all the user's feeds.
 */
export interface ReadScope {
  feedIds?: readonly number[];
  /** One reading list's members (the caller checked the list is the user's). */
  listId?: number;
  /** Only favourites (Google Reader's starred stream). */
  starredOnly?: boolean;
  /** Stored (articles.created_at, the protocols' crawl time) at or before this: what the client had seen. */
  storedBy?: string;
  /** Published at or after this (the public API's read-all, limited to recent articles). */
  publishedSince?: string;
}

/** The article was stored (articles.created_at) at or before `before`. */
function storedBy(eb: ExpressionBuilder<Tables, 'user_articles'>, before: string) {
  return eb.exists(eb.selectFrom('articles').select('articles.id').whereRef('articles.id', '=', 'user_articles.article_id').where('articles.created_at', '<=', before));
}

/**
 * Marks the scope's visible unread articles read in one statement, however many rows (no RETURNING of a million
 * feed ids: the recount is by scope), and recounts the scope's subscriptions. Returns how many changed.
 */
export async function markAllRead(db: Db, userId: number, now: string, scope: ReadScope = {}): Promise<number> {
  return (await markScope(db, userId, now, scope)).marked;
}

/** markAllRead, also telling which feeds' counters changed (null: possibly all the user's). */
async function markScope(db: Db, userId: number, now: string, scope: ReadScope): Promise<{ marked: number; feedIds: number[] | null }> {
  if (scope.feedIds && scope.feedIds.length === 0) return { marked: 0, feedIds: [] };
  return inBulkTransaction(db, async (trx) => {
    let q = trx
      .updateTable('user_articles')
      .set({ is_read: 1, read_at: now })
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .where((eb) => isVisible(eb, userId, now));
    if (scope.feedIds) q = q.where('feed_id', 'in', [...scope.feedIds]);
    if (scope.starredOnly) q = q.where('is_favorite', '=', sql.lit(1));
    if (scope.publishedSince !== undefined) q = q.where('published_at', '>=', scope.publishedSince);
    if (scope.storedBy !== undefined) {
      const before = scope.storedBy;
      q = q.where((eb) => storedBy(eb, before));
    }
    if (scope.listId !== undefined) {
      const listId = scope.listId;
      // A list's members span feeds: they come back for the recount.
      const rows = await q
        .where('article_id', 'in', (eb) =>
          eb.selectFrom('reading_list_articles').select('reading_list_articles.article_id').where('reading_list_articles.list_id', '=', listId),
        )
        .returning('feed_id')
        .execute();
      const feedIds = [...new Set(rows.map((r) => r.feed_id))];
      await recountAll(trx, { userId, feedIds });
      return { marked: rows.length, feedIds };
    }
    const marked = Number((await q.executeTakeFirst()).numUpdatedRows);
    if (marked > 0) await recountAll(trx, scope.feedIds ? { userId, feedIds: scope.feedIds } : { userId });
    return { marked, feedIds: scope.feedIds ? [...scope.feedIds] : null };
  });
}

/*
 * Undo of bulk read marks (docs/decisions.md "Reading flow: undo, mark-read setting, loading the original"). An
 * undoable call writes one read_at stamp and keeps a token naming it; the articles that call marked are exactly the
 * user's rows still read with that stamp: an article read again later, or marked unread and read again, carries
 * another stamp and stays as it is now. The stamp is the call's millisecond with three more digits of fraction
 * (`…T10:00:00.123001Z`, still ISO 8601, at most a millisecond off): other marks write plain milliseconds, so they
 * never share it, and read_undo's unique (user_id, read_at) index keeps two undoable calls of one user apart.
 */

/** Stamps tried per call (one more digit each): only a burst of calls in one millisecond needs a second. */
const STAMP_TRIES = 999;

/** The i-th undoable stamp of the millisecond `now` (1 ≤ i ≤ 999). */
const undoStamp = (now: string, i: number) => `${new Date(now).toISOString().slice(0, 23)}${String(i).padStart(3, '0')}Z`;

/** What to mark read undoably: a scope (as markAllRead) or article ids (as setRead, with its reach). */
export type UndoableTarget = { scope: ReadScope } | { articleIds: readonly number[]; reach: Reach };

export interface UndoableMark {
  marked: number;
  /** Names this call's marks for undoRead; null when nothing changed. */
  undoToken: string | null;
}

/** Reserves a stamp of the millisecond `now` that no undoable call of the user has used, with a new token for it. */
async function reserveStamp(trx: Db, userId: number, now: string, expiresAt: string): Promise<{ token: string; stamp: string }> {
  // The user's expired tokens go first: the table holds at most the last minutes' calls.
  await trx.deleteFrom('read_undo').where('user_id', '=', userId).where('expires_at', '<', now).execute();
  const token = randomBytes(18).toString('base64url');
  for (let i = 1; i <= STAMP_TRIES; i++) {
    const stamp = undoStamp(now, i);
    const inserted = await trx
      .insertInto('read_undo')
      .values({ token, user_id: userId, read_at: stamp, feed_ids: null, expires_at: expiresAt, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'read_at']).doNothing())
      .returning('token')
      .executeTakeFirst();
    if (inserted) return { token, stamp };
  }
  throw new Error('no free read stamp for an undoable mark');
}

/**
 * Marks read like markAllRead or setRead, in one transaction, and returns a token that undoes exactly these marks
 * until `expiresAt` (undoRead). No token when nothing changed.
 */
export async function markReadUndoable(db: Db, userId: number, now: string, expiresAt: string, target: UndoableTarget): Promise<UndoableMark> {
  return ('scope' in target ? inBulkTransaction : inTransaction)(db, async (trx) => {
    const { token, stamp } = await reserveStamp(trx, userId, now, expiresAt);
    const result =
      'scope' in target
        ? await markScope(trx, userId, stamp, target.scope)
        : await setFlag(trx, userId, stamp, target.articleIds, 'is_read', true, target.reach).then((c) => ({ marked: c.changed, feedIds: c.feedIds }));
    if (result.marked === 0) {
      await trx.deleteFrom('read_undo').where('token', '=', token).execute();
      return { marked: 0, undoToken: null };
    }
    await trx
      .updateTable('read_undo')
      .set({ feed_ids: result.feedIds === null ? null : JSON.stringify(result.feedIds) })
      .where('token', '=', token)
      .execute();
    return { marked: result.marked, undoToken: token };
  });
}

/** What undoRead found: the articles made unread again, or why nothing was. */
export type UndoOutcome = { restored: number } | 'unknown' | 'expired';

/**
 * Makes the articles an undoable mark-read marked unread again (those still read with its stamp) and recounts their
 * subscriptions; the token is used up. 'unknown' for a token that is not the user's (or used), 'expired' after its
 * time. Undo restores the state before the call whatever the feed's mute or filters say now.
 */
export async function undoRead(db: Db, userId: number, now: string, token: string): Promise<UndoOutcome> {
  return inBulkTransaction(db, async (trx) => {
    const row = await trx.selectFrom('read_undo').selectAll().where('token', '=', token).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return 'unknown';
    await trx.deleteFrom('read_undo').where('token', '=', token).execute();
    if (row.expires_at < now) return 'expired';
    const feedIds = row.feed_ids === null ? null : (JSON.parse(row.feed_ids) as number[]);
    if (feedIds !== null && feedIds.length === 0) return { restored: 0 };
    let q = trx.updateTable('user_articles').set({ is_read: 0, read_at: null }).where('user_id', '=', userId).where('is_read', '=', 1).where('read_at', '=', row.read_at);
    // The feeds narrow the rows to user_articles_feed_idx ranges when the call had a feed scope.
    if (feedIds !== null && feedIds.length <= ID_BATCH) q = q.where('feed_id', 'in', feedIds);
    const restored = Number((await q.executeTakeFirst()).numUpdatedRows);
    if (restored > 0) await recountAll(trx, feedIds === null ? { userId } : { userId, feedIds });
    return { restored };
  });
}

/** Visible articles read at or after `since` become unread again (Fever's unread_recently_read). */
export async function unreadReadSince(db: Db, userId: number, now: string, since: string): Promise<number> {
  return inBulkTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('user_articles')
      .set({ is_read: 0, read_at: null })
      .where('user_id', '=', userId)
      .where('is_read', '=', 1)
      .where('read_at', '>=', since)
      .where((eb) => isVisible(eb, userId, now))
      .executeTakeFirst();
    const marked = Number(result.numUpdatedRows);
    if (marked > 0) await recountAll(trx, { userId });
    return marked;
  });
}

/**
 * The user's filters changed (feeds/filters.service.ts): hides and shows these of the user's articles of one feed
 * (`'show-all'` shows every article of the feed again: no filters left), and recounts that subscription.
 */
export async function setHidden(db: Db, userId: number, feedId: number, change: { hide: readonly number[]; show: readonly number[] } | 'show-all'): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (change === 'show-all') {
      await trx.updateTable('user_articles').set({ is_hidden: 0 }).where('user_id', '=', userId).where('feed_id', '=', feedId).where('is_hidden', '=', 1).execute();
    } else {
      await writeHidden(trx, userId, change.hide, true);
      await writeHidden(trx, userId, change.show, false);
    }
    await recountAll(trx, { userId, feedIds: [feedId] });
  });
}

async function writeHidden(trx: Db, userId: number, articleIds: readonly number[], hidden: boolean): Promise<void> {
  for (let i = 0; i < articleIds.length; i += ID_BATCH) {
    await trx
      .updateTable('user_articles')
      .set({ is_hidden: hidden ? 1 : 0 })
      .where('user_id', '=', userId)
      .where('article_id', 'in', articleIds.slice(i, i + ID_BATCH))
      .execute();
  }
}

/**
 * SQL of the subscribers' counters growing by `count` new articles of the feed `feed` (both SQL expressions), which
 * were just given to every subscriber of that feed unread and not hidden (docs/decisions.md "Refresh engine: new
 * articles counted, not recounted"). PostgreSQL's store runs it inside the articles' own statement, so it reaches
 * exactly the subscriptions that statement gave copies to; SQLite's runs it as a statement of its own (newCopies).
 */
export const newCopiesCountedSql = (feed: string, count: string) =>
  `update "subscriptions" set "unread_count" = "unread_count" + ${count}, "article_count" = "article_count" + ${count} where "feed_id" = ${feed}`;

/**
 * SQLite's store gave `count` new articles of the feed to each of its subscribers, unread and not hidden (in the
 * store's transaction; SQLite has one writer, so the subscribers it read are the ones counted here).
 */
export async function newCopies(trx: Db, feedId: number, count: number): Promise<void> {
  if (count > 0) await trx.executeQuery(CompiledQuery.raw(newCopiesCountedSql('?', '?'), [count, count, feedId]));
}

/**
 * The refresh stored a document's items of one feed (articles/articles.repository.ts storeItems, in its
 * transaction; the new articles' copies were already counted: newCopies / newCopiesCountedSql): the subscribers'
 * filters' verdicts on the new and edited articles (per user: ids to hide, and for edits ids to show again), then,
 * when a verdict changed what a subscriber counts, the recount of the feed's subscribers. New articles are in no
 * reading list yet (smart lists take them afterwards: reading-lists/membership.ts matchArrivedArticles recounts what
 * it adds); an edited one may be, so the lists' pairs of the feed are recounted when a filter judged anything (one
 * index probe when the feed has no list member).
 */
export async function articlesStored(trx: Db, feedId: number, o: { hidden: Map<number, { hide: number[]; show: number[] }> }): Promise<void> {
  let judged = false;
  for (const [userId, { hide, show }] of o.hidden) {
    await writeHidden(trx, userId, hide, true);
    await writeHidden(trx, userId, show, false);
    judged ||= hide.length > 0 || show.length > 0;
  }
  if (judged) await recountSubscriptions(trx, { feedIds: [feedId] });
  if (o.hidden.size > 0) await recountReadingLists(trx, { feedIds: [feedId] });
}

/**
 * The clean-up removed articles of these feeds (refresh/cleanup.ts, in its transaction): their subscribers' totals,
 * and the lists' pairs of those feeds (the clean-up keeps every list member, so these stay as they were unless a
 * member's state went with its article).
 */
export async function articlesRemoved(trx: Db, feedIds: readonly number[]): Promise<void> {
  await recountAll(trx, { feedIds });
}

/**
 * A user subscribed to these feeds and was given their stored articles (feeds' backfillSubscriptions, in its
 * transaction): the new subscriptions' counters (the sidebar's badge right after subscribing). The new rows are in no
 * reading list yet; smart lists that take them recount their pairs (reading-lists/membership.ts matchSubscribedFeeds).
 */
export async function subscriptionsAdded(trx: Db, userId: number, feedIds: readonly number[]): Promise<void> {
  await recountSubscriptions(trx, { userId, feedIds });
}
