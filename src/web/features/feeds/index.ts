export {
  UNREAD_COUNTS_DEBOUNCE_MS,
  UNREAD_COUNTS_STALE_MS,
  downloadOpmlExport,
  feedTitle,
  feedSummariesKey,
  feedsKey,
  getUnreadCounts,
  fetchUnreadCounts,
  listFeedSummaries,
  listFeeds,
  reorderFeedSummaries,
  unpackFeedSummaries,
  unreadCountsKey,
  useDeleteAllFeeds,
  useFeedSummaries,
  useFeeds,
  useImportOpml,
  useUnmuteFeed,
  useUnreadCounts,
} from './api.js';
export type { FeedSummary } from './api.js';
export { BADGE_DEBOUNCE_MS, useFeedUnread, useTotalUnread, useUnreadSum } from './unreadBadges.js';
export { AddFeedDialog } from './components/AddFeedDialog.js';
export { ChoiceGroup, filterScopeChoices } from './components/ChoiceGroup.js';
export { FeedActionsMenu } from './components/FeedActionsMenu.js';
export { FeedFiltersDialog } from './components/FeedFiltersDialog.js';
export { FeedIcon } from './components/FeedIcon.js';
export { FeedLink } from './components/FeedLink.js';
export { MuteDialog } from './components/MuteDialog.js';
export { default as FeedsPage } from './FeedsPage.js';
export { formatDateTime } from './format.js';
