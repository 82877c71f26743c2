import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../src/server/test/feed-server.js';
import { apiAs, createUser, launchBrowser, newPage, signIn, t, uniqueEmail } from './helpers.js';

/**
 * The reading flow in a real browser against `feeder all` and a local feed server (docs/decisions.md "Reading flow"):
 * opening reads an article and it stays in place, a bulk mark is undone, a folder is one stream, the feed's full text
 * is shown without fetching the page while a teaser's page is fetched, and the phone's "mark all" asks first.
 */
let browser: Browser;
let feeds: TestFeedServer;

const longParagraphs = (topic: string) =>
  Array.from(
    { length: 6 },
    (_, i) => `<p>Paragraph ${i + 1} about ${topic}: the whole story as the feed carries it, long enough to be read as the full article and not a teaser.</p>`,
  ).join('');
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  Array.from({ length: 6 }, (_, i) => `<p>Original paragraph ${i + 1} of ${title}, long enough for Readability to take it as the main text of this page.</p>`).join('') +
  `</article></body></html>`;

beforeAll(async () => {
  browser = await launchBrowser();
  feeds = await startTestFeedServer();
  for (const n of [1, 2]) feeds.set(`/full-${n}.html`, { body: page(`Full ${n}`), contentType: 'text/html; charset=utf-8' });
  for (const n of [1, 2]) feeds.set(`/teaser-${n}.html`, { body: page(`Teaser ${n}`), contentType: 'text/html; charset=utf-8' });
  feeds.set('/full.xml', {
    body: rss('Flow Full', [
      item(21, { title: 'Full story one', link: feeds.url('/full-1.html'), description: longParagraphs('one') }),
      item(22, {
        title: 'Full story two',
        link: feeds.url('/full-2.html'),
        description: `${longParagraphs('two')}<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>`,
      }),
    ]),
  });
  feeds.set('/teaser.xml', {
    body: rss('Flow Teaser', [
      item(11, { title: 'Teaser one', link: feeds.url('/teaser-1.html'), description: '<p>It begins like this…</p>' }),
      item(12, { title: 'Teaser two', link: feeds.url('/teaser-2.html'), description: '<p>Short. <a href="https://example.org/">Read more</a></p>' }),
    ]),
  });
});
afterAll(async () => {
  await browser?.close();
  await feeds?.close();
});

const main = (p: Page) => p.getByRole('main');
const card = (p: Page, title: string): Locator =>
  main(p)
    .getByRole('article')
    .filter({ has: p.getByRole('heading', { name: title }) });
const titles = async (p: Page) =>
  (await main(p).getByRole('article').getByRole('heading', { level: 2 }).allTextContents()).map((s) => s.replace(` ${t('articles.card.opensInNewTab')}`, ''));
const nav = (p: Page) => p.getByRole('navigation', { name: t('dashboard.sidebar.label') });
const total = (p: Page) => p.getByTestId('article-total');
async function badge(p: Page, name: RegExp): Promise<string> {
  const b = nav(p).getByRole('link', { name }).getByTestId('unread-badge');
  return (await b.count()) ? ((await b.locator('[aria-hidden]').textContent()) ?? '') : '';
}

type Api = Awaited<ReturnType<typeof apiAs>>;

/** A new account subscribed to both feeds (through the API), with their first fetch done. */
async function reader(prefix: string): Promise<{ email: string; password: string; api: Api; feedIds: Record<string, number> }> {
  const email = uniqueEmail(prefix);
  const password = 'reading-flow-password-1';
  createUser(email, password, 'Flo Reader');
  const api = await apiAs(email, password);
  const feedIds: Record<string, number> = {};
  for (const path of ['/full.xml', '/teaser.xml']) {
    const feed = await api<{ id: number }>('POST', '/api/feeds', { url: feeds.url(path) });
    feedIds[path] = feed.id;
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = await api<{ last_fetched_at: string | null }[]>('GET', '/api/feeds');
    if (list.every((f) => f.last_fetched_at)) break;
    if (Date.now() > deadline) throw new Error('feeds were not fetched');
    await new Promise((r) => setTimeout(r, 300));
  }
  return { email, password, api, feedIds };
}

describe('reading flow', () => {
  it('opening reads an article and it stays in place; the full text is shown without fetching its page, a teaser’s page is fetched', async () => {
    const r = await reader('flow');
    const { context, page: p } = await newPage(browser, { width: 1280 });
    await signIn(p, r.email, r.password);
    await card(p, 'Full story two').waitFor();
    const before = await titles(p);
    expect(before).toEqual(['Full story two', 'Full story one', 'Teaser two', 'Teaser one']);
    await expect.poll(() => badge(p, /^All articles/)).toBe('4');

    // Full text: shown from the feed, with "Load the original", and its page is never asked for.
    const full = card(p, 'Full story two');
    await full.getByRole('button', { name: t('articles.card.showExtended') }).click();
    await full.getByText(/Paragraph 6 about two/).waitFor();
    await full.getByRole('button', { name: t('articles.card.loadOriginal') }).waitFor();
    // A bare embed is not left at 300×150: it takes the text's width in 16:9.
    const frame = (await full.locator('iframe').boundingBox())!;
    expect(frame.width).toBeGreaterThan(500);
    expect(frame.width / frame.height).toBeCloseTo(16 / 9, 1);
    // Read by opening, and still where it was although read ones are hidden.
    await full.getByText(t('articles.card.readBadge'), { exact: true }).waitFor();
    expect(await titles(p)).toEqual(before);
    await expect.poll(() => total(p).textContent()).toBe(t('articles.header.total_other', { count: 3 }));
    await expect.poll(() => badge(p, /^All articles/)).toBe('3');

    // A teaser: its page is fetched and shown.
    const teaser = card(p, 'Teaser one');
    await teaser.getByRole('button', { name: t('articles.card.showExtended') }).click();
    await teaser.getByText(/Original paragraph 6 of Teaser 1/).waitFor();
    expect(await titles(p)).toEqual(before);
    expect(feeds.hits('/teaser-1.html')).toBeGreaterThanOrEqual(1);
    expect(feeds.hits('/full-2.html')).toBe(0);

    // "Load the original" on the full-text one asks for its page only now.
    await full.getByRole('button', { name: t('articles.card.loadOriginal') }).click();
    await full.getByText(/Original paragraph 6 of Full 2/).waitFor();
    expect(feeds.hits('/full-2.html')).toBe(1);
    expect(feeds.hits('/full-1.html')).toBe(0);

    // A reload of the view lets the read ones go.
    await p.reload();
    await card(p, 'Teaser two').waitFor();
    expect(await titles(p)).toEqual(['Full story one', 'Teaser two']);
    await context.close();
  });

  it('"mark all as read" is undone: the list and the counts come back', async () => {
    const r = await reader('undo');
    const { context, page: p } = await newPage(browser, { width: 1280 });
    await signIn(p, r.email, r.password);
    await card(p, 'Teaser one').waitFor();
    await expect.poll(() => badge(p, /^All articles/)).toBe('4');
    await main(p)
      .getByRole('button', { name: t('articles.header.markAllRead') })
      .click();
    await main(p)
      .getByRole('heading', { name: t('articles.empty.allReadTitle') })
      .waitFor();
    const toasts = p.getByTestId('toasts');
    const note = toasts.getByText(t('articles.undo.marked_other', { count: 4 }));
    // Hovering holds the toast (a slow machine must not let it time out while the badges are checked).
    await note.hover();
    await expect.poll(() => badge(p, /^All articles/)).toBe('');
    await toasts.getByRole('button', { name: t('articles.undo.action') }).click();
    await card(p, 'Teaser one').waitFor();
    expect(await titles(p)).toEqual(['Full story two', 'Full story one', 'Teaser two', 'Teaser one']);
    await expect.poll(() => total(p).textContent()).toBe(t('articles.header.total_other', { count: 4 }));
    await expect.poll(() => badge(p, /^All articles/)).toBe('4');
    // The server agrees after a reload.
    await p.reload();
    await card(p, 'Teaser one').waitFor();
    expect((await titles(p)).length).toBe(4);
    await context.close();
  });

  it('a folder is one stream of its feeds, with its badge, mark all read and search within it', async () => {
    const r = await reader('folder');
    const folder = await r.api<{ folder: { id: number } }>('POST', '/api/folders', { name: 'Reading' });
    await r.api('POST', `/api/folders/${folder.folder.id}/feeds`, { feed_id: r.feedIds['/teaser.xml'] });
    const { context, page: p } = await newPage(browser, { width: 1280 });
    await signIn(p, r.email, r.password);
    await p.goto(`/dashboard?folder=${folder.folder.id}`);
    await p.getByRole('heading', { level: 1, name: t('articles.titles.folder', { name: 'Reading' }) }).waitFor();
    await card(p, 'Teaser one').waitFor();
    expect(await titles(p)).toEqual(['Teaser two', 'Teaser one']);
    await expect.poll(() => main(p).getByTestId('view-unread-badge').textContent()).toBe(t('articles.header.unread_other', { count: 2 }));

    await p.getByRole('searchbox', { name: t('articles.tools.search') }).fill('two');
    await expect.poll(() => titles(p)).toEqual(['Teaser two']);
    await p.getByRole('searchbox').fill('');
    await card(p, 'Teaser one').waitFor();

    await main(p)
      .getByRole('button', { name: t('articles.header.markAllRead') })
      .click();
    await main(p)
      .getByRole('heading', { name: t('articles.empty.folderReadTitle') })
      .waitFor();
    // Only the folder's feed was marked.
    await expect.poll(() => badge(p, /^All articles/)).toBe('2');

    await p.goto('/dashboard?folder=999999');
    await main(p)
      .getByRole('heading', { name: t('articles.empty.folderUnknownTitle') })
      .waitFor();
    await context.close();
  });

  it('on a phone, the mark-all icon asks first', async () => {
    const r = await reader('phone');
    const { context, page: p } = await newPage(browser, { width: 390, height: 844, touch: true });
    await signIn(p, r.email, r.password);
    await card(p, 'Teaser one').waitFor();
    await main(p)
      .getByRole('button', { name: t('articles.header.markAllRead') })
      .click();
    const dialog = p.getByRole('dialog', { name: t('articles.confirmMarkAll.title') });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: t('common.cancel') }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await titles(p)).length).toBe(4);
    await main(p)
      .getByRole('button', { name: t('articles.header.markAllRead') })
      .click();
    await dialog.getByRole('button', { name: t('articles.confirmMarkAll.confirm') }).click();
    await main(p)
      .getByRole('heading', { name: t('articles.empty.allReadTitle') })
      .waitFor();
    await context.close();
  });
});
