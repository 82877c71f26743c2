import { CompiledQuery, sql } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import { isHiddenByFilters, type FilterRule } from '../feeds/filter-match.js';
import type { Enclosure } from '../reader/types.js';
import { articleBody, storedString, teaser, type StoredText } from './article-text.js';
import { searchVectorProbe, simpleTsvector } from './search-vector.js';
import { articlesStored, newCopies, newCopiesCountedSql } from './reading-state.js';
import { chunks } from '../db/chunks.js';
import { matchArrivedArticles, smartListsOfSubscribers } from '../reading-lists/membership.js';
import type { TransactionEnd } from '../refresh/write-groups.js';

/**
 * An item ready to store: sanitised HTML, plain-text title and author, hashes computed by the caller. The long texts
 * (HTML, text, teaser) may come as UTF-8 bytes (article-text.ts StoredText): a refresh's new items do.
 */
export interface StoredItem {
  guidHash: string;
  guid: string;
  contentHash: string;
  url: string | null;
  title: string;
  author: string | null;
  content: StoredText | null;
  summary: StoredText | null;
  imageUrl: string | null;
  enclosures: Enclosure[];
  publishedAt: string;
  updatedAt: string | null;
  /**
   * Plain text of content or summary (article-text.ts articleBody) for search and filters. The refresh computes it
   * on its parse threads beside sanitising; when absent it is computed here.
   */
  text?: StoredText;
  /** The compact card's teaser (article-text.ts teaser of summary, else content); computed here when absent. */
  teaser?: StoredText;
  /**
   * PostgreSQL: `to_tsvector('simple', title + ' ' + text)` made on a parse thread (search-vector.ts, binary form);
   * when absent or null, PostgreSQL computes it from the text. SQLite ignores it.
   */
  searchVector?: Uint8Array | null;
}

/** The most rows of an insert of articles or subscribers' copies: their statements come in a few sizes (paddedRows). */
const PADDED_ROWS_MAX = 64;
const INSERT_BATCH = PADDED_ROWS_MAX;
const LOOKUP_BATCH = 1000;
const USER_ARTICLE_BATCH = PADDED_ROWS_MAX;

/**
 * guid hash → content hash of the items that were in the feed's last successful document (last seen then):
 * what a new document is compared with to tell new, edited and unchanged items apart before any sanitising.
 */
export async function currentItemHashes(db: Db, feedId: number, lastSuccessAt: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('articles').select(['guid_hash', 'content_hash']).where('feed_id', '=', feedId).where('last_seen_at', '>=', lastSuccessAt).execute();
  return new Map(rows.map((r) => [r.guid_hash, r.content_hash]));
}

const encodeEnclosures = (e: Enclosure[]) => (e.length ? JSON.stringify(e) : null);

/** The columns an item sets, on insert and on an edit alike. */
const itemColumns = (i: StoredItem) => ({
  guid: i.guid,
  url: i.url,
  title: i.title,
  author: i.author,
  content: i.content,
  summary: i.summary,
  teaser: i.teaser ?? teaser(storedString(i.summary ?? i.content)),
  image_url: i.imageUrl,
  enclosures: encodeEnclosures(i.enclosures),
  content_hash: i.contentHash,
  published_at: i.publishedAt,
});

/** itemColumns with the long texts as strings: what an update through the query builder binds (an edit's rare path). */
const itemColumnsAsText = (i: StoredItem) => {
  const c = itemColumns(i);
  return { ...c, content: storedString(c.content), summary: storedString(c.summary), teaser: storedString(c.teaser) };
};

/** What search indexes and filters match: the title and the plain text of content or summary. */
interface ItemText {
  id: number;
  title: string;
  body: StoredText;
  /** The item's date: smart reading lists copy it (their pages are ordered by it). */
  publishedAt: string;
}

const itemText = (id: number, i: StoredItem): ItemText => ({
  id,
  title: i.title,
  body: i.text ?? articleBody(storedString(i.content), storedString(i.summary)),
  publishedAt: i.publishedAt,
});

/** What PostgreSQL's search vector is made of: the title and the plain text (search-vector.ts makes the same). */
const searchText = (t: { title: string; body: StoredText }) => `${t.title} ${storedString(t.body)}`;

/** PostgreSQL's search vector of an article ('simple' configuration: feeds come in every language). */
const tsvector = (t: { title: string; body: StoredText }) => sql`to_tsvector('simple', ${searchText(t)})`;

/** A vector from a parse thread as the pg driver binds binary values (a Buffer; a thread's copy is a Uint8Array). */
const vectorParam = (v: Uint8Array) => (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength));

/**
 * Whether this PostgreSQL computes search vectors as search-vector.ts does: to_tsvector of searchVectorProbe() (every
 * character and separator it handles) is the vector it makes. The refresh asks once per engine before it lets the
 * parse threads make vectors (docs/decisions.md "Refresh engine: the search vector on the parse threads").
 */
export async function searchVectorsAgree(db: Db): Promise<boolean> {
  if (dialectOf(db) !== 'postgres') return false;
  const probe = searchVectorProbe();
  const mine = simpleTsvector(probe);
  if (!mine) return false;
  const { rows } = await sql<{ same: boolean }>`select ${vectorParam(mine)}::tsvector::text = to_tsvector('simple', ${probe})::text as same`.execute(db);
  return rows[0]?.same === true;
}

// FTS rows per insert statement (3 parameters each): a whole write group's new articles in one statement.
const FTS_BATCH = 1000;

/**
 * The refresh's multi-row inserts as SQL text, built once per dialect and row count and then only given their
 * values: Kysely's builder takes about as long to build and compile a 50-row insert of 17 columns as SQLite takes to
 * run it (bench/README.md "Reading the refresh figures"), on the main thread, for every stored feed. The texts are
 * plain INSERTs of fixed column lists, the values are bound parameters; `row` writes one row's tuple from a
 * placeholder source (`?` on SQLite, `$n` on PostgreSQL).
 */
const insertTexts = new Map<string, string>();
const INSERT_TEXTS_MAX = 300;

function insertText(postgres: boolean, head: string, row: (p: () => string) => string, rows: number, tail: string): string {
  const key = `${postgres ? 'p' : 's'}${rows}${head}${tail}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    let n = 0;
    const p = postgres ? () => `$${++n}` : () => '?';
    const tuples: string[] = [];
    for (let r = 0; r < rows; r++) tuples.push(row(p));
    text = `${head} values ${tuples.join(', ')}${tail}`;
    // The padded sizes are kept; a group's search entries (any count up to FTS_BATCH) are written anew each time.
    if (rows <= PADDED_ROWS_MAX && insertTexts.size < INSERT_TEXTS_MAX) insertTexts.set(key, text);
  }
  return text;
}

/**
 * The number of rows a statement of `rows` rows is padded to: up to 16 as it is, then the next multiple of 8, so the
 * inserts of articles and copies come in 22 sizes whatever the feeds hold (docs/decisions.md "Refresh engine: a few
 * statement sizes"). Each size is a statement SQLite keeps prepared (about 30 bytes per character of its SQL: a 50-row
 * article insert takes 80 KB) and PostgreSQL a named statement per connection; feeds of every length from 1 to 100
 * items made 100 sizes of each, and SQLite's cache grew by 15 MB in one round.
 */
export function paddedRows(rows: number): number {
  return rows <= 16 ? rows : Math.ceil(rows / 8) * 8;
}

/**
 * Runs a multi-row insert. `pad`: the statement ends in `on conflict … do nothing`, so its row count is padded
 * (paddedRows) with copies of the last row, appended to `values`, which conflict with it and are neither written nor
 * returned.
 */
async function insertRows<R>(
  trx: Db,
  postgres: boolean,
  head: string,
  row: (p: () => string) => string,
  rows: number,
  tail: string,
  values: unknown[],
  pad = false,
): Promise<R[]> {
  const size = pad ? paddedRows(rows) : rows;
  if (size > rows) {
    const width = values.length / rows;
    const last = values.slice(values.length - width);
    for (let r = rows; r < size; r++) for (const v of last) values.push(v);
  }
  const result = await trx.executeQuery<R>(CompiledQuery.raw(insertText(postgres, head, row, size, tail), values));
  return result.rows;
}

const ARTICLE_INSERT =
  'insert into "articles" ("guid", "url", "title", "author", "content", "summary", "teaser", "image_url", "enclosures", "content_hash", "published_at", "feed_id", "guid_hash", "updated_at", "created_at", "last_seen_at"';
const ARTICLE_HEAD = { sqlite: `${ARTICLE_INSERT})`, postgres: `${ARTICLE_INSERT}, "search_vector")` };
/** One article's tuple; `text` writes the placeholders of content, summary and teaser. */
const articleRow = (p: () => string, text: (p: () => string) => string = (q) => q()) =>
  `(${p()}, ${p()}, ${p()}, ${p()}, ${text(p)}, ${text(p)}, ${text(p)}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()})`;
/**
 * SQLite: content, summary and teaser may be bound as UTF-8 bytes (StoredText), which SQLite would keep as blobs;
 * `cast(? as text)` stores them as the text they are, without a conversion, and leaves a string as it is.
 */
const asText = (p: () => string) => `cast(${p()} as text)`;
const articleRowSqlite = (p: () => string) => articleRow(p, asText);
// PostgreSQL's search vector is written with the row: the parse thread's vector (binary), else to_tsvector of the
// text (one of the two parameters is null).
const articleRowPg = (p: () => string) => `${articleRow(p).slice(0, -1)}, coalesce(${p()}::tsvector, to_tsvector('simple', ${p()})))`;
// Two workers cannot store the same feed at once (lease), but a retried job might: never duplicate.
const ARTICLE_TAIL = ' on conflict ("feed_id", "guid_hash") do nothing returning "id", "guid_hash"';
const USER_ARTICLE_INSERT = 'insert into "user_articles" ("user_id", "article_id", "feed_id", "published_at", "is_read", "is_favorite")';
const userArticleRow = (p: () => string) => `(${p()}, ${p()}, ${p()}, ${p()}, 0, 0)`;
const USER_ARTICLE_TAIL = ' on conflict ("user_id", "article_id") do nothing';
// PostgreSQL: the subscribers' copies are written by the articles' own statement (docs/decisions.md "Refresh engine:
// PostgreSQL's work per new feed"): the inserted rows (a conflict returns none) times the feed's subscribers.
// The subscribers are those of the rows' feed (every row of a statement is of one feed), found as one range of
// subscriptions_feed_idx: an initplan, not a join, which the planner would make a hash join over every subscription.
// The same statement counts the copies in those subscriptions' counters (reading-state.ts newCopiesCountedSql: from
// the same snapshot, so exactly the subscribers given copies). The rows come back with whether a subscriber has
// filters on the feed or a smart list (initplans, the same for every row), so a feed nobody filters or lists skips
// those two reads.
const A_FEED = '(select "feed_id" from "a" limit 1)';
const ARTICLE_HEAD_PG_COPIES = `with "a" as (${ARTICLE_HEAD.postgres}`;
const ARTICLE_TAIL_PG_COPIES =
  `${ARTICLE_TAIL}, "feed_id", "published_at"), "c" as (` +
  `${USER_ARTICLE_INSERT} select "s"."user_id", "a"."id", "a"."feed_id", "a"."published_at", 0, 0 from "a", "subscriptions" as "s"` +
  ` where "s"."feed_id" = ${A_FEED}${USER_ARTICLE_TAIL}), "n" as (${newCopiesCountedSql(A_FEED, '(select count(*) from "a")')})` +
  ' select "id", "guid_hash", exists (select 1 from "subscriptions" as "s" inner join "feed_filters" as "f" on "f"."user_id" = "s"."user_id"' +
  ` and "f"."feed_id" = "s"."feed_id" where "s"."feed_id" = ${A_FEED}) as "filtered", ${smartListsOfSubscribers(A_FEED)} as "listed" from "a"`;

/** SQLite: (re)writes the FTS5 entries of these articles. PostgreSQL keeps search_vector on the row instead. */
async function writeFtsRows(trx: Db, rows: Pick<ItemText, 'id' | 'title' | 'body'>[], replace: boolean): Promise<void> {
  for (const batch of chunks(rows, FTS_BATCH)) {
    if (replace)
      await trx
        .deleteFrom('articles_fts')
        .where(
          'rowid',
          'in',
          batch.map((r) => r.id),
        )
        .execute();
    await insertRows(
      trx,
      false,
      'insert into "articles_fts" ("rowid", "title", "body")',
      (p) => `(${p()}, ${p()}, ${asText(p)})`,
      batch.length,
      '',
      batch.flatMap((r) => [r.id, r.title, r.body]),
    );
  }
}

/** New articles' FTS5 entries, written at the end of the transaction (write-groups.ts TransactionEnd). */
const writeNewFtsRows = (trx: Db, rows: Pick<ItemText, 'id' | 'title' | 'body'>[]) => writeFtsRows(trx, rows, false);

/** Per subscriber: the articles the filters hide, and (for edits) those they show again. */
type Verdicts = Map<number, { hide: number[]; show: number[] }>;

/**
 * Subscribers' filters on new or edited articles (decisions.md "Feeds and articles"): adds to `verdicts` what each
 * subscriber with filters on this feed hides (and, for edits, shows). The flags are written, and the counters
 * recounted when a verdict changes them, by articles/reading-state.ts (articlesStored).
 */
async function filterVerdicts(trx: Db, feedId: number, texts: ItemText[], edited: boolean, verdicts: Verdicts, filtered?: boolean): Promise<void> {
  // `filtered` false: the articles' statement found no filters of the feed's subscribers (ARTICLE_TAIL_PG_COPIES).
  if (texts.length === 0 || filtered === false) return;
  const filters = await trx.selectFrom('feed_filters').select(['user_id', 'filter_type', 'filter_scope', 'filter_text']).where('feed_id', '=', feedId).execute();
  if (filters.length === 0) return;
  const byUser = new Map<number, FilterRule[]>();
  for (const f of filters) {
    const list = byUser.get(f.user_id) ?? [];
    list.push(f);
    byUser.set(f.user_id, list);
  }
  // Decoded once for every subscriber (a refresh's new texts come as bytes).
  const bodies = texts.map((t) => storedString(t.body));
  for (const [userId, rules] of byUser) {
    const verdict = verdicts.get(userId) ?? { hide: [], show: [] };
    verdicts.set(userId, verdict);
    for (const [k, t] of texts.entries()) {
      if (isHiddenByFilters(rules, { title: t.title, text: bodies[k] })) verdict.hide.push(t.id);
      else if (edited) verdict.show.push(t.id);
    }
  }
}

/**
 * Writes one fetch's items of a feed (call inside the feed's transaction): inserts new articles and gives them
 * to every subscriber at once, updates edited ones in place (read and favourite state stay), and records that
 * every item of the document was seen now (the clean-up keeps articles still in the feed).
 * `seen` lists the guid hashes of every item in the document, stored or not.
 * New and edited articles are (re)indexed for search and run through the subscribers' filters; the subscriptions'
 * counters grow by the new copies, and are recounted when a filter changed what a subscriber sees. With `end`, the
 * new articles' SQLite search entries are written at the end of the transaction, with the other feeds' of a write
 * group.
 */
export async function writeFeedItems(
  trx: Db,
  feedId: number,
  items: { fresh: StoredItem[]; changed: StoredItem[]; seen: string[] },
  now: string,
  end?: TransactionEnd,
): Promise<number[]> {
  const postgres = dialectOf(trx) === 'postgres';
  const newIds: number[] = [];
  const freshTexts: ItemText[] = [];
  // PostgreSQL: whether a subscriber has filters on the feed / a smart list, when the articles' statement said so.
  let filtered: boolean | undefined;
  let listed: boolean | undefined;
  for (const batch of chunks(items.fresh, INSERT_BATCH)) {
    const byGuid = new Map(batch.map((i) => [i.guidHash, i]));
    // On PostgreSQL the search vector is written with the row; its text is computed here, once per item.
    const texts = postgres ? new Map(batch.map((i) => [i.guidHash, itemText(0, i)])) : null;
    const values: unknown[] = [];
    for (const i of batch) {
      const c = itemColumns(i);
      values.push(c.guid, c.url, c.title, c.author, c.content, c.summary, c.teaser, c.image_url, c.enclosures, c.content_hash, c.published_at);
      values.push(feedId, i.guidHash, i.updatedAt, now, now);
      if (texts) {
        const t = texts.get(i.guidHash)!;
        if (i.searchVector) values.push(vectorParam(i.searchVector), null);
        else values.push(null, searchText(t));
      }
    }
    const rows = await insertRows<{ id: number; guid_hash: string; filtered?: boolean; listed?: boolean }>(
      trx,
      postgres,
      postgres ? ARTICLE_HEAD_PG_COPIES : ARTICLE_HEAD.sqlite,
      postgres ? articleRowPg : articleRowSqlite,
      batch.length,
      postgres ? ARTICLE_TAIL_PG_COPIES : ARTICLE_TAIL,
      values,
      true,
    );
    for (const r of rows) {
      filtered = r.filtered;
      listed = r.listed;
      newIds.push(r.id);
      const known = texts?.get(r.guid_hash);
      freshTexts.push(known ? { ...known, id: r.id } : itemText(r.id, byGuid.get(r.guid_hash)!));
    }
  }
  // SQLite: the new articles' search entries go in last, with the other feeds' of the transaction when it has an
  // end to leave them for (one FTS5 segment per transaction; write-groups.ts TransactionEnd).
  if (!postgres) {
    if (end) end.add(writeNewFtsRows, freshTexts);
    else await writeNewFtsRows(trx, freshTexts);
  }
  if (!postgres && freshTexts.length > 0) {
    // SQLite: every subscriber's copy, as plain rows: the subscribers are read once (subscriptions_feed_idx), and no join
    // walks the feed's older articles to find the new ones.
    const subscribers = await trx.selectFrom('subscriptions').select('user_id').where('feed_id', '=', feedId).execute();
    let copies: unknown[] = [];
    const insertCopies = () => insertRows(trx, postgres, USER_ARTICLE_INSERT, userArticleRow, copies.length / 4, USER_ARTICLE_TAIL, copies, true);
    for (const s of subscribers) {
      for (const t of freshTexts) {
        copies.push(s.user_id, t.id, feedId, t.publishedAt);
        if (copies.length >= USER_ARTICLE_BATCH * 4) {
          await insertCopies();
          copies = [];
        }
      }
    }
    if (copies.length > 0) await insertCopies();
    if (subscribers.length > 0) await newCopies(trx, feedId, freshTexts.length);
  }
  const changedTexts: ItemText[] = [];
  for (const i of items.changed) {
    const text = itemText(0, i);
    const updated = await trx
      .updateTable('articles')
      .set({
        ...itemColumnsAsText(i),
        updated_at: i.updatedAt ?? now,
        last_seen_at: now,
        ...(postgres ? ({ search_vector: i.searchVector ? sql`${vectorParam(i.searchVector)}::tsvector` : tsvector(text) } as object) : {}),
      })
      .where('feed_id', '=', feedId)
      .where('guid_hash', '=', i.guidHash)
      .returning('id')
      .executeTakeFirst();
    if (updated) {
      changedTexts.push({ ...text, id: updated.id });
      await trx.updateTable('user_articles').set({ published_at: i.publishedAt }).where('article_id', '=', updated.id).execute();
    }
  }
  if (!postgres) await writeFtsRows(trx, changedTexts, true);
  const touched = new Set([...items.fresh, ...items.changed].map((i) => i.guidHash));
  const unchanged = items.seen.filter((h) => !touched.has(h));
  for (const batch of chunks(unchanged, LOOKUP_BATCH)) {
    await trx.updateTable('articles').set({ last_seen_at: now }).where('feed_id', '=', feedId).where('guid_hash', 'in', batch).execute();
  }
  const verdicts: Verdicts = new Map();
  await filterVerdicts(trx, feedId, freshTexts, false, verdicts, filtered);
  await filterVerdicts(trx, feedId, changedTexts, true, verdicts, filtered);
  // Hidden flags, and the subscribers' counters when a filter changed what they count, by the owner of the reading
  // state (the new copies are counted already).
  await articlesStored(trx, feedId, { hidden: verdicts });
  // Smart reading lists of the feed's subscribers take the new articles that match their rules (one indexed query
  // when no subscriber has a smart list; docs/decisions.md "Organising: folders and reading lists").
  await matchArrivedArticles(trx, feedId, { fresh: freshTexts, changed: changedTexts }, now, listed);
  return newIds;
}

/**
 * Fills in the teaser of up to `limit` articles stored before migration 0008 (the lowest ids first) and returns
 * how many it filled. The teaser's work is bounded per article (article-text.ts TEASER_SOURCE_MAX), so a chunk
 * costs at most `limit` bounded computations; the maintenance job calls it chunk by chunk, yielding in between.
 */
export async function fillMissingTeasers(db: Db, limit: number): Promise<number> {
  const rows = await db.selectFrom('articles').select(['id', 'summary', 'content']).where('teaser', 'is', null).orderBy('id').limit(limit).execute();
  for (const r of rows) {
    await db
      .updateTable('articles')
      .set({ teaser: teaser(r.summary ?? r.content) })
      .where('id', '=', r.id)
      .where('teaser', 'is', null)
      .execute();
  }
  return rows.length;
}

/**
 * The clean-up of decisions.md "Old articles": removes articles published before `cutoff` that no subscriber
 * keeps (every subscriber has read it, nobody made it a favourite, nobody has it in a reading list) and that are no longer in their feed's latest
 * document (otherwise the next fetch would bring them back as new). At most `limit` per call, so one call never
 * holds the database for long. Returns how many went and from which feeds (the caller recounts those).
 */
export async function deleteUnkeptArticles(db: Db, cutoff: string, limit: number): Promise<{ deleted: number; feedIds: number[] }> {
  const doomed = db
    .selectFrom('articles')
    .innerJoin('feeds', 'feeds.id', 'articles.feed_id')
    .select('articles.id')
    .where('articles.published_at', '<', cutoff)
    .where((eb) => eb.or([eb('feeds.last_success_at', 'is', null), eb('articles.last_seen_at', '<', eb.ref('feeds.last_success_at'))]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('user_articles')
            .select('user_articles.article_id')
            .whereRef('user_articles.article_id', '=', 'articles.id')
            .where((w) => w.or([w('user_articles.is_read', '=', 0), w('user_articles.is_favorite', '=', 1)])),
        ),
      ),
    )
    // An article in anybody's reading list is kept too (reading_list_articles_article_idx).
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('reading_list_articles').select('reading_list_articles.article_id').whereRef('reading_list_articles.article_id', '=', 'articles.id')),
      ),
    )
    .limit(limit);
  // The feeds come back with the rows: their subscriptions' article counts must be recounted (articles/reading-state.ts).
  const rows = await db.deleteFrom('articles').where('id', 'in', doomed).returning('feed_id').execute();
  return { deleted: rows.length, feedIds: [...new Set(rows.map((r) => r.feed_id))] };
}

/** Rows of a feed's articles, newest first (tests and the reading issue's code build on this shape). */
export async function listFeedArticles(db: Db, feedId: number, limit = 100) {
  return db.selectFrom('articles').selectAll().where('feed_id', '=', feedId).orderBy('published_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Count of a user's unread articles (all feeds); a building block for tests until the reading API exists. */
export async function countUnread(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_articles')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
