import type { ArticlePage, ReadingList, ReadingListInput, ReadingListRule, ReadingListUnreadCount } from '../../common/api.js';
import { MAX_READING_LIST_DESCRIPTION_LENGTH, MAX_READING_LIST_NAME_LENGTH, MAX_READING_LISTS, MAX_RULE_VALUE_LENGTH, MAX_RULES } from '../../common/limits.js';
import { articleNotFound, feedMuted, type ArticlesService, type PageInput } from '../articles/articles.service.js';
import * as reading from '../articles/reading.repository.js';
import type { Db } from '../db/database.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { isMuted } from '../feeds/mute.js';
import { recomputeSmartList } from './membership.js';
import * as repo from './reading-lists.repository.js';
import { parseStoredRules, patternError } from './smart-rules.js';

/**
 * Reading lists (dashboard.md §3, §4 "Reading-list membership", §5, §7 "Reading lists", §8; decisions.md "Smart
 * reading lists"; docs/decisions.md "Organising: folders and reading lists"). Simple lists hold what the user adds;
 * smart lists hold every article of the user's feeds that matches any rule, recomputed when the rules change and
 * matched as articles arrive (membership.ts). Pages and counts show only visible articles (not filtered out, feed
 * not muted), like every other list. Every foreign id is a 404.
 */

export const listNotFound = () => notFound('READING_LIST_NOT_FOUND', 'Reading list not found.');
const smartManual = () => badRequest('SMART_LIST_MANUAL', 'Articles of a smart list follow its rules; they cannot be added or removed by hand.');

const charCount = (s: string) => [...s].length;

/** The body of POST and PUT /api/reading-lists, as the route's schema accepts it. */
export type ReadingListInputBody = ReadingListInput;

export interface ReadingListsServiceDeps {
  db: Db;
  now: () => Date;
  articles: ArticlesService;
}

export function presentReadingList(row: repo.ReadingListRow, counts?: { total: number; unread: number }): ReadingList {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_smart: row.is_smart === 1,
    rules: row.is_smart === 1 ? parseStoredRules(row.rules) : [],
    article_count: counts?.total ?? 0,
    unread_article_count: counts?.unread ?? 0,
    sort_order: row.sort_order,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export class ReadingListsService {
  constructor(private readonly deps: ReadingListsServiceDeps) {}

  private nowIso(): string {
    return this.deps.now().toISOString();
  }

  private async own(db: Db, userId: number, listId: number): Promise<repo.ReadingListRow> {
    const row = await repo.findReadingList(db, userId, listId);
    if (!row) throw listNotFound();
    return row;
  }

  private async present(userId: number, row: repo.ReadingListRow): Promise<ReadingList> {
    const [counts] = await reading.readingListCounts(this.deps.db, userId, this.nowIso(), { listId: row.id });
    return presentReadingList(row, counts);
  }

  async list(userId: number): Promise<{ reading_lists: ReadingList[] }> {
    const [rows, counts] = await Promise.all([repo.listReadingLists(this.deps.db, userId), reading.readingListCounts(this.deps.db, userId, this.nowIso())]);
    const byList = new Map(counts.map((c) => [c.list_id, c]));
    return { reading_lists: rows.map((r) => presentReadingList(r, byList.get(r.id))) };
  }

  async get(userId: number, listId: number): Promise<{ reading_list: ReadingList }> {
    return { reading_list: await this.present(userId, await this.own(this.deps.db, userId, listId)) };
  }

  /**
   * The fields to store, or a 400 with the code of the first rule broken (dashboard.md §5). Names and descriptions
   * are trimmed; rule values are kept as typed (a keyword " ai " with its spaces is a deliberate whole-word match)
   * but must not be blank. Feed ids the user does not subscribe to are dropped from a rule's selection (a feed
   * unsubscribed since the list was saved must not block saving it again). A simple list keeps no rules.
   */
  private async fields(db: Db, userId: number, input: ReadingListInputBody): Promise<repo.ReadingListFields> {
    const name = input.name?.trim() ?? '';
    if (!name) throw badRequest('NAME_REQUIRED', 'Please enter a name.');
    if (charCount(name) > MAX_READING_LIST_NAME_LENGTH) throw badRequest('NAME_TOO_LONG', `The name may be at most ${MAX_READING_LIST_NAME_LENGTH} characters long.`);
    const description = input.description?.trim() ?? '';
    if (charCount(description) > MAX_READING_LIST_DESCRIPTION_LENGTH) {
      throw badRequest('DESCRIPTION_TOO_LONG', `The description may be at most ${MAX_READING_LIST_DESCRIPTION_LENGTH} characters long.`);
    }
    const isSmart = input.is_smart === true;
    if (!isSmart) return { name, description, is_smart: 0, rules: '[]' };
    const given = input.rules ?? [];
    if (given.length === 0) throw badRequest('RULES_REQUIRED', 'A smart list needs at least one rule.');
    if (given.length > MAX_RULES) throw badRequest('TOO_MANY_RULES', `A smart list can have at most ${MAX_RULES} rules.`);
    const own = await repo.ownFeedIds(db, userId, [...new Set(given.flatMap((r) => r.selected_feeds ?? []))]);
    const rules: ReadingListRule[] = [];
    for (const [index, r] of given.entries()) {
      const at = { rule_index: index };
      const value = r.rule_value ?? '';
      if (value.trim() === '') throw badRequest('RULE_VALUE_REQUIRED', `Rule ${index + 1}: please enter a value.`, at);
      if (charCount(value) > MAX_RULE_VALUE_LENGTH) {
        throw badRequest('RULE_VALUE_TOO_LONG', `Rule ${index + 1}: the value may be at most ${MAX_RULE_VALUE_LENGTH} characters long.`, at);
      }
      const type = r.rule_type ?? 'keyword';
      if (type === 'regex') {
        const error = await patternError(value);
        if (error !== null) throw badRequest('INVALID_REGEX', `Rule ${index + 1}: not a valid regular expression (${error}).`, at);
      }
      const includeAll = r.include_all_feeds ?? true;
      const selected = [...new Set(r.selected_feeds ?? [])].filter((id) => own.has(id));
      if (!includeAll && selected.length === 0) throw badRequest('FEEDS_REQUIRED', `Rule ${index + 1}: please choose at least one feed.`, at);
      rules.push({ rule_type: type, rule_scope: r.rule_scope ?? 'both', rule_value: value, include_all_feeds: includeAll, selected_feeds: selected });
    }
    return { name, description, is_smart: 1, rules: JSON.stringify(rules) };
  }

  /** Creates a list; a smart one is filled from the user's articles before the answer (in steps, see membership.ts). */
  async create(userId: number, input: ReadingListInputBody): Promise<{ reading_list: ReadingList }> {
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const fields = await this.fields(trx, userId, input);
      if ((await repo.countReadingLists(trx, userId)) >= MAX_READING_LISTS)
        throw badRequest('TOO_MANY_LISTS', `You can have at most ${MAX_READING_LISTS} reading lists.`);
      return repo.createReadingList(trx, userId, fields, this.nowIso());
    });
    if (row.is_smart === 1) await recomputeSmartList(this.deps.db, row.id, { now: this.deps.now });
    return this.get(userId, row.id);
  }

  /**
   * Saves name, description, kind and rules. A smart list whose rules (or kind) changed is recomputed before the
   * answer. A smart list made simple keeps the articles it holds (they are now kept by hand); a simple list made
   * smart holds what its rules match, no more.
   */
  async update(userId: number, listId: number, input: ReadingListInputBody): Promise<{ reading_list: ReadingList }> {
    const recompute = await this.deps.db.transaction().execute(async (trx) => {
      const before = await this.own(trx, userId, listId);
      const fields = await this.fields(trx, userId, input);
      await repo.updateReadingList(trx, userId, listId, fields, this.nowIso());
      return fields.is_smart === 1 && (before.is_smart !== 1 || before.rules !== fields.rules);
    });
    if (recompute) await recomputeSmartList(this.deps.db, listId, { now: this.deps.now });
    return this.get(userId, listId);
  }

  async remove(userId: number, listId: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.deleteReadingList(trx, userId, listId))) throw listNotFound();
    });
  }

  /** GET /api/reading-lists/{id}/articles: the same page as every other list; read articles shown unless show_read=0. */
  async articles(userId: number, listId: number, input: PageInput & { showRead: boolean }): Promise<ArticlePage> {
    await this.own(this.deps.db, userId, listId);
    return this.deps.articles.readingListPage(userId, listId, input);
  }

  /**
   * Adds an article the user sees to a simple list: 404 for a list or article that is not the user's (or that a
   * filter hides), 403 FEED_MUTED for a muted feed's article (as read and favourite), 409 ALREADY_IN_LIST, and
   * 400 SMART_LIST_MANUAL for a smart list.
   */
  async addArticle(userId: number, listId: number, articleId: number): Promise<{ reading_list: ReadingList }> {
    const now = this.nowIso();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const list = await this.own(trx, userId, listId);
      if (list.is_smart === 1) throw smartManual();
      const article = await repo.findVisibleArticle(trx, userId, articleId);
      if (!article) throw articleNotFound();
      if (isMuted(article, now)) throw feedMuted();
      const added = await repo.addMember(trx, { listId, articleId, userId, feedId: article.feed_id, publishedAt: article.published_at }, now);
      if (!added) throw conflict('ALREADY_IN_LIST', 'The article is in this list already.');
      return list;
    });
    return { reading_list: await this.present(userId, row) };
  }

  /** Removes an article from a simple list: 404 ARTICLE_NOT_IN_LIST when it is not in it, 400 for a smart list. */
  async removeArticle(userId: number, listId: number, articleId: number): Promise<{ reading_list: ReadingList }> {
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const list = await this.own(trx, userId, listId);
      if (list.is_smart === 1) throw smartManual();
      if (!(await repo.removeMember(trx, userId, listId, articleId))) throw notFound('ARTICLE_NOT_IN_LIST', 'The article is not in this list.');
      return list;
    });
    return { reading_list: await this.present(userId, row) };
  }

  /** Unread visible articles of every list of the user (0 included), in sidebar order. */
  async unreadCounts(userId: number): Promise<{ unread_counts: ReadingListUnreadCount[] }> {
    const [rows, counts] = await Promise.all([repo.listReadingLists(this.deps.db, userId), reading.readingListCounts(this.deps.db, userId, this.nowIso())]);
    const unread = new Map(counts.map((c) => [c.list_id, c.unread]));
    return { unread_counts: rows.map((r) => ({ id: r.id, unread_article_count: unread.get(r.id) ?? 0 })) };
  }

  /** As POST /api/folders/sort: named lists first in the given order, the others after them; unknown id 404, repeated 400. */
  async sort(userId: number, order: readonly number[]): Promise<{ reading_lists: ReadingList[] }> {
    if (new Set(order).size !== order.length) throw badRequest('DUPLICATE_READING_LIST_ID', 'A reading list is named more than once.');
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.writeReadingListOrder(trx, userId, order))) throw listNotFound();
    });
    return this.list(userId);
  }
}
