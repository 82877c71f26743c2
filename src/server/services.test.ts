import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_PASSWORD_HASHING } from './accounts/passwords.js';
import { loadConfig } from './config.js';
import { openSqlite } from './db/database.js';
import { createLogger } from './log.js';
import { createServices } from './services.js';
import { RecordingMailer } from './test/recording-mailer.js';
import { createTestApp, type TestApp } from './test/test-app.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

describe('createServices (the composition root)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await t?.close();
    t = undefined;
  });

  it('hands one FeedsService to the Google Reader and public API services, and one ArticlesService to Fever and reading lists', async () => {
    const database = openSqlite(':memory:');
    const refresh = { fetcher: { fetch: vi.fn() } as never, pool: { run: vi.fn() } as never, enqueue: vi.fn(async () => {}) };
    const services = createServices({
      db: database.db,
      config: loadConfig({ SECRET: 'test-secret-0123456789abcdef', PUBLIC_URL: 'http://feeder.test' }),
      now: () => new Date(),
      log: createLogger({ logLevel: 'silent' }),
      mailer: new RecordingMailer(),
      passwordHashing: TEST_PASSWORD_HASHING,
      refresh,
    });
    const feed = services.feedServices!;
    const deps = (service: object) => (service as { deps: Record<string, unknown> }).deps;
    expect(deps(feed.greader).feeds).toBe(feed.feeds);
    expect(deps(feed.publicApi).feeds).toBe(feed.feeds);
    expect(deps(feed.publicApi).articles).toBe(services.articles);
    expect(deps(services.readingLists).articles).toBe(services.articles);
    expect((services.fever as unknown as { articles: unknown }).articles).toBe(services.articles);
    expect(deps(feed.greader).auth).toBe(feed.greaderAuth);
    await database.destroy();
  });

  it('without a refresh engine builds no feed services', () => {
    const database = openSqlite(':memory:');
    const services = createServices({
      db: database.db,
      config: loadConfig({ SECRET: 'test-secret-0123456789abcdef' }),
      now: () => new Date(),
      log: createLogger({ logLevel: 'silent' }),
      mailer: new RecordingMailer(),
    });
    expect(services.feedServices).toBeUndefined();
    void database.destroy();
  });

  it('the web routes and the Fever API call the same ArticlesService instance', async () => {
    t = await createTestApp();
    const setState = vi.spyOn(t.services.articles, 'setState').mockResolvedValue({ id: 42, is_read: true, is_favorite: false });
    const { access_token, email } = await t.signUp();
    const web = await t.app.inject({ method: 'POST', url: '/api/articles/42/read', headers: t.bearer(access_token) });
    expect(web.statusCode).toBe(200);
    const { password } = (await t.app.inject({ method: 'PUT', url: '/api/user/fever-api', headers: t.bearer(access_token), payload: { enabled: true } })).json();
    const fever = await t.app.inject({
      method: 'POST',
      url: '/api/fever.php?api',
      payload: new URLSearchParams({ api_key: md5(`${email}:${password}`), mark: 'item', as: 'saved', id: '43' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(fever.json()).toMatchObject({ auth: 1 });
    expect(setState.mock.calls.map((c) => [c[1], c[2]])).toEqual([
      [42, 'read'],
      [43, 'favorite'],
    ]);
  });
});
