import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { articleBody, storedString, type StoredText } from '../articles/article-text.js';
import { chunks } from '../db/chunks.js';
import { listMembersChanged, listMembersMoved, type MemberRow } from '../articles/reading-state.js';
import type { Db } from '../db/database.js';
import { compileRules, feedsInScope, matchesAny, needsText, parseStoredRules, rulesForFeed, type CompiledRule } from './smart-rules.js';

/**
 * Smart-list membership, materialised in reading_list_articles (decisions.md "Smart reading lists"; docs/decisions.md
 * "Organising"): recomputed over the user's articles when a list's rules change, matched as articles arrive (the
 * store calls matchArrivedArticles inside the feed's transaction), and when a user subscribes to a feed that
 * already has articles. Membership holds every matching article of the user's feeds; whether it is shown (not
 * filtered out, feed not muted) is decided when reading, like every other list, so filter and mute changes need no
 * recompute. Every change of members keeps the list's counters in the same transaction (articles/reading-state.ts:
 * matching on arrival recounts the changed (list, feed) pair with listMembersChanged; a recompute's steps and
 * subscribing move the counters by exactly the members they added or removed, listMembersMoved).
 */

/** Articles read per step of a recompute: bounded memory, and short write transactions between the steps. */
export const RECOMPUTE_BATCH = 500;
const WRITE_BATCH = 500;

export interface ArrivedArticle {
  id: number;
  title: string;
  /** articleBody of the article (the store's plain text), as a string or its UTF-8 bytes. */
  body: StoredText;
  publishedAt: string;
}

/**
 * PostgreSQL SQL: whether a subscriber of the feed `feedId` (an SQL expression) has a smart list, the read
 * matchArrivedArticles starts with. The store asks it in its articles' statement and passes the answer on, one
 * statement fewer per new feed (docs/decisions.md "Refresh engine: PostgreSQL's work per new feed").
 */
export const smartListsOfSubscribers = (feedId: string) =>
  `exists (select 1 from "subscriptions" as "s" inner join "reading_lists" as "l" on "l"."user_id" = "s"."user_id" where "s"."feed_id" = ${feedId} and "l"."is_smart" = 1)`;

/**
 * New and edited articles of a feed against the smart lists of its subscribers (call inside the feed's
 * transaction). Costs one indexed query when no subscriber has a smart list. New matches are added; an edited
 * article that no longer matches leaves the smart list. Every list's copy of an edited article's date follows it.
 */
export async function matchArrivedArticles(
  trx: Db,
  feedId: number,
  arrived: { fresh: ArrivedArticle[]; changed: ArrivedArticle[] },
  now: string,
  /** false: the store's own statement found no smart list among the feed's subscribers (smartListsOfSubscribers). */
  smartLists?: boolean,
): Promise<void> {
  if (arrived.fresh.length === 0 && arrived.changed.length === 0) return;
  const lists =
    smartLists === false
      ? []
      : await trx
          .selectFrom('subscriptions')
          .innerJoin('reading_lists', 'reading_lists.user_id', 'subscriptions.user_id')
          .select(['reading_lists.id', 'reading_lists.user_id', 'reading_lists.rules'])
          .where('subscriptions.feed_id', '=', feedId)
          .where('reading_lists.is_smart', '=', 1)
          .execute();
  // Lists are ordered by date (reading_list_articles_page_idx); an edit may move the article (the store has just
  // written the article's new date).
  for (const batch of chunks(
    arrived.changed.map((a) => a.id),
    WRITE_BATCH,
  )) {
    await trx
      .updateTable('reading_list_articles')
      .set((eb) => ({ published_at: eb.selectFrom('articles').select('articles.published_at').whereRef('articles.id', '=', 'reading_list_articles.article_id') }))
      .where('article_id', 'in', batch)
      .execute();
  }
  if (lists.length === 0) return;
  const all = [...arrived.fresh, ...arrived.changed];
  // Decoded once for every list (a refresh's new texts come as bytes).
  const bodies = all.map((a) => storedString(a.body));
  const changedIds = new Set(arrived.changed.map((a) => a.id));
  for (const list of lists) {
    const rules = rulesForFeed(await compileRules(parseStoredRules(list.rules)), feedId);
    const add: ArrivedArticle[] = [];
    const remove: number[] = [];
    for (const [k, a] of all.entries()) {
      if (rules.length > 0 && matchesAny(rules, { feedId, title: a.title, text: bodies[k] })) add.push(a);
      else if (changedIds.has(a.id)) remove.push(a.id);
    }
    const added = await addMembers(trx, list.id, list.user_id, feedId, add, now);
    const removed = await removeMembers(trx, list.id, remove);
    // The list's counters of this feed when its members changed (the refresh's only reading-list counter work:
    // docs/decisions.md "Reading-list counters").
    if (added.length > 0 || removed.length > 0)
      await listMembersChanged(trx, { userId: list.user_id, listId: list.id, feedIds: [feedId] }, { removed: removed.length > 0 });
  }
}

/** Adds members (those there already stay as they are); returns the members that are new. */
async function addMembers(
  trx: Db,
  listId: number,
  userId: number,
  feedId: number | null,
  rows: { id: number; publishedAt: string; feedId?: number }[],
  now: string,
): Promise<MemberRow[]> {
  const added: MemberRow[] = [];
  for (const batch of chunks(rows, WRITE_BATCH)) {
    const inserted = await trx
      .insertInto('reading_list_articles')
      .values(batch.map((r) => ({ list_id: listId, article_id: r.id, user_id: userId, feed_id: feedId ?? r.feedId!, published_at: r.publishedAt, added_at: now })))
      .onConflict((oc) => oc.columns(['list_id', 'article_id']).doNothing())
      .returning(['article_id', 'feed_id'])
      .execute();
    added.push(...inserted);
  }
  return added;
}

/** Removes these articles from the list; returns the members that went. */
async function removeMembers(trx: Db, listId: number, articleIds: readonly number[]): Promise<MemberRow[]> {
  const removed: MemberRow[] = [];
  for (const batch of chunks(articleIds, WRITE_BATCH)) {
    removed.push(
      ...(await trx.deleteFrom('reading_list_articles').where('list_id', '=', listId).where('article_id', 'in', batch).returning(['article_id', 'feed_id']).execute()),
    );
  }
  return removed;
}

/**
 * The user's articles (of some feeds, or all: null) against rules, in id order, a window of RECOMPUTE_BATCH ids at a
 * time; `onStep` gets each window's matches and misses and may stop the scan. Windows of ids rather than LIMIT: each
 * step's plan is bounded whatever the planner's statistics say (PostgreSQL, misjudging a fresh table, sorted every
 * remaining row each step), and the articles' primary-key range is named too so a merge join starts at the window.
 * Empty stretches (other users' ids) are skipped with one index look-up. Only the columns the rules need are read.
 */
async function scanUserArticles(
  db: Db,
  userId: number,
  rules: CompiledRule[],
  scope: { feedIds: readonly number[] | null },
  onStep: (matched: { id: number; feedId: number; publishedAt: string }[], missed: number[]) => Promise<boolean>,
  between: () => Promise<void>,
): Promise<void> {
  if (scope.feedIds !== null && scope.feedIds.length === 0) return;
  const withText = needsText(rules);
  const next = async (after: number): Promise<number | null> => {
    let q = db
      .selectFrom('user_articles')
      .select((eb) => eb.fn.min('article_id').as('id'))
      .where('user_id', '=', userId)
      .where('article_id', '>', after);
    if (scope.feedIds !== null) q = q.where('feed_id', 'in', [...scope.feedIds]);
    const row = await q.executeTakeFirst();
    return row?.id === null || row?.id === undefined ? null : Number(row.id);
  };
  for (let first = await next(0); first !== null;) {
    const from = first - 1;
    const to = from + RECOMPUTE_BATCH;
    let q = db
      .selectFrom('user_articles')
      .innerJoin('articles', 'articles.id', 'user_articles.article_id')
      .select(['user_articles.article_id', 'user_articles.feed_id', 'user_articles.published_at', 'articles.title'])
      .where('user_articles.user_id', '=', userId)
      .where('user_articles.article_id', '>', from)
      .where('user_articles.article_id', '<=', to)
      .where('articles.id', '>', from)
      .where('articles.id', '<=', to);
    if (scope.feedIds !== null) q = q.where('user_articles.feed_id', 'in', [...scope.feedIds]);
    const rows = withText ? await q.select(['articles.content', 'articles.summary']).execute() : await q.execute();
    const matched: { id: number; feedId: number; publishedAt: string }[] = [];
    const missed: number[] = [];
    for (const row of rows) {
      const r = row as typeof row & { content?: string | null; summary?: string | null };
      const text = withText ? articleBody(r.content ?? null, r.summary ?? null) : '';
      if (matchesAny(rules, { feedId: r.feed_id, title: r.title, text })) matched.push({ id: r.article_id, feedId: r.feed_id, publishedAt: r.published_at });
      else missed.push(r.article_id);
    }
    if ((matched.length > 0 || missed.length > 0) && !(await onStep(matched, missed))) return;
    first = await next(to);
    if (first !== null) await between();
  }
}

/**
 * Recomputes a smart list's members from its rules over all the user's articles, a step of RECOMPUTE_BATCH
 * articles at a time, each step's writes in their own short transaction, yielding to the event loop between steps
 * (100,000 articles never hold the server or the database for long). Only articles this pass judged are added or
 * removed, so articles the store matches meanwhile stay right. A newer change of the list's rules stops this pass
 * (its own pass takes over): each step first checks the list still has the rules this pass started from.
 */
export async function recomputeSmartList(db: Db, listId: number, options: { now: () => Date; between?: () => Promise<void> }): Promise<void> {
  const list = await db.selectFrom('reading_lists').select(['user_id', 'rules', 'is_smart', 'updated_at']).where('id', '=', listId).executeTakeFirst();
  if (!list || list.is_smart !== 1) return;
  const rules = await compileRules(parseStoredRules(list.rules));
  const scope = feedsInScope(rules);
  const current = async (trx: Db) => {
    const row = await trx.selectFrom('reading_lists').select(['rules', 'updated_at', 'is_smart']).where('id', '=', listId).executeTakeFirst();
    return row !== undefined && row.is_smart === 1 && row.rules === list.rules && row.updated_at === list.updated_at;
  };
  const subscribed = (await db.selectFrom('subscriptions').select('feed_id').where('user_id', '=', list.user_id).execute()).map((s) => s.feed_id);
  const feedIds = scope === null ? null : subscribed.filter((id) => scope.has(id));
  // Members outside the rules' feeds (a feed deselected, or a manual member of a list that became smart) go first.
  const stillCurrent = await db.transaction().execute(async (trx) => {
    if (!(await current(trx))) return false;
    const members = trx.deleteFrom('reading_list_articles').where('list_id', '=', listId);
    if (rules.length === 0 || (feedIds !== null && feedIds.length === 0)) await members.execute();
    else if (feedIds !== null) await members.where('feed_id', 'not in', feedIds).execute();
    else return true;
    await listMembersChanged(trx, { userId: list.user_id, listId });
    return true;
  });
  if (!stillCurrent || rules.length === 0) return;
  await scanUserArticles(
    db,
    list.user_id,
    rules,
    { feedIds },
    (matched, missed) =>
      db.transaction().execute(async (trx) => {
        if (!(await current(trx))) return false;
        const now = options.now().toISOString();
        const added = await addMembers(
          trx,
          listId,
          list.user_id,
          null,
          matched.map((m) => ({ id: m.id, feedId: m.feedId, publishedAt: m.publishedAt })),
          now,
        );
        const removed = await removeMembers(trx, listId, missed);
        // The list's counters move by exactly the members this step added and removed.
        await listMembersMoved(trx, list.user_id, listId, { added, removed });
        return true;
      }),
    options.between ?? yieldToEventLoop,
  );
}

/**
 * A user subscribed to feeds that already have articles (subscribing backfills them, one feed or an OPML batch):
 * they join the user's smart lists whose rules match (call inside the subscribing transaction). One query when the
 * user has no smart list.
 */
export async function matchSubscribedFeeds(trx: Db, userId: number, feedIds: readonly number[], now: string): Promise<void> {
  if (feedIds.length === 0) return;
  const lists = await trx.selectFrom('reading_lists').select(['id', 'rules']).where('user_id', '=', userId).where('is_smart', '=', 1).execute();
  for (const list of lists) {
    const compiled = await compileRules(parseStoredRules(list.rules));
    for (const feedId of feedIds) {
      const rules = rulesForFeed(compiled, feedId);
      if (rules.length === 0) continue;
      await scanUserArticles(
        trx,
        userId,
        rules,
        { feedIds: [feedId] },
        async (matched) => {
          const added = await addMembers(
            trx,
            list.id,
            userId,
            feedId,
            matched.map((m) => ({ id: m.id, publishedAt: m.publishedAt })),
            now,
          );
          if (added.length > 0) await listMembersMoved(trx, userId, list.id, { added, removed: [] });
          return true;
        },
        async () => {},
      );
    }
  }
}
