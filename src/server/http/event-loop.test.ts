import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractContentResponse } from '../../common/api.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../test/feed-server.js';
import { ROOT, startBuiltServer, type BuiltServer } from '../test/built-server.js';
import { freePort } from '../test/wait.js';

/**
 * The built server (`node bin/feeder.js all`, as `npm start` runs it, after `npm run build`) keeps answering while
 * requests make it read the worst input it allows: article pages nested 2,000 deep or as deep and large as the
 * extraction caps let through, and a 1.1 MB feed whose one item is nested 100,000 deep, found by the add-feed search
 * and subscribed to (so the refresh parses and sanitises it too). Untrusted parsing runs on the worker pool
 * (docs/decisions.md "Worker pool"), so a concurrent GET /healthz is never delayed by more than 200 ms. This is the
 * one test here that asserts time: the limit is the requirement itself.
 */
const MAX_HEALTH_LATENCY_MS = 200;
const PASSWORD = 'correct horse battery staple';

const para = (n: number) => `<p>Paragraph ${n}: ${'readable words of an article, '.repeat(8)}</p>`;
/** 22 KB of 2,000 nested <div>s: Readability alone took 26 s on it before extraction had caps. */
const DEEP_PAGE = `<html><body>${'<div>'.repeat(2000)}${para(1)}${'</div>'.repeat(2000)}</body></html>`;
/** As deep and as large as the caps allow (147 + html, body < 150 deep; under 50,000 elements): seconds of work. */
const WORST_ALLOWED_PAGE = `<html><body>${Array.from({ length: 330 }, (_, i) => `${'<div>'.repeat(147)}${para(i)}${'</div>'.repeat(147)}`).join('')}</body></html>`;
/** A valid feed (2.3 MB, the HTML entity-escaped as RSS descriptions usually are) whose one item's content is nested 100,000 elements deep. */
const DEEP_FEED = rss('Deep feed', [item(1, { description: `${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}` })]);

describe.sequential('the built server under the worst allowed input', () => {
  let dataDir: string;
  let server: BuiltServer | null = null;
  let pages: TestFeedServer;
  let baseUrl: string;
  let token: string;

  const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

  beforeAll(async () => {
    pages = await startTestFeedServer();

    dataDir = mkdtempSync(join(tmpdir(), 'feeder-event-loop-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env = {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      ALLOW_PRIVATE_FEED_HOSTS: 'true',
      LOG_LEVEL: 'warn',
    };
    const email = 'loop@example.com';
    const created = spawnSync(process.execPath, ['bin/feeder.js', 'user', 'create', '--email', email, '--password', PASSWORD, '--name', 'Loop', '--verified'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    if (created.status !== 0) throw new Error(`user create failed: ${created.stderr}${created.stdout}`);
    server = await startBuiltServer(env, baseUrl);
    const login = await fetch(`${baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    token = ((await login.json()) as { access_token: string }).access_token;
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await pages?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // Each attempt reads fresh URLs: extraction outcomes are cached per article and a feed is subscribed once. The
  // retries are for a machine busy with other work (the test suite runs files in parallel on two cores), where one
  // round trip can take longer than 200 ms without Feeder's event loop being blocked at all; a blocked loop (26 s
  // before the worker pool) fails every attempt.
  let attempt = 0;
  it('answers /healthz within 200 ms while extracting the deepest pages and reading a 100,000-deep feed', { retry: 2, timeout: 30_000 }, async () => {
    const n = ++attempt;
    const path = (name: string) => `/${n}/${name}`;
    pages.set(path('deep.html'), { body: DEEP_PAGE, contentType: 'text/html; charset=utf-8' });
    pages.set(path('worst.html'), { body: WORST_ALLOWED_PAGE, contentType: 'text/html; charset=utf-8' });
    pages.set(path('deep.xml'), { body: DEEP_FEED });
    pages.set(path('site.xml'), {
      body: rss('Site', [item(2, { link: pages.url(path('deep.html')) }), item(1, { link: pages.url(path('worst.html')) })]),
    });
    // The articles to extract: a plain feed whose items link to the hostile pages, refreshed by the server.
    expect((await api('POST', '/api/feeds', { url: pages.url(path('site.xml')) })).status).toBe(201);
    let articles: Array<{ id: number; url: string | null }> = [];
    const urls = [pages.url(path('deep.html')), pages.url(path('worst.html'))];
    for (const deadline = Date.now() + 10_000; articles.filter((a) => urls.includes(a.url ?? '')).length < 2 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
      articles = (await api<{ articles: typeof articles }>('GET', '/api/articles')).body.articles ?? [];
    }
    const idOf = (name: string) => articles.find((a) => a.url === pages.url(path(name)))!.id;

    const latencies: number[] = [];
    let busy = true;
    const poll = (async () => {
      while (busy) {
        const started = performance.now();
        const res = await fetch(`${baseUrl}/healthz`);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    const work = Promise.all([
      api<ExtractContentResponse>('POST', '/api/extract-article-content', { articleId: idOf('deep.html') }),
      api<ExtractContentResponse>('POST', '/api/extract-article-content', { articleId: idOf('worst.html') }),
      api<{ feeds: Array<{ url: string }> }>('POST', '/api/feeds/search', { url: pages.url(path('deep.xml')) }),
      api<{ id: number }>('POST', '/api/feeds', { url: pages.url(path('deep.xml')) }),
    ]);
    let results: Awaited<typeof work> = [] as never;
    const lists: Array<{ status: number; body: { articles: Array<{ title: string; summary: string }> } }> = [];
    try {
      results = await work;
      // The subscribed feed's refresh (parse and sanitise of the 100,000-deep item) runs after the answer.
      const deadline = Date.now() + 8_000;
      while (Date.now() < deadline && pages.hits(path('deep.xml')) < 2) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1_500));
      // Then every list that shows the stored 1.1 MB item, and search over it, several times over: a list request
      // reads the teaser stored with the article, never the item's HTML (docs/decisions.md "Parsing: teasers").
      for (let i = 0; i < 5; i++) {
        lists.push(await api<{ articles: Array<{ title: string; summary: string }> }>('GET', `/api/feeds/${results[3].body.id}/articles`));
        lists.push(await api<{ articles: Array<{ title: string; summary: string }> }>('GET', '/api/articles/search?q=deep'));
      }
    } finally {
      busy = false;
      await poll;
    }
    const [deep, worst, search, subscribe] = results;

    expect(deep.status).toBe(200);
    expect(deep.body).toMatchObject({ warning: 'EXTRACT_TOO_COMPLEX' });
    expect(worst.status).toBe(200);
    expect([null, 'EXTRACT_TOO_COMPLEX']).toContain(worst.body.warning);
    expect(search.status).toBe(200);
    expect(search.body.feeds.map((f) => f.url)).toEqual([pages.url(path('deep.xml'))]);
    expect(subscribe.status).toBe(201);
    expect(pages.hits(path('deep.xml'))).toBeGreaterThanOrEqual(2);
    for (const list of lists) {
      expect(list.status).toBe(200);
      expect(list.body.articles.map((a) => a.summary)).toContain('deep');
    }

    expect(latencies.length).toBeGreaterThan(20);
    expect(Math.max(...latencies)).toBeLessThan(MAX_HEALTH_LATENCY_MS);
  });
});
