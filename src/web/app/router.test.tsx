import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../lib/auth.js';
import { ThemeProvider } from '../lib/theme.js';
import { setUpDashboardTestEnv, testUser } from '../test/dashboardHarness.js';
import { makeArticle, page } from '../test/testArticles.js';
import { makeFeed, summariesOf } from '../test/testFeeds.js';
import { storage } from '../lib/storage.js';
import { AppRouter, startSession } from './router.js';

/**
 * Session start (public-area-and-api.md §4 "Session start"): a stored session is signed in at once, and the
 * dashboard's code and first requests do not wait for /auth/me; a session /auth/me refuses ends as before.
 */
setUpDashboardTestEnv();

/** As main.tsx makes it (its 30 s staleTime is what lets the hooks take the prefetched answers). */
const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } } });

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

/** A fetch stub: /auth/me answers only when the test says so; the dashboard's calls answer at once. */
function stubServer(me: () => Promise<Response>) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit = {}) => {
      paths.push(`${init.method ?? 'GET'} ${path}`);
      if (path === '/auth/me') return me();
      if (path === '/auth/refresh') return Promise.resolve(json(401, { message: 'Session expired.', code: 'UNAUTHORIZED' }));
      if (path === '/api/feeds') return Promise.resolve(json(200, [makeFeed({ id: 1, title: 'Tagesblick' })]));
      if (path === '/api/feeds/summaries') return Promise.resolve(json(200, summariesOf([makeFeed({ id: 1, title: 'Tagesblick' })])));
      if (path === '/api/folders') return Promise.resolve(json(200, { folders: [] }));
      if (path === '/api/reading-lists') return Promise.resolve(json(200, { reading_lists: [] }));
      if (path === '/api/reading-lists/unread_counts') return Promise.resolve(json(200, { unread_counts: [] }));
      if (path === '/api/feeds/unread_counts') return Promise.resolve(json(200, { counts: { 1: 1 }, total: 1 }));
      if (path.startsWith('/api/articles?')) return Promise.resolve(json(200, page([makeArticle({ id: 5, title: 'Erster Artikel', feed_id: 1 })])));
      return Promise.resolve(json(404, { message: 'Not found.', code: 'NOT_FOUND' }));
    }),
  );
  return paths;
}

function renderApp(client: QueryClient) {
  return render(
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <AuthProvider>
          <AppRouter />
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
}

describe('session start', () => {
  it('shows the dashboard and its first article while /auth/me is still unanswered, each start call made once', async () => {
    window.history.replaceState(null, '', '/dashboard');
    let answerMe: (res: Response) => void = () => {};
    const paths = stubServer(() => new Promise((resolve) => (answerMe = resolve)));
    const client = newClient();
    startSession(client);
    renderApp(client);

    // The first test imports the whole dashboard chunk through the transform: give it time.
    expect(await screen.findByText('Erster Artikel', {}, { timeout: 20_000 })).toBeTruthy();
    expect(paths).toContain('GET /auth/me');
    for (const call of [
      'GET /api/feeds/summaries',
      'GET /api/folders',
      'GET /api/reading-lists',
      'GET /api/feeds/unread_counts',
      'GET /api/reading-lists/unread_counts',
    ]) {
      expect(paths.filter((p) => p === call)).toEqual([call]);
    }
    // The start never needs the full feed objects (docs/decisions.md "Feed summaries").
    expect(paths).not.toContain('GET /api/feeds');
    // The list took the page asked for at the start instead of asking again.
    expect(paths.filter((p) => p.startsWith('GET /api/articles?'))).toEqual(['GET /api/articles?page=1&per_page=20&show_read=false']);
    answerMe(json(200, { user: testUser }));
    await waitFor(() => expect(storage.getUser()?.email).toBe(testUser.email));
    expect(window.location.pathname).toBe('/dashboard');
  }, 30_000);

  it('goes to / and drops what the session loaded when /auth/me and the refresh refuse it', async () => {
    window.history.replaceState(null, '', '/dashboard');
    let answerMe: (res: Response) => void = () => {};
    stubServer(() => new Promise((resolve) => (answerMe = resolve)));
    const client = newClient();
    startSession(client);
    renderApp(client);
    await waitFor(() => expect(client.getQueryData(['feeds', 'summaries'])).toBeDefined(), { timeout: 20_000 });

    answerMe(json(401, { message: 'Session expired.', code: 'UNAUTHORIZED' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(storage.getToken()).toBeNull();
    expect(client.getQueryData(['feeds', 'summaries'])).toBeUndefined();
  }, 30_000);

  it('without a stored session asks for nothing', () => {
    localStorage.clear();
    const paths = stubServer(() => Promise.resolve(json(401, {})));
    startSession(new QueryClient());
    expect(paths).toEqual([]);
  });
});
