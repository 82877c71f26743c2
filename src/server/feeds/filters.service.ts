import type { Static } from 'typebox';
import type { FeedFilter } from '../../common/api.js';
import { setHidden } from '../articles/reading-state.js';
import { MAX_FILTER_TEXT_LENGTH, MAX_FILTERS_PER_FEED } from '../../common/limits.js';
import type { AddFilterBody } from '../../common/schemas/feeds.js';
import type { Db } from '../db/database.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { findSubscriptionId } from './subscriptions.repository.js';
import { feedNotFound } from './feeds.service.js';
import { presentFilter } from './feeds.presenter.js';
import { filterSubjectOf, isHiddenByFilters, type FilterScope, type FilterType } from './filter-match.js';
import * as repo from './filters.repository.js';

/**
 * Feed filters (dashboard.md §3 "Feed filter", §5, §7 "Filters", §8; decisions.md "Feeds and articles").
 * Filters are materialised in user_articles.is_hidden: every change recomputes the flag of the user's articles of
 * that feed and the subscription's counters in one transaction, so lists, unread counts and search change at once.
 */

const FILTER_TYPES: readonly FilterType[] = ['include', 'exclude'];
const FILTER_SCOPES: readonly FilterScope[] = ['title', 'content', 'both'];
/** Articles read per step while recomputing: bounded memory for feeds of any size. */
const BATCH = 500;

export interface FiltersServiceDeps {
  db: Db;
  now: () => Date;
}

/** The body of POST /api/feeds/{id}/filters, as the route's schema accepts it. */
export type AddFilterInput = Static<typeof AddFilterBody>;

/**
 * Recomputes the hidden flag of the user's articles of one feed from its filters, writing only rows whose flag
 * changes, then recounts the subscription. Call inside the transaction that changed the filters.
 */
export async function applyFilters(trx: Db, userId: number, feedId: number): Promise<void> {
  const rules = await repo.filterRules(trx, userId, feedId);
  if (rules.length === 0) {
    await setHidden(trx, userId, feedId, 'show-all');
    return;
  }
  const hide: number[] = [];
  const show: number[] = [];
  for (let after = 0; ;) {
    const rows = await repo.articlesToFilter(trx, userId, feedId, after, BATCH);
    for (const row of rows) {
      const hidden = isHiddenByFilters(rules, filterSubjectOf(row));
      if (hidden !== (row.is_hidden === 1)) (hidden ? hide : show).push(row.article_id);
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1].article_id;
  }
  // The owner of the reading state writes the flags and recounts the subscription.
  await setHidden(trx, userId, feedId, { hide, show });
}

export class FiltersService {
  constructor(private readonly deps: FiltersServiceDeps) {}

  private async subscriptionOf(db: Db, userId: number, feedId: number): Promise<number> {
    const id = await findSubscriptionId(db, userId, feedId);
    if (id === undefined) throw feedNotFound();
    return id;
  }

  async list(userId: number, feedId: number): Promise<{ filters: FeedFilter[] }> {
    await this.subscriptionOf(this.deps.db, userId, feedId);
    return { filters: (await repo.listFilters(this.deps.db, userId, feedId)).map(presentFilter) };
  }

  /** Defaults: include, both (dashboard.md §3). Text trimmed and required; a duplicate (ignoring case) is a 409. */
  async add(userId: number, feedId: number, input: AddFilterInput): Promise<FeedFilter> {
    const type = (input.filter_type ?? 'include') as FilterType;
    if (!FILTER_TYPES.includes(type)) throw badRequest('INVALID_FILTER_TYPE', 'filter_type must be include or exclude.');
    const scope = (input.filter_scope ?? 'both') as FilterScope;
    if (!FILTER_SCOPES.includes(scope)) throw badRequest('INVALID_FILTER_SCOPE', 'filter_scope must be title, content or both.');
    const text = input.filter_text?.trim() ?? '';
    if (!text) throw badRequest('FILTER_TEXT_REQUIRED', 'Please enter a filter text.');
    if ([...text].length > MAX_FILTER_TEXT_LENGTH) {
      throw badRequest('FILTER_TEXT_TOO_LONG', `The filter text may be at most ${MAX_FILTER_TEXT_LENGTH} characters long.`);
    }
    return this.deps.db.transaction().execute(async (trx) => {
      const subscriptionId = await this.subscriptionOf(trx, userId, feedId);
      if ((await repo.countFilters(trx, userId, feedId)) >= MAX_FILTERS_PER_FEED) {
        throw badRequest('TOO_MANY_FILTERS', `A feed can have at most ${MAX_FILTERS_PER_FEED} filters.`);
      }
      const row = await repo.insertFilter(trx, userId, { subscriptionId, feedId, type, scope, text, now: this.deps.now().toISOString() });
      if (!row) throw conflict('FILTER_EXISTS', 'This filter exists already.');
      await applyFilters(trx, userId, feedId);
      return presentFilter(row);
    });
  }

  async remove(userId: number, filterId: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const deleted = await repo.deleteFilter(trx, userId, filterId);
      if (!deleted) throw notFound('FILTER_NOT_FOUND', 'Filter not found.');
      await applyFilters(trx, userId, deleted.feed_id);
    });
  }
}
