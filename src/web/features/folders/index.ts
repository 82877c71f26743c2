export { foldersKey, listFolders, useFolders } from './api.js';
export { AddMenu } from './components/AddMenu.js';
export { FolderDialog } from './components/FolderDialog.js';
export { SidebarFeedTree } from './components/SidebarFeedTree.js';
export { buildLayout } from './tree.js';
