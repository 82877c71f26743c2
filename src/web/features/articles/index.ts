export { ArticlesPage } from './ArticlesPage.js';
export { prefetchArticlePage, type ArticleView } from './api.js';
export { ArticleTools } from './components/ArticleTools.js';
export { ReadingListPage } from './ReadingListPage.js';
export { ReadingStateProvider } from './readingState.js';
