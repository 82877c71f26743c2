import { expect } from 'vitest';
import { ensureFeed } from '../feeds/feeds.repository.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import { rss, startTestFeedServer, type TestFeedServer, type TestItem } from './feed-server.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/**
 * The set-up most HTTP tests over feeds share: a test app with a local feed server, a signed-in user with calls
 * through the web API, and feeds that user is subscribed to — fetched from the feed server by the refresh engine,
 * or only subscribed (no fetch) where the articles do not matter.
 *
 *   beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
 *   afterAll(() => closeTestAppWithFeeds(t, server));
 *   const u = await signedInUser(t);
 *   const feed = await subscribeFetched(t, server, u.id, 'News', [item(1), item(2)]);
 */
export async function createTestAppWithFeeds(options: TestAppOptions = {}): Promise<{ t: TestApp; server: TestFeedServer }> {
  const t = await createTestApp(options);
  const server = await startTestFeedServer();
  return { t, server };
}

export async function closeTestAppWithFeeds(t: TestApp | undefined, server: TestFeedServer | undefined): Promise<void> {
  await server?.close();
  await t?.close();
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A verified user signed in through /auth/login, with calls to the web API under its access token. */
export async function signedInUser(t: TestApp) {
  const { access_token, email, password, user } = await t.signUp();
  const headers = t.bearer(access_token);
  const call = (method: Method, url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    id: user.id,
    user,
    email,
    password,
    /** The bearer header; renew() changes it in place. */
    headers,
    call,
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload),
    put: (url: string, payload?: unknown) => call('PUT', url, payload),
    del: (url: string) => call('DELETE', url),
    /** Signs in again: a new access token after the test clock moved past the old one's 15 minutes. */
    async renew() {
      Object.assign(headers, t.bearer((await t.login(email, password)).access_token));
    },
  };
}
export type SignedInUser = Awaited<ReturnType<typeof signedInUser>>;

/** Subscribes the user to the feed at `url` through the repository (as subscribing does after discovery), no fetch. */
export async function subscribeTo(t: TestApp, userId: number, url: string): Promise<number> {
  const now = t.clock.now().toISOString();
  const { feed } = await ensureFeed(t.database.db, url, now);
  await subscribe(t.database.db, userId, feed.id, now);
  return feed.id;
}

let served = 0;

/**
 * Serves a feed with these items at a new path of the feed server, subscribes the user to it and fetches it with
 * the refresh engine (the fetch must succeed). The path is for refetch().
 */
export async function subscribeFetched(t: TestApp, server: TestFeedServer, userId: number, title: string, items: TestItem[]): Promise<{ id: number; path: string }> {
  const path = `/feed-${++served}.xml`;
  server.set(path, { body: rss(title, items) });
  const id = await subscribeTo(t, userId, server.url(path));
  expect((await t.refresh.refreshFeed(id)).status).toBe('ok');
  return { id, path };
}

/** Serves new items at a fetched feed's path and fetches it again (the fetch must succeed). */
export async function refetch(t: TestApp, server: TestFeedServer, feed: { id: number; path: string }, title: string, items: TestItem[]): Promise<void> {
  server.set(feed.path, { body: rss(title, items) });
  expect((await t.refresh.refreshFeed(feed.id)).status).toBe('ok');
}
