import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import { AuthProvider } from '../lib/auth.js';
import { ThemeProvider } from '../lib/theme.js';
import i18n from '../i18n/index.js';

/**
 * Test helpers for the public area: a fake server answering by "METHOD path" (query string included), and
 * a render inside the app's providers and a memory router that shows the current path.
 */
export { fakeServer, type Call, type Reply } from './fakeServer.js';

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export async function resetBrowser(language: 'de' | 'en' = 'en') {
  localStorage.clear();
  sessionStorage.clear();
  await i18n.changeLanguage(language);
}

/**
 * The usual frame of a public-screen test file: before each test fake timers and a clean browser in `language`;
 * after it unmount, real timers and the real fetch again. Call it inside the `describe` it applies to.
 */
export function usePublicTestEnv(language: 'de' | 'en' = 'en') {
  beforeEach(async () => {
    vi.useFakeTimers();
    await resetBrowser(language);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/** Under fake timers: lets pending promises (fake fetch answers) settle and React render the result. */
export const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

export function renderPublic(path: string, routes: Record<string, ReactElement>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <AuthProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              {Object.entries(routes).map(([p, el]) => (
                <Route key={p} path={p} element={el} />
              ))}
              <Route path="*" element={<p>elsewhere</p>} />
            </Routes>
            <Location />
          </MemoryRouter>
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
}
