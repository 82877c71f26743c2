export { fetchReadingListUnread, getReadingListUnreadCounts, listReadingLists, readingListsKey, readingListUnreadKey, unescapeAngles, useReadingList } from './api.js';
export { AddToReadingListModal } from './components/AddToReadingListModal.js';
export { DeleteReadingListDialog } from './components/DeleteReadingListDialog.js';
export { ReadingListDialog } from './components/ReadingListDialog.js';
export { ReadingListsSection } from './components/ReadingListsSection.js';
