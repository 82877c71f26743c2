import type { Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feed } from '../src/common/api.js';
import { parseOpmlFile } from '../src/server/opml/opml.parse.js';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../src/server/test/feed-server.js';
import { apiAs, audit, createUser, launchBrowser, newPage, signedInPage, signIn, t, uniqueEmail } from './helpers.js';

/**
 * OPML and the catalog in a real browser against `feeder all` and a local feed server (dashboard.md §2
 * "Account settings" section 3 and "Add-feed dialog", §5, §8 "Account", §9): an OPML file with a folder is imported
 * in the settings, the folder and its feeds appear in the sidebar, the export downloads feeder-feeds-YYYY-MM-DD.opml
 * holding what was imported, the catalog tab is browsed, filtered and searched, and all feeds are deleted.
 * Subscribing from the catalog needs the real sites, so it is covered by the component test with a mocked call.
 */
let browser: Browser;
let feeds: TestFeedServer;

beforeAll(async () => {
  browser = await launchBrowser();
  feeds = await startTestFeedServer();
  feeds.set('/nachrichten.xml', { body: rss('OPML Nachrichten', [item(1), item(2)]) });
  feeds.set('/blog.xml', { body: rss('OPML Blog', [item(3)]) });
  feeds.set('/wissen.xml', { body: rss('OPML Wissen', [item(4), item(5), item(6)]) });
});
afterAll(async () => {
  await browser?.close();
  await feeds?.close();
});

const opml = () => `<?xml version="1.0" encoding="UTF-8"?>
<opml version="1.0">
  <head><title>E2E subscriptions in feedly Cloud</title></head>
  <body>
    <outline text="E2E Ordner" title="E2E Ordner">
      <outline type="rss" text="OPML Nachrichten" title="OPML Nachrichten" xmlUrl="${feeds.url('/nachrichten.xml')}" htmlUrl="${feeds.url('/')}"/>
      <outline type="rss" text="OPML Blog" title="OPML Blog" xmlUrl="${feeds.url('/blog.xml')}"/>
    </outline>
    <outline type="rss" text="OPML Wissen" title="OPML Wissen" xmlUrl="${feeds.url('/wissen.xml')}"/>
    <outline type="rss" text="Kaputt" xmlUrl="javascript:alert(1)"/>
  </body>
</opml>`;

describe('OPML and the catalog', () => {
  it('imports an OPML file with a folder, shows it in the sidebar, exports the same, and deletes all feeds', async () => {
    const email = uniqueEmail('opml');
    createUser(email, 'opml-password-1', 'Olga OPML');
    const api = await apiAs(email, 'opml-password-1');
    const { context, page } = await newPage(browser, { width: 1440, height: 900 });
    await signIn(page, email, 'opml-password-1');
    await page.goto('/dashboard/settings');
    const section = page.getByRole('region', { name: t('settings.feedManagement.title') });
    await section.waitFor();

    // Without a file the section asks for one.
    await section.getByRole('button', { name: t('opml.import'), exact: true }).click();
    await section.getByText(t('opml.chooseFile')).waitFor();

    await section.getByLabel(t('opml.fileLabel')).setInputFiles({ name: 'feedly.opml', mimeType: 'text/x-opml', buffer: Buffer.from(opml()) });
    await section.getByRole('button', { name: t('opml.import'), exact: true }).click();
    await section.getByText('3 feeds imported').waitFor();
    await section.getByText('1 entry without a valid feed address skipped').waitFor();
    await section.getByText('1 folder created').waitFor();

    // The sidebar shows the folder with its two feeds, and the third feed outside it.
    const sidebar = page.getByRole('navigation').first();
    // The folder's chevron opens it (its name opens its stream); rows carry their group: a folder's id, or "root".
    const folderId = Number(await sidebar.locator('[data-folder-header]').filter({ hasText: 'E2E Ordner' }).getAttribute('data-folder-header'));
    const chevron = sidebar.getByRole('button', { name: t('folders.expand', { name: 'E2E Ordner' }) });
    if (await chevron.count()) await chevron.click();
    const inFolder = sidebar.locator(`li[data-feed-id][data-group="${folderId}"]`);
    await inFolder.getByRole('link', { name: /OPML Nachrichten/ }).waitFor();
    await inFolder.getByRole('link', { name: /OPML Blog/ }).waitFor();
    await sidebar
      .locator('li[data-feed-id][data-group="root"]')
      .getByRole('link', { name: /OPML Wissen/ })
      .waitFor();

    // The server holds the same: three feeds, two of them in the folder.
    const stored = await api<Feed[]>('GET', '/api/feeds');
    expect(stored.map((f) => f.url)).toEqual([feeds.url('/nachrichten.xml'), feeds.url('/blog.xml'), feeds.url('/wissen.xml')]);
    expect(new Set(stored.slice(0, 2).map((f) => f.folder_id)).size).toBe(1);
    expect(stored[0].folder_id).not.toBeNull();
    expect(stored[2].folder_id).toBeNull();

    // Export: a download named feeder-feeds-YYYY-MM-DD.opml with the folder and the feeds in their order.
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: t('opml.export'), exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(/^feeder-feeds-\d{4}-\d{2}-\d{2}\.opml$/);
    const exported = parseOpmlFile(readFileSync(await download.path()));
    expect(exported.folders).toEqual(['E2E Ordner']);
    expect(exported.entries.map((e) => [e.folder, e.xmlUrl])).toEqual([
      ['E2E Ordner', feeds.url('/nachrichten.xml')],
      ['E2E Ordner', feeds.url('/blog.xml')],
      [null, feeds.url('/wissen.xml')],
    ]);
    expect(exported.entries.every((e) => e.customTitle === null)).toBe(true);
    await section.getByText(t('opml.exportDone', { filename: download.suggestedFilename() })).waitFor();

    // Delete all feeds: a dismissed confirmation keeps them, an accepted one deletes them.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await section.getByRole('button', { name: t('settings.feedManagement.deleteAll'), exact: true }).click();
    expect(await api<Feed[]>('GET', '/api/feeds')).toHaveLength(3);
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe(t('settings.feedManagement.deleteAllConfirm'));
      void dialog.accept();
    });
    await section.getByRole('button', { name: t('settings.feedManagement.deleteAll'), exact: true }).click();
    await section.getByText(t('settings.feedManagement.allDeleted')).waitFor();
    expect(await api<Feed[]>('GET', '/api/feeds')).toEqual([]);
    await page
      .locator('li[data-feed-id]')
      .getByRole('link', { name: /OPML Wissen/ })
      .waitFor({ state: 'detached' });
    await context.close();
  });

  it('browses, filters and searches the catalog in the add-feed dialog', async () => {
    const { context, page } = await signedInPage(browser, { prefix: 'catalog', password: 'catalog-password-1', name: 'Carla Catalog' }, { width: 1440, height: 900 });
    await page.goto('/dashboard/feeds');
    await page
      .getByRole('main')
      .getByRole('button', { name: t('feeds.page.add') })
      .click();
    const dialog = page.getByRole('dialog', { name: t('feeds.add.title') });

    // Tabs: the arrow key moves to the catalog, which asks the server which of its entries the user reads.
    const marks = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/catalog/subscribed');
    await dialog.getByRole('tab', { name: t('feeds.add.tabSearch') }).focus();
    await page.keyboard.press('ArrowRight');
    const catalogTab = dialog.getByRole('tab', { name: t('catalog.tab') });
    expect(await catalogTab.getAttribute('aria-selected')).toBe('true');
    const panel = dialog.getByRole('tabpanel', { name: t('catalog.tab') });

    // Eight category tiles with their counts.
    const tech = panel.getByRole('button', { name: /^Technology/ });
    await tech.waitFor();
    expect(await panel.getByRole('listitem').count()).toBe(8);
    const answer = await marks;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ subscribed: [] });
    const allCount = Number((await tech.textContent())!.match(/(\d+) feeds/)![1]);
    expect(allCount).toBeGreaterThan(40);

    // German only: fewer technology feeds; every category still has German ones.
    await panel.getByLabel(t('catalog.languageLabel')).selectOption('DE');
    const deCount = Number((await tech.textContent())!.match(/(\d+) feeds?/)![1]);
    expect(deCount).toBeGreaterThan(0);
    expect(deCount).toBeLessThan(allCount);

    // Into the category and back.
    await tech.click();
    await panel.getByRole('heading', { name: 'Technology' }).waitFor();
    await panel.getByText('heise online', { exact: true }).waitFor();
    expect(await panel.getByText('Ars Technica', { exact: true }).count()).toBe(0);
    expect(await panel.getByRole('listitem').count()).toBe(deCount);
    await panel.getByRole('button', { name: t('catalog.back') }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/^Technology/);

    // Search across all categories, by address too, in every language.
    await panel.getByLabel(t('catalog.languageLabel')).selectOption('ALL');
    await panel.getByLabel(t('catalog.searchLabel')).fill('TAGESSCHAU.DE');
    await panel.getByRole('button', { name: t('feeds.add.subscribeFeed', { title: 'tagesschau.de – Wirtschaft' }) }).waitFor();
    expect(await panel.getByRole('listitem').count()).toBeGreaterThanOrEqual(4);
    await panel.getByLabel(t('catalog.searchLabel')).fill('no such feed anywhere');
    await panel.getByText(t('catalog.noResults')).waitFor();

    // Closing resets the dialog: it opens on the search tab again.
    await dialog.getByRole('button', { name: t('common.close') }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('main')
      .getByRole('button', { name: t('feeds.page.add') })
      .click();
    expect(await dialog.getByRole('tab', { name: t('feeds.add.tabSearch') }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });

  it('has no axe findings on the catalog tab and the feed management section (light and dark, 390 and 1440 px)', async () => {
    const email = uniqueEmail('opml-a11y');
    createUser(email, 'opml-a11y-password-1', 'Axel Axe');
    const findings: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [390, 1440]) {
        const { context, page } = await newPage(browser, { width, height: 900, colorScheme });
        await signIn(page, email, 'opml-a11y-password-1');
        await page.goto('/dashboard/settings');
        const section = page.getByRole('region', { name: t('settings.feedManagement.title') });
        await section.getByLabel(t('opml.fileLabel')).setInputFiles({ name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
        await section.getByRole('button', { name: t('opml.import'), exact: true }).click();
        await section.getByText(t('opml.chooseFile')).waitFor();
        findings.push(...(await audit(page)).map((f) => `settings ${colorScheme} ${width}: ${f}`));

        await page.goto('/dashboard/feeds');
        await page
          .getByRole('main')
          .getByRole('button', { name: t('feeds.page.add') })
          .first()
          .click();
        const dialog = page.getByRole('dialog', { name: t('feeds.add.title') });
        await dialog.getByRole('tab', { name: t('catalog.tab') }).click();
        const panel = dialog.getByRole('tabpanel', { name: t('catalog.tab') });
        await panel.getByRole('button', { name: /^Science/ }).waitFor();
        await panel.getByLabel(t('catalog.languageLabel')).selectOption('EN');
        findings.push(...(await audit(page)).map((f) => `catalog tiles ${colorScheme} ${width}: ${f}`));
        await panel.getByRole('button', { name: /^Science/ }).click();
        await panel.getByRole('heading', { name: 'Science' }).waitFor();
        findings.push(...(await audit(page)).map((f) => `catalog list ${colorScheme} ${width}: ${f}`));
        await panel.getByLabel(t('catalog.searchLabel')).fill('nasa');
        await panel.getByRole('status').first().waitFor();
        findings.push(...(await audit(page)).map((f) => `catalog search ${colorScheme} ${width}: ${f}`));
        await context.close();
      }
    }
    expect(findings).toEqual([]);
  });
});
