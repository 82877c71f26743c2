import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { changedPositions, nextSortOrder, writePositions } from '../db/sort-order.js';
import type { FoldersTable } from '../db/tables.js';

/**
 * Folders (dashboard.md §3 "Folder", §7 "Folders"): a user's named groups of feeds. A subscription sits in at most
 * one folder (subscriptions.folder_id); deleting a folder moves its feeds back to the root (the foreign key sets
 * null), never deletes them. Every function is scoped to its user (docs/ARCHITECTURE.md "Rules" 2). Used by the folder routes,
 * OPML import/export, and the Fever (groups) and Google Reader (labels) adapters.
 */
export type FolderRow = Selectable<FoldersTable>;

export interface FolderWithFeeds extends FolderRow {
  /** feeds.id of the folder's subscriptions, in the user's feed order. */
  feed_ids: number[];
}

/** The user's folders in sidebar order, each with its feed ids. */
export async function listFolders(db: Db, userId: number): Promise<FolderWithFeeds[]> {
  const [folders, members] = await Promise.all([
    db.selectFrom('folders').selectAll().where('user_id', '=', userId).orderBy('sort_order').orderBy('id').execute(),
    db
      .selectFrom('subscriptions')
      .select(['folder_id', 'feed_id'])
      .where('user_id', '=', userId)
      .where('folder_id', 'is not', null)
      .orderBy('sort_order')
      .orderBy('id')
      .execute(),
  ]);
  const byFolder = new Map<number, number[]>(folders.map((f) => [f.id, []]));
  for (const m of members) byFolder.get(m.folder_id!)?.push(m.feed_id);
  return folders.map((f) => ({ ...f, feed_ids: byFolder.get(f.id) ?? [] }));
}

export async function findFolder(db: Db, userId: number, folderId: number): Promise<FolderRow | undefined> {
  return db.selectFrom('folders').selectAll().where('user_id', '=', userId).where('id', '=', folderId).executeTakeFirst();
}

/** A folder of the user by name, compared case-insensitively after trimming (OPML import, Google Reader labels). */
export async function findFolderByName(db: Db, userId: number, name: string): Promise<FolderRow | undefined> {
  const wanted = name.trim().toLowerCase();
  const rows = await db.selectFrom('folders').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  return rows.find((f) => f.name.trim().toLowerCase() === wanted);
}

/** The feed ids of one of the user's folders (Fever group marks, Google Reader label streams); [] for a foreign id. */
export async function folderFeedIds(db: Db, userId: number, folderId: number): Promise<number[]> {
  const rows = await db.selectFrom('subscriptions').select('feed_id').where('user_id', '=', userId).where('folder_id', '=', folderId).execute();
  return rows.map((r) => r.feed_id);
}

/** Creates a folder at the end of the user's folder order. */
export async function createFolder(db: Db, userId: number, name: string, now: string): Promise<FolderRow> {
  const sortOrder = await nextSortOrder(db, 'folders', userId);
  return db.insertInto('folders').values({ user_id: userId, name, sort_order: sortOrder, created_at: now }).returningAll().executeTakeFirstOrThrow();
}

export async function renameFolder(db: Db, userId: number, folderId: number, name: string): Promise<boolean> {
  const result = await db.updateTable('folders').set({ name }).where('user_id', '=', userId).where('id', '=', folderId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the folder; its feeds go back to the root (set explicitly: SQLite enforces foreign keys per connection). */
export async function deleteFolder(db: Db, userId: number, folderId: number): Promise<boolean> {
  await db.updateTable('subscriptions').set({ folder_id: null }).where('user_id', '=', userId).where('folder_id', '=', folderId).execute();
  const result = await db.deleteFrom('folders').where('user_id', '=', userId).where('id', '=', folderId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Puts the user's subscription to feedId into folderId (null: the root). Returns false when the user does not
 * subscribe to the feed; the caller checks the folder is the user's first.
 */
export async function setFeedFolder(db: Db, userId: number, feedId: number, folderId: number | null): Promise<boolean> {
  const result = await db.updateTable('subscriptions').set({ folder_id: folderId }).where('user_id', '=', userId).where('feed_id', '=', feedId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Writes the folders' order: ids in the given order get positions 0…n-1; the user's other folders follow. Writes
 * nothing and returns false when an id is not one of the user's folders.
 */
export async function writeFolderOrder(db: Db, userId: number, folderIds: readonly number[]): Promise<boolean> {
  const current = await db.selectFrom('folders').select(['id', 'sort_order']).where('user_id', '=', userId).orderBy('sort_order').orderBy('id').execute();
  const known = new Set(current.map((f) => f.id));
  if (folderIds.some((id) => !known.has(id))) return false;
  await writePositions(
    db,
    'folders',
    userId,
    changedPositions(
      current.map((f) => ({ ...f, key: f.id })),
      folderIds,
    ),
  );
  return true;
}

/** The folder the user's subscription to feedId sits in (null: the root); undefined when the user does not subscribe. */
export async function feedFolderOf(db: Db, userId: number, feedId: number): Promise<{ folder_id: number | null } | undefined> {
  return db.selectFrom('subscriptions').select('folder_id').where('user_id', '=', userId).where('feed_id', '=', feedId).executeTakeFirst();
}

export async function countFolders(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('folders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
