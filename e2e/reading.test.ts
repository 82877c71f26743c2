import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../src/server/test/feed-server.js';
import { launchBrowser, signedInPage, t } from './helpers.js';

/**
 * Reading in a real browser against `feeder all` and a local feed server (dashboard.md §2 "Article list
 * view", §4): a new account subscribes from the welcome screen, reads, marks read and unread, favourites and finds
 * the article in the favourites, opens the full article, searches, looks at one feed, marks all read, and mutes a
 * feed to see its empty state. The sidebar's unread badges follow along.
 */
let browser: Browser;
let feeds: TestFeedServer;

const articlePage = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav>Home · Shop · Ads</nav><article><h1>${title}</h1>` +
  Array.from(
    { length: 6 },
    (_, i) => `<p>Paragraph ${i + 1} of the full story about ${title}, long enough for Readability to take it as the main text of this page and not as navigation.</p>`,
  ).join('') +
  `</article><footer>© Test</footer></body></html>`;

beforeAll(async () => {
  browser = await launchBrowser();
  feeds = await startTestFeedServer();
  feeds.set('/post-3.html', { body: articlePage('Bergwetter im Herbst'), contentType: 'text/html; charset=utf-8' });
  feeds.set('/news.xml', {
    body: rss('E2E News', [
      item(1, { title: 'Rathaus plant neue Radwege', description: '<p>Der Stadtrat berät. Es gibt Streit. Eine Entscheidung fällt im Mai. Mehr folgt.</p>' }),
      item(2, { title: 'Fußball am Sonntag', description: '<p>Das Derby endet unentschieden.</p>' }),
      item(3, { title: 'Bergwetter im Herbst', link: feeds.url('/post-3.html'), description: '<p>Kurz: es wird mild.</p>' }),
    ]),
  });
  feeds.set('/quiet.xml', { body: rss('E2E Quiet', [item(10, { title: 'Quiet thoughts' })]) });
});
afterAll(async () => {
  await browser?.close();
  await feeds?.close();
});

const main = (page: Page) => page.getByRole('main');
const card = (page: Page, title: string): Locator =>
  main(page)
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: title }) });
const titles = async (page: Page) =>
  (await main(page).getByRole('article').getByRole('heading', { level: 2 }).allTextContents()).map((s) => s.replace(` ${t('articles.card.opensInNewTab')}`, ''));
const nav = (page: Page) => page.getByRole('navigation', { name: t('dashboard.sidebar.label') });
const total = (page: Page) => page.getByTestId('article-total');

/** The unread badge of a sidebar entry ('' when it has none). */
async function badge(page: Page, name: RegExp): Promise<string> {
  const b = nav(page).getByRole('link', { name }).getByTestId('unread-badge');
  return (await b.count()) ? ((await b.locator('[aria-hidden]').textContent()) ?? '') : '';
}

async function subscribe(page: Page, opener: Locator, url: string, title: string) {
  await opener.click();
  const dialog = page.getByRole('dialog', { name: t('feeds.add.title') });
  await dialog.getByLabel(t('feeds.add.urlLabel')).fill(url);
  await dialog.getByLabel(t('feeds.add.urlLabel')).press('Enter');
  await dialog.getByRole('button', { name: t('feeds.add.subscribeFeed', { title }) }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** New articles arrive with the first fetch; the list's reload after subscribing or its 30 s poll shows them. */
async function waitForArticles(page: Page, title: string) {
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    if (await card(page, title).count()) return;
    await page.waitForTimeout(500);
  }
  throw new Error(`no article "${title}" appeared`);
}

describe('reading', () => {
  it('subscribes, reads, marks, favourites, searches, marks all read and shows a muted feed', async () => {
    const { context, page } = await signedInPage(browser, { prefix: 'reader', password: 'reading-password-1', name: 'Rita Reader' }, { width: 1280 });

    // Welcome, then subscribe from its button.
    await page.getByRole('heading', { name: t('dashboard.welcome.title', { name: 'Rita Reader' }) }).waitFor();
    await subscribe(page, main(page).getByRole('button', { name: t('dashboard.welcome.addFeed') }), feeds.url('/news.xml'), 'E2E News');
    await waitForArticles(page, 'Bergwetter im Herbst');
    expect(await titles(page)).toEqual(['Bergwetter im Herbst', 'Fußball am Sonntag', 'Rathaus plant neue Radwege']);
    await expect.poll(() => total(page).textContent()).toBe(t('articles.header.total_other', { count: 3 }));
    await expect.poll(() => badge(page, /^All articles/), { timeout: 5_000 }).toBe('3');
    await expect.poll(() => badge(page, /^E2E News/), { timeout: 5_000 }).toBe('3');
    // The compact card: the first three sentences, a link to the original in a new tab.
    await card(page, 'Rathaus plant neue Radwege').getByText('Der Stadtrat berät. Es gibt Streit. Eine Entscheidung fällt im Mai.', { exact: true }).waitFor();
    expect(await card(page, 'Fußball am Sonntag').getByRole('link').getAttribute('target')).toBe('_blank');

    // Mark read: the article leaves the unread list, counts drop; after a reload it is still read.
    await card(page, 'Fußball am Sonntag')
      .getByRole('button', { name: t('articles.card.markRead') })
      .click();
    await card(page, 'Fußball am Sonntag').waitFor({ state: 'detached' });
    await expect.poll(() => total(page).textContent()).toBe(t('articles.header.total_other', { count: 2 }));
    await expect.poll(() => badge(page, /^All articles/)).toBe('2');
    await page.reload();
    await card(page, 'Rathaus plant neue Radwege').waitFor();
    expect(await titles(page)).toEqual(['Bergwetter im Herbst', 'Rathaus plant neue Radwege']);

    // Show read ones (the note toggles), see the read badge, mark it unread again.
    await main(page)
      .getByRole('button', { name: t('articles.header.showingUnread') })
      .click();
    await card(page, 'Fußball am Sonntag').getByText(t('articles.card.readBadge'), { exact: true }).waitFor();
    await card(page, 'Fußball am Sonntag')
      .getByRole('button', { name: t('articles.card.markUnread') })
      .click();
    await card(page, 'Fußball am Sonntag').getByText(t('articles.card.readBadge'), { exact: true }).waitFor({ state: 'detached' });
    await expect.poll(() => badge(page, /^All articles/)).toBe('3');
    await page.getByRole('button', { name: t('articles.tools.showRead') }).click();

    // Favourite, mark it read, and find it in the favourites with its read flag.
    await card(page, 'Rathaus plant neue Radwege')
      .getByRole('button', { name: t('articles.card.favorite') })
      .click();
    await card(page, 'Rathaus plant neue Radwege')
      .getByRole('button', { name: t('articles.card.unfavorite') })
      .waitFor();
    await card(page, 'Rathaus plant neue Radwege')
      .getByRole('button', { name: t('articles.card.markRead') })
      .click();
    await card(page, 'Rathaus plant neue Radwege').waitFor({ state: 'detached' });
    await nav(page)
      .getByRole('link', { name: t('dashboard.sidebar.favorites') })
      .click();
    await page.getByRole('heading', { level: 1, name: t('articles.titles.favorites') }).waitFor();
    await card(page, 'Rathaus plant neue Radwege').getByText(t('articles.card.readBadge'), { exact: true }).waitFor();
    expect(await page.getByRole('searchbox').count()).toBe(0);

    // The full article: loaded from the article's page once, shown in the card.
    await nav(page)
      .getByRole('link', { name: /^All articles/ })
      .click();
    const weather = card(page, 'Bergwetter im Herbst');
    await weather.getByRole('button', { name: t('articles.card.showExtended') }).click();
    await weather.getByText(/Paragraph 6 of the full story about Bergwetter im Herbst/).waitFor();
    expect(await weather.getByText('Home · Shop · Ads').count()).toBe(0);
    await weather.getByRole('button', { name: t('articles.card.showCompact') }).click();
    // One without a reachable page shows the feed's content with the note.
    await card(page, 'Fußball am Sonntag')
      .getByRole('button', { name: t('articles.card.showExtended') })
      .click();
    await card(page, 'Fußball am Sonntag').getByText(t('articles.card.fullContentFailed')).waitFor();
    await card(page, 'Fußball am Sonntag').getByText('Das Derby endet unentschieden.').waitFor();
    // Opening read it (it stayed in place); unread again by hand, for the search below.
    await card(page, 'Fußball am Sonntag')
      .getByRole('button', { name: t('articles.card.markUnread') })
      .click();

    // Keyboard: the last card used is the current one; k goes up to the first. Opening it read it and it stayed
    // (docs/decisions.md "Reading flow"): m makes it unread, m again reads it by hand and it leaves. ? opens the help.
    await page.keyboard.press('k');
    expect(await card(page, 'Bergwetter im Herbst').getAttribute('data-active')).toBe('true');
    await card(page, 'Bergwetter im Herbst').getByText(t('articles.card.readBadge'), { exact: true }).waitFor();
    await page.keyboard.press('m');
    await card(page, 'Bergwetter im Herbst').getByText(t('articles.card.readBadge'), { exact: true }).waitFor({ state: 'detached' });
    await page.keyboard.press('m');
    await card(page, 'Bergwetter im Herbst').waitFor({ state: 'detached' });
    await page.keyboard.press('Shift+?');
    await page.getByRole('dialog', { name: t('articles.shortcuts.title') }).waitFor();
    await page.keyboard.press('Escape');

    // Search: debounced, in the address, cleared back to the view.
    await page.getByRole('searchbox', { name: t('articles.tools.search') }).fill('Fußball');
    await page.getByRole('heading', { level: 1, name: t('articles.titles.search', { q: 'Fußball' }) }).waitFor();
    await expect.poll(() => titles(page)).toEqual(['Fußball am Sonntag']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('Fußball');
    await page.getByRole('searchbox').fill('Zeppelin');
    await main(page)
      .getByRole('heading', { name: t('articles.empty.searchTitle', { q: 'Zeppelin' }) })
      .waitFor();
    await page.getByRole('searchbox').fill('');
    await page.getByRole('heading', { level: 1, name: t('articles.titles.all') }).waitFor();

    // A feed view, then mark all read there: "no unread" for the feed, "all read" on the all view.
    await nav(page)
      .getByRole('link', { name: /^E2E News/ })
      .click();
    await page.getByRole('heading', { level: 1, name: t('articles.titles.feed', { title: 'E2E News' }) }).waitFor();
    await main(page)
      .getByRole('button', { name: t('articles.header.noFilters') })
      .waitFor();
    await main(page)
      .getByRole('button', { name: t('articles.header.markAllRead') })
      .click();
    await main(page)
      .getByRole('heading', { name: t('articles.empty.feedReadTitle') })
      .waitFor();
    await expect.poll(() => badge(page, /^All articles/)).toBe('');
    await nav(page)
      .getByRole('link', { name: /^All articles/ })
      .click();
    await main(page)
      .getByRole('heading', { name: t('articles.empty.allReadTitle') })
      .waitFor();

    // A second feed, muted permanently from its view: greyed in the sidebar, explained in the list.
    // The feeds' "+" is a menu (add feed, add folder: dashboard.md §2).
    await nav(page)
      .getByRole('button', { name: t('folders.addMenu') })
      .click();
    await subscribe(page, nav(page).getByRole('menuitem', { name: t('dashboard.sidebar.addFeed') }), feeds.url('/quiet.xml'), 'E2E Quiet');
    await waitForArticles(page, 'Quiet thoughts');
    await nav(page)
      .getByRole('link', { name: /^E2E Quiet/ })
      .click();
    await page.getByRole('heading', { level: 1, name: t('articles.titles.feed', { title: 'E2E Quiet' }) }).waitFor();
    await main(page)
      .getByRole('button', { name: t('articles.header.mute') })
      .click();
    const mute = page.getByRole('dialog', { name: t('feeds.mute.title') });
    await mute.getByText(t('feeds.mute.permanent'), { exact: true }).click();
    await mute.getByRole('button', { name: t('feeds.mute.submit'), exact: true }).click();
    await mute.waitFor({ state: 'hidden' });
    await main(page)
      .getByRole('heading', { name: t('articles.empty.mutedTitle') })
      .waitFor();
    await main(page).getByText(t('articles.empty.mutedPermanently')).waitFor();
    expect(
      await nav(page)
        .getByRole('link', { name: /^E2E Quiet/ })
        .getAttribute('data-muted'),
    ).toBe('true');
    expect(await badge(page, /^E2E Quiet/)).toBe('');
    // Its articles are gone from the all view too, and come back when it is unmuted.
    await main(page)
      .getByRole('button', { name: t('articles.empty.unmute') })
      .click();
    await card(page, 'Quiet thoughts').waitFor();

    await context.close();
  });
});
