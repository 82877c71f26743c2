import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { OpmlImportResult } from '../../common/api.js';
import type { Db } from '../db/database.js';
import { nextSortOrder } from '../db/sort-order.js';
import { normalizeFeedUrl } from '../feeds/feed-url.js';
import * as feedsRepo from '../feeds/feeds.repository.js';
import * as subscriptions from '../feeds/subscriptions.repository.js';
import { countFolders, createFolder, findFolderByName, listFolders } from '../folders/folders.repository.js';
import { MAX_FOLDER_NAME_LENGTH, MAX_FOLDERS } from '../../common/limits.js';
import { normalizeInput } from '../reader/discover/input.js';
import { blockedLiteral } from '../reader/fetch/connect.js';
import { generateOpmlDocument, type ExportFeed } from './opml.generate.js';
import type { ParsePool } from '../refresh/document-pool.js';
import type { OpmlEntry } from './opml.parse.js';

/**
 * OPML import and export (dashboard.md §5 "OPML import", §7 "Feeds", §9 export filename; docs/decisions.md
 * "OPML and the catalog").
 *
 * Import never fetches a feed: it creates the feed rows (due at once) and the subscriptions, and the refresh engine
 * fetches them in the background. A list of 10,000 feeds is written in transactions of IMPORT_BATCH entries, and
 * the event loop is given back between them, so other requests (and other users) keep being answered; each batch
 * is whole or not at all, and an import cut short can simply be repeated (what is there counts as existed).
 */

/** Feeds written per transaction: small enough that no other request waits long for the database. */
export const IMPORT_BATCH = 250;
/** Newly created feeds queued at the front at once (the first screenful); the rest are due and the scheduler takes them. */
export const IMPORT_URGENT_FEEDS = 200;
/** Longest feed URL stored (feeds.url is varchar(2048)). */
const MAX_URL_LENGTH = 2048;

export interface OpmlServiceDeps {
  db: Db;
  enqueue: (feedIds: number[]) => Promise<void>;
  /** Where the uploaded file is parsed: the worker pool (up to 5 MB takes about a second, docs/decisions.md "Worker pool"). */
  pool: ParsePool;
  now: () => Date;
  /** ALLOW_PRIVATE_FEED_HOSTS: when false, addresses such as http://127.0.0.1/ are refused (the SSRF rule). */
  allowPrivateHosts: boolean;
  log: { error: (obj: object, msg: string) => void };
}

interface Usable {
  url: string;
  siteUrl: string | null;
  entry: OpmlEntry;
}

/** An http(s) address as the feeds table stores it, or null when the outline's address cannot be used. */
function feedUrlOf(raw: string, allowPrivateHosts: boolean): string | null {
  let url: string | null;
  try {
    // Same reading as the add-feed box: feed:// and scheme-less addresses are unwrapped, other schemes refused.
    url = normalizeFeedUrl(normalizeInput(raw).href);
  } catch {
    return null;
  }
  if (!url || url.length > MAX_URL_LENGTH) return null;
  // Names are checked when the fetch connects; literal private addresses can be refused right here.
  if (!allowPrivateHosts && blockedLiteral(new URL(url).hostname)) return null;
  return url;
}

function siteUrlOf(raw: string | null): string | null {
  if (!raw) return null;
  const url = normalizeFeedUrl(raw);
  return url && url.length <= MAX_URL_LENGTH ? url : null;
}

/** Every feed URL the user subscribes to (one query; an import checks thousands of URLs against it). */
async function subscribedFeedUrls(db: Db, userId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('feeds', 'feeds.id', 'subscriptions.feed_id')
    .select('feeds.url')
    .where('subscriptions.user_id', '=', userId)
    .execute();
  return new Set(rows.map((r) => r.url));
}

export class OpmlService {
  constructor(private readonly deps: OpmlServiceDeps) {}

  async importFile(userId: number, bytes: Buffer): Promise<OpmlImportResult> {
    const doc = await this.deps.pool.run('opml', bytes);
    const { db } = this.deps;
    const now = this.deps.now().toISOString();

    let failed = 0;
    let existed = 0;
    const usable: Usable[] = [];
    // What the user reads already counts as existed and is left as it is (title, folder, order).
    const seen = await subscribedFeedUrls(db, userId);
    for (const entry of doc.entries) {
      const url = feedUrlOf(entry.xmlUrl, this.deps.allowPrivateHosts);
      if (!url) {
        failed++;
        continue;
      }
      // Subscribed already, or twice in the file (the first one counts).
      if (seen.has(url)) {
        existed++;
        continue;
      }
      seen.add(url);
      usable.push({ url, siteUrl: siteUrlOf(entry.htmlUrl), entry });
    }

    // Folder names follow the folder rules (folders.service): at most 100 characters, at most MAX_FOLDERS folders;
    // the feeds of a folder that cannot be made any more go to the root.
    const folderIds = new Map<string, number | null>();
    let foldersCreated = 0;
    let folderCount = await countFolders(db, userId);
    const folderId = async (trx: Db, rawName: string): Promise<number | null> => {
      const name = [...rawName].slice(0, MAX_FOLDER_NAME_LENGTH).join('').trim();
      const key = name.toLowerCase();
      const known = folderIds.get(key);
      if (known !== undefined) return known;
      let folder = await findFolderByName(trx, userId, name);
      if (!folder && folderCount < MAX_FOLDERS) {
        folder = await createFolder(trx, userId, name, now);
        foldersCreated++;
        folderCount++;
      }
      folderIds.set(key, folder?.id ?? null);
      return folder?.id ?? null;
    };

    // Folders are made first, so they keep the file's order in the sidebar: those that receive a feed of this import
    // and those the file declares empty (a folder whose feeds were all there already or unusable is not made).
    const wanted = new Set([...doc.emptyFolders, ...usable.map((u) => u.entry.folder ?? '')].map((n) => n.toLowerCase()));
    await db.transaction().execute(async (trx) => {
      for (const name of doc.folders) if (wanted.has(name.toLowerCase())) await folderId(trx, name);
    });

    let imported = 0;
    const created: number[] = [];
    for (let i = 0; i < usable.length; i += IMPORT_BATCH) {
      const batch = usable.slice(i, i + IMPORT_BATCH);
      const result = await db.transaction().execute((trx) => this.importBatch(trx, userId, batch, now, folderId));
      imported += result.imported;
      existed += result.existed;
      created.push(...result.created);
      // Let other requests in between two batches.
      await yieldToEventLoop();
    }

    await this.queue(created);
    return {
      imported_count: imported,
      existed_count: existed,
      failed_count: failed,
      folders_created: foldersCreated,
      message: importMessage(imported, existed, failed, foldersCreated),
    };
  }

  /** One transaction: feed rows, subscriptions in file order, and the stored articles of feeds others read. */
  private async importBatch(
    trx: Db,
    userId: number,
    batch: Usable[],
    now: string,
    folderId: (trx: Db, name: string) => Promise<number | null>,
  ): Promise<{ imported: number; existed: number; created: number[] }> {
    const urls = batch.map((b) => b.url);
    const subscribed = await subscriptions.subscribedUrls(trx, userId, urls);
    const fresh = batch.filter((b) => !subscribed.has(b.url));
    if (fresh.length === 0) return { imported: 0, existed: batch.length, created: [] };

    const inserted = await trx
      .insertInto('feeds')
      .values(
        fresh.map((b) => ({
          url: b.url,
          // Until the first fetch the feed is known by the name in the file; the fetch replaces both.
          title: b.entry.name ?? '',
          site_url: b.siteUrl,
          next_check_at: now,
          error_count: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.column('url').doNothing())
      .returning(['id', 'url'])
      .execute();
    const createdIds = new Set(inserted.map((r) => r.id));
    const rows = await trx
      .selectFrom('feeds')
      .select(['id', 'url', 'title', 'site_url'])
      .where(
        'url',
        'in',
        fresh.map((b) => b.url),
      )
      .execute();
    const byUrl = new Map(rows.map((r) => [r.url, r]));

    // A feed row that existed before (another user reads it, or an orphan) keeps what its fetches stored; only a
    // row that never got a title yet takes the file's.
    for (const b of fresh) {
      const row = byUrl.get(b.url)!;
      if (createdIds.has(row.id)) continue;
      if (!row.title && b.entry.name) await feedsRepo.setFeedTitleIfEmpty(trx, row.id, b.entry.name);
      if (!row.site_url && b.siteUrl) {
        await trx.updateTable('feeds').set({ site_url: b.siteUrl }).where('id', '=', row.id).where('site_url', 'is', null).execute();
      }
    }

    let order = await nextSortOrder(trx, 'subscriptions', userId);
    const values = [];
    for (const b of fresh) {
      values.push({
        user_id: userId,
        feed_id: byUrl.get(b.url)!.id,
        sort_order: order++,
        created_at: now,
        custom_title: b.entry.customTitle,
        folder_id: b.entry.folder ? await folderId(trx, b.entry.folder) : null,
      });
    }
    const subs = await trx
      .insertInto('subscriptions')
      .values(values)
      .onConflict((oc) => oc.columns(['user_id', 'feed_id']).doNothing())
      .returning('feed_id')
      .execute();

    // Feeds other users read already bring their stored articles along, unread and into the user's smart lists, as
    // a subscription by URL does (new feed rows have no articles yet: their first fetch brings them).
    await subscriptions.backfillSubscriptions(
      trx,
      userId,
      subs.map((s) => s.feed_id).filter((id) => !createdIds.has(id)),
      now,
    );
    return {
      imported: subs.length,
      existed: batch.length - subs.length,
      created: [...createdIds],
    };
  }

  /** New feeds: the first ones are queued at the front; all of them are due already, so the scheduler takes the rest. */
  private async queue(created: number[]): Promise<void> {
    const first = created.slice(0, IMPORT_URGENT_FEEDS);
    if (first.length === 0) return;
    try {
      await this.deps.enqueue(first);
    } catch (err) {
      // They stay due in the database; the next scheduler step takes them.
      this.deps.log.error({ err, count: first.length }, 'could not queue imported feeds; the scheduler takes them instead');
    }
  }

  /** The user's subscriptions as OPML: folders (in sidebar order) with their feeds, then the feeds in no folder. */
  async exportFile(userId: number): Promise<string> {
    const [feeds, folders] = await Promise.all([subscriptions.listUserFeeds(this.deps.db, userId), listFolders(this.deps.db, userId)]);
    const toExport = (f: (typeof feeds)[number]): ExportFeed => ({ url: f.url, siteUrl: f.site_url, title: f.title, customTitle: f.custom_title });
    const inFolder = new Map<number, ExportFeed[]>(folders.map((f) => [f.id, []]));
    const root: ExportFeed[] = [];
    for (const feed of feeds) {
      const list = feed.folder_id === null ? undefined : inFolder.get(feed.folder_id);
      (list ?? root).push(toExport(feed));
    }
    return generateOpmlDocument({
      title: 'Feeder subscriptions',
      dateCreated: this.deps.now(),
      folders: folders.map((f) => ({ name: f.name, feeds: inFolder.get(f.id)! })),
      feeds: root,
    });
  }
}

/** The import's result in one English sentence (the web app shows its own translated counts). */
export function importMessage(imported: number, existed: number, failed: number, folders: number): string {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const parts = [`${n(imported, 'feed', 'feeds')} imported`];
  if (existed) parts.push(`${n(existed, 'feed was', 'feeds were')} already subscribed`);
  if (failed) parts.push(`${n(failed, 'entry', 'entries')} without a usable feed address skipped`);
  if (folders) parts.push(`${n(folders, 'folder', 'folders')} created`);
  return `${parts.join('; ')}.`;
}

/** feeder-feeds-YYYY-MM-DD.opml (dashboard.md §9, decisions.md "Product and accounts"), the date in UTC. */
export function exportFilename(date: Date): string {
  return `feeder-feeds-${date.toISOString().slice(0, 10)}.opml`;
}
