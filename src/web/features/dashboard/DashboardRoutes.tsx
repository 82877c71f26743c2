import { Route, Routes } from 'react-router';
import { ArticlesPage, ReadingListPage } from '../articles/index.js';
import { FeedsPage } from '../feeds/index.js';
import { SettingsPage } from '../settings/index.js';
import { DashboardHome } from './components/DashboardHome.js';
import { DashboardShell } from './components/DashboardShell.js';
import { NotFound } from '../../components/NotFound.js';

/**
 * Everything under /dashboard (mounted by app/router.tsx behind RequireAuth), dashboard.md §2.
 * Feed views and searches are query parameters of the index route (?feed=<id>, ?q=<text>; see ArticlesPage).
 * reading-list/:id takes numeric ids only; any other id shows the not-found page, as every unknown path does.
 */
export default function DashboardRoutes() {
  return (
    <DashboardShell>
      <Routes>
        <Route index element={<DashboardHome />} />
        <Route path="favorites" element={<ArticlesPage favorites />} />
        <Route path="feeds" element={<FeedsPage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="reading-list/:id" element={<ReadingListPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </DashboardShell>
  );
}
