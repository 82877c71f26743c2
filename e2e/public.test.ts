import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, t } from './helpers.js';

/** The public area as a visitor meets it: landing page behaviours, cookie banner, registration domains, routes. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const dialogOpen = (page: Page) => page.evaluate(() => document.querySelector('dialog')?.open ?? false);

describe('landing page', () => {
  it('zooms the screenshot and closes the overlay by Escape, backdrop and close button', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    const zoom = page.getByRole('button', { name: t('landing.screenshot.zoom') });

    await zoom.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog')?.open);

    await zoom.click();
    await page.getByRole('dialog').waitFor();
    await page.mouse.click(5, 5); // the backdrop, outside the dialog's box
    await page.waitForFunction(() => !document.querySelector('dialog')?.open);

    await zoom.click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('common.close') })
      .click();
    expect(await dialogOpen(page)).toBe(false);
    await context.close();
  });

  it('turns the header solid after more than 10 px of scroll', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    const header = page.locator('header[data-solid]');
    expect(await header.getAttribute('data-solid')).toBe('false');
    await page.evaluate(() => window.scrollTo(0, 10));
    await page.waitForTimeout(100);
    expect(await header.getAttribute('data-solid')).toBe('false');
    await page.evaluate(() => window.scrollTo(0, 11));
    await page.waitForFunction(() => document.querySelector('header[data-solid]')?.getAttribute('data-solid') === 'true');
    await context.close();
  });

  it('switches language and theme from the header and keeps both after a reload', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: t('landing.hero.title') }).waitFor();
    await page.getByRole('button', { name: t('language.switchLabel', { code: 'EN', language: 'Deutsch' }) }).click();
    await page.getByRole('heading', { level: 1, name: t('landing.hero.title', {}, 'de') }).waitFor();
    await page.getByRole('button', { name: t('theme.switchToDark', {}, 'de') }).click();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: t('landing.hero.title', {}, 'de') }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.classList.contains('dark'), document.documentElement.lang])).toEqual([true, 'de']);
    await context.close();
  });
});

describe('landing page on a phone and its pictures', () => {
  it('shows sign-in and sign-up in the phone header (390 px), in English and German', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844, cookiesAccepted: true });
    await page.goto('/');
    const header = page.locator('header[data-solid]');
    for (const lng of ['en', 'de'] as const) {
      if (lng === 'de') await page.getByRole('button', { name: t('language.switchLabel', { code: 'EN', language: 'Deutsch' }) }).click();
      const signUp = header.getByRole('link', { name: t('header.register', {}, lng) });
      const signIn = header.getByRole('link', { name: t('header.login', {}, lng) });
      await signUp.waitFor();
      expect(await signUp.isVisible()).toBe(true);
      expect(await signIn.isVisible()).toBe(true);
      // Both fit inside the viewport, none pushed off its right edge.
      const right = Math.max(...(await Promise.all([signUp, signIn].map(async (l) => (await l.boundingBox())!.x + (await l.boundingBox())!.width))));
      expect(right).toBeLessThanOrEqual(390);
    }
    await context.close();
  });

  it("shows the product pictures in the page's language and theme, switching with them", async () => {
    const { context, page } = await newPage(browser, { cookiesAccepted: true, theme: 'light' });
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: t('landing.hero.title') }).waitFor();
    const sources = () =>
      page.evaluate(() => Array.from(document.querySelectorAll<HTMLImageElement>('main img[src^="/screenshots/"]')).map((img) => img.getAttribute('src')));
    expect(await sources()).toEqual(['/screenshots/dashboard-en-light.webp', '/screenshots/phone-en-light.webp']);
    await page.getByRole('button', { name: t('theme.switchToDark') }).click();
    await page.waitForFunction(() => document.querySelector('main img[src^="/screenshots/"]')?.getAttribute('src')?.endsWith('-en-dark.webp'));
    await page.getByRole('button', { name: t('language.switchLabel', { code: 'EN', language: 'Deutsch' }) }).click();
    await page.waitForFunction(() => document.querySelector('main img[src^="/screenshots/"]')?.getAttribute('src')?.endsWith('-de-dark.webp'));
    expect(await sources()).toEqual(['/screenshots/dashboard-de-dark.webp', '/screenshots/phone-de-dark.webp']);
    // The pictures exist and load (lazy ones once scrolled to).
    for (const img of await page.locator('main img[src^="/screenshots/"]').all()) {
      await img.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle());
    }
    await context.close();
  });
});

describe('cookie banner', () => {
  it('shows the stored keys in its details and stays away once accepted', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    const banner = page.getByRole('region', { name: t('cookies.title') }).or(page.getByRole('dialog', { name: t('cookies.title') }));
    await banner.waitFor();
    await banner.getByRole('button', { name: t('cookies.showDetails') }).click();
    await banner.getByText('refresh_token').waitFor();
    const listed = (await banner.locator('dt').allInnerTexts()).flatMap((keys) => keys.split(/,\s*/));
    expect(listed.sort()).toEqual(['cookiesAccepted', 'language', 'refresh_token', 'theme', 'token', 'user']);
    await banner.getByRole('button', { name: t('cookies.accept') }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await banner.count()).toBe(0);
    await context.close();
  });
});

describe('registration', () => {
  it('refuses addresses outside the configured domains before submitting', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/register');
    await page.getByLabel(t('auth.name'), { exact: true }).fill('Outsider');
    await page.getByLabel(t('auth.email'), { exact: true }).fill('someone@elsewhere.org');
    await page.getByLabel(t('auth.password'), { exact: true }).fill('password-123');
    await page.getByLabel(t('auth.confirmPassword'), { exact: true }).fill('password-123');
    await page.getByRole('button', { name: t('auth.register.submit'), exact: true }).click();
    await page.getByText(t('auth.register.closed')).first().waitFor();
    expect(page.url()).toContain('/register');
    await context.close();
  });
});

describe('routes', () => {
  it('sends unknown paths to /, or to /login when an error parameter is present', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/somewhere?error=AUTH_401_1');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText(t('auth.errorCodes.AUTH_401_1')).waitFor();
    await context.close();
  });

  it('keeps visitors out of the dashboard and shows the legal pages in German with a way back', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/dashboard/settings');
    await page.waitForURL((url) => url.pathname === '/');
    for (const path of ['/privacy', '/imprint', '/terms']) {
      await page.goto(path);
      const article = page.locator('article[lang="de"]');
      await article.waitFor();
      await page
        .getByRole('link', { name: t('common.backToStart') })
        .first()
        .click();
      await page.waitForURL((url) => url.pathname === '/');
    }
    await page.goto('/terms');
    const terms = await page.locator('article[lang="de"]').innerText();
    expect(terms).toMatch(/6 Monat/);
    expect(terms).toMatch(/§\s*19\s*UStG/);
    await context.close();
  });

  it('on a local instance without OPERATOR_* details, the legal pages name the example operator and say so', async () => {
    const { context, page } = await newPage(browser, { cookiesAccepted: true });
    for (const path of ['/imprint', '/privacy', '/terms']) {
      await page.goto(path);
      await page.locator('article[lang="de"]').waitFor();
      expect(await page.getByText(t('legal.exampleTitle')).isVisible()).toBe(true);
      expect(await page.locator('article[lang="de"]').innerText()).toMatch(/Max Mustermann/);
    }
    await context.close();
  });
});
