export { Sidebar } from './components/Sidebar.js';
export { default as DashboardRoutes } from './DashboardRoutes.js';
export { prefetchDashboard } from './prefetch.js';
