import type { Static } from 'typebox';
import { CODES } from '../../../common/codes.js';
import { findUserByEmail } from '../../accounts/accounts.repository.js';
import { normalizeEmail } from '../../accounts/accounts.service.js';
import type { PasswordHasher } from '../../accounts/passwords.js';
import { generateOpaqueToken, hashToken } from '../../accounts/tokens.js';
import type { ArticlesService } from '../../articles/articles.service.js';
import { feedMuted, feedNotFound } from '../../articles/articles.service.js';
import * as readingState from '../../articles/reading-state.js';
import { findSubscription } from '../../articles/reading.repository.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest, forbidden, unauthorized } from '../../errors.js';
import { normalizeFeedUrl } from '../../feeds/feed-url.js';
import { listUserFeeds, subscribedFeedIdByUrl, unreadCountRows } from '../../feeds/subscriptions.repository.js';
import { shownFeedTitle } from '../../feeds/feeds.presenter.js';
import type { FeedsService } from '../../feeds/feeds.service.js';
import { iconPath } from '../../feeds/icons.js';
import { isMuted } from '../../feeds/mute.js';
import { normalizeInput } from '../../reader/discover/input.js';
import * as repo from './public.repository.js';
import type * as S from '../../../common/schemas/public-v1.js';

/**
 * The public API v1 (public-area-and-api.md §3, §5, §7–§9; docs/decisions.md "Public API v1"): a protocol adapter
 * over the same services and repositories as the web app. It adds only what the protocol needs: its own tokens,
 * its response shapes, and read-all by feed limited to the last 30 days.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** public-area-and-api.md §9. */
export const API_TOKEN_TTL_DAYS = 365;
export const READ_ALL_DAYS = 30;
/** Live tokens kept per user; authenticating again beyond this drops the least recently used (see pruneTokens). */
export const MAX_TOKENS_PER_USER = 100;
/** last_used_at is written at most this often per token, so reading does not turn every request into a write. */
const TOUCH_EVERY_MS = 60_000;
/** What generateOpaqueToken makes: anything else is refused without a database look-up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const tokenInvalid = () => unauthorized('TOKEN_INVALID', 'The API token is invalid or has expired. Get a new one from POST /public-api/v1/authenticate.');
export const tokenMissing = () => unauthorized('UNAUTHORIZED', 'An API token is required: send it as "Authorization: Bearer <token>".');

export interface PublicApiServiceDeps {
  db: Db;
  hasher: PasswordHasher;
  feeds: FeedsService;
  articles: ArticlesService;
  now: () => Date;
  /** PUBLIC_URL: icon addresses are absolute, since API clients are not on Feeder's origin. */
  publicUrl: string;
}

type ArticlesQuery = Static<typeof S.ArticlesQuery>;
type PublicFeed = Static<typeof S.PublicFeed>;
type PublicArticle = Static<typeof S.PublicArticle>;
type StateChange = 'read' | 'unread' | 'favorite' | 'unfavorite';

const STATE_MESSAGES: Record<StateChange, string> = {
  read: 'Article marked as read.',
  unread: 'Article marked as unread.',
  favorite: 'Article added to favourites.',
  unfavorite: 'Article removed from favourites.',
};

export class PublicApiService {
  constructor(private readonly deps: PublicApiServiceDeps) {}

  private nowIso(): string {
    return this.deps.now().toISOString();
  }

  private absolute(path: string | null): string | null {
    return path === null ? null : `${this.deps.publicUrl}${path}`;
  }

  // ---- tokens ----

  /**
   * POST /authenticate: the account's e-mail and password, checked exactly as the web sign-in checks them (argon2id,
   * the same time spent for unknown addresses, unverified accounts refused with 403 AUTH_403_1), give a new
   * opaque token for 365 days. Only its SHA-256 is stored.
   */
  async authenticate(username: string, password: string): Promise<Static<typeof S.AuthenticateReply>> {
    const { db, hasher } = this.deps;
    const user = await findUserByEmail(db, normalizeEmail(username));
    const ok = user ? await hasher.verify(user.password_hash, password) : await hasher.verifyAgainstDummy(password);
    if (!user || !ok) throw unauthorized('AUTH_401_1', CODES.AUTH_401_1);
    if (user.is_verified !== 1) throw forbidden('AUTH_403_1', CODES.AUTH_403_1);
    const token = generateOpaqueToken();
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + API_TOKEN_TTL_DAYS * DAY_MS).toISOString();
    await db.transaction().execute(async (trx) => {
      await repo.insertToken(trx, {
        user_id: user.id,
        token_hash: hashToken(token),
        session_epoch: Number(user.session_epoch),
        created_at: now.toISOString(),
        expires_at: expiresAt,
      });
      await repo.pruneTokens(trx, user.id, now.toISOString(), MAX_TOKENS_PER_USER);
    });
    return { message: 'Authentication successful.', token, expires_at: expiresAt, user: { id: user.id, email: user.email, name: user.name } };
  }

  /** The user a bearer token belongs to; 401 TOKEN_INVALID when it is unknown, expired or voided. */
  async tokenOwner(token: string): Promise<number> {
    if (!TOKEN_SHAPE.test(token)) throw tokenInvalid();
    const row = await repo.findLiveToken(this.deps.db, hashToken(token));
    const now = this.deps.now();
    if (!row || row.expires_at <= now.toISOString()) throw tokenInvalid();
    if (row.last_used_at === null || Date.parse(row.last_used_at) <= now.getTime() - TOUCH_EVERY_MS) {
      await repo.touchToken(this.deps.db, row.id, now.toISOString());
    }
    return row.user_id;
  }

  // ---- feeds ----

  /** GET /feeds: the user's feeds in their order, muted ones left out (public-area-and-api.md §4). */
  async listFeeds(userId: number, includeFavicons: boolean): Promise<{ feeds: PublicFeed[] }> {
    const { db } = this.deps;
    const now = this.nowIso();
    const [rows, unread, filters, icons] = await Promise.all([
      listUserFeeds(db, userId),
      unreadCountRows(db, userId, now),
      repo.filterCounts(db, userId),
      includeFavicons ? repo.feedIcons(db, userId) : Promise.resolve(null),
    ]);
    const unreadByFeed = new Map(unread.map((r) => [r.feed_id, Number(r.unread_count)]));
    const lastSuccess = await this.lastSuccess(rows.map((r) => r.feed_id));
    const feeds = rows
      .filter((row) => !isMuted(row, now))
      .map((row): PublicFeed => {
        const filtersCount = filters.get(row.feed_id) ?? 0;
        const icon = icons?.get(row.feed_id);
        return {
          id: row.feed_id,
          url: row.url,
          title: shownFeedTitle(row.custom_title, row.title),
          description: row.description,
          last_updated: lastSuccess.get(row.feed_id) ?? null,
          favicon_url: this.absolute(row.icon_hash ? iconPath(row.icon_hash) : null),
          ...(icons ? { favicon_base64: icon?.data ?? null, favicon_type: icon ? icon.type : null } : {}),
          unread_count: unreadByFeed.get(row.feed_id) ?? 0,
          has_active_filters: filtersCount > 0,
          filters_count: filtersCount,
        };
      });
    return { feeds };
  }

  /** feeds.last_success_at of the given feeds (the user subscribes to them: the caller listed them). */
  private async lastSuccess(feedIds: number[]): Promise<Map<number, string | null>> {
    if (feedIds.length === 0) return new Map();
    const rows = await this.deps.db.selectFrom('feeds').select(['id', 'last_success_at']).where('id', 'in', feedIds).execute();
    return new Map(rows.map((r) => [r.id, r.last_success_at]));
  }

  /** POST /feeds/search: discovery, as the web app's add-feed dialog uses it. */
  async searchFeeds(userId: number, url: string): Promise<Static<typeof S.SearchReply>> {
    const found = await this.deps.feeds.search(userId, url);
    return { feeds: found.feeds.map((f) => ({ title: f.title, url: f.url, favicon_url: f.favicon_url, subscribed: f.subscribed })) };
  }

  /**
   * POST /feeds/subscribe: the web app's add (discovery, then an immediate fetch). Subscribing again to a feed the
   * user has is not an error here (the spec's answer has is_new): it answers the existing feed with is_new false.
   */
  async subscribe(userId: number, url: string): Promise<Static<typeof S.SubscribeReply>> {
    const existing = await this.subscribedFeedFor(userId, url);
    if (existing !== undefined) return this.subscription(userId, existing, false);
    try {
      const added = await this.deps.feeds.add(userId, url);
      return this.subscription(userId, added.id, true);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'FEED_EXISTS') throw err;
      // The address was a site whose feed the user reads already: find which one (discovery again, only here).
      const { feeds } = await this.deps.feeds.search(userId, url);
      for (const f of feeds) {
        const id = f.subscribed ? await this.subscribedFeedFor(userId, f.url) : undefined;
        if (id !== undefined) return this.subscription(userId, id, false);
      }
      throw err;
    }
  }

  /** The user's feed at exactly this address (as typed, normalised), without fetching anything. */
  private async subscribedFeedFor(userId: number, input: string): Promise<number | undefined> {
    let normalized: string | null = null;
    try {
      normalized = normalizeFeedUrl(normalizeInput(input).href);
    } catch {
      return undefined; // not a web address: add() says so with its own error
    }
    return normalized ? subscribedFeedIdByUrl(this.deps.db, userId, normalized) : undefined;
  }

  private async subscription(userId: number, feedId: number, isNew: boolean): Promise<Static<typeof S.SubscribeReply>> {
    const feed = await this.deps.feeds.get(userId, feedId);
    return {
      message: isNew ? 'Subscribed to the feed.' : 'You already subscribe to this feed.',
      feed: { id: feed.id, title: feed.title, url: feed.url, description: feed.description, favicon_url: this.absolute(feed.favicon_url) },
      is_new: isNew,
    };
  }

  // ---- articles ----

  /** GET /articles: the web app's lists (muted feeds and filtered-out articles left out), in the spec's shape. */
  async listArticles(userId: number, query: ArticlesQuery): Promise<Static<typeof S.ArticlesReply>> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const list = await this.deps.articles.list(userId, { page, per_page: perPage, feedId: query.feed_id, folderId: query.folder_id, showRead: query.unread !== true });
    const icons = query.include_base64_favicons ? await repo.feedIcons(this.deps.db, userId, [...new Set(list.articles.map((a) => a.feed_id))]) : null;
    const totalPages = Math.ceil(list.total / perPage);
    return {
      articles: list.articles.map((a): PublicArticle => {
        const icon = icons?.get(a.feed_id);
        return {
          id: a.id,
          feed_id: a.feed_id,
          title: a.title,
          url: a.url,
          content: a.content,
          summary: a.summary,
          author: a.author,
          published_at: a.published_at,
          is_read: a.is_read,
          is_favorite: a.is_favorite,
          feed_title: a.feed_title,
          feed_favicon: this.absolute(a.feed_favicon),
          ...(icons ? { feed_favicon_base64: icon?.data ?? null, feed_favicon_type: icon ? icon.type : null } : {}),
        };
      }),
      pagination: {
        total_items: list.total,
        total_pages: totalPages,
        current_page: page,
        per_page: perPage,
        has_next: page < totalPages,
        has_prev: page > 1,
        has_active_filters: list.has_active_filters,
      },
    };
  }

  /** POST /articles/{id}/read|unread|favorite|unfavorite: 404 for another user's article, 403 on a muted feed. */
  async setState(userId: number, articleId: number, change: StateChange): Promise<Static<typeof S.ArticleStateReply>> {
    const state = await this.deps.articles.setState(userId, articleId, change);
    return { message: STATE_MESSAGES[change], ...state };
  }

  /**
   * POST /articles/read/all (public-area-and-api.md §5): exactly one of
   * - feed_id: the feed's unread articles published in the last 30 days (404 when not subscribed, 403 when muted);
   * - article_ids: those of them that are the user's, of feeds not muted; others are ignored.
   * Feeder keeps a per-user record for every article of a subscribed feed (user_articles), so no record is ever
   * created here: new_entries is always 0.
   */
  async readAll(userId: number, body: Static<typeof S.ReadAllBody>): Promise<Static<typeof S.ReadAllReply>> {
    const hasFeed = body.feed_id !== undefined;
    const hasIds = body.article_ids !== undefined;
    if (hasFeed === hasIds) throw badRequest('READ_ALL_SCOPE_REQUIRED', 'Send exactly one of feed_id and article_ids.');
    let count: number;
    if (hasIds) {
      count = await this.deps.articles.markReadIds(userId, body.article_ids!);
    } else {
      count = await this.markFeedRecent(userId, body.feed_id!);
    }
    return {
      message: `${count} ${count === 1 ? 'article' : 'articles'} marked as read.`,
      count,
      details: { existing_updated: count, new_entries: 0 },
    };
  }

  private async markFeedRecent(userId: number, feedId: number): Promise<number> {
    const now = this.deps.now();
    const nowIso = now.toISOString();
    const since = new Date(now.getTime() - READ_ALL_DAYS * DAY_MS).toISOString();
    return this.deps.db.transaction().execute(async (trx) => {
      const sub = await findSubscription(trx, userId, feedId);
      if (!sub) throw feedNotFound();
      if (isMuted(sub, nowIso)) throw feedMuted();
      return readingState.markAllRead(trx, userId, nowIso, { feedIds: [feedId], publishedSince: since });
    });
  }
}
