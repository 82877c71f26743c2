import type { RefreshResponse } from '../../common/api.js';
import { emit } from './events.js';
import { storage } from './storage.js';

/**
 * The one HTTP client of the web app (public-area-and-api.md §4 and §7):
 * - JSON in and out, the stored access token as bearer header;
 * - a 401 triggers one token refresh (POST /auth/refresh with the refresh token as bearer) and one retry;
 *   concurrent 401s share that single refresh, because refresh tokens rotate and a reused one revokes the session;
 * - when refresh fails or no refresh token exists, stored auth is cleared and the logout event sends the user
 *   to / — except for requests whose URL contains /api/feeds, which are exempt from clearing and redirect.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** No HTTP answer at all (network down, server gone). */
  get isNetwork() {
    return this.status === 0;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  /** Override the bearer token (refresh uses the refresh token). */
  token?: string | null;
  /** Skip the refresh-and-retry logic (auth calls themselves). */
  noRefresh?: boolean;
  signal?: AbortSignal;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK_ERROR', 'No response from the server.');
  }
}

async function parse<T>(res: Response): Promise<T> {
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const obj = (data && typeof data === 'object' ? data : {}) as { message?: string; code?: string };
    throw new ApiError(res.status, obj.code, obj.message ?? `HTTP ${res.status}`, data);
  }
  return data as T;
}

let refreshing: Promise<string | null> | null = null;

/**
 * Exchanges the stored refresh token for a new pair; resolves null when that is not possible.
 * `failedToken` is the access token that just got a 401: when storage already holds a different one, another
 * tab (or an earlier call) refreshed in the meantime and that token is used instead of spending the refresh
 * token twice. Tabs serialise their refreshes with the Web Locks API where the browser has it.
 */
export function refreshAccessToken(failedToken?: string | null): Promise<string | null> {
  if (refreshing) return refreshing;
  const run = async (): Promise<string | null> => {
    const current = storage.getToken();
    if (failedToken !== undefined && current && current !== failedToken) return current;
    const refreshToken = storage.getRefreshToken();
    if (!refreshToken) return null;
    try {
      const res = await send('/auth/refresh', { method: 'POST' }, refreshToken);
      const data = await parse<RefreshResponse>(res);
      if (!data?.access_token) return null;
      storage.setTokens(data.access_token, data.refresh_token);
      return data.access_token;
    } catch (err) {
      console.warn('Token refresh failed:', err instanceof Error ? err.message : err);
      return null;
    }
  };
  const locks = globalThis.navigator?.locks;
  const pending: Promise<string | null> = (locks ? (locks.request('feeder-token-refresh', run) as unknown as Promise<string | null>) : run()).finally(() => {
    refreshing = null;
  });
  refreshing = pending;
  return pending;
}

/** Clears stored auth and tells the app (the router then goes to /). */
export function endSession(): void {
  storage.clearAuth();
  emit('logout');
}

export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = options.token !== undefined ? options.token : storage.getToken();
  let res = await send(path, options, token);
  if (res.status === 401 && !options.noRefresh) {
    const fresh = await refreshAccessToken(token);
    if (fresh) {
      res = await send(path, options, fresh);
    } else if (!path.includes('/api/feeds')) {
      endSession();
    }
  }
  return parse<T>(res);
}
