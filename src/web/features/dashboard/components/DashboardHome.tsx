import { ArticlesPage } from '../../articles/index.js';

/**
 * /dashboard: the article list of the active view (all feeds, ?feed=<id>, ?folder=<id>, or a search with ?q=); a user without
 * feeds sees the welcome empty state instead (dashboard.md §2).
 */
export function DashboardHome() {
  return <ArticlesPage />;
}
