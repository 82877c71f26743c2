import type { ActiveFilter, Article, ArticlePage, ArticleReadingListRef, ArticleStateResponse, MarkReadResponse, UndoReadResponse } from '../../common/api.js';
import { findReadingList, listsOfArticle } from '../reading-lists/reading-lists.repository.js';
import { findFolder, folderFeedIds } from '../folders/folders.repository.js';
import type { Db } from '../db/database.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { presentFilter, shownFeedTitle } from '../feeds/feeds.presenter.js';
import { presentIcon } from '../feeds/icons.js';
import { isMuted } from '../feeds/mute.js';
import { ftsMatchQuery, pgTsQuery, teaser } from './article-text.js';
import { DEFAULT_PER_PAGE, MAX_QUERY_LENGTH, READ_UNDO_MINUTES } from '../../common/limits.js';
import * as repo from './reading.repository.js';
import * as readingState from './reading-state.js';
import { dialectOf } from '../db/database.js';

/**
 * The reading rules (dashboard.md §4 "Read/unread", "Favourite", "Feed mute"; decisions.md "Feeds and
 * articles"): lists newest first, muted feeds left out of lists, counts and search and their articles' state
 * refused (403), filtered-out articles invisible, every foreign id a 404. Every state change recounts the
 * subscriptions it touched in the same transaction (articles/reading-state.ts).
 */

/** The client-held id lists (dashboard.md §3) carry at most this many ids, the newest first. */
export const MAX_ID_LIST = 10_000;

export const articleNotFound = () => notFound('ARTICLE_NOT_FOUND', 'Article not found.');
export const feedNotFound = () => notFound('FEED_NOT_FOUND', 'Feed not found.');
export const folderNotFound = () => notFound('FOLDER_NOT_FOUND', 'Folder not found.');
export const feedMuted = () => forbidden('FEED_MUTED', 'This feed is muted; unmute it to change its articles.');

export interface PageInput {
  page?: number;
  per_page?: number;
}

export interface ArticlesServiceDeps {
  db: Db;
  now: () => Date;
}

export function presentArticle(row: repo.ArticleRow): Article {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    // Stored by the refresh; rows older than migration 0008 get the same bounded computation until backfilled.
    summary: row.teaser ?? teaser(row.summary ?? row.content),
    content: row.content ?? row.summary,
    author: row.author,
    image_url: row.image_url,
    published_at: row.published_at,
    feed_id: row.feed_id,
    feed_title: shownFeedTitle(row.custom_title, row.feed_own_title),
    ...(({ base64, type, url }) => ({ feed_favicon: url, feed_favicon_base64: base64, feed_favicon_type: type }))(presentIcon(row)),
    is_read: row.is_read === 1,
    is_favorite: row.is_favorite === 1,
    in_reading_list: Boolean(row.in_reading_list),
  };
}

function paging(input: PageInput) {
  const perPage = input.per_page ?? DEFAULT_PER_PAGE;
  const page = input.page ?? 1;
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

export class ArticlesService {
  constructor(private readonly deps: ArticlesServiceDeps) {}

  private nowIso(): string {
    return this.deps.now().toISOString();
  }

  private async filtersInView(userId: number, feedId?: number): Promise<ActiveFilter[]> {
    const rows = await repo.activeFilters(this.deps.db, userId, feedId);
    return rows.map((r) => ({ ...presentFilter(r), feed_title: shownFeedTitle(r.custom_title, r.feed_own_title) }));
  }

  private page(rows: repo.ArticleRow[], total: number, p: ReturnType<typeof paging>, filters: ActiveFilter[]): ArticlePage {
    return {
      articles: rows.map(presentArticle),
      total,
      current_page: p.page,
      pages: Math.max(1, Math.ceil(total / p.perPage)),
      per_page: p.perPage,
      active_filters: filters,
      has_active_filters: filters.length > 0,
    };
  }

  /** The subscription of a feed in view; a feed the user does not subscribe to is a 404. */
  private async subscriptionOf(userId: number, feedId: number) {
    const sub = await repo.findSubscription(this.deps.db, userId, feedId);
    if (!sub) throw feedNotFound();
    return sub;
  }

  /**
   * A view narrowed to one feed: 404 when the user does not subscribe to it; when the feed is muted, the empty page
   * the view answers (the web app shows the muted state), else null.
   */
  private async mutedFeedPage(userId: number, feedId: number | undefined, now: string, p: ReturnType<typeof paging>): Promise<ArticlePage | null> {
    if (feedId === undefined) return null;
    const sub = await this.subscriptionOf(userId, feedId);
    return isMuted(sub, now) ? this.page([], 0, p, await this.filtersInView(userId, feedId)) : null;
  }

  /**
   * The feeds of one of the user's folders (a literal list for the list queries); 404 FOLDER_NOT_FOUND for a foreign
   * or missing folder. An empty folder is an empty list, not an error.
   */
  private async folderScope(userId: number, folderId: number): Promise<number[]> {
    const { db } = this.deps;
    if (!(await findFolder(db, userId, folderId))) throw folderNotFound();
    return folderFeedIds(db, userId, folderId);
  }

  /**
   * GET /api/articles (no feedId, no folderId), GET /api/feeds/{id}/articles and GET /api/folders/{id}/articles (the
   * folder's feeds as one stream, dashboard.md §4 "Folders"). A muted feed's own list is empty; in a folder's list
   * its muted feeds are left out as everywhere.
   */
  async list(userId: number, input: PageInput & { feedId?: number; folderId?: number; showRead: boolean }): Promise<ArticlePage> {
    const { db } = this.deps;
    const now = this.nowIso();
    const p = paging(input);
    if (input.feedId !== undefined && input.folderId !== undefined) throw scopeAmbiguous();
    const muted = await this.mutedFeedPage(userId, input.feedId, now, p);
    if (muted) return muted;
    const feedIds = input.folderId === undefined ? undefined : await this.folderScope(userId, input.folderId);
    const scope = { feedId: input.feedId, feedIds, showRead: input.showRead };
    const [rows, total, filters] = await Promise.all([
      repo.listArticles(db, userId, now, { ...scope, limit: p.limit, offset: p.offset }),
      repo.countFromSubscriptions(db, userId, now, scope),
      this.filtersInView(userId, input.feedId),
    ]);
    return this.page(rows, total, p, filters);
  }

  /** GET /api/articles/favorites: read and unread, newest first. */
  async favorites(userId: number, input: PageInput): Promise<ArticlePage> {
    const { db } = this.deps;
    const now = this.nowIso();
    const p = paging(input);
    const [rows, total, filters] = await Promise.all([repo.listFavorites(db, userId, now, p), repo.countFavorites(db, userId, now), this.filtersInView(userId)]);
    return this.page(rows, total, p, filters);
  }

  /** GET /api/articles/search: the user's words, all required, the last as a prefix; newest first. */
  async search(userId: number, input: PageInput & { q?: string; feedId?: number; folderId?: number; showRead: boolean }): Promise<ArticlePage> {
    const { db } = this.deps;
    const q = (input.q ?? '').trim();
    if (q === '') throw badRequest('SEARCH_QUERY_REQUIRED', 'Please enter a search term.');
    if ([...q].length > MAX_QUERY_LENGTH) throw badRequest('SEARCH_QUERY_TOO_LONG', `The search term may be at most ${MAX_QUERY_LENGTH} characters long.`);
    if (input.feedId !== undefined && input.folderId !== undefined) throw scopeAmbiguous();
    const now = this.nowIso();
    const p = paging(input);
    const muted = await this.mutedFeedPage(userId, input.feedId, now, p);
    if (muted) return muted;
    const feedIds = input.folderId === undefined ? undefined : await this.folderScope(userId, input.folderId);
    const filters = await this.filtersInView(userId, input.feedId);
    const match = dialectOf(db) === 'postgres' ? pgTsQuery(q) : ftsMatchQuery(q);
    // Only punctuation (`"*"`, `-`): nothing can match, and that is an answer, not an error.
    if (match === null) return this.page([], 0, p, filters);
    const scope = { match, feedId: input.feedId, feedIds, showRead: input.showRead };
    const found = await repo.searchArticles(db, userId, now, { ...scope, limit: p.limit, offset: p.offset });
    let total = found.total;
    if (total === null) {
      // A page past the end: the total still tells the client how many there are.
      total = p.offset === 0 ? 0 : ((await repo.searchArticles(db, userId, now, { ...scope, limit: 1, offset: 0 })).total ?? 0);
    }
    return this.page(found.rows, total, p, filters);
  }

  async readIds(userId: number): Promise<number[]> {
    return repo.flaggedIds(this.deps.db, userId, this.nowIso(), 'is_read', MAX_ID_LIST);
  }

  async favoriteIds(userId: number): Promise<{ favorite_article_ids: number[] }> {
    return { favorite_article_ids: await repo.flaggedIds(this.deps.db, userId, this.nowIso(), 'is_favorite', MAX_ID_LIST) };
  }

  /** GET /api/articles/{id}/reading-lists: the user's lists the article is in (in sidebar order); 404 for a foreign article. */
  async readingListsOf(userId: number, articleId: number): Promise<{ reading_lists: ArticleReadingListRef[] }> {
    const state = await repo.findArticleState(this.deps.db, userId, articleId);
    if (!state) throw articleNotFound();
    return { reading_lists: await listsOfArticle(this.deps.db, userId, articleId) };
  }

  /**
   * GET /api/reading-lists/{id}/articles: the list's visible articles, newest first, as every other list page. The
   * caller (ReadingListsService) has checked the list is the user's. The filters in view are all the user's (as for
   * favourites): they decide which members are shown.
   */
  async readingListPage(userId: number, listId: number, input: PageInput & { showRead: boolean }): Promise<ArticlePage> {
    const { db } = this.deps;
    const now = this.nowIso();
    const p = paging(input);
    const scope = { listId, showRead: input.showRead };
    const [rows, total, filters] = await Promise.all([
      repo.listReadingListArticles(db, userId, now, { ...scope, limit: p.limit, offset: p.offset }),
      repo.countReadingListArticles(db, userId, now, scope),
      this.filtersInView(userId),
    ]);
    return this.page(rows, total, p, filters);
  }

  /** POST /api/articles/{id}/read|unread|favorite|unfavorite. */
  async setState(userId: number, articleId: number, change: 'read' | 'unread' | 'favorite' | 'unfavorite'): Promise<ArticleStateResponse> {
    const now = this.nowIso();
    return this.deps.db.transaction().execute(async (trx) => {
      const state = await repo.findArticleState(trx, userId, articleId);
      if (!state) throw articleNotFound();
      if (state.muted_permanently !== null && isMuted({ muted_permanently: state.muted_permanently, muted_until: state.muted_until }, now)) {
        throw feedMuted();
      }
      let { is_read, is_favorite } = state;
      // The mute state was checked above in this transaction: the change reaches the row whatever its filters say.
      if (change === 'read' || change === 'unread') {
        const want = change === 'read';
        if ((await readingState.setRead(trx, userId, now, [articleId], want, 'own')).changed > 0) is_read = want ? 1 : 0;
      } else {
        const want = change === 'favorite';
        if ((await readingState.setStarred(trx, userId, now, [articleId], want, 'own')).changed > 0) is_favorite = want ? 1 : 0;
      }
      return { id: articleId, is_read: is_read === 1, is_favorite: is_favorite === 1 };
    });
  }

  /** Marks read undoably (docs/decisions.md "Reading flow: undo, mark-read setting, loading the original"). */
  private async markUndoable(userId: number, target: readingState.UndoableTarget): Promise<MarkReadResponse> {
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + READ_UNDO_MINUTES * 60_000).toISOString();
    const done = await readingState.markReadUndoable(this.deps.db, userId, now.toISOString(), expiresAt, target);
    return { marked: done.marked, undo_token: done.undoToken };
  }

  /** POST /api/articles/mark-read: foreign ids and muted feeds' articles are ignored; the answer's token undoes it. */
  async markRead(userId: number, articleIds: number[]): Promise<MarkReadResponse> {
    return this.markUndoable(userId, { articleIds, reach: 'unmuted' });
  }

  /** Mark-read by ids without an undo (the public API's read-all: its clients have no undo). */
  async markReadIds(userId: number, articleIds: number[]): Promise<number> {
    return (await readingState.setRead(this.deps.db, userId, this.nowIso(), articleIds, true, 'unmuted')).changed;
  }

  /**
   * POST /api/articles/read/undo: the articles the call that issued the token marked (and that are still read from
   * it) become unread again. 404 UNDO_TOKEN_NOT_FOUND for a token that is not the user's or was used; 410
   * UNDO_TOKEN_EXPIRED after READ_UNDO_MINUTES.
   */
  async undoRead(userId: number, token: string): Promise<UndoReadResponse> {
    const outcome = await readingState.undoRead(this.deps.db, userId, this.nowIso(), token);
    if (outcome === 'unknown') throw notFound('UNDO_TOKEN_NOT_FOUND', 'There is nothing to undo with this token.');
    if (outcome === 'expired') throw new AppError(410, 'UNDO_TOKEN_EXPIRED', 'This mark can no longer be undone.');
    return outcome;
  }

  /**
   * POST /api/articles/read/all: one feed ({feed_id}, 404 when not subscribed), one folder ({folder_id}, its feeds;
   * 404 FOLDER_NOT_FOUND when not the user's), one reading list ({reading_list_id}, its visible members; 404
   * READING_LIST_NOT_FOUND when not the user's), some ids, or everything visible.
   */
  async readAll(userId: number, body: { feed_id?: number; folder_id?: number; article_ids?: number[]; reading_list_id?: number } | undefined): Promise<MarkReadResponse> {
    const scopes = [body?.feed_id, body?.folder_id, body?.article_ids, body?.reading_list_id].filter((x) => x !== undefined).length;
    if (scopes > 1) throw badRequest('READ_ALL_SCOPE_AMBIGUOUS', 'Send one of feed_id, folder_id, reading_list_id or article_ids.');
    if (body?.article_ids !== undefined) return this.markRead(userId, body.article_ids);
    if (body?.folder_id !== undefined) return this.markScope(userId, { feedIds: await this.folderScope(userId, body.folder_id) });
    if (body?.reading_list_id !== undefined) {
      if (!(await findReadingList(this.deps.db, userId, body.reading_list_id))) throw notFound('READING_LIST_NOT_FOUND', 'Reading list not found.');
      return this.markScope(userId, { listId: body.reading_list_id });
    }
    if (body?.feed_id !== undefined) {
      await this.subscriptionOf(userId, body.feed_id);
      return this.markScope(userId, { feedIds: [body.feed_id] });
    }
    return this.markScope(userId, {});
  }

  private async markScope(userId: number, scope: readingState.ReadScope): Promise<MarkReadResponse> {
    return this.markUndoable(userId, { scope });
  }
}

const scopeAmbiguous = () => badRequest('ARTICLE_SCOPE_AMBIGUOUS', 'Send feed_id or folder_id, not both.');
