import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's Chromium (apt-get install -y chromium); never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const baseUrl = () => inject('baseUrl');
export const outboxDir = () => join(inject('dataDir'), 'outbox');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export interface PageOptions {
  width?: number;
  height?: number;
  locale?: string;
  /** The browser's preference (prefers-color-scheme); light unless said. */
  colorScheme?: 'light' | 'dark';
  /** The app's own theme setting, stored before the first page loads (as the theme switch would). */
  theme?: 'light' | 'dark';
  /** The cookie notice already accepted, so it does not cover the page. */
  cookiesAccepted?: boolean;
  /** A phone's touch screen (hasTouch and isMobile). */
  touch?: boolean;
  /** Lets axe's script in past the Content-Security-Policy. */
  bypassCSP?: boolean;
}

export async function newPage(browser: Browser, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    bypassCSP: options.bypassCSP,
    hasTouch: options.touch,
    isMobile: options.touch,
  });
  const stored: Record<string, string> = {};
  if (options.theme) stored.theme = options.theme;
  if (options.cookiesAccepted) stored.cookiesAccepted = 'true';
  if (Object.keys(stored).length > 0) {
    await context.addInitScript((entries) => {
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, stored);
  }
  const page = await context.newPage();
  return { context, page };
}

/**
 * A mouse drag: press, a few pixels to start (clicks keep navigating), then over the target in steps, release (the sidebar's rows start
 * a drag after 6 px). `dy` aims above (negative) or below the target's middle.
 */
export async function mouseDrag(page: Page, from: Locator, to: Locator, dy = 0) {
  const a = (await from.boundingBox())!;
  await page.mouse.move(a.x + 50, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 55, a.y + a.height / 2 + 8, { steps: 3 });
  const b = (await to.boundingBox())!;
  await page.mouse.move(b.x + 50, b.y + b.height / 2 + dy, { steps: 12 });
  await page.waitForTimeout(150);
  await page.mouse.move(b.x + 51, b.y + b.height / 2 + dy, { steps: 2 });
  await page.waitForTimeout(150);
  await page.mouse.up();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe on the page for WCAG 2.1 A and AA and returns one line per violation (rule, impact, help, the first
 * elements), so `expect(await audit(page)).toEqual([])` shows what is wrong. `settleMs` waits first, for
 * transitions to finish before colours are measured.
 */
/**
 * Waits until the page's timers queued so far have run. dnd-kit's keyboard sensor starts listening for the arrow keys
 * in a timer after the pick-up (so the key that picked up does not also move), and the pick-up announcement can be
 * read before that timer runs on a busy machine: an arrow pressed in between would be lost.
 */
export async function afterPendingTimers(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

export async function audit(page: Page, settleMs = 0): Promise<string[]> {
  if (settleMs > 0) await page.waitForTimeout(settleMs);
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations;
  })) as Array<{ id: string; impact: string; help: string; nodes: { target: string[] }[] }>;
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 4)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  );
}

/** Unique address per test run so tests never collide on the shared server. */
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * Waits for the newest .eml in the outbox addressed to `to` and returns the first link in it that contains
 * `pathPart` (e.g. "/verify-email?token="). Mails are quoted-printable; soft line breaks are undone first.
 */
export async function linkFromMail(to: string, pathPart: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const dir = outboxDir();
  while (Date.now() < deadline) {
    if (existsSync(dir)) {
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => join(dir, f))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
      for (const file of files) {
        const raw = readFileSync(file, 'utf8');
        if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
        const text = raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
        const escaped = pathPart.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const match = text.match(new RegExp(`https?://[^\\s"'<>]*${escaped}[^\\s"'<>]*`));
        if (match) return match[0];
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No mail to ${to} with a link containing ${pathPart}`);
}

type Dict = { [key: string]: string | Dict };
const dictionaries: Record<'de' | 'en', Dict> = {
  de: JSON.parse(readFileSync('src/web/i18n/de.json', 'utf8')),
  en: JSON.parse(readFileSync('src/web/i18n/en.json', 'utf8')),
};

/**
 * The UI text of a translation key, so tests find elements by what a person reads (and follow text changes).
 * Interpolations are filled from `values`.
 */
export function t(key: string, values: Record<string, string | number> = {}, lng: 'de' | 'en' = 'en'): string {
  let node: string | Dict | undefined = dictionaries[lng];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`No ${lng} text for ${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** Creates an account directly (as an operator would with `feeder user create`), sharing the server's data. */
export function createUser(email: string, password: string, name: string, verified = true, language: 'de' | 'en' = 'en'): void {
  const args = ['bin/feeder.js', 'user', 'create', '--email', email, '--password', password, '--name', name, '--language', language];
  if (verified) args.push('--verified');
  const r = spawnSync(process.execPath, args, { env: { PATH: process.env.PATH, DATA_DIR: inject('dataDir'), LOG_LEVEL: 'silent' }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`user create failed: ${r.stderr}${r.stdout}`);
}

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  // By id, so it works in either interface language.
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.locator('#login-password').press('Enter');
  await page.waitForURL('**/dashboard', { timeout: 10_000 });
}

/**
 * A new verified account (as createUser makes it) signed in on a fresh page (newPage's options): the usual start of
 * a test of the signed-in area.
 */
export async function signedInPage(
  browser: Browser,
  account: { prefix: string; password: string; name: string },
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page; email: string }> {
  const email = uniqueEmail(account.prefix);
  createUser(email, account.password, account.name);
  const { context, page } = await newPage(browser, options);
  await signIn(page, email, account.password);
  return { context, page, email };
}

/**
 * Feeder's JSON API as one user (signed in once through /auth/login), for tests that set up data faster than
 * through the screens they test: `const api = await apiAs(email, password); await api('POST', '/api/feeds', {url})`.
 * A non-2xx answer throws with its body.
 */
export async function apiAs(email: string, password: string): Promise<<T = unknown>(method: string, path: string, body?: unknown) => Promise<T>> {
  const login = await fetch(`${baseUrl()}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login as ${email} failed: HTTP ${login.status} ${await login.text()}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}
