import { vi } from 'vitest';

/** One request the fake server saw: "METHOD path", the parsed JSON body, the authorization header. */
export interface Call {
  key: string;
  body: unknown;
  auth?: string;
}

export type Reply = [status: number, body?: unknown];

/** Answers one route, from the parsed JSON body (undefined without one) and the raw request. */
export type Handler = (body: unknown, init: RequestInit) => Reply;

/**
 * A handler that reads the request body as the shape the app under test sends for that route (`T`, usually the
 * route's request type from src/common/api.ts). Not validated: the point of the test is what the app sends.
 */
export function withBody<T>(handler: (body: T, init: RequestInit) => Reply): Handler {
  return (body, init) => handler(body as T, init);
}

/**
 * Stubs fetch with a fake server answering by "METHOD path" (query string included); unknown routes answer 404.
 * Returns the list of calls, in order. Undo with vi.unstubAllGlobals().
 */
export function fakeServer(routes: Record<string, Handler>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${path}`;
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ key, body, auth: (init.headers as Record<string, string> | undefined)?.authorization });
      const handler = routes[key];
      const [status, payload] = handler ? handler(body, init) : [404, { message: 'Not found.', code: 'NOT_FOUND' }];
      return new Response(payload === undefined ? '' : JSON.stringify(payload), { status });
    }),
  );
  return calls;
}
