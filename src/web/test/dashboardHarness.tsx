import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { User } from '../../common/api.js';
import { AuthProvider } from '../app/auth.js';
import { ThemeProvider } from '../app/theme.js';
import i18n from '../i18n/index.js';
import { storage } from '../lib/storage.js';
import { fakeServer as baseFakeServer, type Call, type Handler } from './fakeServer.js';

/**
 * Test helpers for the signed-in area: a stored session, a fake server answering by "METHOD path",
 * and a render inside the app's providers and a memory router.
 */
export const testUser: User = {
  id: 7,
  name: 'Dana Beispiel',
  email: 'dana@example.com',
  is_verified: true,
  language_preference: 'en',
  created_at: '2026-01-01T00:00:00.000Z',
  fever_api_enabled: false,
};

/** The shared fake server (unknown routes answer 404), which also answers the session start (GET /auth/me) with the stored user. */
export function fakeServer(routes: Record<string, Handler>): Call[] {
  return baseFakeServer({ 'GET /auth/me': () => [200, { user: storage.getUser() }], ...routes });
}

export async function signedIn(user: User = testUser, language: 'de' | 'en' = 'en') {
  localStorage.clear();
  storage.setTokens('access-1', 'refresh-1');
  storage.setUser({ ...user, language_preference: language });
  await i18n.changeLanguage(language);
}

/** Shows the current path so tests can see navigation. */
function Location() {
  const location = useLocation();
  return (
    <>
      <output data-testid="location">{location.pathname}</output>
      <output data-testid="location-search">{location.search}</output>
    </>
  );
}

/**
 * Renders `element` at `path` and waits until the session start (GET /auth/me) has settled, so its answer
 * cannot land after the test's own calls.
 */
export async function renderAt(path: string, element: ReactElement, routePath = '/dashboard/*') {
  // A fresh query client per render, so no cached answer leaks from one test into the next.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <AuthProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path={routePath} element={element} />
              <Route path="/" element={<p>Landing page</p>} />
            </Routes>
            <Location />
          </MemoryRouter>
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
  return result;
}
