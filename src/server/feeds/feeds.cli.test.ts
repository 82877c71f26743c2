import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { createRefreshEnv, type RefreshEnv } from '../test/refresh-env.js';
import { createTestUser } from '../test/test-app.js';
import { runFeedCommand } from './feeds.cli.js';

describe('feeder feed', () => {
  let server: TestFeedServer;
  let env: RefreshEnv;
  let email: string;
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runFeedCommand(args, env.config, env.database, (l) => lines.push(l));
    return { code, text: lines.join('\n') };
  };

  beforeAll(async () => {
    server = await startTestFeedServer();
    env = await createRefreshEnv('sqlite');
    ({ email } = await createTestUser(env.database.db));
    server.set('/feed.xml', { body: rss('CLI Feed', [item(2), item(1)]) });
    server.set('/', { body: `<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head></html>`, contentType: 'text/html' });
  });
  afterAll(async () => {
    await env.close();
    await server.close();
  });

  it('add: discovers the feed from a page, subscribes the account and fetches it', async () => {
    const { code, text } = await run('add', '--email', email.toUpperCase(), server.url('/'));
    expect(code).toBe(0);
    expect(text).toContain(`Subscribed to feed 1: CLI Feed <${server.url('/feed.xml')}>`);
    expect(text).toContain('Feed 1: 2 new, 0 updated');
    expect((await run('add', '--email', email, server.url('/feed.xml'))).text).toContain('Already subscribed to feed 1');
  });

  it('list: the account’s feeds with their refresh state', async () => {
    const { code, text } = await run('list', '--email', email);
    expect(code).toBe(0);
    expect(text).toMatch(/^1\tCLI Feed\thttp:\/\/127\.0\.0\.1:\d+\/feed\.xml\n\tarticles 2, last fetched 20\d\d-.*, ok$/);
  });

  it('refresh: reports each feed, and unknown ids fail', async () => {
    expect(await run('refresh')).toEqual({ code: 0, text: 'Feed 1: not modified' });
    expect(await run('refresh', '99')).toEqual({ code: 1, text: 'Feed 99: no such feed' });
    await expect(run('refresh', 'abc')).rejects.toThrow('Not a feed id: abc');
  });

  it('refuses unknown accounts, unreachable feeds and bad usage', async () => {
    await expect(run('add', '--email', 'nobody@example.com', server.url('/'))).rejects.toThrow('No account with the e-mail address');
    await expect(run('add', '--email', email, server.url('/missing.xml'))).rejects.toThrow('(FETCH_HTTP_ERROR)');
    expect((await run('frobnicate')).code).toBe(2);
  });
});
