import { appPasswordKey, verifyAppPassword } from '../app-password.js';
import * as readingState from '../../articles/reading-state.js';
import { findSubscription } from '../../articles/reading.repository.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { normalizeFeedUrl } from '../../feeds/feed-url.js';
import { shownFeedTitle } from '../../feeds/feeds.presenter.js';
import { listUserFeeds, subscribedFeedIdByUrl } from '../../feeds/subscriptions.repository.js';
import type { FeedsService } from '../../feeds/feeds.service.js';
import { iconPath } from '../../feeds/icons.js';
import * as folders from '../../folders/folders.repository.js';
import type { GReaderAuth, ReaderUser } from './greader.auth.js';
import { presentItem, type GReaderItem } from './greader.presenter.js';
import * as repo from './greader.repository.js';
import { KEPT_UNREAD, LABEL_PREFIX, READ, READING_LIST, STARRED, UNREAD, parseStreamId, toMsecString, toSeconds, toUsecString, type StreamRef } from './protocol.js';

/**
 * The Google Reader API's operations over Feeder's own data (apis/greader/README.md; decisions.md "External
 * apps"). Labels are folders; read and starred are the web app's read and favourite state; muted feeds and
 * filtered-out articles are as invisible as in the web app, and changes to them are ignored. Subscribing goes
 * through the feeds service (discovery, the SSRF-guarded fetcher, the refresh queue) exactly as the web app's
 * add-feed dialog does.
 */

/** stream/contents and the Atom stream: default and largest n (FreshRSS: 20; Google: 1,000). */
export const CONTENTS_DEFAULT = 20;
export const CONTENTS_MAX = 1_000;
/** stream/items/ids: Google allowed 10,000 ids a call; NetNewsWire and Reeder ask for 1,000 at a time. */
export const IDS_MAX = 10_000;
/** Ids per stream/items/contents or edit-tag call (clients batch 100–1,000). */
export const ITEMS_PER_CALL_MAX = 1_000;
export const EDIT_IDS_MAX = 10_000;
/** A folder name (folders.name is varchar(200)). */
const MAX_LABEL_LENGTH = 200;

export interface StreamOptions {
  /** xt (repeatable): states to leave out. */
  exclude: string[];
  /** it (repeatable): states to keep only. */
  include: string[];
  /** ot, nt: crawl-time bounds (ISO). */
  crawledFrom?: string;
  crawledUntil?: string;
  oldestFirst: boolean;
  limit: number;
  /** c: the continuation of the previous page (an article id), or undefined for the first page. */
  continuation?: string;
}

export interface StreamPage<T> {
  items: T[];
  continuation?: string;
}

export interface GReaderServiceDeps {
  db: Db;
  auth: GReaderAuth;
  feeds: FeedsService;
  /** Absolute site origin for icon URLs (config.publicUrl). */
  publicUrl: string;
  now: () => Date;
}

const invalidStream = () => badRequest('INVALID_STREAM_ID', 'Unknown stream id.');
const noSuchLabel = () => notFound('LABEL_NOT_FOUND', 'No such label.');

/** The folder name in a label stream id (`user/-/label/Name`), or null. */
function labelName(streamId: string | undefined): string | null {
  if (streamId === undefined) return null;
  const ref = parseStreamId(streamId);
  return ref?.kind === 'label' ? ref.name : null;
}

export class GReaderService {
  constructor(private readonly deps: GReaderServiceDeps) {}

  private nowIso(): string {
    return this.deps.now().toISOString();
  }

  /* ───────────── Sign-in and profile ───────────── */

  /** ClientLogin: the Auth token, or undefined when e-mail and reader-apps password do not match (or apps are off). */
  async clientLogin(email: string | undefined, password: string | undefined): Promise<string | undefined> {
    if (email === undefined || password === undefined) return undefined;
    const user = await verifyAppPassword(this.deps.db, email, password);
    if (!user) return undefined;
    return this.deps.auth.authToken({ id: user.id, email: user.email, key: appPasswordKey(user.email, password) });
  }

  async userInfo(user: ReaderUser) {
    const profile = await repo.findProfile(this.deps.db, user.id);
    if (!profile) throw notFound('USER_NOT_FOUND', 'No such user.');
    return {
      userId: String(profile.id),
      userName: profile.name || profile.email,
      userProfileId: String(profile.id),
      userEmail: profile.email,
      isBloggerUser: false,
      signupTimeSec: toSeconds(profile.created_at),
      isMultiLoginEnabled: false,
    };
  }

  /* ───────────── Subscriptions and labels ───────────── */

  /** tag/list: the starred state and every folder as a label of type folder, with its unread count (Inoreader). */
  async tagList(user: ReaderUser) {
    const [list, counts] = await Promise.all([folders.listFolders(this.deps.db, user.id), repo.feedCounts(this.deps.db, user.id, this.nowIso())]);
    const unread = new Map<number, number>();
    for (const c of counts) if (c.folder_id !== null) unread.set(c.folder_id, (unread.get(c.folder_id) ?? 0) + c.unread_count);
    return {
      tags: [{ id: STARRED }, ...list.map((f) => ({ id: LABEL_PREFIX + f.name, type: 'folder', unread_count: unread.get(f.id) ?? 0 }))],
    };
  }

  /**
   * subscription/list: every feed the user subscribes to, muted ones too (they are still subscribed; a client that
   * lost them would drop its copy), in the user's order, with its folder as the one category.
   */
  async subscriptionList(user: ReaderUser) {
    const [feeds, list] = await Promise.all([listUserFeeds(this.deps.db, user.id), folders.listFolders(this.deps.db, user.id)]);
    const names = new Map(list.map((f) => [f.id, f.name]));
    return {
      subscriptions: feeds.map((f) => {
        const folder = f.folder_id !== null ? names.get(f.folder_id) : undefined;
        return {
          id: `feed/${f.feed_id}`,
          title: shownFeedTitle(f.custom_title, f.title),
          categories: folder === undefined ? [] : [{ id: LABEL_PREFIX + folder, label: folder, type: 'folder' }],
          sortid: String(f.sort_order).padStart(8, '0'),
          firstitemmsec: toMsecString(f.created_at),
          url: f.url,
          htmlUrl: f.site_url ?? '',
          iconUrl: f.icon_hash ? this.deps.publicUrl + iconPath(f.icon_hash) : '',
        };
      }),
    };
  }

  /** unread-count: per feed (muted ones left out), per label, and the reading list, with the newest article's time. */
  async unreadCount(user: ReaderUser) {
    const [counts, list] = await Promise.all([repo.feedCounts(this.deps.db, user.id, this.nowIso()), folders.listFolders(this.deps.db, user.id)]);
    const usec = (iso: string | null) => (iso ? toUsecString(iso) : '0');
    const byFolder = new Map<number, { count: number; newest: string | null }>();
    let total = 0;
    let newest: string | null = null;
    const unreadcounts: { id: string; count: number; newestItemTimestampUsec: string }[] = [];
    for (const c of counts) {
      unreadcounts.push({ id: `feed/${c.feed_id}`, count: c.unread_count, newestItemTimestampUsec: usec(c.newest) });
      total += c.unread_count;
      if (c.newest !== null && (newest === null || c.newest > newest)) newest = c.newest;
      if (c.folder_id !== null) {
        const f = byFolder.get(c.folder_id) ?? { count: 0, newest: null };
        f.count += c.unread_count;
        if (c.newest !== null && (f.newest === null || c.newest > f.newest)) f.newest = c.newest;
        byFolder.set(c.folder_id, f);
      }
    }
    for (const folder of list) {
      const f = byFolder.get(folder.id) ?? { count: 0, newest: null };
      unreadcounts.push({ id: LABEL_PREFIX + folder.name, count: f.count, newestItemTimestampUsec: usec(f.newest) });
    }
    unreadcounts.push({ id: READING_LIST, count: total, newestItemTimestampUsec: usec(newest) });
    return { max: total, unreadcounts };
  }

  /** The user's feed named by a `feed/<id>` or `feed/<url>` stream id, or undefined. */
  private async feedOf(userId: number, streamId: string): Promise<number | undefined> {
    const ref = parseStreamId(streamId);
    if (ref?.kind === 'feed') return (await findSubscription(this.deps.db, userId, ref.feedId))?.feed_id;
    if (ref?.kind === 'feed-url') {
      const url = normalizeFeedUrl(ref.url);
      return url === null ? undefined : subscribedFeedIdByUrl(this.deps.db, userId, url);
    }
    return undefined;
  }

  /** Puts the feed into the folder of this name, made when there is none yet. */
  private async moveToLabel(userId: number, feedId: number, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed || [...trimmed].length > MAX_LABEL_LENGTH) throw badRequest('INVALID_LABEL', `A label needs a name of at most ${MAX_LABEL_LENGTH} characters.`);
    await this.deps.db.transaction().execute(async (trx) => {
      const folder = (await folders.findFolderByName(trx, userId, trimmed)) ?? (await folders.createFolder(trx, userId, trimmed, this.nowIso()));
      await folders.setFeedFolder(trx, userId, feedId, folder.id);
    });
  }

  /**
   * subscription/edit (ac = subscribe | unsubscribe | edit; s and t repeatable, paired by position; a and r one
   * label each). Every named feed is checked before anything changes: an unknown one is a 404.
   */
  async subscriptionEdit(user: ReaderUser, o: { action?: string; streams: string[]; titles: string[]; add?: string; remove?: string }): Promise<void> {
    if (o.streams.length === 0) throw badRequest('STREAM_REQUIRED', 'Name a subscription (s).');
    if (o.streams.length > 100) throw badRequest('TOO_MANY_STREAMS', 'At most 100 subscriptions per call.');
    const addLabel = labelName(o.add);
    if (o.add !== undefined && addLabel === null) throw badRequest('INVALID_LABEL', 'a must be a label (user/-/label/<name>).');
    switch (o.action) {
      case 'subscribe': {
        for (const [i, stream] of o.streams.entries()) {
          const url = stream.startsWith('feed/') ? stream.slice(5) : stream;
          const feedId = await this.subscribe(user.id, url);
          if (o.titles[i]) await this.deps.feeds.setCustomTitle(user.id, feedId, o.titles[i]);
          if (addLabel !== null) await this.moveToLabel(user.id, feedId, addLabel);
        }
        return;
      }
      case 'unsubscribe':
      case 'edit': {
        const feedIds: number[] = [];
        for (const stream of o.streams) {
          const feedId = await this.feedOf(user.id, stream);
          if (feedId === undefined) throw notFound('FEED_NOT_FOUND', `Not subscribed: ${stream}`);
          feedIds.push(feedId);
        }
        if (o.action === 'unsubscribe') {
          for (const feedId of feedIds) await this.deps.feeds.remove(user.id, feedId);
          return;
        }
        const removeLabel = labelName(o.remove);
        for (const [i, feedId] of feedIds.entries()) {
          if (o.titles[i]) await this.deps.feeds.setCustomTitle(user.id, feedId, o.titles[i]);
          if (addLabel !== null) {
            await this.moveToLabel(user.id, feedId, addLabel);
          } else if (removeLabel !== null) {
            // Out of that folder, back to the root (a feed sits in at most one folder).
            const folder = await folders.findFolderByName(this.deps.db, user.id, removeLabel);
            const sub = (await listUserFeeds(this.deps.db, user.id)).find((f) => f.feed_id === feedId);
            if (folder && sub?.folder_id === folder.id) await folders.setFeedFolder(this.deps.db, user.id, feedId, null);
          }
        }
        return;
      }
      default:
        throw badRequest('INVALID_ACTION', 'ac must be subscribe, unsubscribe or edit.');
    }
  }

  /** Subscribes by URL (a feed the user reads already is simply found); returns the feed id. */
  private async subscribe(userId: number, input: string): Promise<number> {
    const url = normalizeFeedUrl(input);
    if (url !== null) {
      const existing = await subscribedFeedIdByUrl(this.deps.db, userId, url);
      if (existing !== undefined) return existing;
    }
    try {
      return (await this.deps.feeds.add(userId, input)).id;
    } catch (err) {
      // Discovery found a feed behind the page that the user reads already: that one is the answer.
      if (err instanceof AppError && err.status === 409) {
        const found = await this.deps.feeds.search(userId, input);
        for (const f of found.feeds) {
          const u = normalizeFeedUrl(f.url);
          const id = u === null ? undefined : await subscribedFeedIdByUrl(this.deps.db, userId, u);
          if (id !== undefined) return id;
        }
      }
      throw err;
    }
  }

  /** subscription/quickadd: subscribes to the feed at or behind the URL. */
  async quickAdd(user: ReaderUser, input: string | undefined) {
    if (input === undefined) throw badRequest('URL_REQUIRED', 'Send the address to add (quickadd).');
    const url = input.startsWith('feed/') ? input.slice(5) : input;
    const feedId = await this.subscribe(user.id, url);
    const feed = await this.deps.feeds.get(user.id, feedId);
    return { numResults: 1, query: input, streamId: `feed/${feedId}`, streamName: feed.title };
  }

  /** rename-tag: renames the folder; renaming onto another folder's name is a 409 (folders are unique by name). */
  async renameTag(user: ReaderUser, source: string | undefined, dest: string | undefined): Promise<void> {
    const from = labelName(source);
    const to = labelName(dest);
    if (from === null || to === null) throw badRequest('INVALID_LABEL', 's and dest must be labels (user/-/label/<name>).');
    if ([...to].length > MAX_LABEL_LENGTH) throw badRequest('INVALID_LABEL', `A label needs a name of at most ${MAX_LABEL_LENGTH} characters.`);
    const folder = await folders.findFolderByName(this.deps.db, user.id, from);
    if (!folder) throw noSuchLabel();
    const other = await folders.findFolderByName(this.deps.db, user.id, to);
    if (other && other.id !== folder.id) throw new AppError(409, 'LABEL_EXISTS', 'A label of that name exists already.');
    await folders.renameFolder(this.deps.db, user.id, folder.id, to);
  }

  /** disable-tag: deletes the folders; their feeds stay subscribed, at the root. */
  async disableTag(user: ReaderUser, streams: string[]): Promise<void> {
    if (streams.length === 0) throw badRequest('INVALID_LABEL', 's must be a label (user/-/label/<name>).');
    const found: folders.FolderRow[] = [];
    for (const s of streams) {
      const name = labelName(s);
      if (name === null) throw badRequest('INVALID_LABEL', 's must be a label (user/-/label/<name>).');
      const folder = await folders.findFolderByName(this.deps.db, user.id, name);
      if (!folder) throw noSuchLabel();
      found.push(folder);
    }
    await this.deps.db.transaction().execute(async (trx) => {
      for (const f of found) await folders.deleteFolder(trx, user.id, f.id);
    });
  }

  /* ───────────── Streams ───────────── */

  /**
   * What a stream id and xt/it select, or null when the stream is empty for this user (a feed they do not read,
   * a label they do not have, contradictory states). Unknown stream ids are a 400.
   */
  private async selection(
    userId: number,
    streamId: string,
    o: Pick<StreamOptions, 'exclude' | 'include'>,
  ): Promise<Omit<repo.StreamQuery, 'oldestFirst' | 'limit'> | null> {
    const ref: StreamRef | null = parseStreamId(streamId);
    if (!ref) throw invalidStream();
    let read: 0 | 1 | undefined;
    let starred: boolean | undefined;
    let feedIds: number[] | undefined;
    let empty = false;
    const want = (r: 0 | 1) => {
      if (read !== undefined && read !== r) empty = true;
      read = r;
    };
    const wantStarred = (s: boolean) => {
      if (starred !== undefined && starred !== s) empty = true;
      starred = s;
    };
    switch (ref.kind) {
      case 'reading-list':
        break;
      case 'starred':
        wantStarred(true);
        break;
      case 'read':
        want(1);
        break;
      case 'kept-unread':
        want(0);
        break;
      case 'feed':
      case 'feed-url': {
        const feedId = await this.feedOf(userId, streamId);
        if (feedId === undefined) return null;
        feedIds = [feedId];
        break;
      }
      case 'label': {
        const folder = await folders.findFolderByName(this.deps.db, userId, ref.name);
        if (!folder) return null;
        feedIds = await folders.folderFeedIds(this.deps.db, userId, folder.id);
        break;
      }
    }
    // xt and it name states; FreshRSS and Miniflux ignore what they do not know, and so do we.
    // `unread` is no Google state, but FreshRSS added it (xt=unread: the read items) and clients use it.
    for (const x of o.exclude) {
      if (x === READ) want(0);
      else if (x === UNREAD) want(1);
      else if (x === STARRED) wantStarred(false);
      else if (x === READING_LIST) empty = true;
    }
    for (const x of o.include) {
      if (x === READ) want(1);
      else if (x === KEPT_UNREAD || x === UNREAD) want(0);
      else if (x === STARRED) wantStarred(true);
    }
    return empty ? null : { read, starred, feedIds };
  }

  /** The position after which a continuation continues: `c` is the last article id of the previous page. */
  private async position(userId: number, continuation: string | undefined): Promise<repo.StreamPosition | undefined> {
    if (continuation === undefined) return undefined;
    const bad = () => badRequest('INVALID_CONTINUATION', 'Unknown continuation.');
    if (!/^[0-9]{1,10}$/.test(continuation)) throw bad();
    const position = await repo.streamPosition(this.deps.db, userId, Number(continuation));
    if (!position) throw bad();
    return position;
  }

  private async refs(user: ReaderUser, streamId: string, o: StreamOptions, withText = false): Promise<{ refs: repo.StreamRef[]; continuation?: string }> {
    const [selection, after] = await Promise.all([this.selection(user.id, streamId, o), this.position(user.id, o.continuation)]);
    if (selection === null) return { refs: [] };
    // One more than asked tells whether another page follows, so the last page carries no continuation.
    const refs = await repo.streamPage(
      this.deps.db,
      user.id,
      this.nowIso(),
      {
        ...selection,
        crawledFrom: o.crawledFrom,
        crawledUntil: o.crawledUntil,
        after,
        oldestFirst: o.oldestFirst,
        limit: o.limit + 1,
      },
      withText,
    );
    if (refs.length <= o.limit) return { refs };
    const page = refs.slice(0, o.limit);
    return { refs: page, continuation: String(page[page.length - 1].article_id) };
  }

  /** stream/contents and the Atom stream: a page of items with a continuation when more follow. */
  async streamContents(user: ReaderUser, streamId: string, o: StreamOptions): Promise<StreamPage<GReaderItem>> {
    const { refs, continuation } = await this.refs(user, streamId, o, true);
    return { items: await this.items(user.id, refs as (repo.StreamRef & repo.ArticleText)[]), continuation };
  }

  /** The items of these rows, in their order, with their feed's title and folder (one query for the page's feeds). */
  private async items(userId: number, rows: (repo.StreamRef & repo.ArticleText)[]): Promise<GReaderItem[]> {
    if (rows.length === 0) return [];
    const feeds = await repo.feedDirectory(this.deps.db, userId, [...new Set(rows.map((r) => r.feed_id))]);
    const feedOf = new Map(feeds.map((f) => [f.feed_id, f]));
    const items: GReaderItem[] = [];
    for (const row of rows) {
      const feed = feedOf.get(row.feed_id);
      // Unsubscribed between the two reads (another client): left out, as a moment later.
      if (!feed) continue;
      items.push(presentItem(row, feed));
    }
    return items;
  }

  /** stream/items/ids: the page's ids in short (decimal) form; with includeAllDirectSubstreams also their streams. */
  async streamItemIds(user: ReaderUser, streamId: string, o: StreamOptions & { substreams: boolean }) {
    const { refs, continuation } = await this.refs(user, streamId, o);
    let labels = new Map<number, string>();
    if (o.substreams && refs.length > 0) {
      const [feeds, list] = await Promise.all([listUserFeeds(this.deps.db, user.id), folders.listFolders(this.deps.db, user.id)]);
      const names = new Map(list.map((f) => [f.id, f.name]));
      labels = new Map(feeds.filter((f) => f.folder_id !== null).map((f) => [f.feed_id, names.get(f.folder_id!)!]));
    }
    const itemRefs = refs.map((r) => {
      const ref: { id: string; directStreamIds?: string[]; timestampUsec?: string } = { id: String(r.article_id) };
      if (o.substreams) {
        const label = labels.get(r.feed_id);
        ref.directStreamIds = [`feed/${r.feed_id}`, ...(label !== undefined ? [LABEL_PREFIX + label] : [])];
        ref.timestampUsec = toUsecString(r.published_at);
      }
      return ref;
    });
    return continuation === undefined ? { itemRefs } : { itemRefs, continuation };
  }

  /** stream/items/contents: the visible items among the ids; unknown, foreign, muted and filtered ones are left out. */
  async itemsContents(user: ReaderUser, ids: number[], oldestFirst: boolean): Promise<GReaderItem[]> {
    const refs = await repo.visibleRefs(this.deps.db, user.id, this.nowIso(), [...new Set(ids)]);
    const newestFirst = (a: repo.StreamRef, b: repo.StreamRef) =>
      a.published_at === b.published_at ? b.article_id - a.article_id : a.published_at < b.published_at ? 1 : -1;
    refs.sort(oldestFirst ? (a, b) => newestFirst(b, a) : newestFirst);
    const texts = new Map(
      (
        await repo.articleTexts(
          this.deps.db,
          refs.map((r) => r.article_id),
        )
      ).map((t) => [t.id, t]),
    );
    return this.items(
      user.id,
      refs.flatMap((r) => {
        const text = texts.get(r.article_id);
        return text ? [{ ...r, ...text }] : [];
      }),
    );
  }

  /**
   * edit-tag: a/r read, starred and kept-unread (= unread) on the user's visible items; labels on single items do
   * not exist in Feeder (folders hold feeds), so other tags are ignored, as FreshRSS ignores what it does not know.
   */
  async editTag(user: ReaderUser, ids: number[], add: string[], remove: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const now = this.nowIso();
    const changes: { flag: 'is_read' | 'is_favorite'; on: boolean }[] = [];
    for (const tag of add) {
      if (tag === READ) changes.push({ flag: 'is_read', on: true });
      else if (tag === KEPT_UNREAD) changes.push({ flag: 'is_read', on: false });
      else if (tag === STARRED) changes.push({ flag: 'is_favorite', on: true });
    }
    for (const tag of remove) {
      if (tag === READ) changes.push({ flag: 'is_read', on: false });
      else if (tag === STARRED) changes.push({ flag: 'is_favorite', on: false });
    }
    if (changes.length === 0 || unique.length === 0) return;
    // One transaction for every change of the call; each verb recounts what it changed.
    await this.deps.db.transaction().execute(async (trx) => {
      for (const { flag, on } of changes) {
        if (flag === 'is_read') await readingState.setRead(trx, user.id, now, unique, on, 'visible');
        else await readingState.setStarred(trx, user.id, now, unique, on, 'visible');
      }
    });
  }

  /** mark-all-as-read: the stream's unread items crawled up to `before` (ts) become read. */
  async markAllAsRead(user: ReaderUser, streamId: string | undefined, before: string | undefined): Promise<void> {
    if (streamId === undefined) throw badRequest('STREAM_REQUIRED', 'Name the stream to mark read (s).');
    const selection = await this.selection(user.id, streamId, { exclude: [], include: [] });
    if (selection === null || selection.read === 1) return;
    await readingState.markAllRead(this.deps.db, user.id, this.nowIso(), { feedIds: selection.feedIds, starredOnly: selection.starred, storedBy: before });
  }

  /** A title for a stream (the Atom feed's and stream/contents' title). */
  async streamTitle(user: ReaderUser, streamId: string): Promise<string> {
    const ref = parseStreamId(streamId);
    if (ref?.kind === 'label') return ref.name;
    if (ref?.kind === 'feed' || ref?.kind === 'feed-url') {
      const feedId = await this.feedOf(user.id, streamId);
      if (feedId !== undefined) {
        const feed = await this.deps.feeds.get(user.id, feedId);
        return feed.title;
      }
      return '';
    }
    if (ref?.kind === 'starred') return 'Starred items';
    if (ref?.kind === 'read') return 'Read items';
    return 'Reading list';
  }
}
