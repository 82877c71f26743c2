import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ArticlePage, UnreadCounts } from '../../../common/api.js';
import { createFolder, setFeedFolder } from '../../folders/folders.repository.js';
import { DIALECTS } from '../../test/dialects.js';
import { ITEM_EPOCH_MS, item, type TestFeedServer, type TestItem } from '../../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, refetch, signedInUser, subscribeFetched } from '../../test/feed-user.js';
import type { TestApp } from '../../test/test-app.js';

/**
 * The Fever API (README.md beside this file) on both dialects, against feeds really fetched from a local feed
 * server, driven the way Reeder, Unread, Fiery Feeds and ReadKit drive it: a POST with api_key (multipart or
 * urlencoded) and the selectors in the query string, paging items with since_id until empty, then syncing
 * unread and saved ids, marking items, feeds and groups.
 */
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const HOUR = 3_600_000;

type Via = 'multipart' | 'form' | 'query';

function multipart(fields: Record<string, string>): { payload: string; contentType: string } {
  const boundary = '----FeverTestBoundary7MA4YWxkTrZu0gW';
  const payload =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') + `--${boundary}--\r\n`;
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

for (const dialect of DIALECTS) {
  describe(`Fever API (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));
    // Tests that move the clock put it back, also when they fail.
    afterEach(() => t.clock.reset());

    /** POSTs (or GETs) /api/fever.php with the selectors in the query and the write arguments where `via` puts them. */
    async function call(query: string, fields: Record<string, string>, via: Via = 'multipart') {
      let res;
      if (via === 'query') {
        const qs = new URLSearchParams(fields).toString();
        res = await t.app.inject({ method: 'GET', url: `/api/fever.php?${query}${qs ? `&${qs}` : ''}` });
      } else if (via === 'form') {
        res = await t.app.inject({
          method: 'POST',
          url: `/api/fever.php?${query}`,
          payload: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      } else {
        const body = multipart(fields);
        res = await t.app.inject({ method: 'POST', url: `/api/fever.php?${query}`, payload: body.payload, headers: { 'content-type': body.contentType } });
      }
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      return res.json();
    }

    async function user() {
      const u = await signedInUser(t);
      const web = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => u.call(method, url, payload);
      const { password } = (await web('PUT', '/api/user/fever-api', { enabled: true })).json();
      const apiKey = md5(`${u.email}:${password}`);
      const self = {
        id: u.id,
        email: u.email,
        apiKey,
        web,
        renew: u.renew,
        fever: (query: string, fields: Record<string, string> = {}, via: Via = 'multipart') => call(query, { api_key: apiKey, ...fields }, via),
        /** Subscribes to a feed served at a new path with these items and fetches it. */
        feed: (title: string, items: TestItem[]) => subscribeFetched(t, server, u.id, title, items),
        refetch: (feed: { id: number; path: string }, title: string, items: TestItem[]) => refetch(t, server, feed, title, items),
        /** Every item id, paging with since_id from 0 until an empty page, as sync clients do. */
        async allItemIds(): Promise<number[]> {
          const ids: number[] = [];
          let since = 0;
          for (let pages = 0; pages < 100; pages++) {
            const page = await self.fever('api&items', { since_id: String(since) });
            if (page.items.length === 0) return ids;
            expect(page.items.length).toBeLessThanOrEqual(50);
            for (const i of page.items) ids.push(i.id);
            since = page.items[page.items.length - 1].id;
          }
          throw new Error('paging did not end');
        },
        unreadIds: async (): Promise<number[]> => idList((await self.fever('api&unread_item_ids')).unread_item_ids),
        savedIds: async (): Promise<number[]> => idList((await self.fever('api&saved_item_ids')).saved_item_ids),
        // The counts and total alone: every answer also carries its version token (see the delta test in feeds).
        counts: async (): Promise<UnreadCounts> => {
          const { counts, total } = (await web('GET', '/api/feeds/unread_counts')).json<UnreadCounts>();
          return { counts, total };
        },
      };
      return self;
    }
    const idList = (s: string) => (s === '' ? [] : s.split(',').map(Number));

    it('answers auth 0 with HTTP 200 for a wrong, missing or disabled key, and just auth for a bare ?api', async () => {
      const u = await user();
      for (const via of ['multipart', 'form', 'query'] as const) {
        expect(await call('api', { api_key: md5('nobody@example.com:nothing') }, via)).toEqual({ api_version: 3, auth: 0 });
        expect(await call('api&items&feeds', {}, via)).toEqual({ api_version: 3, auth: 0 });
        expect(await call('api&items', { api_key: 'not-a-key' }, via)).toEqual({ api_version: 3, auth: 0 });
        const ok = await u.fever('api', {}, via);
        expect(Object.keys(ok).sort()).toEqual(['api_version', 'auth', 'last_refreshed_on_time']);
        expect(ok).toMatchObject({ api_version: 3, auth: 1 });
      }
      // The key is compared case-insensitively; the account password is not the reader-apps password.
      expect(await call('api', { api_key: u.apiKey.toUpperCase() })).toMatchObject({ auth: 1 });
      expect(await call('api', { api_key: md5(`${u.email}:correct horse battery`) })).toMatchObject({ auth: 0 });
      // Without the api argument it is still the API (the path says so), and the trailing slash form works.
      expect((await t.app.inject({ method: 'GET', url: `/api/fever.php?api_key=${u.apiKey}` })).json()).toMatchObject({ auth: 1 });
      expect((await t.app.inject({ method: 'GET', url: `/api/fever.php/?api&api_key=${u.apiKey}` })).json()).toMatchObject({ auth: 1 });
      // api=xml is answered in JSON (README.md).
      expect(await u.fever('api=xml')).toMatchObject({ api_version: 3, auth: 1 });

      await u.web('PUT', '/api/user/fever-api', { enabled: false });
      expect(await u.fever('api&items')).toEqual({ api_version: 3, auth: 0 });
    });

    it('lists groups, feeds and their relations in one request; muted feeds are left out', async () => {
      const u = await user();
      const news = await u.feed('News', [item(1), item(2)]);
      const tech = await u.feed('Tech', [item(3)]);
      const root = await u.feed('Loose', [item(4)]);
      const muted = await u.feed('Muted', [item(5)]);
      const now = new Date().toISOString();
      const reading = await createFolder(t.database.db, u.id, 'Reading', now);
      const empty = await createFolder(t.database.db, u.id, 'Empty', now);
      await setFeedFolder(t.database.db, u.id, news.id, reading.id);
      await setFeedFolder(t.database.db, u.id, tech.id, reading.id);
      await setFeedFolder(t.database.db, u.id, muted.id, reading.id);
      expect((await u.web('POST', `/api/feeds/${muted.id}/mute`, { permanently: true })).statusCode).toBe(200);
      await u.web('POST', '/api/feeds/set_custom_title', { feed_id: tech.id, custom_title: 'My Tech' });

      const res = await u.fever('api&groups&feeds');
      expect(res.groups).toEqual([
        { id: reading.id, title: 'Reading' },
        { id: empty.id, title: 'Empty' },
      ]);
      expect(res.feeds.map((f: { id: number }) => f.id)).toEqual([news.id, tech.id, root.id]);
      const first = res.feeds[0];
      expect(first).toMatchObject({ id: news.id, favicon_id: 0, title: 'News', url: server.url(news.path), site_url: 'http://127.0.0.1:9/', is_spark: 0 });
      expect(first.last_updated_on_time).toBeGreaterThan(1_700_000_000);
      expect(res.feeds[1].title).toBe('My Tech');
      expect(res.feeds_groups).toEqual([{ group_id: reading.id, feed_ids: `${news.id},${tech.id}` }]);
      expect(res.last_refreshed_on_time).toBeGreaterThan(1_700_000_000);

      // groups alone also carries feeds_groups; favicons: feeds with an icon, as a data: URL body.
      const g = await u.fever('api&groups');
      expect(g.feeds).toBeUndefined();
      expect(g.feeds_groups).toEqual(res.feeds_groups);
      await t.database.db.updateTable('feeds').set({ icon_data: 'iVBORw0KGgo=', icon_type: 'image/png' }).where('id', 'in', [news.id, muted.id]).execute();
      const icons = await u.fever('api&favicons&feeds&links');
      expect(icons.favicons).toEqual([{ id: news.id, data: 'image/png;base64,iVBORw0KGgo=' }]);
      expect(icons.feeds[0].favicon_id).toBe(news.id);
      expect(icons.links).toEqual([]);
    });

    it('pages items by since_id until empty, backwards by max_id, and by with_ids; 50 a page with total_items', async () => {
      const u = await user();
      await u.feed(
        'Big',
        range(1, 70).map((i) => item(i, { description: `<p>Body of <b>item</b> ${i}</p>` })),
      );
      await u.feed(
        'Small',
        range(1, 12).map((i) => item(i, { title: `Small ${i}` })),
      );

      const all = await u.allItemIds();
      expect(all).toHaveLength(82);
      expect([...all].sort((a, b) => a - b)).toEqual(all); // ascending, no repeats
      expect(new Set(all).size).toBe(82);

      const firstPage = await u.fever('api&items');
      expect(firstPage.total_items).toBe(82);
      expect(firstPage.items).toHaveLength(50);
      expect(firstPage.items.map((i: { id: number }) => i.id)).toEqual(all.slice(0, 50));
      const one = firstPage.items.find((i: { title: string }) => i.title === 'Item 5');
      expect(one).toMatchObject({ author: '', html: '<p>Body of <b>item</b> 5</p>', url: 'http://127.0.0.1:9/item-5', is_saved: 0, is_read: 0 });
      expect(one.created_on_time).toBe(ITEM_EPOCH_MS / 1000 + 5 * 3600);
      expect(Object.keys(one).sort()).toEqual(['author', 'created_on_time', 'feed_id', 'html', 'id', 'is_read', 'is_saved', 'title', 'url']);

      // max_id: newest first, then backwards until empty; max_id=0 means "from the newest".
      const back: number[] = [];
      let max = '0';
      for (;;) {
        const page = await u.fever('api&items', { max_id: max });
        if (page.items.length === 0) break;
        for (const i of page.items) back.push(i.id);
        max = String(page.items[page.items.length - 1].id);
      }
      expect(back).toEqual([...all].reverse());

      // with_ids: at most 50, unknown and foreign ones dropped, in id order.
      const some = [all[3], all[70], all[10]];
      const withIds = await u.fever('api&items', { with_ids: `${some.join(',')},999999999,abc,-4` });
      expect(withIds.items.map((i: { id: number }) => i.id)).toEqual([...some].sort((a, b) => a - b));
      const many = await u.fever('api&items', { with_ids: all.join(',') });
      expect(many.items).toHaveLength(50);
      expect((await u.fever('api&items', { since_id: String(all[81]) })).items).toEqual([]);
    });

    it('syncs unread and saved ids and marks items read, unread, saved and unsaved, shared with the web app', async () => {
      const u = await user();
      const feed = await u.feed(
        'Marks',
        range(1, 6).map((i) => item(i)),
      );
      const ids = await u.allItemIds();
      expect(await u.unreadIds()).toEqual(ids);
      expect(await u.savedIds()).toEqual([]);

      const read = await u.fever('api', { mark: 'item', as: 'read', id: String(ids[0]) });
      expect(idList(read.unread_item_ids)).toEqual(ids.slice(1));
      await u.fever('api', { mark: 'item', as: 'read', id: String(ids[1]) }, 'form');
      await u.fever('api', { mark: 'item', as: 'read', id: String(ids[2]) }, 'query');
      expect(await u.unreadIds()).toEqual(ids.slice(3));
      expect((await u.counts()).counts[String(feed.id)]).toBe(3);
      await u.fever('api', { mark: 'item', as: 'unread', id: String(ids[1]) });
      expect(await u.unreadIds()).toEqual([ids[1], ...ids.slice(3)]);
      expect((await u.counts()).total).toBe(4);

      const saved = await u.fever('api', { mark: 'item', as: 'saved', id: String(ids[4]) });
      expect(saved.saved_item_ids).toBe(String(ids[4]));
      await u.fever('api', { mark: 'item', as: 'saved', id: String(ids[0]) });
      expect(await u.savedIds()).toEqual([ids[0], ids[4]]);
      const favs: ArticlePage = (await u.web('GET', '/api/articles/favorites')).json();
      expect(favs.articles.map((a) => a.id).sort()).toEqual([ids[0], ids[4]].sort());
      await u.fever('api', { mark: 'item', as: 'unsaved', id: String(ids[0]) });
      expect(await u.savedIds()).toEqual([ids[4]]);

      const page = await u.fever('api&items', { with_ids: `${ids[0]},${ids[4]}` });
      expect(page.items.map((i: { is_read: number; is_saved: number }) => [i.is_read, i.is_saved])).toEqual([
        [1, 0],
        [0, 1],
      ]);
      // Read in the web app shows in Fever.
      await u.web('POST', `/api/articles/${ids[5]}/read`);
      expect(await u.unreadIds()).toEqual([ids[1], ids[3], ids[4]]);
    });

    it('marks a feed read up to `before`: articles stored after the client synced stay unread', async () => {
      const u = await user();
      const feed = await u.feed(
        'Before',
        range(1, 4).map((i) => item(i)),
      );
      const other = await u.feed('Other', [item(1)]);
      const synced = Math.floor(t.clock.now().getTime() / 1000);
      t.clock.advance(HOUR);
      await u.renew();
      await u.refetch(
        feed,
        'Before',
        range(1, 6).map((i) => item(i)),
      );
      const ids = await u.allItemIds();
      expect(ids).toHaveLength(7);
      const res = await u.fever('api', { mark: 'feed', as: 'read', id: String(feed.id), before: String(synced) });
      const unread = idList(res.unread_item_ids);
      expect(unread).toHaveLength(3); // the two new ones and the other feed's
      const page = await u.fever('api&items', { with_ids: unread.join(',') });
      expect(page.items.map((i: { title: string }) => i.title).sort()).toEqual(['Item 1', 'Item 5', 'Item 6']);
      expect((await u.counts()).counts).toEqual({ [String(feed.id)]: 2, [String(other.id)]: 1 });
      // Without before (or 0): everything of the feed up to now.
      await u.fever('api', { mark: 'feed', as: 'read', id: String(feed.id), before: '0' });
      expect((await u.counts()).counts[String(feed.id)]).toBe(0);
      expect(await u.unreadIds()).toHaveLength(1);
    });

    it('marks a group (folder) read, and group 0 (Kindling) marks everything read', async () => {
      const u = await user();
      const a = await u.feed('A', [item(1), item(2)]);
      const b = await u.feed('B', [item(1)]);
      const c = await u.feed('C', [item(1), item(2), item(3)]);
      const folder = await createFolder(t.database.db, u.id, 'Folder', new Date().toISOString());
      await setFeedFolder(t.database.db, u.id, a.id, folder.id);
      await setFeedFolder(t.database.db, u.id, b.id, folder.id);
      const before = String(Math.floor(Date.now() / 1000) + 60);
      await u.fever('api', { mark: 'group', as: 'read', id: String(folder.id), before });
      expect((await u.counts()).counts).toEqual({ [String(a.id)]: 0, [String(b.id)]: 0, [String(c.id)]: 3 });
      // A Sparks-style negative id and an unknown folder change nothing.
      await u.fever('api', { mark: 'group', as: 'read', id: '-1', before });
      await u.fever('api', { mark: 'group', as: 'read', id: '987654', before });
      expect((await u.counts()).total).toBe(3);
      const res = await u.fever('api', { mark: 'group', as: 'read', id: '0', before });
      expect(res.unread_item_ids).toBe('');
      expect((await u.counts()).total).toBe(0);
    });

    it('unread_recently_read=1 makes the reads of the last minutes unread again', async () => {
      const u = await user();
      await u.feed(
        'Recent',
        range(1, 4).map((i) => item(i)),
      );
      const ids = await u.allItemIds();
      await u.fever('api', { mark: 'item', as: 'read', id: String(ids[0]) });
      t.clock.advance(30 * 60_000);
      await u.renew();
      await u.fever('api', { mark: 'item', as: 'read', id: String(ids[1]) });
      await u.fever('api', { mark: 'item', as: 'read', id: String(ids[2]) });
      expect(await u.unreadIds()).toEqual([ids[3]]);
      const res = await u.fever('api', { unread_recently_read: '1' });
      expect(idList(res.unread_item_ids)).toEqual(ids.slice(1));
      expect((await u.counts()).total).toBe(3);
    });

    it("never shows or changes another user's items", async () => {
      const a = await user();
      const b = await user();
      await a.feed('Mine', [item(1), item(2)]);
      await b.feed('Theirs', [item(1), item(2)]);
      const theirs = await b.allItemIds();
      const mine = await a.allItemIds();
      expect(mine.some((id) => theirs.includes(id))).toBe(false);
      expect((await a.fever('api&items', { with_ids: theirs.join(',') })).items).toEqual([]);
      for (const as of ['read', 'saved']) await a.fever('api', { mark: 'item', as, id: String(theirs[0]) });
      expect(await b.unreadIds()).toEqual(theirs);
      expect(await b.savedIds()).toEqual([]);
      const bFeeds = (await b.fever('api&feeds')).feeds;
      await a.fever('api', { mark: 'feed', as: 'read', id: String(bFeeds[0].id) });
      expect(await b.unreadIds()).toEqual(theirs);
      expect((await a.fever('api&feeds')).feeds.map((f: { id: number }) => f.id)).not.toContain(bFeeds[0].id);
    });

    it('keeps muted feeds and filtered-out articles invisible; marks on muted articles are ignored', async () => {
      const u = await user();
      const loud = await u.feed('Loud', [item(1, { title: 'Keep me' }), item(2, { title: 'Sponsored: buy now' })]);
      const quiet = await u.feed('Quiet', [item(1), item(2)]);
      const before = await u.allItemIds();
      expect(before).toHaveLength(4);
      const quietIds = (await u.fever('api&items', { with_ids: before.join(',') })).items
        .filter((i: { feed_id: number }) => i.feed_id === quiet.id)
        .map((i: { id: number }) => i.id);

      expect((await u.web('POST', `/api/feeds/${loud.id}/filters`, { filter_type: 'exclude', filter_scope: 'title', filter_text: 'sponsored' })).statusCode).toBe(201);
      expect((await u.web('POST', `/api/feeds/${quiet.id}/mute`, { duration: 24 })).statusCode).toBe(200);

      const visible = await u.fever('api&items&unread_item_ids&feeds');
      expect(visible.items.map((i: { title: string }) => i.title)).toEqual(['Keep me']);
      expect(visible.total_items).toBe(1);
      expect(idList(visible.unread_item_ids)).toHaveLength(1);
      expect(visible.feeds.map((f: { id: number }) => f.id)).toEqual([loud.id]);
      expect((await u.fever('api&items', { with_ids: before.join(',') })).items).toHaveLength(1);

      await u.fever('api', { mark: 'item', as: 'read', id: String(quietIds[0]) });
      await u.fever('api', { mark: 'item', as: 'saved', id: String(quietIds[1]) });
      await u.fever('api', { mark: 'group', as: 'read', id: '0' });
      await u.web('POST', `/api/feeds/${quiet.id}/unmute`);
      const after = await u.fever('api&items&saved_item_ids', { with_ids: quietIds.join(',') });
      expect(after.items.map((i: { is_read: number; is_saved: number }) => [i.is_read, i.is_saved])).toEqual([
        [0, 0],
        [0, 0],
      ]);
      expect(after.saved_item_ids).toBe('');
    });

    it('answers every hostile argument with a 200 or a 4xx, never a 500', async () => {
      const u = await user();
      await u.feed(
        'Hostile',
        range(1, 3).map((i) => item(i)),
      );
      const ids = await u.allItemIds();
      const odd = [
        '',
        '-1',
        '0',
        'abc',
        '1e3',
        '12abc',
        ' 7 ',
        '99999999999999999999999',
        '9007199254740993',
        '2147483648',
        '1.5',
        ',,,',
        'null',
        '[]',
        '%00',
        'ü'.repeat(500),
      ];
      for (const v of odd) {
        for (const name of ['since_id', 'max_id', 'with_ids', 'id', 'before']) {
          const res = await u.fever(
            'api&items&unread_item_ids',
            { [name]: v, mark: name === 'id' || name === 'before' ? 'feed' : 'item', as: 'read', ...(name === 'before' ? { id: '1' } : {}) },
            'form',
          );
          expect(res.auth).toBe(1);
          expect(Array.isArray(res.items)).toBe(true);
        }
      }
      // U+0000 is refused as everywhere in the app (decisions.md "No NUL characters"), on both databases alike.
      for (const name of ['api_key', 'since_id', 'with_ids', 'id']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/fever.php?api&items',
          payload: new URLSearchParams({ api_key: u.apiKey, [name]: '1\u0000' }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_CHARACTERS' });
      }
      const huge = range(1, 20_000).join(',');
      expect((await u.fever('api&items', { with_ids: huge })).items.length).toBeLessThanOrEqual(50);
      expect((await u.fever('api', { mark: 'item', as: 'read', id: '-5' })).auth).toBe(1);
      expect((await u.fever('api', { mark: 'bogus', as: 'read', id: String(ids[0]) })).auth).toBe(1);
      expect((await u.fever('api', { mark: 'item', as: 'bogus', id: String(ids[0]) })).auth).toBe(1);
      expect((await u.fever('api', { mark: 'feed', as: 'read', id: '1', before: '99999999999999' })).auth).toBe(1);
      // Repeated arguments: the first counts.
      expect((await t.app.inject({ method: 'GET', url: `/api/fever.php?api&api_key=${u.apiKey}&api_key=x&items&since_id=a&since_id=0` })).json().auth).toBe(1);

      const raw = (payload: string | Buffer, contentType?: string, method: 'POST' | 'GET' = 'POST') =>
        t.app.inject({ method, url: `/api/fever.php?api&items&api_key=${u.apiKey}`, payload, headers: contentType ? { 'content-type': contentType } : {} });
      for (const [payload, type] of [
        ['{"api_key": 5}', 'application/json'],
        ['{bad json', 'application/json'],
        ['api_key=' + 'x'.repeat(10_000), 'application/x-www-form-urlencoded'],
        ['just text', 'text/plain'],
        ['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n', 'multipart/form-data'],
        ['garbage', 'multipart/form-data; boundary=zzz'],
        [
          '--zzz\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nfile\r\n--zzz--\r\n',
          'multipart/form-data; boundary=zzz',
        ],
        [Buffer.from([0xff, 0xfe, 0x00, 0x01]), 'application/octet-stream'],
        ['', undefined],
      ] as const) {
        const res = await raw(payload, type);
        expect(res.statusCode, `${type}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode === 200) expect(res.json()).toMatchObject({ api_version: 3 });
      }
      expect((await raw('x'.repeat(200_000), 'application/x-www-form-urlencoded')).statusCode).toBe(413);

      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom('api_key', 'items', 'since_id', 'max_id', 'with_ids', 'mark', 'as', 'id', 'before', 'groups', 'feeds', 'unread_recently_read'),
            fc.string({ maxLength: 30 }),
            {
              maxKeys: 8,
            },
          ),
          fc.constantFrom<Via>('multipart', 'form', 'query'),
          async (fields, via) => {
            const res = await call('api', { api_key: u.apiKey, ...fields }, via);
            expect(res.api_version).toBe(3);
          },
        ),
        { numRuns: 60 },
      );
    });
  });
}
