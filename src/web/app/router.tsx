import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { CookieBanner } from '../components/CookieBanner.js';
import { DashboardSkeleton } from '../components/layouts/DashboardSkeleton.js';
import { ApiDocsPage } from '../features/api-docs/index.js';
import { ForgotPasswordPage, LoginPage, RegisterPage, ResendVerificationPage, ResetPasswordPage, VerifyEmailPage } from '../features/auth/index.js';
import { LandingPage } from '../features/landing/index.js';
import { ImprintPage, PrivacyPage, TermsPage } from '../features/legal/index.js';
import { useAuth } from '../lib/auth.js';
import { on } from '../lib/events.js';
import { storage } from '../lib/storage.js';

/**
 * Routes and the global rules of public-area-and-api.md §2:
 * every route change scrolls to the top; a stored login error sends the user to /login from any route but
 * /login and /dashboard; the global logout event sends the user to /; unknown paths go to /login when the query
 * has an error parameter or a login error is stored, else to /.
 */
// The dashboard's entry is its own chunk; the public pages are lazy in their features' entries.
let dashboardChunk: Promise<typeof import('../features/dashboard/index.js')> | null = null;
const loadDashboard = () => (dashboardChunk ??= import('../features/dashboard/index.js'));
const DashboardRoutes = lazy(() => loadDashboard().then((m) => ({ default: m.DashboardRoutes })));

/**
 * Session start (public-area-and-api.md §4 "Session start"): with a stored session the user counts as signed in
 * at once, so the dashboard's code and its first data requests start now, in parallel with /auth/me, instead of
 * one after the other. main.tsx calls this before the first render; on any other address (a signed-in user on /
 * is sent to /dashboard anyway) only the data of /dashboard is asked for.
 */
export function startSession(client: QueryClient): void {
  if (!storage.getUser() || !storage.getToken() || !storage.getRefreshToken()) return;
  const { pathname, search } = window.location;
  const target = pathname.startsWith('/dashboard') ? { pathname, search } : { pathname: '/dashboard', search: '' };
  loadDashboard()
    .then((m) => m.prefetchDashboard(client, target))
    // A chunk that fails to load is reported by the route itself (its Suspense boundary), not here.
    .catch(() => {});
}

function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className="flex min-h-screen items-center justify-center text-muted">
      {t('common.loading')}
    </div>
  );
}

function GlobalRules() {
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  useEffect(() => {
    const path = location.pathname;
    if (storage.getLoginError() && path !== '/login' && !path.startsWith('/dashboard')) {
      void navigate('/login', { replace: true });
    }
  }, [location.pathname, navigate]);

  useEffect(
    () =>
      on('logout', () => {
        void navigate('/', { replace: true });
      }),
    [navigate],
  );
  return null;
}

/**
 * The protected area: / without a signed-in user. A stored session is not waited for (§4 "Session start"): its
 * user is set while /auth/me confirms it, and the user goes to / if it does not.
 */
function RequireAuth({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** / and /login send a signed-in user to the dashboard. */
function AnonymousOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (user) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}

function UnknownRoute() {
  const location = useLocation();
  const hasError = new URLSearchParams(location.search).has('error') || storage.getLoginError() !== null;
  return <Navigate to={hasError ? `/login${location.search}` : '/'} replace />;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <GlobalRules />
      <Suspense fallback={<LoadingScreen />}>
        <Routes>
          <Route
            path="/"
            element={
              <AnonymousOnly>
                <LandingPage />
              </AnonymousOnly>
            }
          />
          <Route
            path="/login"
            element={
              <AnonymousOnly>
                <LoginPage />
              </AnonymousOnly>
            }
          />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          <Route path="/resend-verification" element={<ResendVerificationPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/privacy" element={<PrivacyPage />} />
          <Route path="/imprint" element={<ImprintPage />} />
          <Route path="/terms" element={<TermsPage />} />
          <Route path="/api-docs" element={<ApiDocsPage />} />
          <Route
            path="/dashboard/*"
            element={
              <RequireAuth>
                {/* While its code loads, the dashboard's shape stands in (skeletons, never a bare loading text). */}
                <Suspense fallback={<DashboardSkeleton />}>
                  <DashboardRoutes />
                </Suspense>
              </RequireAuth>
            }
          />
          <Route path="*" element={<UnknownRoute />} />
        </Routes>
      </Suspense>
      <CookieBanner />
    </BrowserRouter>
  );
}
