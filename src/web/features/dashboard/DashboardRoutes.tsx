import { Route, Routes } from 'react-router';
import SettingsPage from '../settings/SettingsPage.js';
import { DashboardHome } from './components/DashboardHome.js';
import { DashboardShell } from './components/DashboardShell.js';
import { NotFound } from './components/NotFound.js';

/**
 * Everything under /dashboard (mounted by app/router.tsx behind RequireAuth), dashboard.md §2.
 * Routes are added here as their views arrive: favorites, feeds, reading-list/:id (numeric ids only; any
 * other id falls through to the not-found page, as every unknown path does now).
 */
export default function DashboardRoutes() {
  return (
    <DashboardShell>
      <Routes>
        <Route index element={<DashboardHome />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </DashboardShell>
  );
}
