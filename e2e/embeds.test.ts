import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../src/server/test/feed-server.js';
import { apiAs, createUser, launchBrowser, newPage, signIn, t, uniqueEmail } from './helpers.js';

/**
 * What the sanitiser keeps, the page may show (docs/decisions.md "Feeds read right: dates, identity, fallbacks"):
 * an article with a YouTube embed (www.youtube.com, rewritten to the no-cookie player) and a remote <video> is
 * opened in the browser, and the page's Content-Security-Policy refuses neither. There is no internet here, so
 * the test does not wait for YouTube: it listens for `securitypolicyviolation` events and CSP console errors, which
 * the browser raises before any request goes out.
 */
let browser: Browser;
let feeds: TestFeedServer;
const password = 'embeds-password-1';

const TITLE = 'A talk and a clip';

beforeAll(async () => {
  browser = await launchBrowser();
  feeds = await startTestFeedServer();
  // Not a real video: the browser's request for it is what the CSP decides about.
  feeds.set('/media/clip.mp4', { body: 'not really a video', contentType: 'video/mp4' });
  feeds.set('/embeds.xml', {
    body: rss('E2E Embeds', [
      item(1, {
        title: TITLE,
        // The article's page cannot be fetched, so the card shows the feed's own content.
        link: feeds.url('/gone.html'),
        description:
          '<p>The talk:</p>' +
          '<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ" frameborder="0" allowfullscreen></iframe>' +
          `<p>The clip:</p><video src="${feeds.url('/media/clip.mp4')}" width="320" height="180" controls></video>` +
          '<p>The end of the article.</p>',
      }),
    ]),
  });
  feeds.set('/gone.html', { status: 404, body: 'gone', contentType: 'text/plain' });
});
afterAll(async () => {
  await browser?.close();
  await feeds?.close();
});

describe('embeds and the Content-Security-Policy', () => {
  it('shows a YouTube embed and a remote video without a CSP violation', async () => {
    const email = uniqueEmail('embeds');
    createUser(email, password, 'Emil Embed');
    const api = await apiAs(email, password);
    await api('POST', '/api/feeds', { url: feeds.url('/embeds.xml') });
    const deadline = Date.now() + 30_000;
    while ((await api<{ total: number }>('GET', '/api/articles?per_page=10')).total < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
    }

    const { context, page } = await newPage(browser, { width: 1280, cookiesAccepted: true });
    // Every CSP refusal on the page, from the first script on: the event, and the console line Chromium writes.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    const consoleViolations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) consoleViolations.push(m.text());
    });
    const violations = async () => [...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)), ...consoleViolations];

    await signIn(page, email, password);
    const card = page
      .getByRole('main')
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: TITLE }) });
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: t('articles.card.showExtended') }).click();
    await card.getByText('The end of the article.').waitFor();

    // The embed is there, on the player the policy allows, and it is asked to load (it is lazy: scroll to it).
    const frame = card.locator('iframe');
    await frame.scrollIntoViewIfNeeded();
    expect(await frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    const csp = (await page.request.get('/dashboard')).headers()['content-security-policy'];
    expect(csp).toMatch(/frame-src[^;]*https:\/\/www\.youtube-nocookie\.com/);

    // The video is there and starts loading (preload="none" waits for play; muted play needs no gesture).
    const video = card.locator('video');
    await video.scrollIntoViewIfNeeded();
    expect(await video.getAttribute('src')).toBe(feeds.url('/media/clip.mp4'));
    await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      void v.play().catch(() => undefined);
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.networkState !== HTMLMediaElement.NETWORK_EMPTY || v.error !== null)).toBe(true);

    // Give the browser a moment to report, then: nothing refused.
    await page.waitForTimeout(1_000);
    expect(await violations()).toEqual([]);

    // The listener does catch a refusal: a frame from a host the policy does not name.
    await page.evaluate(() => {
      const f = document.createElement('iframe');
      f.src = 'https://frames.example.org/embed/x';
      document.body.append(f);
    });
    await expect.poll(violations).toEqual(expect.arrayContaining([expect.stringContaining('frames.example.org')]));
    await context.close();
  });
});
