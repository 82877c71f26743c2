import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { useState, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import type { User } from '../../common/api.js';
import { AuthProvider } from '../lib/auth.js';
import { ThemeProvider } from '../lib/theme.js';
import i18n from '../i18n/index.js';
import { storage } from '../lib/storage.js';
import { polyfillDialog } from './dialog.js';
import { fakeServer as baseFakeServer, type Call, type Handler } from './fakeServer.js';

export { withBody, type Handler, type Reply } from './fakeServer.js';

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
  mark_read_on: 'open',
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

/**
 * The usual frame of a signed-in-area test file: before each test the <dialog> stand-ins and the test user signed
 * in (with `signIn: false` only a clean storage, for files that sign in per test); after it unmount, real timers and
 * the real fetch again. Call it at the top of the file (or inside the `describe` it applies to); a file's own
 * beforeEach for its data runs after this one.
 */
export function setUpDashboardTestEnv({ signIn = true }: { signIn?: boolean } = {}) {
  beforeEach(async () => {
    polyfillDialog();
    if (signIn) await signedIn();
    else localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/**
 * Stands in for a dialog's opener: the dialog starts open, "is open" / "is closed" shows whether it closed itself,
 * and the "open dialog" button opens it again.
 */
export function OpenDialog({ children }: { children(open: boolean, close: () => void): ReactNode }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        open dialog
      </button>
      <p>{open ? 'is open' : 'is closed'}</p>
      {children(open, () => setOpen(false))}
    </>
  );
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
