import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, baseUrl, createUser, launchBrowser, newPage, t, uniqueEmail } from './helpers.js';

/**
 * /api-docs (public-area-and-api.md §2 and §7): public, English, rendered from the server's OpenAPI document; every
 * endpoint shown with a curl example for this origin, a back-to-start link, no WCAG A/AA findings in either theme,
 * readable on a phone. And what the page tells a developer to do works against the running server.
 */
interface Doc {
  paths: Record<string, Record<string, { summary: string }>>;
}

let browser: Browser;
let operations: { key: string; summary: string }[];
beforeAll(async () => {
  browser = await launchBrowser();
  const doc = (await (await fetch(`${baseUrl()}/public-api/v1/openapi.json`)).json()) as Doc;
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, summary: op.summary })),
  );
});
afterAll(async () => {
  await browser?.close();
});

async function openDocs(page: Page) {
  await page.goto('/api-docs');
  await page.locator('article[lang="en"] section[data-endpoint]').first().waitFor();
}

describe('/api-docs', () => {
  it('shows every endpoint of the OpenAPI document with its summary and a curl example for this origin', async () => {
    const { context, page } = await newPage(browser);
    await openDocs(page);
    expect(await page.title()).toBe(`${t('apiDocs.title')} · Feeder`);
    expect(operations.length).toBe(10);
    const shown = await page.locator('section[data-endpoint]').evaluateAll((els) => els.map((e) => e.getAttribute('data-endpoint')));
    expect([...shown].sort()).toEqual(operations.map((o) => o.key).sort());
    for (const op of operations) {
      const section = page.locator(`section[data-endpoint="${op.key}"]`);
      await expect(section.getByRole('heading', { level: 3, name: op.summary }).isVisible()).resolves.toBe(true);
      const curl = await section.locator('pre').last().innerText();
      expect(curl).toMatch(/^curl /);
      expect(curl).toContain(`${baseUrl()}/public-api/v1/`);
    }
    // the overview: base URL, token lifetime, limits and their headers, the statuses
    const overview = await page.locator('#overview').innerText();
    expect(overview).toContain(`${baseUrl()}/public-api/v1`);
    expect(overview).toMatch(/365 days/);
    expect(overview).toMatch(/100 requests per minute and 5,000 per day/);
    for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) expect(overview).toContain(header);
    for (const status of ['400', '401', '403', '404', '429']) expect(overview).toContain(status);
    // fields are described: the article list's parameters and response
    const articles = await page.locator('section[data-endpoint="GET /public-api/v1/articles"]').innerText();
    for (const field of ['per_page', 'feed_id', 'unread', 'include_base64_favicons', 'articles[].feed_favicon', 'pagination.has_next']) expect(articles).toContain(field);
    await context.close();
  });

  it('links back to the start, and the landing footer links here', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/');
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: t('apiDocs.footerLink') })
      .click();
    await page.waitForURL((url) => url.pathname === '/api-docs');
    await page.locator('section[data-endpoint]').first().waitFor();
    await page
      .getByRole('link', { name: t('common.backToStart') })
      .last()
      .click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('tells a German reader that it is in English', async () => {
    const { context, page } = await newPage(browser, { locale: 'de-DE' });
    await openDocs(page);
    await expect(page.getByText(t('apiDocs.englishOnly', {}, 'de')).isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('fits a phone without sideways scrolling', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await openDocs(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`has no WCAG A/AA violations (${theme})`, async () => {
      const { context, page } = await newPage(browser, { colorScheme: theme, theme, bypassCSP: true });
      await openDocs(page);
      // the example responses are folded; open them so they are audited too
      for (const details of await page.locator('details').all()) await details.evaluate((d) => ((d as HTMLDetailsElement).open = true));
      await page.waitForTimeout(200);
      expect(await audit(page)).toEqual([]);
      await context.close();
    });
  }

  it('documents a flow that works: authenticate as the quick start shows, then list feeds with the token', async () => {
    const email = uniqueEmail('apidocs');
    const password = 'api-docs-password-1';
    createUser(email, password, 'Docs Reader');
    const auth = await fetch(`${baseUrl()}/public-api/v1/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password }),
    });
    expect(auth.status).toBe(200);
    const { token } = (await auth.json()) as { token: string };
    const feeds = await fetch(`${baseUrl()}/public-api/v1/feeds`, { headers: { authorization: `Bearer ${token}` } });
    expect(feeds.status).toBe(200);
    expect(await feeds.json()).toEqual({ feeds: [] });
    expect(feeds.headers.get('x-ratelimit-limit')).toBe('100');
    expect(feeds.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(Number(feeds.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
  });
});
