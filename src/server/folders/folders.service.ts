import type { Folder } from '../../common/api.js';
import { MAX_FOLDER_NAME_LENGTH, MAX_FOLDERS } from '../../common/limits.js';
import type { Db } from '../db/database.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { feedNotFound } from '../feeds/feeds.service.js';
import * as repo from './folders.repository.js';

/**
 * Folders (dashboard.md §3 "Folder", §4 "Folders", §7 "Folders", §8 "Folders"; docs/decisions.md "Organising").
 * A feed sits in at most one folder or at the root; deleting a folder puts its feeds back at the root. Every id is
 * the user's or a 404 (FOLDER_NOT_FOUND, FEED_NOT_FOUND): a foreign folder or feed is indistinguishable from a
 * missing one, so the 403 that §6 allows is never needed.
 */

export const folderNotFound = () => notFound('FOLDER_NOT_FOUND', 'Folder not found.');

const charCount = (s: string) => [...s].length;

export function presentFolder(row: repo.FolderWithFeeds): Folder {
  return { id: row.id, name: row.name, feeds: row.feed_ids, sort_order: row.sort_order, created_at: row.created_at };
}

export interface FoldersServiceDeps {
  db: Db;
  now: () => Date;
}

export type FolderFeedCode = 'FEED_MOVED_TO_FOLDER' | 'FEED_ALREADY_IN_FOLDER' | 'FEED_REMOVED_FROM_FOLDER';

export class FoldersService {
  constructor(private readonly deps: FoldersServiceDeps) {}

  async list(userId: number): Promise<{ folders: Folder[] }> {
    return { folders: (await repo.listFolders(this.deps.db, userId)).map(presentFolder) };
  }

  /** One folder with its feeds; 404 when it is not the user's. */
  private async one(db: Db, userId: number, folderId: number): Promise<Folder> {
    const found = (await repo.listFolders(db, userId)).find((f) => f.id === folderId);
    if (!found) throw folderNotFound();
    return presentFolder(found);
  }

  /** Trimmed; required and at most 100 characters; unique per user ignoring case (OPML and Google Reader labels match by name). */
  private async checkName(db: Db, userId: number, raw: string | null | undefined, exceptId?: number): Promise<string> {
    const name = raw?.trim() ?? '';
    if (!name) throw badRequest('FOLDER_NAME_REQUIRED', 'Please enter a folder name.');
    if (charCount(name) > MAX_FOLDER_NAME_LENGTH) {
      throw badRequest('FOLDER_NAME_TOO_LONG', `The folder name may be at most ${MAX_FOLDER_NAME_LENGTH} characters long.`);
    }
    const same = await repo.findFolderByName(db, userId, name);
    if (same && same.id !== exceptId) throw conflict('FOLDER_EXISTS', 'A folder with this name exists already.');
    return name;
  }

  async create(userId: number, rawName: string | null | undefined): Promise<{ folder: Folder }> {
    return this.deps.db.transaction().execute(async (trx) => {
      const name = await this.checkName(trx, userId, rawName);
      if ((await repo.countFolders(trx, userId)) >= MAX_FOLDERS) throw badRequest('TOO_MANY_FOLDERS', `You can have at most ${MAX_FOLDERS} folders.`);
      const row = await repo.createFolder(trx, userId, name, this.deps.now().toISOString());
      return { folder: presentFolder({ ...row, feed_ids: [] }) };
    });
  }

  async rename(userId: number, folderId: number, rawName: string | null | undefined): Promise<{ folder: Folder }> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.findFolder(trx, userId, folderId))) throw folderNotFound();
      const name = await this.checkName(trx, userId, rawName, folderId);
      await repo.renameFolder(trx, userId, folderId, name);
      return { folder: await this.one(trx, userId, folderId) };
    });
  }

  /** The folder goes; its feeds go back to the root, none is unsubscribed. */
  async remove(userId: number, folderId: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.deleteFolder(trx, userId, folderId))) throw folderNotFound();
    });
  }

  /**
   * Moves the feed into the folder (out of any other: a feed is in at most one). Its place inside the folder follows
   * the user's feed order; the web app sends POST /api/feeds/sort with the folder's feeds to put it elsewhere.
   */
  async addFeed(userId: number, folderId: number, feedId: number): Promise<{ folder: Folder; code: FolderFeedCode; message: string }> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.findFolder(trx, userId, folderId))) throw folderNotFound();
      const current = await repo.feedFolderOf(trx, userId, feedId);
      if (!current) throw feedNotFound();
      if (current.folder_id === folderId) {
        return { folder: await this.one(trx, userId, folderId), code: 'FEED_ALREADY_IN_FOLDER' as const, message: 'The feed is in this folder already.' };
      }
      await repo.setFeedFolder(trx, userId, feedId, folderId);
      return { folder: await this.one(trx, userId, folderId), code: 'FEED_MOVED_TO_FOLDER' as const, message: 'The feed was moved into the folder.' };
    });
  }

  /** Takes the feed out of the folder, back to the root; 404 FEED_NOT_IN_FOLDER when it is not in this folder. */
  async removeFeed(userId: number, folderId: number, feedId: number): Promise<{ folder: Folder; code: FolderFeedCode; message: string }> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.findFolder(trx, userId, folderId))) throw folderNotFound();
      const current = await repo.feedFolderOf(trx, userId, feedId);
      if (!current) throw feedNotFound();
      if (current.folder_id !== folderId) throw notFound('FEED_NOT_IN_FOLDER', 'The feed is not in this folder.');
      await repo.setFeedFolder(trx, userId, feedId, null);
      return { folder: await this.one(trx, userId, folderId), code: 'FEED_REMOVED_FROM_FOLDER' as const, message: 'The feed was moved back to the top level.' };
    });
  }

  /**
   * New order: the named folders first, in the order given; folders not named keep their relative order after them
   * (as POST /api/feeds/sort). An unknown id is a 404, a repeated one a 400; nothing is written then.
   */
  async sort(userId: number, order: readonly number[]): Promise<{ folders: Folder[] }> {
    if (new Set(order).size !== order.length) throw badRequest('DUPLICATE_FOLDER_ID', 'A folder is named more than once.');
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.writeFolderOrder(trx, userId, order))) throw folderNotFound();
    });
    return this.list(userId);
  }
}
