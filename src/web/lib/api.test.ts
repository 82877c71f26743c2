import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test/fakeServer.js';
import { api, ApiError } from './api.js';
import { on } from './events.js';
import { storage } from './storage.js';

describe('api client (public-area-and-api.md §4)', () => {
  beforeEach(() => {
    localStorage.clear();
    storage.setTokens('old-access', 'refresh-1');
    storage.setUser({
      id: 1,
      name: 'A',
      email: 'a@example.com',
      is_verified: true,
      language_preference: 'en',
      created_at: '',
      fever_api_enabled: false,
      mark_read_on: 'open',
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON with the stored bearer token and returns the parsed body', async () => {
    const calls = fakeServer({ 'POST /api/x': (body) => [200, { echo: body }] });
    await expect(api('/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ echo: { a: 1 } });
    expect(calls[0].auth).toBe('Bearer old-access');
  });

  it('turns error bodies into ApiError with status, code and message', async () => {
    fakeServer({ 'GET /api/x': () => [409, { message: 'taken', code: 'EMAIL_ALREADY_REGISTERED' }] });
    const err = await api('/api/x').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'EMAIL_ALREADY_REGISTERED', message: 'taken' });
  });

  it('reports a network failure as status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const err = (await api('/api/x').catch((e) => e)) as ApiError;
    expect(err.isNetwork).toBe(true);
  });

  it('on 401 refreshes once with the refresh token, stores the new pair and retries', async () => {
    const calls = fakeServer({
      'GET /api/x': (_body, init) =>
        (init.headers as Record<string, string>).authorization === 'Bearer new-access' ? [200, { ok: true }] : [401, { code: 'TOKEN_INVALID', message: 'x' }],
      'POST /auth/refresh': () => [200, { access_token: 'new-access', refresh_token: 'refresh-2' }],
    });
    await expect(api('/api/x')).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.key)).toEqual(['GET /api/x', 'POST /auth/refresh', 'GET /api/x']);
    expect(calls[1].auth).toBe('Bearer refresh-1');
    expect(storage.getToken()).toBe('new-access');
    expect(storage.getRefreshToken()).toBe('refresh-2');
  });

  it('shares one refresh between concurrent 401s (a rotated refresh token must not be reused)', async () => {
    let refreshes = 0;
    fakeServer({
      'GET /api/a': (_body, init) => ((init.headers as Record<string, string>).authorization === 'Bearer new' ? [200, 'a'] : [401, {}]),
      'GET /api/b': (_body, init) => ((init.headers as Record<string, string>).authorization === 'Bearer new' ? [200, 'b'] : [401, {}]),
      'POST /auth/refresh': () => {
        refreshes++;
        return [200, { access_token: 'new', refresh_token: 'r2' }];
      },
    });
    await expect(Promise.all([api('/api/a'), api('/api/b')])).resolves.toEqual(['a', 'b']);
    expect(refreshes).toBe(1);
  });

  it('clears the session and emits logout when the refresh fails', async () => {
    fakeServer({ 'GET /api/x': () => [401, {}], 'POST /auth/refresh': () => [401, { code: 'INVALID_REFRESH_TOKEN', message: 'x' }] });
    const logout = vi.fn();
    const off = on('logout', logout);
    await expect(api('/api/x')).rejects.toMatchObject({ status: 401 });
    off();
    expect(logout).toHaveBeenCalledTimes(1);
    expect(storage.getToken()).toBeNull();
    expect(storage.getUser()).toBeNull();
  });

  it('exempts /api/feeds requests from clearing and redirect', async () => {
    fakeServer({ 'GET /api/feeds': () => [401, {}], 'POST /auth/refresh': () => [401, {}] });
    const logout = vi.fn();
    const off = on('logout', logout);
    await expect(api('/api/feeds')).rejects.toMatchObject({ status: 401 });
    off();
    expect(logout).not.toHaveBeenCalled();
    expect(storage.getToken()).toBe('old-access');
  });

  it('without a refresh token a 401 ends the session without calling refresh', async () => {
    localStorage.removeItem('refresh_token');
    const calls = fakeServer({ 'GET /api/x': () => [401, {}] });
    await expect(api('/api/x')).rejects.toMatchObject({ status: 401 });
    expect(calls.map((c) => c.key)).toEqual(['GET /api/x']);
    expect(storage.getToken()).toBeNull();
  });
});

describe('api client across tabs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses a token another tab stored meanwhile instead of spending the refresh token again', async () => {
    localStorage.clear();
    storage.setTokens('old-access', 'refresh-1');
    const calls = fakeServer({
      'GET /api/x': (_body, init) => {
        const auth = (init.headers as Record<string, string>).authorization;
        if (auth === 'Bearer old-access') {
          // Another tab refreshes while this request is in flight.
          storage.setTokens('other-tab-access', 'refresh-2');
          return [401, {}];
        }
        return auth === 'Bearer other-tab-access' ? [200, { ok: true }] : [401, {}];
      },
      'POST /auth/refresh': () => [401, { code: 'INVALID_REFRESH_TOKEN', message: 'reused' }],
    });
    await expect(api('/api/x')).resolves.toEqual({ ok: true });
    expect(calls.map((c) => c.key)).toEqual(['GET /api/x', 'GET /api/x']);
    expect(storage.getRefreshToken()).toBe('refresh-2');
  });
});
