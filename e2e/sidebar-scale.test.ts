import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, rss, startTestFeedServer, type TestFeedServer } from '../src/server/test/feed-server.js';
import { afterPendingTimers, apiAs, baseUrl, createUser, launchBrowser, newPage, signIn, t, uniqueEmail } from './helpers.js';

/**
 * The sidebar at 2,000 feeds (docs/decisions.md "Sidebar at scale"): the feed tree is windowed, so these are the
 * interactions that windowing could break. The feeds come through the real OPML import; all but two point at a
 * port that refuses at once (so the server is not kept busy fetching them, and they show as broken), two at the
 * local feed server with articles for the counts. Rows are found by their index in the tree (the API's order),
 * scrolled to as a user would scroll.
 */
let browser: Browser;
let server: TestFeedServer;
const password = 'sidebar-scale-password-1';
const FEEDS = 2000;
const ROW = 42;

type Api = Awaited<ReturnType<typeof apiAs>>;
interface ApiFeed {
  id: number;
  title: string;
  folder_id: number | null;
}
interface ApiFolder {
  id: number;
  name: string;
  sort_order: number;
}

let email: string;
let api: Api;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startTestFeedServer();
  server.set('/s/0.xml', { body: rss('Local one', [item(1), item(2), item(3)]) });
  server.set('/s/1.xml', { body: rss('Local two', [item(4), item(5), item(6)]) });

  email = uniqueEmail('sidebar-scale');
  createUser(email, password, 'Sina Scale');
  api = await apiAs(email, password);
  const outline = (i: number) =>
    `<outline type="rss" text="Feed ${String(i).padStart(4, '0')}" xmlUrl="${i < 2 ? server.url(`/s/${i}.xml`) : `http://127.0.0.1:1/scale-${i}.xml`}"/>`;
  const parts: string[] = [];
  let i = 0;
  const folder = (name: string, count: number) => {
    parts.push(`<outline text="${name}">`);
    for (let k = 0; k < count; k++) parts.push(outline(i++));
    parts.push('</outline>');
  };
  folder('Alpha', 5);
  folder('Big folder', 995);
  while (i < FEEDS) parts.push(outline(i++));
  const opml = `<?xml version="1.0"?><opml version="2.0"><head><title>Many</title></head><body>${parts.join('')}</body></opml>`;
  const login = (await (
    await fetch(`${baseUrl()}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
  ).json()) as { access_token: string };
  const form = new FormData();
  form.append('opml_file', new Blob([opml], { type: 'text/xml' }), 'many.opml');
  const res = await fetch(`${baseUrl()}/api/feeds/import/opml`, { method: 'POST', headers: { authorization: `Bearer ${login.access_token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { imported_count: number }).imported_count).toBe(FEEDS);
  // An empty folder far down the list (after the big one).
  await api('POST', '/api/folders', { name: 'Zeta' });
  // The two local feeds fetched: their articles counted.
  const deadline = Date.now() + 40_000;
  for (;;) {
    const { counts } = await api<{ counts: Record<string, number> }>('GET', '/api/feeds/unread_counts');
    if (Object.values(counts).filter((n) => n === 3).length >= 2) break;
    if (Date.now() > deadline) throw new Error('The local feeds were not fetched in time.');
    await new Promise((r) => setTimeout(r, 300));
  }
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The tree's rows as the sidebar draws them (all folders expanded): row keys in order. */
async function treeRows(): Promise<{ keys: string[]; feeds: ApiFeed[]; folders: ApiFolder[] }> {
  const feeds = await api<ApiFeed[]>('GET', '/api/feeds');
  const folders = (await api<{ folders: ApiFolder[] }>('GET', '/api/folders')).folders.sort((a, b) => a.sort_order - b.sort_order || a.id - b.id);
  const keys: string[] = [];
  for (const folder of folders) {
    keys.push(`folder-${folder.id}`);
    const inside = feeds.filter((f) => f.folder_id === folder.id);
    if (inside.length === 0) keys.push(`empty-${folder.id}`);
    for (const f of inside) keys.push(`feed-${f.id}`);
  }
  for (const f of feeds.filter((x) => x.folder_id === null)) keys.push(`feed-${f.id}`);
  return { keys, feeds, folders };
}

const nav = (page: Page) => page.getByRole('navigation', { name: t('dashboard.sidebar.label') });
const feedRow = (page: Page, id: number) => nav(page).locator(`li[data-feed-id="${id}"]`);
const folderHeader = (page: Page, id: number) => nav(page).locator(`[data-folder-header="${id}"]`);
const drawnRows = (page: Page) => nav(page).locator('li[data-row-key]').count();

/** Scrolls the sidebar so that row `index` of the tree is in the middle of its view, as a wheel would. */
async function scrollToRow(page: Page, index: number): Promise<void> {
  await page.evaluate(
    ({ index, row }) => {
      const nav = document.querySelector('nav')!;
      const tree = document.querySelector('[data-testid="sidebar-feed-tree"]')!;
      nav.scrollTop += tree.getBoundingClientRect().top - nav.getBoundingClientRect().top + index * row - nav.clientHeight / 2;
    },
    { index, row: ROW },
  );
  await page.waitForTimeout(100);
}

async function folderOf(feedId: number): Promise<number | null> {
  return (await api<ApiFeed[]>('GET', '/api/feeds')).find((f) => f.id === feedId)!.folder_id;
}

async function center(page: Page, selector: ReturnType<typeof feedRow>) {
  const box = (await selector.boundingBox())!;
  return { x: box.x + 60, y: box.y + box.height / 2 };
}

const badge = (scope: ReturnType<typeof feedRow>) => scope.getByTestId('unread-badge').locator('span[aria-hidden]').first();

describe('the sidebar at 2,000 feeds', () => {
  it('draws few rows; drags from the bottom into a folder at the top and back, scrolling while dragging', async () => {
    const { keys, feeds, folders } = await treeRows();
    const alpha = folders.find((f) => f.name === 'Alpha')!;
    const { context, page } = await newPage(browser, { width: 1280, height: 860, cookiesAccepted: true });
    await signIn(page, email, password);
    await folderHeader(page, alpha.id).waitFor();
    expect(Number(await page.getByTestId('sidebar-feed-tree').getAttribute('data-rows'))).toBe(keys.length);
    expect(await drawnRows(page)).toBeLessThan(60);

    // The last feed of the list, dragged up to the first folder: pick it up, scroll to the top, drop on the header.
    const last = feeds.filter((f) => f.folder_id === null).at(-1)!;
    await scrollToRow(page, keys.length - 1);
    const from = await center(page, feedRow(page, last.id));
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 5, from.y - 10, { steps: 3 });
    await page.evaluate(() => (document.querySelector('nav')!.scrollTop = 0));
    await page.waitForTimeout(200);
    const to = await center(page, folderHeader(page, alpha.id));
    await page.mouse.move(to.x, to.y, { steps: 12 });
    await page.waitForTimeout(150);
    await page.mouse.move(to.x + 1, to.y, { steps: 2 });
    await page.waitForTimeout(150);
    await page.mouse.up();
    await expect.poll(() => folderOf(last.id)).toBe(alpha.id);
    expect(await drawnRows(page)).toBeLessThan(60);

    // And back: from the folder at the top to the end of the list (onto the feed that is last now).
    const newLast = feeds.filter((f) => f.folder_id === null).at(-2)!;
    await feedRow(page, last.id).waitFor();
    const back = await center(page, feedRow(page, last.id));
    await page.mouse.move(back.x, back.y);
    await page.mouse.down();
    await page.mouse.move(back.x + 5, back.y + 10, { steps: 3 });
    const after = await treeRows();
    await scrollToRow(page, after.keys.length - 1);
    await page.waitForTimeout(200);
    const end = await center(page, feedRow(page, newLast.id));
    await page.mouse.move(end.x, end.y + 12, { steps: 12 });
    await page.waitForTimeout(150);
    await page.mouse.move(end.x + 1, end.y + 12, { steps: 2 });
    await page.waitForTimeout(150);
    await page.mouse.up();
    await expect.poll(() => folderOf(last.id)).toBe(null);

    // Held near the lower edge, a drag scrolls the list by itself; Escape puts the row back.
    await page.evaluate(() => (document.querySelector('nav')!.scrollTop = 0));
    await page.waitForTimeout(100);
    const first = feeds.find((f) => f.folder_id === alpha.id)!;
    const start = await center(page, feedRow(page, first.id));
    const navBox = (await nav(page).boundingBox())!;
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 5, start.y + 10, { steps: 3 });
    await page.mouse.move(start.x + 5, navBox.y + navBox.height - 4, { steps: 10 });
    await expect.poll(() => page.evaluate(() => document.querySelector('nav')!.scrollTop), { timeout: 5000 }).toBeGreaterThan(300);
    // The sidebar scrolled, not the page behind it.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await feedRow(page, first.id).count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.mouse.up();
    expect(await folderOf(first.id)).toBe(alpha.id);
    await context.close();
  });

  it('moves a feed far down into a folder with the keyboard; opens a feed far down; folds the big folder', async () => {
    const { keys, feeds, folders } = await treeRows();
    const zeta = folders.find((f) => f.name === 'Zeta')!;
    const big = folders.find((f) => f.name === 'Big folder')!;
    const { context, page } = await newPage(browser, { width: 1280, height: 860, cookiesAccepted: true });
    await signIn(page, email, password);
    await folderHeader(page, big.id).waitFor();

    // The first feed after the empty Zeta folder (some 1,000 rows down): one step up is the folder.
    const target = feeds.filter((f) => f.folder_id === null)[0];
    await scrollToRow(page, keys.indexOf(`feed-${target.id}`));
    const handle = nav(page).getByRole('button', { name: t('folders.dnd.moveFeed', { title: target.title }) });
    await handle.focus();
    const live = () => page.evaluate(() => [...document.querySelectorAll('[aria-live]')].map((e) => e.textContent).join(' '));
    await page.keyboard.press('Space');
    // An arrow key pressed before the drag has started moves nothing: wait for the pick-up (or its first position).
    await expect
      .poll(async () => {
        const spoken = await live();
        return spoken.includes(t('folders.dnd.pickedUpFeed', { title: target.title })) || spoken.includes(`${target.title}:`);
      })
      .toBe(true);
    await afterPendingTimers(page);
    await page.keyboard.press('ArrowUp');
    await expect.poll(live).toContain(t('folders.dnd.overFolder', { title: target.title, folder: 'Zeta' }));
    await page.keyboard.press('Space');
    await expect.poll(() => folderOf(target.id)).toBe(zeta.id);
    // The handle keeps the focus in its new place.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(t('folders.dnd.moveFeed', { title: target.title }));

    // Scroll to a feed near the end and open it.
    const far = feeds.filter((f) => f.folder_id === null).at(-20)!;
    const now = await treeRows();
    await scrollToRow(page, now.keys.indexOf(`feed-${far.id}`));
    await feedRow(page, far.id).getByRole('link').click();
    await page.waitForURL(`**/dashboard?feed=${far.id}`);
    await expect.poll(() => feedRow(page, far.id).getByRole('link').getAttribute('aria-current')).toBe('page');

    // Folding the big folder takes its 995 rows out of the tree; unfolding brings them back.
    await page.evaluate(() => (document.querySelector('nav')!.scrollTop = 0));
    const rows = async () => Number(await page.getByTestId('sidebar-feed-tree').getAttribute('data-rows'));
    const before = await rows();
    await nav(page)
      .getByRole('button', { name: t('folders.collapse', { name: 'Big folder' }) })
      .click();
    await expect.poll(rows).toBe(before - 995);
    await nav(page)
      .getByRole('button', { name: t('folders.expand', { name: 'Big folder' }) })
      .click();
    await expect.poll(rows).toBe(before);
    expect(await drawnRows(page)).toBeLessThan(60);
    await context.close();
  });

  it('updates the feed, folder and total badges and the tab title after a mark read', async () => {
    const { feeds, folders } = await treeRows();
    const alpha = folders.find((f) => f.name === 'Alpha')!;
    const local = feeds.find((f) => f.title === 'Local one')!;
    const { context, page } = await newPage(browser, { width: 1280, height: 860, cookiesAccepted: true });
    await signIn(page, email, password);
    await feedRow(page, local.id).waitFor();
    const total = () => badge(nav(page).getByRole('link', { name: new RegExp(t('dashboard.sidebar.allArticles')) })).textContent();
    await expect.poll(() => badge(feedRow(page, local.id)).textContent()).toBe('3');
    expect(await badge(folderHeader(page, alpha.id)).textContent()).toBe('6');
    expect(await total()).toBe('6');
    await expect.poll(() => page.title()).toMatch(/^\(6\) /);

    await feedRow(page, local.id).getByRole('link').click();
    await page.waitForURL(`**/dashboard?feed=${local.id}`);
    await page
      .getByRole('button', { name: t('articles.card.markRead') })
      .first()
      .click();
    await expect.poll(() => badge(feedRow(page, local.id)).textContent()).toBe('2');
    await expect.poll(() => badge(folderHeader(page, alpha.id)).textContent()).toBe('5');
    await expect.poll(total).toBe('5');
    await expect.poll(() => page.title()).toMatch(/^\(5\) /);
    await context.close();
  });

  it('drags with a finger in the phone drawer far down the list; choosing a feed closes the drawer', async () => {
    const { keys, feeds, folders } = await treeRows();
    const zeta = folders.find((f) => f.name === 'Zeta')!;
    const { context, page } = await newPage(browser, { width: 390, height: 844, touch: true, cookiesAccepted: true });
    await signIn(page, email, password);
    const cdp = await context.newCDPSession(page);
    await page.getByRole('button', { name: t('dashboard.sidebar.open') }).click();
    await folderHeader(page, zeta.id).or(nav(page).locator('li[data-feed-id]').first()).first().waitFor();
    await page.waitForTimeout(300);

    const moving = feeds.filter((f) => f.folder_id === null)[0];
    await scrollToRow(page, keys.indexOf(`feed-${moving.id}`));
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const a = await center(page, feedRow(page, moving.id));
    await touch('touchStart', a.x, a.y);
    await page.waitForTimeout(450);
    const b = await center(page, folderHeader(page, zeta.id));
    for (let i = 1; i <= 12; i++) {
      await touch('touchMove', a.x + ((b.x - a.x) * i) / 12, a.y + ((b.y - a.y) * i) / 12);
      await page.waitForTimeout(16);
    }
    await page.waitForTimeout(150);
    await touch('touchMove', b.x, b.y + 1);
    await page.waitForTimeout(150);
    await touch('touchEnd', b.x, b.y);
    await expect.poll(() => folderOf(moving.id)).toBe(zeta.id);

    // A tap on a feed opens it and closes the drawer.
    const other = feeds.filter((f) => f.folder_id === null)[3];
    await feedRow(page, other.id).getByRole('link').click();
    await page.waitForURL(`**/dashboard?feed=${other.id}`);
    await expect.poll(() => page.getByRole('dialog', { name: t('dashboard.sidebar.label') }).count()).toBe(0);
    await context.close();
  });
});
