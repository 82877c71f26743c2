import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../src/server/test/feed-server.js';
import { launchBrowser, signedInPage, t } from './helpers.js';

/**
 * Feed management in a real browser against `feeder all` and a local feed server (dashboard.md §2
 * "Feed management screen", "Add-feed dialog", §4): a new account adds two feeds by URL through the search tab,
 * sees them in the management list, renames one, reorders them, mutes and unmutes one, adds a filter and
 * deletes a feed. Every change is checked again after a reload, so it is the server's state, not the screen's.
 */
let browser: Browser;
let feeds: TestFeedServer;

beforeAll(async () => {
  browser = await launchBrowser();
  feeds = await startTestFeedServer();
  feeds.set('/news.xml', { body: rss('E2E Nachrichten', [item(1), item(2), item(3)]) });
  feeds.set('/blog.xml', { body: rss('E2E Blog', [item(4, { title: 'Fußball am Sonntag' }), item(5)]) });
});
afterAll(async () => {
  await browser?.close();
  await feeds?.close();
});

const mutedUntil = new RegExp(`^${t('feeds.page.mutedUntil', { time: '' })}`);
const list = (page: Page) => page.getByRole('list', { name: t('feeds.page.listLabel') });
const rowTitles = (page: Page) => list(page).getByRole('heading', { level: 3 }).allTextContents();
const row = (page: Page, title: string) =>
  list(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });

async function addFeed(page: Page, url: string, title: string) {
  await page
    .getByRole('main')
    .getByRole('button', { name: t('feeds.page.add') })
    .click();
  const dialog = page.getByRole('dialog', { name: t('feeds.add.title') });
  await dialog.getByLabel(t('feeds.add.urlLabel')).fill(url);
  await dialog.getByLabel(t('feeds.add.urlLabel')).press('Enter');
  await dialog.getByRole('button', { name: t('feeds.add.subscribeFeed', { title }) }).click();
  // Subscribing from the search results closes the dialog.
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText(t('feeds.page.subscribed', { title })).waitFor();
  await row(page, title).waitFor();
}

async function chooseAction(page: Page, title: string, action: string) {
  await row(page, title)
    .getByRole('button', { name: t('feeds.page.actions', { title }) })
    .click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

describe('feed management', () => {
  it('adds, lists, renames, reorders, mutes, filters and deletes feeds', async () => {
    const { context, page } = await signedInPage(browser, { prefix: 'feeds', password: 'feeds-password-1', name: 'Fiona Feed' });

    await page.goto('/dashboard/feeds');
    await page.getByRole('heading', { level: 1, name: t('feeds.page.title') }).waitFor();
    await page
      .getByRole('main')
      .getByRole('heading', { name: t('feeds.page.noFeeds') })
      .waitFor();

    // Add: an invalid address is answered in the dialog; then two feeds by URL.
    await page
      .getByRole('main')
      .getByRole('button', { name: t('feeds.page.add') })
      .click();
    const dialog = page.getByRole('dialog', { name: t('feeds.add.title') });
    await dialog.getByRole('button', { name: t('feeds.add.search') }).click();
    await dialog.getByText(t('feeds.add.emptyUrl')).waitFor();
    await dialog.getByLabel(t('feeds.add.urlLabel')).fill(feeds.url('/missing.xml'));
    await dialog.getByLabel(t('feeds.add.urlLabel')).press('Enter');
    await dialog.getByText(t('feeds.add.notFound')).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await addFeed(page, feeds.url('/news.xml'), 'E2E Nachrichten');
    await addFeed(page, feeds.url('/blog.xml'), 'E2E Blog');
    expect(await rowTitles(page)).toEqual(['E2E Nachrichten', 'E2E Blog']);
    await row(page, 'E2E Blog').getByText(feeds.url('/blog.xml')).waitFor();

    // The same feed again: the search marks it subscribed.
    await page
      .getByRole('main')
      .getByRole('button', { name: t('feeds.page.add') })
      .click();
    await dialog.getByLabel(t('feeds.add.urlLabel')).fill(feeds.url('/blog.xml'));
    await dialog.getByLabel(t('feeds.add.urlLabel')).press('Enter');
    await dialog.getByText(t('feeds.add.subscribed'), { exact: true }).waitFor();
    await page.keyboard.press('Escape');

    // Rename inline; the original title is shown; the new name survives a reload.
    await chooseAction(page, 'E2E Nachrichten', t('feeds.page.edit'));
    await page.getByText(t('feeds.edit.originalTitle', { title: 'E2E Nachrichten' })).waitFor();
    await page.getByLabel(t('feeds.edit.customTitle')).fill('Meine Nachrichten');
    await page.getByRole('button', { name: t('feeds.edit.save'), exact: true }).click();
    await page.getByText(t('feeds.edit.saved')).waitFor();
    await row(page, 'Meine Nachrichten').waitFor();

    // Reorder: the first cannot move up; moving the blog up swaps them, and the order is kept.
    expect(await page.getByRole('button', { name: t('feeds.page.moveUp', { title: 'Meine Nachrichten' }) }).isDisabled()).toBe(true);
    const sorted = page.waitForResponse((r) => r.url().endsWith('/api/feeds/sort'));
    await page.getByRole('button', { name: t('feeds.page.moveUp', { title: 'E2E Blog' }) }).click();
    await expect.poll(() => rowTitles(page)).toEqual(['E2E Blog', 'Meine Nachrichten']);
    expect((await sorted).ok()).toBe(true);
    await page.reload();
    await list(page).waitFor();
    expect(await rowTitles(page)).toEqual(['E2E Blog', 'Meine Nachrichten']);

    // Mute for a day: the row says until when and offers unmute instead of the filter button; unmute again.
    await chooseAction(page, 'Meine Nachrichten', t('feeds.page.mute'));
    const mute = page.getByRole('dialog', { name: t('feeds.mute.title') });
    await mute.getByText(t('feeds.mute.days_one', { count: 1 }), { exact: true }).click();
    await mute.getByRole('button', { name: t('feeds.mute.submit'), exact: true }).click();
    await mute.waitFor({ state: 'hidden' });
    await row(page, 'Meine Nachrichten').getByText(mutedUntil).waitFor();
    await page.reload();
    const unmute = row(page, 'Meine Nachrichten').getByRole('button', { name: t('feeds.page.unmuteFeed', { title: 'Meine Nachrichten' }) });
    await unmute.click();
    await row(page, 'Meine Nachrichten')
      .getByRole('button', { name: t('feeds.page.filtersFor', { title: 'Meine Nachrichten' }) })
      .waitFor();
    expect(await row(page, 'Meine Nachrichten').getByText(mutedUntil).count()).toBe(0);

    // A filter: exclude "fußball" in titles.
    await row(page, 'E2E Blog')
      .getByRole('button', { name: t('feeds.page.filtersFor', { title: 'E2E Blog' }) })
      .click();
    const filters = page.getByRole('dialog', { name: t('feeds.filters.titleFor', { title: 'E2E Blog' }) });
    await filters.getByText(t('feeds.filters.none')).waitFor();
    await filters.getByText(t('feeds.filters.exclude'), { exact: true }).click();
    await filters.getByText(t('feeds.filters.scopeTitle'), { exact: true }).click();
    await filters.getByLabel(t('feeds.filters.text')).fill('fußball');
    await filters.getByRole('button', { name: t('feeds.filters.add') }).click();
    await filters.getByRole('button', { name: t('feeds.filters.delete', { text: 'fußball' }) }).waitFor();
    // The same filter again is refused.
    await filters.getByLabel(t('feeds.filters.text')).fill('fußball');
    await filters.getByRole('button', { name: t('feeds.filters.add') }).click();
    await filters.getByText(t('feeds.filters.exists')).waitFor();
    await filters.getByRole('button', { name: t('feeds.filters.done') }).click();
    await filters.waitFor({ state: 'hidden' });

    // Delete after confirmation.
    await chooseAction(page, 'Meine Nachrichten', t('feeds.page.delete'));
    const confirm = page.getByRole('dialog', { name: t('feeds.delete.title') });
    await confirm.getByRole('button', { name: t('feeds.delete.confirm') }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText(t('feeds.page.deleted', { title: 'Meine Nachrichten' })).waitFor();
    await page.reload();
    await list(page).waitFor();
    expect(await rowTitles(page)).toEqual(['E2E Blog']);

    await context.close();
  });
});

describe('discovery offering several feeds, and feed health', () => {
  it('subscribes to two feeds of one page without searching again, then shows a broken one under the filter and marked in the sidebar', async () => {
    const site = '/several/';
    feeds.set('/several/', {
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html><head><title>Several</title>
        <link rel="alternate" type="application/rss+xml" title="Several posts" href="${feeds.url('/several/posts.xml')}">
        <link rel="alternate" type="application/rss+xml" title="Several podcast" href="${feeds.url('/several/podcast.xml')}">
        <link rel="alternate" type="application/rss+xml" title="Several comments" href="${feeds.url('/several/comments.xml')}">
        </head><body>A site with three feeds</body></html>`,
    });
    feeds.set('/several/posts.xml', { body: rss('Several posts', [item(21)]) });
    feeds.set('/several/podcast.xml', { body: rss('Several podcast', [item(22)]) });
    feeds.set('/several/comments.xml', { body: rss('Several comments', [item(23)]) });
    const { context, page } = await signedInPage(browser, { prefix: 'several', password: 'several-pass-123', name: 'Sev' }, { cookiesAccepted: true });
    await page.goto('/dashboard/feeds');
    await page
      .getByRole('main')
      .getByRole('button', { name: t('feeds.page.add') })
      .click();
    const dialog = page.getByRole('dialog', { name: t('feeds.add.title') });
    await dialog.getByLabel(t('feeds.add.urlLabel')).fill(feeds.url(site));
    await dialog.getByLabel(t('feeds.add.urlLabel')).press('Enter');
    await dialog.getByText(t('feeds.add.severalHint')).waitFor();
    for (const title of ['Several posts', 'Several podcast']) {
      await dialog.getByRole('button', { name: t('feeds.add.subscribeFeed', { title }) }).click();
      await dialog.getByText(`${t('feeds.add.subscribed')}: ${title}`).waitFor();
    }
    // Still open, two marked subscribed, the third still on offer.
    await dialog.getByText(t('feeds.add.addedCount_other', { count: 2 })).waitFor();
    expect(await dialog.getByRole('button', { name: t('feeds.add.subscribeFeed', { title: 'Several comments' }) }).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: t('feeds.add.done') }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row(page, 'Several podcast').waitFor();
    expect(await rowTitles(page)).toEqual(['Several posts', 'Several podcast']);

    // Each row shows its health once fetched.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="feed-health"]').length === 2);
    await row(page, 'Several posts')
      .getByText(new RegExp(t('feeds.page.health.lastFetched', { time: '' }).trim()))
      .waitFor();

    // The podcast breaks: after a refresh it is marked, and the broken-feeds filter shows it alone.
    feeds.set('/several/podcast.xml', { status: 500, body: 'down' });
    await chooseAction(page, 'Several podcast', t('feeds.page.refresh'));
    const broken = page.getByRole('button', { name: new RegExp(`^${t('feeds.page.brokenOnly', { count: 1 }).replace(/[()]/g, '\\$&')}$`) });
    for (let i = 0; i < 20 && !(await broken.isVisible()); i++) {
      await page.waitForTimeout(500);
      await page.reload();
      await list(page).waitFor();
    }
    await broken.click();
    expect(await rowTitles(page)).toEqual(['Several podcast']);
    await row(page, 'Several podcast')
      .getByText(new RegExp(t('feeds.page.lastError', { error: '' }).trim()))
      .waitFor();
    // The sidebar marks it too, its error in words for screen readers and as the row's tooltip; the others are not.
    const podcastRow = page.locator('li[data-feed-id]').filter({ hasText: 'Several podcast' });
    await podcastRow.getByTestId('feed-error-marker').waitFor();
    expect(await podcastRow.getByRole('link').getAttribute('title')).toMatch(/^Several podcast – ./);
    expect(await page.locator('li[data-feed-id]').filter({ hasText: 'Several posts' }).getByTestId('feed-error-marker').count()).toBe(0);
    await page.getByRole('searchbox', { name: t('feeds.page.searchLabel') }).fill('posts');
    await page.getByText(t('feeds.page.noMatches')).waitFor();
    await context.close();
  });
});
