import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Feed, Folder } from '../../../common/api.js';
import { toast } from '../../components/ui/Toast.js';
import { announce } from '../../lib/mutations.js';
import { feedSummariesKey, feedsKey, feedTitle, type FeedSummary } from '../feeds/index.js';
import { FEED_FOLDER_CHANGED, foldersKey, moveErrorMessage, moveFeedToFolder, removeFeedFromFolder, sortFeedGroup, sortFolders } from './api.js';
import { diffLayouts, feedsForLayout, foldersForLayout, type Layout } from './tree.js';

export interface CommitOptions {
  /** The moved feed (undefined when a folder was moved). */
  feedId?: number;
  /** The folder the feed was dropped onto, if any: dropping a feed on its own folder says it is there already (§8 info). */
  droppedOnFolder?: number;
}

/**
 * Applies one drop of the sidebar's drag and drop (dashboard.md §4 "Folders": optimistic, rolled back on failure):
 * the feed and folder lists in the query cache change at once, then the calls go out (§7: move into or out of a
 * folder, POST /api/feeds/sort for the group's new order, POST /api/folders/sort), and a toast says how it went
 * (§8 "Folders": order updated or its error; the move errors 404/403/no answer/generic; "already in folder" as
 * info). On failure the lists go back to what they were and are fetched again, so they show the server's truth.
 * Drops are sent one after another, so quick successive drags reach the server in order.
 */
export function useLayoutCommit(): (before: Layout, after: Layout, options?: CommitOptions) => Promise<void> {
  const client = useQueryClient();
  const { t } = useTranslation();
  const queue = useRef<Promise<void>>(Promise.resolve());

  return useCallback(
    (before: Layout, after: Layout, { feedId, droppedOnFolder }: CommitOptions = {}) => {
      const change = diffLayouts(before, after, feedId);
      // The sidebar draws the summaries; the full list is changed too when a screen holds it.
      const summaries = client.getQueryData<FeedSummary[]>(feedSummariesKey);
      const feeds = client.getQueryData<Feed[]>(feedsKey);
      const folders = client.getQueryData<Folder[]>(foldersKey);
      const folderName = (id: number | 'root') => (id === 'root' ? '' : (folders?.find((f) => f.id === id)?.name ?? ''));
      const feed = feedId === undefined ? undefined : (summaries ?? feeds)?.find((f) => f.id === feedId);
      const title = feed ? feedTitle(feed, t) : '';

      if (change.kind === 'none') {
        if (droppedOnFolder !== undefined && feedId !== undefined) toast(t('folders.toasts.alreadyInFolder', { title, folder: folderName(droppedOnFolder) }), 'info');
        return queue.current;
      }

      // Optimistic: an answer to an earlier refetch must not land on top of the new lists.
      void client.cancelQueries({ queryKey: feedsKey });
      void client.cancelQueries({ queryKey: foldersKey });
      if (summaries && change.kind !== 'folders') client.setQueryData<FeedSummary[]>(feedSummariesKey, feedsForLayout(summaries, after, change));
      if (feeds && change.kind !== 'folders') client.setQueryData<Feed[]>(feedsKey, feedsForLayout(feeds, after, change));
      if (folders) client.setQueryData<Folder[]>(foldersKey, foldersForLayout(folders, after));

      const rollBack = () => {
        if (summaries) client.setQueryData(feedSummariesKey, summaries);
        if (feeds) client.setQueryData(feedsKey, feeds);
        if (folders) client.setQueryData(foldersKey, folders);
        void client.invalidateQueries({ queryKey: feedsKey });
        void client.invalidateQueries({ queryKey: foldersKey });
      };

      const run = async () => {
        if (change.kind === 'folders') {
          try {
            await sortFolders(change.order);
            toast(t('folders.toasts.folderOrderUpdated'));
          } catch (err) {
            console.error('Sorting the folders failed', err);
            rollBack();
            toast(t('folders.toasts.folderOrderError'), 'error');
          }
          announce(['folders']);
          return;
        }

        if (change.kind === 'order') {
          try {
            await sortFeedGroup(change.order);
            toast(t('folders.toasts.feedOrderUpdated'));
          } catch (err) {
            console.error('Sorting the feeds failed', err);
            rollBack();
            toast(t('folders.toasts.feedOrderError'), 'error');
          }
          announce(FEED_FOLDER_CHANGED);
          return;
        }

        // A move into a folder or out of one; the feed then takes the place it was dropped at (a sort of its group).
        try {
          const result = change.to === 'root' ? await removeFeedFromFolder(change.from as number, change.feedId) : await moveFeedToFolder(change.to, change.feedId);
          if (result?.code === 'FEED_ALREADY_IN_FOLDER') toast(t('folders.toasts.alreadyInFolder', { title, folder: folderName(change.to) }), 'info');
          else if (change.to === 'root') toast(t('folders.toasts.movedOut', { title, folder: folderName(change.from) }));
          else toast(t('folders.toasts.movedInto', { title, folder: folderName(change.to) }));
        } catch (err) {
          console.error('Moving the feed failed', err);
          rollBack();
          toast(moveErrorMessage(err, t), 'error');
          announce(FEED_FOLDER_CHANGED);
          return;
        }
        if (change.order.length > 1) {
          try {
            await sortFeedGroup(change.order);
          } catch (err) {
            // The move stands; only its place in the group is lost: show the server's order.
            console.error('Sorting the feeds after a move failed', err);
            void client.invalidateQueries({ queryKey: feedsKey });
            toast(t('folders.toasts.feedOrderError'), 'error');
          }
        }
        announce(FEED_FOLDER_CHANGED);
      };

      const next = queue.current.then(run);
      queue.current = next.catch(() => undefined);
      return next;
    },
    [client, t],
  );
}
