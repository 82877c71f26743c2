import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createUser, launchBrowser, signIn, t, uniqueEmail } from './helpers.js';

/**
 * Accessibility of every screen in both themes (design.md §6: WCAG AA contrast, accessible names, keyboard use),
 * checked with axe-core's WCAG 2 A/AA rules in the real browser. A finding lists the rule and the elements.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

async function audit(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations;
  })) as AxeViolation[];
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')}`);
}

let browser: Browser;
const email = uniqueEmail('a11y');
const password = 'a11y-password-1';
beforeAll(async () => {
  browser = await launchBrowser();
  createUser(email, password, 'Ada Access');
});
afterAll(async () => {
  await browser?.close();
});

const PUBLIC_PAGES = ['/', '/login', '/register', '/forgot-password', '/resend-verification', '/reset-password?token=abc', '/verify-email', '/privacy', '/imprint', '/terms'];
const DASHBOARD_PAGES = ['/dashboard', '/dashboard/settings', '/dashboard/nothing-here'];

for (const theme of ['light', 'dark'] as const) {
  describe(`accessibility, ${theme} theme`, () => {
    it('public pages have no WCAG A/AA violations', async () => {
      const context = await browser.newContext({ baseURL: baseUrl(), bypassCSP: true, locale: 'de-DE', viewport: { width: 1280, height: 860 } });
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      const findings: string[] = [];
      for (const path of PUBLIC_PAGES) {
        await page.goto(path);
        await page.locator('main, [role="main"]').first().waitFor();
        await page.waitForTimeout(200); // transitions settle before colours are measured
        findings.push(...(await audit(page)).map((f) => `${path}: ${f}`));
      }
      await context.close();
      expect(findings).toEqual([]);
    });

    it('dashboard pages have no WCAG A/AA violations', async () => {
      const context = await browser.newContext({ baseURL: baseUrl(), bypassCSP: true, locale: 'en-US', viewport: { width: 1280, height: 860 } });
      await context.addInitScript((t) => {
        localStorage.setItem('theme', t);
        localStorage.setItem('cookiesAccepted', 'true');
      }, theme);
      const page = await context.newPage();
      await signIn(page, email, password);
      const findings: string[] = [];
      for (const path of DASHBOARD_PAGES) {
        await page.goto(path);
        await page.locator('main').first().waitFor();
        await page.waitForTimeout(200);
        findings.push(...(await audit(page)).map((f) => `${path}: ${f}`));
      }
      await context.close();
      expect(findings).toEqual([]);
    });
  });
}

describe('keyboard use', () => {
  it('signs in with the keyboard alone and reaches the user menu', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('cookiesAccepted', 'true'));
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('#login-email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    const menuButton = page.getByRole('button', { name: t('userMenu.button') });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await menuButton.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('opens and closes the phone sidebar with focus moving in and back', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), locale: 'de-DE', viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => localStorage.setItem('cookiesAccepted', 'true'));
    const page = await context.newPage();
    const germanEmail = uniqueEmail('a11y-de');
    createUser(germanEmail, password, 'Dora Deutsch', true, 'de');
    await signIn(page, germanEmail, password);
    const open = page.getByRole('button', { name: t('dashboard.sidebar.open', {}, 'de') });
    await open.click();
    const close = page.getByRole('button', { name: 'Sidebar schließen' });
    await close.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Sidebar schließen');
    await page.keyboard.press('Escape');
    await close.waitFor({ state: 'hidden' });
    expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });
});
