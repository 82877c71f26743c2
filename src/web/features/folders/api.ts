import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { Folder, FolderFeedResponse, FolderListResponse, FolderResponse } from '../../../common/api.js';
import { MAX_FOLDER_NAME_LENGTH } from '../../../common/limits.js';
import { api, ApiError } from '../../lib/api.js';
import { useAppMutation, useRefetchOn, type Change } from '../../lib/mutations.js';
import { storage } from '../../lib/storage.js';

/**
 * The folder calls of dashboard.md §7 "Folders" and their mutations, which name what they change (lib/mutations
 * raises the events of §7 "Browser events"):
 * - 'folders' (folders-updated): the folder list changed (created, renamed, deleted, reordered, a feed moved in or out);
 * - 'feeds' (feeds-updated): a feed's folder changed (Feed.folder_id), or a deleted folder sent its feeds back to the root.
 * The drag-and-drop calls are chained by useLayoutCommit, which announces once at the end.
 * The server's rules (docs/decisions.md "Folders"): names trimmed, required, at most 100 characters, unique per user
 * ignoring case (409 FOLDER_EXISTS); a foreign id is a 404.
 */

export const foldersKey = ['folders'] as const;
/** The server's limit, from src/common/limits.ts. */
export { MAX_FOLDER_NAME_LENGTH };

export function listFolders(): Promise<Folder[]> {
  return api<FolderListResponse>('/api/folders').then((res) => res?.folders ?? []);
}

export async function createFolder(name: string): Promise<Folder> {
  const { folder } = await api<FolderResponse>('/api/folders', { method: 'POST', body: { name: name.trim() } });
  return folder;
}

export async function renameFolder(id: number, name: string): Promise<Folder> {
  const { folder } = await api<FolderResponse>(`/api/folders/${id}`, { method: 'PUT', body: { name: name.trim() } });
  return folder;
}

/** The folder goes; its feeds go back to the root (none is unsubscribed). */
export async function deleteFolder(id: number): Promise<void> {
  await api(`/api/folders/${id}`, { method: 'DELETE' });
}

/** POST /api/folders/{id}/feeds: moves the feed into the folder (out of any other). Answers FEED_ALREADY_IN_FOLDER when it is there. */
export async function moveFeedToFolder(folderId: number, feedId: number): Promise<FolderFeedResponse> {
  const result = await api<FolderFeedResponse>(`/api/folders/${folderId}/feeds`, { method: 'POST', body: { feed_id: feedId } });
  return result;
}

/** DELETE /api/folders/{id}/feeds/{feedId}: the feed goes back to the root. */
export async function removeFeedFromFolder(folderId: number, feedId: number): Promise<FolderFeedResponse> {
  const result = await api<FolderFeedResponse>(`/api/folders/${folderId}/feeds/${feedId}`, { method: 'DELETE' });
  return result;
}

/** POST /api/folders/sort: the folders in their new order. */
export async function sortFolders(ids: number[]): Promise<void> {
  await api('/api/folders/sort', { method: 'POST', body: { folder_order: ids } });
}

/**
 * POST /api/feeds/sort with one group's feeds (the root's, or one folder's) in their new order: the server puts
 * the named feeds first and keeps every other feed's relative order, so no other group changes
 * (docs/decisions.md "Folders"). The feed management screen's sortFeeds sends all feeds.
 */
export async function sortFeedGroup(ids: number[]): Promise<void> {
  await api('/api/feeds/sort', { method: 'POST', body: { feed_order: ids } });
}

/* ───────────── Mutations ───────────── */

export function useCreateFolder() {
  return useAppMutation({ mutationFn: createFolder, changes: ['folders'] });
}

export function useRenameFolder() {
  return useAppMutation({ mutationFn: ({ id, name }: { id: number; name: string }) => renameFolder(id, name), changes: ['folders'] });
}

/** A feed's folder changed: both lists follow. */
export const FEED_FOLDER_CHANGED: readonly Change[] = ['feeds', 'folders'];

export function useDeleteFolder() {
  return useAppMutation({ mutationFn: deleteFolder, changes: ['folders', 'feeds'] });
}

/**
 * The user's folders in sidebar order (GET /api/folders), refetched on folders-updated, and on feeds-updated
 * because a deleted or added feed changes a folder's feed list.
 */
export function useFolders(): UseQueryResult<Folder[]> {
  useRefetchOn('folders-updated', foldersKey);
  useRefetchOn('feeds-updated', foldersKey);
  return useQuery({ queryKey: foldersKey, queryFn: listFolders });
}

/* ───────────── Messages (dashboard.md §8 "Folders") ───────────── */

type FolderAction = 'create' | 'update' | 'delete' | 'load';

/** The message for a failed create, rename, delete or load: invalid input, a taken name, auth, no answer, or generic. */
export function folderErrorMessage(err: unknown, action: FolderAction, t: TFunction): string {
  if (!storage.getToken()) return t('folders.errors.authRequired');
  if (err instanceof ApiError) {
    if (err.isNetwork) return t('folders.errors.noResponse');
    if (err.status === 401) return t('folders.errors.authRequired');
    if (err.code === 'FOLDER_EXISTS') return t('folders.errors.exists');
    if (err.code === 'FOLDER_NAME_REQUIRED') return t('folders.errors.nameRequired');
    if (err.code === 'FOLDER_NAME_TOO_LONG') return t('folders.errors.nameTooLong', { max: MAX_FOLDER_NAME_LENGTH });
    if (err.code === 'TOO_MANY_FOLDERS') return t('folders.errors.tooMany');
    if (err.code === 'FOLDER_NOT_FOUND') return t('folders.errors.folderNotFound');
    if (err.status === 400) return t('folders.errors.invalid');
  }
  return t(`folders.errors.${action}`);
}

/** The message for a failed move of a feed into or out of a folder (§8: 404, 403, no answer, generic). */
export function moveErrorMessage(err: unknown, t: TFunction): string {
  if (!storage.getToken()) return t('folders.errors.authRequired');
  if (err instanceof ApiError) {
    if (err.isNetwork) return t('folders.errors.noResponse');
    if (err.status === 401) return t('folders.errors.authRequired');
    if (err.code === 'FEED_NOT_IN_FOLDER') return t('folders.errors.feedNotInFolder');
    if (err.status === 404) return t('folders.errors.moveNotFound');
    if (err.status === 403) return t('folders.errors.moveForbidden');
    if (err.status === 400) return t('folders.errors.invalid');
  }
  return t('folders.errors.move');
}
