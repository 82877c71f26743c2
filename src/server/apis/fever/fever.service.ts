import type { ArticlesService } from '../../articles/articles.service.js';
import * as readingState from '../../articles/reading-state.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { shownFeedTitle } from '../../feeds/feeds.presenter.js';
import { folderFeedIds } from '../../folders/folders.repository.js';
import type { FeverParams, Mark } from './fever.params.js';
import * as repo from './fever.repository.js';

/**
 * The Fever API (README.md beside this file) over the same rules as the web app: one user's feeds, folders and
 * articles, muted feeds and filtered-out articles invisible, read/saved state shared with the web app and the
 * Google Reader API. Every answer carries api_version 3 and auth; an authenticated one also
 * last_refreshed_on_time and the sections the client asked for, several in one request.
 */
export const API_VERSION = 3;

/** unread_recently_read=1 undoes the reads of this many minutes (Fever's "recently read"; see README.md). */
export const RECENTLY_READ_MINUTES = 10;

/** Latest representable `before` (9999-12-31): larger values would not make a date. */
const MAX_BEFORE_SECONDS = 253_402_300_799;

export type FeverResponse = { api_version: number; auth: 0 | 1 } & Record<string, unknown>;

export interface FeverServiceDeps {
  db: Db;
  now: () => Date;
  /** The one ArticlesService of the composition root (services.ts). */
  articles: ArticlesService;
}

const unixTime = (iso: string | null | undefined): number => (iso ? Math.floor(Date.parse(iso) / 1000) || 0 : 0);

export class FeverService {
  private readonly articles: ArticlesService;

  constructor(private readonly deps: FeverServiceDeps) {
    this.articles = deps.articles;
  }

  /** The answer to a request that is not signed in: api_version and auth 0, nothing else. */
  unauthenticated(): FeverResponse {
    return { api_version: API_VERSION, auth: 0 };
  }

  async handle(params: FeverParams): Promise<FeverResponse> {
    const { db } = this.deps;
    const now = this.deps.now().toISOString();
    const user = await repo.authenticate(db, params.apiKey, now);
    // A wrong or missing key, or reader apps switched off: HTTP 200 with auth 0 (what every Fever client expects).
    if (!user) return this.unauthenticated();
    const response: FeverResponse = { api_version: API_VERSION, auth: 1, last_refreshed_on_time: unixTime(user.last_fetched_at) };
    const want = new Set(params.selectors);

    // Writes first, so the reads of the same request see them.
    if (params.mark) {
      await this.applyMark(user.id, params.mark);
      // As Fever did: a mark answers with the id list it changed, so the client can sync at once.
      want.add(params.mark.mark === 'item' && (params.mark.as === 'saved' || params.mark.as === 'unsaved') ? 'saved_item_ids' : 'unread_item_ids');
    }
    if (params.unreadRecentlyRead) {
      await this.unreadRecentlyRead(user.id);
      want.add('unread_item_ids');
    }

    const anyMuted = user.muted_feeds > 0;
    const jobs: Promise<void>[] = [];
    if (want.has('groups') || want.has('feeds')) jobs.push(this.groupsAndFeeds(user.id, now, want, response));
    if (want.has('favicons')) {
      jobs.push(
        repo.listFavicons(db, user.id, now).then((rows) => {
          response.favicons = rows.map((r) => ({ id: r.feed_id, data: `${r.icon_type || 'image/png'};base64,${r.icon_data}` }));
        }),
      );
    }
    if (want.has('items')) {
      jobs.push(
        repo.listItems(db, user.id, now, params.items, anyMuted, params.itemFeeds).then((rows) => {
          response.items = rows.map((r) => ({
            id: r.id,
            feed_id: r.feed_id,
            title: r.title,
            author: r.author ?? '',
            html: r.html ?? '',
            url: r.url ?? '',
            is_saved: r.is_favorite === 1 ? 1 : 0,
            is_read: r.is_read === 1 ? 1 : 0,
            created_on_time: unixTime(r.published_at),
          }));
          response.total_items = user.total_items;
        }),
      );
    }
    // Hot links are Fever's own popularity ranking; Feeder has none, so the list is empty (not missing).
    if (want.has('links')) response.links = [];
    for (const flag of ['unread', 'saved'] as const) {
      if (!want.has(`${flag}_item_ids`)) continue;
      jobs.push(
        repo.flaggedItemIds(db, user.id, now, flag, anyMuted).then((ids) => {
          response[`${flag}_item_ids`] = ids.join(',');
        }),
      );
    }
    await Promise.all(jobs);
    return response;
  }

  private async groupsAndFeeds(userId: number, now: string, want: Set<string>, response: FeverResponse): Promise<void> {
    const { db } = this.deps;
    const [groups, feeds] = await Promise.all([want.has('groups') ? repo.listGroups(db, userId) : Promise.resolve([]), repo.listVisibleFeeds(db, userId, now)]);
    if (want.has('groups')) response.groups = groups.map((g) => ({ id: g.id, title: g.name }));
    if (want.has('feeds')) {
      response.feeds = feeds.map((f) => ({
        id: f.feed_id,
        // Feeds with an icon have it under their own id in `favicons`.
        favicon_id: f.has_icon ? f.feed_id : 0,
        title: shownFeedTitle(f.custom_title, f.title) || f.url,
        url: f.url,
        site_url: f.site_url ?? '',
        // Feeder has no Sparks: every feed is Kindling.
        is_spark: 0,
        last_updated_on_time: unixTime(f.last_success_at ?? f.last_fetched_at),
      }));
    }
    // feeds_groups: each folder with its visible feeds; feeds at the root belong to no group (Fever allows that).
    const byFolder = new Map<number, number[]>();
    for (const f of feeds) {
      if (f.folder_id === null) continue;
      const ids = byFolder.get(f.folder_id);
      if (ids) ids.push(f.feed_id);
      else byFolder.set(f.folder_id, [f.feed_id]);
    }
    response.feeds_groups = [...byFolder].map(([groupId, ids]) => ({ group_id: groupId, feed_ids: ids.join(',') }));
  }

  /**
   * mark=item|feed|group. Foreign ids, unknown ids and muted feeds' articles change nothing: Fever has no error
   * channel, and the id lists the answer carries show the client the state as it is.
   */
  private async applyMark(userId: number, mark: Mark): Promise<void> {
    if (mark.mark === 'item') {
      const change = ({ read: 'read', unread: 'unread', saved: 'favorite', unsaved: 'unfavorite' } as const)[mark.as];
      try {
        await this.articles.setState(userId, mark.id, change);
      } catch (err) {
        // 404 (not the user's article) and 403 (muted feed) are the web API's answers; here they are no-ops.
        if (!(err instanceof AppError)) throw err;
      }
      return;
    }
    const nowDate = this.deps.now();
    const now = nowDate.toISOString();
    // `before`: the client's last items sync (Unix seconds); articles stored after it stay unread. The whole second
    // counts. Missing or 0: up to now.
    const before = mark.before === null ? now : new Date(Math.min(mark.before, MAX_BEFORE_SECONDS) * 1000 + 999).toISOString();
    const { db } = this.deps;
    if (mark.mark === 'feed') {
      await readingState.markAllRead(db, userId, now, { feedIds: [mark.id], storedBy: before });
    } else if (mark.id === 0) {
      // Group 0 is Fever's Kindling super group: every feed (Feeder has no Sparks).
      await readingState.markAllRead(db, userId, now, { storedBy: before });
    } else {
      // The folder's feeds, read in the same transaction as the mark: they scope the mark and the recount.
      await db.transaction().execute(async (trx) => readingState.markAllRead(trx, userId, now, { feedIds: await folderFeedIds(trx, userId, mark.id), storedBy: before }));
    }
  }

  private async unreadRecentlyRead(userId: number): Promise<void> {
    const nowDate = this.deps.now();
    const since = new Date(nowDate.getTime() - RECENTLY_READ_MINUTES * 60_000).toISOString();
    await readingState.unreadReadSince(this.deps.db, userId, nowDate.toISOString(), since);
  }
}
