/**
 * `npm run screenshots`: the landing page's dashboard and phone pictures are real screenshots of Feeder
 * (design.md §6), so they never go stale. This script
 *   1. starts the built server (`node bin/feeder.js all`) on a free port with a throw-away DATA_DIR
 *      (REGISTRATION_EMAIL_DOMAINS unset, so registration rules do not matter),
 *   2. creates a verified demo user with `feeder user create … --verified` in the same DATA_DIR,
 *   3. adds demo feeds, served from a local HTTP server, when the feeds API exists (best effort: a server
 *      that refuses local feed addresses or has no feeds API yet just gives an emptier dashboard),
 *   4. signs in through the UI in headless Debian Chromium, like a person would,
 *   5. writes src/web/public/screenshots/dashboard.png (1440 × 900) and phone.png (390 × 844 CSS pixels,
 *      rendered at 2× so it stays sharp on high-density screens).
 * `npm run screenshots` builds first; run the script alone only against a fresh build.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(ROOT, 'src/web/public/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const DEMO = { email: 'demo@feeder.test', password: 'demo-password-2026', name: 'Demo' };
const LANGUAGE = (process.env.SCREENSHOT_LANGUAGE === 'en' ? 'en' : 'de') as 'de' | 'en';

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
// Demo feeds: a few plausible sources with recent articles, served locally so no network is needed.

const DEMO_FEEDS: { slug: string; title: string; site: string; items: string[] }[] = [
  {
    slug: 'tech',
    title: 'Tech Notes',
    site: 'Tech Notes',
    items: [
      'Why small web apps are fast again',
      'A practical guide to HTTP caching headers',
      'SQLite in production: what we learned after a year',
      'The quiet comeback of RSS',
      'Designing calm interfaces',
      'Keyboard shortcuts everyone should know',
    ],
  },
  {
    slug: 'science',
    title: 'Science Daily Digest',
    site: 'Science Daily Digest',
    items: [
      'New telescope images reveal a distant spiral galaxy',
      'How sleep helps the brain sort memories',
      'Researchers map the ocean floor in record detail',
      'The physics of a perfect cup of coffee',
    ],
  },
  {
    slug: 'design',
    title: 'Type & Layout',
    site: 'Type & Layout',
    items: ['On measure: the ideal line length', 'Choosing a system font stack', 'Dark mode without the glare', 'Whitespace is not wasted space'],
  },
  {
    slug: 'cooking',
    title: 'Weeknight Kitchen',
    site: 'Weeknight Kitchen',
    items: ['One-pan lemon pasta in 20 minutes', 'The only bread recipe you need', 'Five soups for cold evenings'],
  },
];

function rss(feed: (typeof DEMO_FEEDS)[number], base: string): string {
  const now = Date.now();
  const items = feed.items
    .map((title, i) => {
      const date = new Date(now - (i * 5 + feed.slug.length) * 3600_000).toUTCString();
      const link = `${base}/${feed.slug}/${i + 1}`;
      return `<item><title>${title.replace(/&/g, '&amp;')}</title><link>${link}</link><guid>${link}</guid><pubDate>${date}</pubDate>
<description>&lt;p&gt;${title.replace(/&/g, '&amp;amp;')} – a short summary of the article, as a feed shows it before you open the full text.&lt;/p&gt;</description></item>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${feed.title.replace(/&/g, '&amp;')}</title>
<link>${base}/${feed.slug}</link><description>${feed.site.replace(/&/g, '&amp;')}</description>${items}</channel></rss>`;
}

async function startFeedServer(): Promise<{ base: string; close(): Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = createHttpServer((req, res) => {
    const slug = (req.url ?? '').replace(/^\/|\.xml$/g, '');
    const feed = DEMO_FEEDS.find((f) => f.slug === slug);
    if (!feed) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(rss(feed, base));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Subscribes the demo user to the demo feeds through the API; skips quietly what the server cannot do yet. */
async function seedDemoData(baseUrl: string, feedBase: string): Promise<void> {
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
  });
  if (!login.ok) throw new Error(`demo login failed: HTTP ${login.status}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  let added = 0;
  for (const feed of DEMO_FEEDS) {
    const res = await fetch(`${baseUrl}/api/feeds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: `${feedBase}/${feed.slug}.xml` }),
    });
    if (res.status === 404) {
      console.log('screenshots: the server has no feeds API yet; the dashboard is shown without feeds');
      return;
    }
    if (!res.ok) {
      console.log(`screenshots: could not add demo feed ${feed.slug}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
      continue;
    }
    added++;
  }
  console.log(`screenshots: added ${added} demo feeds`);
  if (added > 0) await new Promise((r) => setTimeout(r, 3000)); // let the first refresh store articles
}

// ---------------------------------------------------------------------------------------------------------

async function shoot(browser: Browser, baseUrl: string, viewport: { width: number; height: number }, scale: number, file: string) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: scale, locale: LANGUAGE === 'de' ? 'de-DE' : 'en-US', colorScheme: 'light' });
  await context.addInitScript(
    ([language]) => {
      localStorage.setItem('cookiesAccepted', 'true');
      localStorage.setItem('theme', 'light');
      localStorage.setItem('language', language);
    },
    [LANGUAGE],
  );
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
  await page.locator('#login-email').fill(DEMO.email);
  await page.locator('#login-password').fill(DEMO.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/dashboard/, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(800); // fonts, icons and counts settle
  await page.screenshot({ path: join(OUT_DIR, file) });
  console.log(`screenshots: wrote ${join('src/web/public/screenshots', file)} (${viewport.width}×${viewport.height} @${scale}x)`);
  await context.close();
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
  };
  let server: ChildProcess | null = null;
  let feeds: Awaited<ReturnType<typeof startFeedServer>> | null = null;
  let browser: Browser | null = null;
  try {
    const created = spawnSync(
      process.execPath,
      ['bin/feeder.js', 'user', 'create', '--email', DEMO.email, '--password', DEMO.password, '--name', DEMO.name, '--verified', '--language', LANGUAGE],
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
    await seedDemoData(baseUrl, feeds.base).catch((err) => console.log(`screenshots: demo data skipped: ${err}`));

    mkdirSync(OUT_DIR, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    await shoot(browser, baseUrl, { width: 1440, height: 900 }, 1, 'dashboard.png');
    await shoot(browser, baseUrl, { width: 390, height: 844 }, 2, 'phone.png');
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
