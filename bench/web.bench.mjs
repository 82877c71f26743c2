// The web app at scale (bench/README.md "Budgets", "Web at scale"): for 10, 2,000 and 12,000 feeds, the production
// build (`feeder all`) is seeded through the real import path and driven with Debian Chromium (playwright-core).
//
// Seeding: a local feed server serves every feed (each on its own loopback host, 127.0.x.y, as real feeds are on
// distinct hosts), an OPML file with folders is uploaded to POST /api/feeds/import/opml as the web app does, and the
// running `feeder all` refreshes every feed, so the articles are the refresh engine's own (ITEMS per feed). Two
// reading lists are made through the API (a plain one and a smart one). Nothing is written to the database directly.
//
// Measured per size:
// - api-<dialect>: the calls the dashboard makes at start (auth/me, feeds, folders, reading lists and their unread counts, unread counts,
//   the first article page, one feed's first page), one at a time from Node: p50/p95 ms and bytes.
// - web: reload → first article card in the DOM (cold: the browser cache disabled; warm: cached), first paint,
//   DOM node count, JS heap (after a forced GC, via CDP); after a click on mark read / a sidebar feed / a folder:
//   the feedback delay (from the pointer event's time stamp to the frame after the first DOM change it caused)
//   and the longest main-thread task (PerformanceObserver 'longtask') in the 1.5 s after it; for a feed switch
//   also the time until that feed's articles are listed.
// - web-hour: an hour of use compressed: BENCH_WEB_STEPS interactions (switch feed, mark read, fold and unfold a
//   folder, back to all articles) with the JS heap after a forced GC every 50 steps.
//
// Environment: BENCH_WEB_SIZES (default 10,2000,12000), BENCH_WEB_ITEMS (articles per feed, default 10),
// BENCH_WEB_REPEATS (reloads per kind, default 3), BENCH_WEB_STEPS (default 300), BENCH_WEB_HOUR_SIZES (sizes that
// get the hour of use, default 2000), FEEDER_DIST (the checkout whose bin/ and built dist/ are measured, default this
// one; a comma-separated list measures each on the same seeded data back to back, the first one seeding, e.g.
// FEEDER_DIST=../base,. for a before/after), BENCH_WEB_POSTGRES=1 (also seed PostgreSQL and time the API there; the browser runs
// against SQLite), BENCH_POSTGRES_URL, BENCH_WEB_SCREENSHOTS (a directory for screenshots of the start),
// BENCH_WEB_API_ONLY=1 (no browser), BENCH_WEB_KEEP=1 (keep the seeded SQLite directory and PostgreSQL schema, for
// EXPLAIN and profiling afterwards; their places are printed), BENCH_WEB_DATA_DIR (serve such a kept SQLite directory
// again instead of seeding; give BENCH_WEB_SIZES its one size), BENCH_WEB_PG_URL (the same for a kept PostgreSQL schema: the
// database_url a BENCH_WEB_KEEP run printed).
/* global window, document, requestAnimationFrame, addEventListener, MutationObserver -- the functions given to page.evaluate run in the browser */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { loopbackHost, startFeedServer } from './lib/feed-server.mjs';
import { waitUp } from './lib/http.mjs';

const SIZES = (process.env.BENCH_WEB_SIZES || '10,2000,12000').split(',').map(Number);
const ITEMS = Number(process.env.BENCH_WEB_ITEMS || 10);
const REPEATS = Number(process.env.BENCH_WEB_REPEATS || 3);
const STEPS = Number(process.env.BENCH_WEB_STEPS || 300);
const HOUR_SIZES = new Set((process.env.BENCH_WEB_HOUR_SIZES ?? '2000').split(',').filter(Boolean).map(Number));
const SHOTS = process.env.BENCH_WEB_SCREENSHOTS || '';
const KEEP = Boolean(process.env.BENCH_WEB_KEEP);
const REUSE = process.env.BENCH_WEB_DATA_DIR || '';
const REUSE_PG = process.env.BENCH_WEB_PG_URL || '';
const BROWSER = !process.env.BENCH_WEB_API_ONLY;
const PG_URL = process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** The builds measured, each on the same seeded data, back to back: FEEDER_DIST is one checkout or a comma-separated list. */
const roots = (process.env.FEEDER_DIST || fileURLToPath(new URL('..', import.meta.url))).split(',').map((r) => `${resolve(r.trim())}/`);
const binOf = (root) => new URL('bin/feeder.js', pathToFileURL(root)).pathname;
const bin = binOf(roots[0]);
const dist = new URL('dist/server/', pathToFileURL(roots[0]));
/** A short name for a build in the output: its directory's name. */
const buildName = (root) => root.replace(/\/$/, '').split('/').pop();
const EMAIL = 'bench@example.com';
const PASSWORD = 'bench-password';
/** Feeds per folder in the OPML file; a fifth of the feeds stay at the root. */
const PER_FOLDER = 50;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1) : null;
};
const median = (xs) => pct(xs, 50);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line) => console.log(JSON.stringify(line));

function opmlFor(n, port) {
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const outline = (i) => `<outline type="rss" text="${esc(`Bench feed ${i}`)}" xmlUrl="http://${loopbackHost(i, port)}/feed/${i}.xml"/>`;
  const rootCount = Math.max(2, Math.round(n / 5));
  const body = [];
  for (let i = 0; i < Math.min(rootCount, n); i++) body.push(outline(i));
  const perFolder = Math.min(PER_FOLDER, Math.ceil(n / 4));
  for (let start = rootCount, f = 0; start < n; start += perFolder, f++) {
    const end = Math.min(n, start + perFolder);
    const inner = [];
    for (let i = start; i < end; i++) inner.push(outline(i));
    body.push(`<outline text="Folder ${f + 1}">${inner.join('')}</outline>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>bench</title></head><body>${body.join('\n')}</body></opml>`;
}

async function postgresUrl(schema) {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`create schema ${schema}`);
    return `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function dropSchema(schema) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

async function api(base, headers, path, init = {}) {
  const res = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** A migrated database with the bench user, `feeder all` running on it, the feeds imported and refreshed. */
async function seededServer(n, dialect, feedServer) {
  // A directory seeded by an earlier run (BENCH_WEB_KEEP) is served again as it is.
  const reuse = dialect === 'sqlite' ? REUSE : REUSE_PG;
  const dataDir = (dialect === 'sqlite' && reuse) || mkdtempSync(join(tmpdir(), 'feeder-bench-web-'));
  const port = 4100 + Math.floor(Math.random() * 800);
  const schema = `bench_web_${n}_${process.pid}`;
  const databaseUrl = dialect === 'postgres' ? REUSE_PG || (await postgresUrl(schema)) : null;
  if (dialect === 'postgres' && !databaseUrl) return null;
  const env = {
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'error',
    ALLOW_PRIVATE_FEED_HOSTS: 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const { loadConfig } = await import(new URL('config.js', dist));
  const { openDatabase, migrateToLatest } = await import(new URL('db/database.js', dist));
  const database = openDatabase(loadConfig(env));
  await migrateToLatest(database.db);
  const created = reuse
    ? { status: 0 }
    : spawnSync(process.execPath, [bin, 'user', 'create', '--email', EMAIL, '--password', PASSWORD, '--name', 'Bench', '--verified'], {
        env,
        encoding: 'utf8',
      });
  if (created.status !== 0) throw new Error(created.stderr);

  let child = spawn(process.execPath, [bin, 'all'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = env.PUBLIC_URL;
  const halt = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  };
  /** The same data served by another build's `feeder all`. */
  const restart = async (root) => {
    await halt();
    child = spawn(process.execPath, [binOf(root), 'all'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    await waitUp(base);
  };
  const stop = async () => {
    await halt();
    await database.destroy();
    if (KEEP || reuse) {
      log({ kept: dialect, feeds: n, data_dir: dataDir, database_url: databaseUrl });
      return;
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await dropSchema(schema);
  };
  try {
    await waitUp(base);
    const login = await api(base, { 'content-type': 'application/json' }, '/auth/login', { method: 'POST', body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    const headers = { authorization: `Bearer ${login.access_token}` };
    // The interface in English, whatever the server's default language (the bench finds buttons by their names).
    await api(base, { ...headers, 'content-type': 'application/json' }, '/api/users/update-language', { method: 'POST', body: JSON.stringify({ language: 'en' }) });
    login.user.language_preference = 'en';
    const t0 = performance.now();
    const form = new FormData();
    form.append('opml_file', new Blob([opmlFor(n, feedServer.port)], { type: 'text/x-opml' }), 'bench.opml');
    const imported = reuse ? { imported_count: 0, folders_created: 0 } : await api(base, headers, '/api/feeds/import/opml', { method: 'POST', body: form });
    const importSeconds = (performance.now() - t0) / 1000;
    // The refresh engine fetches every imported feed; wait until each has been stored once.
    for (;;) {
      const row = await database.db
        .selectFrom('feeds')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('last_success_at', 'is not', null)
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= n) break;
      if (child.exitCode !== null) throw new Error(`feeder exited with ${child.exitCode}`);
      await sleep(250);
    }
    const refreshSeconds = (performance.now() - t0) / 1000 - importSeconds;
    // A long refresh outlives the access token: sign in again for what follows.
    Object.assign(
      login,
      await api(base, { 'content-type': 'application/json' }, '/auth/login', { method: 'POST', body: JSON.stringify({ email: EMAIL, password: PASSWORD }) }),
    );
    login.user.language_preference = 'en';
    headers.authorization = `Bearer ${login.access_token}`;
    // PostgreSQL's autovacuum analyses a bulk load within a minute or so; the bench does not wait for it.
    if (databaseUrl) await sql`analyze`.execute(database.db);
    const lists = reuse ? (await api(base, headers, '/api/reading-lists')).reading_lists : [];
    if (lists.length === 0)
      await api(base, { ...headers, 'content-type': 'application/json' }, '/api/reading-lists', { method: 'POST', body: JSON.stringify({ name: 'Later' }) });
    if (lists.length === 0)
      await api(base, { ...headers, 'content-type': 'application/json' }, '/api/reading-lists', {
        method: 'POST',
        body: JSON.stringify({
          name: 'Servers',
          is_smart: true,
          rules: [{ rule_type: 'keyword', rule_scope: 'title', rule_value: 'server', include_all_feeds: true, selected_feeds: [] }],
        }),
      });
    const articles = await database.db
      .selectFrom('articles')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    log({
      bench: `web-seed-${dialect}`,
      feeds: n,
      imported: imported.imported_count,
      folders: imported.folders_created,
      articles: Number(articles.n),
      import_s: +importSeconds.toFixed(1),
      refresh_s: +refreshSeconds.toFixed(1),
    });
    return { base, login, headers, stop, restart };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The start calls one at a time: p50/p95 of each. The dashboard starts with the feed summaries; the full feed list
 * (feed management, external clients) is timed beside them, and the summaries again as the browser revalidates
 * them (If-None-Match with the tag it holds: a 304). The server keeps a user's summaries while their feed list is
 * unchanged, so `feed-summaries` is the answer served again; `feed-summaries-changed` renames a feed before each
 * call (untimed), so the database writes the list anew every time.
 */
async function timeApi(n, dialect, base, headers, build) {
  const feeds = await api(base, headers, '/api/feeds');
  const feedId = feeds[Math.floor(feeds.length / 2)].id;
  // A build from before the summaries (FEEDER_DIST=…,.) answers them with a 404: left out for it.
  const summaries = await fetch(`${base}/api/feeds/summaries`, { headers });
  const etag = summaries.ok ? summaries.headers.get('etag') : null;
  await summaries.arrayBuffer();
  const calls = {
    'auth-me': '/auth/me',
    ...(etag
      ? {
          'feed-summaries': '/api/feeds/summaries',
          'feed-summaries-304': ['/api/feeds/summaries', { 'if-none-match': etag }],
          'feed-summaries-changed': ['/api/feeds/summaries', {}, (i) => rename(base, headers, feedId, `Bench ${i}`)],
        }
      : {}),
    'feeds-full': '/api/feeds',
    folders: '/api/folders',
    'reading-lists': '/api/reading-lists',
    'reading-list-unread-counts': '/api/reading-lists/unread_counts',
    'unread-counts': '/api/feeds/unread_counts',
    'articles-page1': '/api/articles?page=1&per_page=20&show_read=false',
    'feed-page1': `/api/feeds/${feedId}/articles?page=1&per_page=20&show_read=false`,
  };
  const rounds = Number(process.env.BENCH_WEB_API_ROUNDS || 30);
  const out = { bench: `web-api-${dialect}`, build, size: n };
  for (const [name, call] of Object.entries(calls)) {
    const [path, extra, before] = Array.isArray(call) ? call : [call, {}];
    const times = [];
    let bytes = 0;
    for (let i = 0; i < rounds + 3; i++) {
      await before?.(i);
      const t = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { ...headers, ...extra } });
      const body = await res.arrayBuffer();
      if (!res.ok && res.status !== 304) throw new Error(`${path}: HTTP ${res.status}`);
      if (i >= 3) times.push(performance.now() - t);
      bytes = body.byteLength;
    }
    out[name] = { p50: median(times), p95: pct(times, 95), kb: +(bytes / 1024).toFixed(1) };
  }
  if (etag) await rename(base, headers, feedId, null);
  log(out);
}

/** Sets (or with null clears) the custom title of one of the bench user's feeds. */
async function rename(base, headers, feedId, title) {
  const body = JSON.stringify({ feed_id: feedId, custom_title: title });
  await api(base, { ...headers, 'content-type': 'application/json' }, '/api/feeds/set_custom_title', { method: 'POST', body });
}

/** Instrumentation in every document: long tasks, the first article card, and the feedback of the next input. */
function instrument() {
  const b = (window.__bench = { longtasks: [], firstArticle: null, firstArticleFrame: null, pending: null });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long-task timing in this browser
  }
  const seen = new MutationObserver(() => {
    if (b.firstArticle === null && document.querySelector('article[data-article-id]')) {
      b.firstArticle = performance.now();
      requestAnimationFrame(() => setTimeout(() => (b.firstArticleFrame = performance.now()), 0));
    }
    const p = b.pending;
    if (p && p.input !== null && p.changed === null) {
      p.changed = performance.now();
      requestAnimationFrame(() => setTimeout(() => (p.frame = performance.now()), 0));
    }
  });
  seen.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  addEventListener(
    'pointerdown',
    (e) => {
      if (b.pending && b.pending.input === null) b.pending.input = e.timeStamp;
    },
    true,
  );
}

async function cdpHeap(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return +(usedSize / 1024 / 1024).toFixed(1);
}

const domNodes = (page) => page.evaluate(() => document.getElementsByTagName('*').length);

/** One reload: ms from navigation start to the first article card, and to the frame after it. */
async function reload(page) {
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => window.__bench?.firstArticleFrame != null, null, { timeout: 180_000, polling: 50 });
  return page.evaluate(() => ({
    first_article_ms: Math.round(window.__bench.firstArticle),
    frame_ms: Math.round(window.__bench.firstArticleFrame),
    fcp_ms: Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1),
  }));
}

/** Clicks `locator` as a user would and measures the feedback and the longest task after it. */
async function click(page, locator, { settle = 1500, after } = {}) {
  await locator.scrollIntoViewIfNeeded();
  await page.evaluate(() => {
    window.__bench.pending = { input: null, changed: null, frame: null };
  });
  await locator.click({ timeout: 120_000 });
  await page.waitForFunction(() => window.__bench.pending?.frame != null, null, { timeout: 120_000, polling: 20 });
  const extra = after ? await after() : {};
  await sleep(settle);
  const r = await page.evaluate(() => {
    const p = window.__bench.pending;
    const tasks = window.__bench.longtasks.filter(([start, d]) => start + d >= p.input).map(([, d]) => d);
    return { feedback_ms: Math.round(p.frame - p.input), longest_task_ms: Math.round(Math.max(0, ...tasks)) };
  });
  return { ...r, ...extra };
}

/** A sidebar feed row: by data-feed-id when the sidebar has it, else the feed link by its ?feed= address. */
async function feedRow(page, k) {
  // Never the open feed: clicking it changes nothing, so there would be no feedback to time.
  const byId = page.locator('[data-feed-id] a[href*="feed="]:not([aria-current])');
  const rows = (await byId.count()) ? byId : page.locator('aside a[href*="feed="]:not([aria-current])');
  const count = await rows.count();
  return rows.nth(k % Math.max(1, Math.min(count, 20)));
}

async function folderToggle(page) {
  const byId = page.locator('[data-folder-id] button[aria-expanded]');
  return (await byId.count()) ? byId.first() : page.locator('aside button[aria-expanded]').first();
}

const markReadButton = (page) =>
  page
    .locator('article[data-article-id]')
    .first()
    .getByRole('button', { name: /^(Mark as read|Mark as unread)$/ });

async function allArticles(page) {
  return page.getByRole('link', { name: /^All articles/ }).first();
}

/** Waits (in the page) until the list shows articles again after a view change; ms since the input. */
async function articlesListed(page) {
  const t = await page.evaluate(
    () =>
      new Promise((resolve) => {
        // Listed: no placeholder left, and cards (or the list's empty state: nothing busy) on screen; at most 60 s.
        const done = () => !document.querySelector('[data-testid="article-skeleton"], [aria-busy="true"]');
        const started = performance.now();
        const check = () => (done() || performance.now() - started > 60_000 ? resolve(performance.now()) : requestAnimationFrame(check));
        check();
      }),
  );
  const input = await page.evaluate(() => window.__bench.pending.input);
  return { articles_ms: Math.round(t - input) };
}

async function browserRun(n, server, browser, build) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto(`${server.base}/favicon.svg`);
  await page.evaluate(
    ({ login }) => {
      localStorage.setItem('token', login.access_token);
      localStorage.setItem('refresh_token', login.refresh_token);
      localStorage.setItem('user', JSON.stringify(login.user));
      localStorage.setItem('language', 'en');
      localStorage.setItem('cookiesAccepted', 'true');
    },
    { login: server.login },
  );
  await page.goto(`${server.base}/dashboard`);
  await page.waitForFunction(() => window.__bench?.firstArticleFrame != null, null, { timeout: 180_000 });
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `dashboard-${n}-${build}.png`) });
    // What a slow start looks like: the dashboard's code and data held back for two seconds.
    const hold = (route) => sleep(2000).then(() => route.continue());
    await page.route(/\/assets\/dashboard-|\/api\//, hold);
    await page.reload({ waitUntil: 'commit' });
    await sleep(1200);
    await page.screenshot({ path: join(SHOTS, `start-${n}-${build}.png`) });
    await page.waitForFunction(() => window.__bench?.firstArticle != null, null, { timeout: 180_000 });
    await sleep(300);
    await page.screenshot({ path: join(SHOTS, `start-${n}-${build}-articles.png`) });
    // The same start on a phone in the dark theme.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload({ waitUntil: 'commit' });
    await sleep(1200);
    await page.screenshot({ path: join(SHOTS, `start-${n}-${build}-phone-dark.png`) });
    await page.waitForFunction(() => window.__bench?.firstArticle != null, null, { timeout: 180_000 });
    await page.unroute(/\/assets\/dashboard-|\/api\//, hold);
    await page.evaluate(() => localStorage.removeItem('theme'));
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.reload();
    await page.waitForFunction(() => window.__bench?.firstArticleFrame != null, null, { timeout: 180_000 });
  }

  const cold = [];
  const warm = [];
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  for (let i = 0; i < REPEATS; i++) cold.push(await reload(page));
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  for (let i = 0; i < REPEATS; i++) warm.push(await reload(page));
  await sleep(1000);
  const nodes = await domNodes(page);
  const heap = await cdpHeap(cdp);
  const longestStart = await page.evaluate(() => Math.round(Math.max(0, ...window.__bench.longtasks.map(([, d]) => d))));
  log({
    bench: 'web-start',
    build,
    feeds: n,
    reload_cold_ms: median(cold.map((r) => r.frame_ms)),
    reload_cold_runs: cold.map((r) => r.frame_ms),
    reload_warm_ms: median(warm.map((r) => r.frame_ms)),
    reload_warm_runs: warm.map((r) => r.frame_ms),
    first_paint_ms: median(warm.map((r) => r.fcp_ms)),
    longest_task_at_start_ms: longestStart,
    dom_nodes: nodes,
    js_heap_mb: heap,
  });

  // Interactions, each three times: the median feedback and the worst long task.
  const results = { mark_read: [], switch_feed: [], open_folder: [], close_folder: [] };
  for (let k = 0; k < 3; k++) {
    results.mark_read.push(await click(page, markReadButton(page)));
    results.switch_feed.push(await click(page, await feedRow(page, k * 3 + 1), { after: () => articlesListed(page) }));
    await click(page, await allArticles(page), { after: () => articlesListed(page) });
    const toggle = await folderToggle(page);
    const expanded = (await toggle.getAttribute('aria-expanded')) === 'true';
    results[expanded ? 'close_folder' : 'open_folder'].push(await click(page, toggle));
    results[expanded ? 'open_folder' : 'close_folder'].push(await click(page, toggle));
  }
  const summary = { bench: 'web-click', build, feeds: n };
  for (const [name, rs] of Object.entries(results)) {
    summary[name] = {
      feedback_ms: median(rs.map((r) => r.feedback_ms)),
      longest_task_ms: Math.max(...rs.map((r) => r.longest_task_ms)),
      ...(rs[0]?.articles_ms !== undefined ? { articles_ms: median(rs.map((r) => r.articles_ms)) } : {}),
    };
  }
  summary.dom_nodes_after = await domNodes(page);
  log(summary);

  if (HOUR_SIZES.has(n) && STEPS > 0) {
    const heaps = [await cdpHeap(cdp)];
    const nodesSeries = [await domNodes(page)];
    const t0 = performance.now();
    const feedback = [];
    let longest = 0;
    for (let s = 0; s < STEPS; s++) {
      const kind = s % 5;
      let r;
      if (kind === 0) r = await click(page, await feedRow(page, s), { settle: 100, after: () => articlesListed(page) });
      else if (kind === 1) {
        // A small feed can run out of unread articles over the hour: then there is nothing to mark.
        if ((await markReadButton(page).count()) === 0) continue;
        r = await click(page, markReadButton(page), { settle: 100 });
      } else if (kind === 2 || kind === 3) r = await click(page, await folderToggle(page), { settle: 100 });
      else r = await click(page, await allArticles(page), { settle: 100, after: () => articlesListed(page) });
      feedback.push(r.feedback_ms);
      longest = Math.max(longest, r.longest_task_ms);
      if ((s + 1) % 50 === 0) {
        heaps.push(await cdpHeap(cdp));
        nodesSeries.push(await domNodes(page));
      }
    }
    log({
      bench: 'web-hour',
      build,
      feeds: n,
      steps: STEPS,
      seconds: Math.round((performance.now() - t0) / 1000),
      js_heap_mb_every_50: heaps,
      dom_nodes_every_50: nodesSeries,
      feedback_p50_ms: median(feedback),
      feedback_p95_ms: pct(feedback, 95),
      longest_task_ms: longest,
    });
  }
  await context.close();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--enable-precise-memory-info',
  ],
});
let failed = false;
try {
  for (const n of SIZES) {
    const feedServer = await startFeedServer({ feeds: n, items: ITEMS, format: 'mixed', host: '0.0.0.0', site: (i, port) => `http://${loopbackHost(i, port)}` });
    try {
      const server = await seededServer(n, 'sqlite', feedServer);
      try {
        for (const [i, root] of roots.entries()) {
          if (i > 0) await server.restart(root);
          await timeApi(n, 'sqlite', server.base, server.headers, buildName(root));
          if (BROWSER) await browserRun(n, server, browser, buildName(root));
        }
      } finally {
        await server.stop();
      }
      if (process.env.BENCH_WEB_POSTGRES) {
        const pgServer = await seededServer(n, 'postgres', feedServer);
        if (pgServer) {
          try {
            for (const [i, root] of roots.entries()) {
              if (i > 0) await pgServer.restart(root);
              await timeApi(n, 'postgres', pgServer.base, pgServer.headers, buildName(root));
            }
          } finally {
            await pgServer.stop();
          }
        }
      }
    } catch (err) {
      failed = true;
      console.error(`web bench at ${n} feeds:`, err);
    } finally {
      await feedServer.close();
    }
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
