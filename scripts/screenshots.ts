/**
 * `npm run screenshots`: the landing page's dashboard and phone pictures are real screenshots of Feeder, so they
 * never go stale. This script
 *   1. starts the built server (`node bin/feeder.js all`) on a free port with a throw-away DATA_DIR
 *      (REGISTRATION_EMAIL_DOMAINS unset, so registration rules do not matter),
 *   2. creates a verified demo user with `feeder user create … --verified` in the same DATA_DIR,
 *   3. subscribes it to the demo feeds of scripts/screenshots-demo.ts (German and English news, tech, science and
 *      blogs with icons), served from a local HTTP server (hence ALLOW_PRIVATE_FEED_HOSTS=true), waits until
 *      every feed is fetched and has its icon, and stars one article,
 *   4. signs in through the UI in headless Debian Chromium, like a person would, and waits for a finished page
 *      (cards, badges, icons; no skeletons, no scrollbars, no focus ring),
 *   5. writes, for each interface language (de, en) and theme (light, dark), so the landing page shows the one that
 *      matches the page (Hero.tsx, MobileSection.tsx), src/web/public/screenshots/dashboard-{language}-{theme}.webp
 *      (1440 × 900) and phone-{language}-{theme}.webp (390 × 844 CSS pixels, rendered at 2× so it stays sharp on
 *      high-density screens). Chromium itself encodes the WebP (a canvas), so no image tool is needed; lossy WebP
 *      keeps the eight pictures small.
 * `npm run screenshots` builds first; run the script alone only against a fresh build.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DEMO_FEEDS, demoIcon, demoRss, demoSite } from './screenshots-demo.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(ROOT, 'src/web/public/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DEMO = { email: 'demo@feeder.test', password: 'demo-password-2026', name: 'Demo' };
const LANGUAGES = ['de', 'en'] as const;
const THEMES = ['light', 'dark'] as const;
type Language = (typeof LANGUAGES)[number];
type Theme = (typeof THEMES)[number];
/** WebP quality: text stays crisp at 0.85 while a picture is a fraction of its PNG's size. */
const WEBP_QUALITY = 0.85;

async function freePort(): Promise<number> {
  const srv: Server = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Feeder exited early with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Feeder did not become healthy in time');
}

// ---------------------------------------------------------------------------------------------------------
// Demo feeds (scripts/screenshots-demo.ts), served locally so no network is needed.

async function startFeedServer(): Promise<{ base: string; close(): Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const now = Date.now();
  const server = createHttpServer((req, res) => {
    const path = (req.url ?? '').replace(/\?.*$/, '');
    const [, slug, rest] = /^\/([\w-]+)(?:\/(.*))?$/.exec(path) ?? [];
    const plain = /^\/([\w-]+)\.xml$/.exec(path)?.[1];
    const feed = DEMO_FEEDS.find((f) => f.slug === (plain ?? slug));
    if (feed && plain) res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(demoRss(feed, base, now));
    else if (feed && rest === 'icon.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(demoIcon(feed));
    else if (feed && rest === '') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(demoSite(feed));
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface ApiFeed {
  id: number;
  title: string;
  last_fetched_at: string | null;
  last_error_code: string | null;
  favicon_base64: string | null;
  favicon_url: string | null;
}

/**
 * Subscribes the demo user to the demo feeds through the API, waits until every feed has been fetched and has its
 * icon, and stars one article, so the pictures show a lived-in reader rather than a loading one.
 */
type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

async function seedDemoData(baseUrl: string, feedBase: string): Promise<Api> {
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
  });
  if (!login.ok) throw new Error(`demo login failed: HTTP ${login.status}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const api: Api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as T;
  };

  for (const feed of DEMO_FEEDS) await api('POST', '/api/feeds', { url: `${feedBase}/${feed.slug}.xml` });

  const expected = DEMO_FEEDS.reduce((n, f) => n + f.items.length, 0);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const feeds = await api<ApiFeed[]>('GET', '/api/feeds');
    const failed = feeds.filter((f) => f.last_error_code);
    if (failed.length) throw new Error(`demo feeds failed: ${failed.map((f) => `${f.title} (${f.last_error_code})`).join(', ')}`);
    const { total } = await api<{ total: number }>('GET', '/api/articles?per_page=1');
    const fetched = feeds.every((f) => f.last_fetched_at);
    const withIcons = feeds.every((f) => f.favicon_base64 || f.favicon_url);
    if (fetched && total === expected && withIcons) break;
    if (Date.now() > deadline) {
      if (fetched && total === expected) {
        console.log('screenshots: some demo icons did not arrive; those feeds show letter tiles');
        break;
      }
      throw new Error(`demo feeds not fetched in time (${total} of ${expected} articles)`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }

  // One favourite, so the star shows filled on a card near the top.
  const { articles } = await api<{ articles: { id: number; title: string }[] }>('GET', '/api/articles?per_page=20');
  const star = articles.find((a) => a.title === FAVORITE_TITLE);
  if (star) await api('POST', `/api/articles/${star.id}/favorite`);
  console.log(`screenshots: ${DEMO_FEEDS.length} demo feeds with ${expected} articles`);
  return api;
}

const FAVORITE_TITLE = 'Why we moved our job queue back into Postgres';

// ---------------------------------------------------------------------------------------------------------

interface Shot {
  viewport: { width: number; height: number };
  scale: number;
  file: string;
  language: Language;
  theme: Theme;
}

async function shoot(browser: Browser, baseUrl: string, { viewport, scale, file, language, theme }: Shot) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: scale, locale: language === 'de' ? 'de-DE' : 'en-US', colorScheme: theme });
  await context.addInitScript(
    ([language, theme]) => {
      localStorage.setItem('cookiesAccepted', 'true');
      localStorage.setItem('theme', theme);
      localStorage.setItem('language', language);
    },
    [language, theme],
  );
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
  await page.locator('#login-email').fill(DEMO.email);
  await page.locator('#login-password').fill(DEMO.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/dashboard/, { timeout: 15_000 });
  // A finished picture: cards in place of the skeletons, the sidebar's badges (shown 400 ms after the counts),
  // every icon decoded, and no caret or focus ring from the sign-in.
  await page.locator('main article').nth(3).waitFor({ timeout: 15_000 });
  await page
    .locator('[data-testid="article-skeleton"]')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {});
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0), undefined, { timeout: 10_000 });
  if (viewport.width >= 1024) await page.locator('nav [data-testid="unread-badge"]').first().waitFor({ timeout: 5_000 });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.mouse.move(0, viewport.height - 1);
  await page.waitForTimeout(600); // fonts and transitions settle
  const png = await page.screenshot();
  const webp = await toWebp(page, png);
  writeFileSync(join(OUT_DIR, file), webp);
  console.log(`screenshots: wrote ${join('src/web/public/screenshots', file)} (${viewport.width}×${viewport.height} @${scale}x, ${Math.round(webp.length / 1024)} KiB)`);
  await context.close();
}

/** Encodes a PNG as lossy WebP with the browser's own encoder (a canvas), so the script needs no image package. */
async function toWebp(page: Page, png: Buffer): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    async ([src, quality]) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      canvas.getContext('2d')!.drawImage(img, 0, 0);
      return canvas.toDataURL('image/webp', quality);
    },
    [`data:image/png;base64,${png.toString('base64')}`, WEBP_QUALITY] as const,
  );
  if (!dataUrl.startsWith('data:image/webp;base64,')) throw new Error('This Chromium cannot encode WebP');
  return Buffer.from(dataUrl.slice('data:image/webp;base64,'.length), 'base64');
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'feeder-screenshots-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
    // The demo feeds are served from 127.0.0.1, which the SSRF guard refuses unless told otherwise.
    ALLOW_PRIVATE_FEED_HOSTS: 'true',
  };
  let server: ChildProcess | null = null;
  let feeds: Awaited<ReturnType<typeof startFeedServer>> | null = null;
  let browser: Browser | null = null;
  try {
    const created = spawnSync(
      process.execPath,
      ['bin/feeder.js', 'user', 'create', '--email', DEMO.email, '--password', DEMO.password, '--name', DEMO.name, '--verified', '--language', 'de'],
      { cwd: ROOT, env, encoding: 'utf8' },
    );
    if (created.status !== 0) throw new Error(`feeder user create failed:\n${created.stdout}${created.stderr}`);

    const output: string[] = [];
    server = spawn(process.execPath, ['bin/feeder.js', 'all'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.on('data', (d) => output.push(String(d)));
    server.stderr?.on('data', (d) => output.push(String(d)));
    await waitForHealth(baseUrl, server).catch((err) => {
      throw new Error(`${err}\n${output.join('')}`);
    });

    feeds = await startFeedServer();
    const api = await seedDemoData(baseUrl, feeds.base);

    mkdirSync(OUT_DIR, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // --hide-scrollbars: a product shot, not a browser window.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
      ],
    });
    for (const language of LANGUAGES) {
      // The account's language wins over the browser's at sign-in (public-area-and-api.md §4), so it is set first.
      await api('POST', '/api/users/update-language', { language });
      for (const theme of THEMES) {
        await shoot(browser, baseUrl, { viewport: { width: 1440, height: 900 }, scale: 1, file: `dashboard-${language}-${theme}.webp`, language, theme });
        await shoot(browser, baseUrl, { viewport: { width: 390, height: 844 }, scale: 2, file: `phone-${language}-${theme}.webp`, language, theme });
      }
    }
  } finally {
    await browser?.close().catch(() => {});
    await feeds?.close().catch(() => {});
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
