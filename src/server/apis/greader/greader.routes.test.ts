// @ts-expect-error jsdom ships no types (no @types/jsdom here); the test uses only its strict XML DOMParser.
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableReaderAppsWithNewPassword, setReaderAppsEnabled } from '../app-password.js';
import { parseFeed } from '../../reader/parse/index.js';
import { DIALECTS } from '../../test/dialects.js';
import { ITEM_EPOCH_MS, item, rss, type TestFeedServer, type TestItem } from '../../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, subscribeFetched } from '../../test/feed-user.js';
import type { TestApp } from '../../test/test-app.js';
import { TOKEN_CACHE_TTL_MS } from './greader.auth.js';
import { ITEM_PREFIX, longItemId } from './protocol.js';

/**
 * The Google Reader API (apis/greader/README.md) through HTTP on both dialects, driven the way NetNewsWire, Reeder
 * and Read You drive it, against feeds really fetched from a local feed server.
 */

const API = '/api/greader.php/reader/api/0';
const READING_LIST = 'user/-/state/com.google/reading-list';
const READ = 'user/-/state/com.google/read';
const STARRED = 'user/-/state/com.google/starred';
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

interface Item {
  id: string;
  title: string;
  categories: string[];
  origin: { streamId: string; title: string };
  published: number;
  crawlTimeMsec: string;
  timestampUsec: string;
  summary: { content: string };
  canonical: { href: string }[];
}

/** The fields of the Google Reader answers these tests read (each answer carries only its own). */
interface ReaderJson {
  items: Item[];
  subscriptions: { id: string; title: string; url: string; categories: { id: string; label: string; type: string }[] }[];
  tags: { id: string; type?: string; unread_count?: number }[];
  unreadcounts: { id: string; count: number; newestItemTimestampUsec: string }[];
  max: number;
  continuation?: string;
}

for (const dialect of DIALECTS) {
  describe(`Google Reader API (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));

    /** A user with the reader apps on, signed in through ClientLogin as a client would. */
    async function client() {
      const { user, email } = await t.createUser();
      const password = await enableReaderAppsWithNewPassword(t.database.db, t.config.secret, { id: user.id, email });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/greader.php/accounts/ClientLogin',
        headers: FORM,
        payload: form([
          ['Email', email],
          ['Passwd', password],
        ]),
      });
      expect(login.statusCode, login.body).toBe(200);
      const auth = /^Auth=(.+)$/m.exec(login.body)![1];
      const headers = { authorization: `GoogleLogin auth=${auth}` };
      const self = {
        id: user.id,
        email,
        password,
        auth,
        headers,
        get: (path: string) => t.app.inject({ method: 'GET', url: `${API}/${path}`, headers }),
        post: (path: string, pairs: [string, string][]) =>
          t.app.inject({ method: 'POST', url: `${API}/${path}`, headers: { ...headers, ...FORM }, payload: form(pairs) }),
        async json<T = ReaderJson>(path: string): Promise<T> {
          const res = await self.get(path);
          expect(res.statusCode, res.body).toBe(200);
          return res.json<T>();
        },
        async ids(query: string): Promise<{ itemRefs: { id: string }[]; continuation?: string }> {
          return self.json(`stream/items/ids?${query}`);
        },
        async contents(ids: string[]): Promise<Item[]> {
          const res = await self.post(
            'stream/items/contents',
            ids.map((i) => ['i', i]),
          );
          expect(res.statusCode, res.body).toBe(200);
          return res.json().items;
        },
        async ok(path: string, pairs: [string, string][]) {
          const res = await self.post(path, pairs);
          expect(res.statusCode, res.body).toBe(200);
          expect(res.body).toBe('OK');
        },
        /** Subscribes to a feed served at a new path with these items and refreshes it; returns the feed id. */
        feed: async (title: string, items: TestItem[]): Promise<number> => (await subscribeFetched(t, server, user.id, title, items)).id,
        async unread(streamId: string): Promise<number> {
          const counts = await self.json<{ unreadcounts: { id: string; count: number }[] }>('unread-count?output=json');
          return counts.unreadcounts.find((c) => c.id === streamId)?.count ?? -1;
        },
      };
      return self;
    }
    const idsOf = (r: { itemRefs: { id: string }[] }) => r.itemRefs.map((x) => x.id);
    const titles = (items: Item[]) => items.map((i) => i.title);

    it('signs in with ClientLogin (form body or query) and refuses a wrong password, switched-off apps and a revoked token', async () => {
      const c = await client();
      expect(c.auth).toMatch(new RegExp(`^${c.id}/[0-9a-f]{40}$`));
      const viaQuery = await t.app.inject({
        method: 'GET',
        url: `/api/greader.php/accounts/ClientLogin?Email=${encodeURIComponent(c.email.toUpperCase())}&Passwd=${encodeURIComponent(c.password)}`,
      });
      expect(viaQuery.statusCode).toBe(200);
      expect(viaQuery.body).toBe(`SID=${c.auth}\nLSID=null\nAuth=${c.auth}\n`);
      for (const payload of [
        form([
          ['Email', c.email],
          ['Passwd', 'wrong'],
        ]),
        form([['Email', c.email]]),
        '',
        '%%%',
      ]) {
        const bad = await t.app.inject({ method: 'POST', url: '/api/greader.php/accounts/ClientLogin', headers: FORM, payload });
        expect(bad.statusCode).toBe(401);
        expect(bad.body).toBe('Error=BadAuthentication\n');
      }

      const token = await c.get('token');
      expect(token.statusCode).toBe(200);
      expect(token.headers['cache-control']).toBe('no-store');
      expect(token.body).toMatch(/^[0-9a-f]{40}Z{17}\n$/);
      expect(await c.json('user-info')).toMatchObject({ userId: String(c.id), userEmail: c.email, userProfileId: String(c.id) });

      for (const headers of [
        {},
        { authorization: 'GoogleLogin auth=junk' },
        { authorization: `GoogleLogin auth=${c.id}/${'0'.repeat(40)}` },
        { authorization: `Bearer ${c.auth}` },
      ]) {
        const res = await t.app.inject({ method: 'GET', url: `${API}/user-info`, headers });
        expect(res.statusCode).toBe(401);
        expect(res.headers['google-bad-token']).toBe('true');
      }

      // Switched off: ClientLogin refuses at once; a token checked before is refused once its cache entry ends.
      await setReaderAppsEnabled(t.database.db, c.id, false, new Date().toISOString());
      const off = await t.app.inject({
        method: 'POST',
        url: '/api/greader.php/accounts/ClientLogin',
        headers: FORM,
        payload: form([
          ['Email', c.email],
          ['Passwd', c.password],
        ]),
      });
      expect(off.statusCode).toBe(401);
      t.clock.advance(TOKEN_CACHE_TTL_MS + 1000);
      expect((await c.get('user-info')).statusCode).toBe(401);
      // A new password (regenerate) revokes tokens of the old one.
      const fresh = await enableReaderAppsWithNewPassword(t.database.db, t.config.secret, { id: c.id, email: c.email });
      expect(fresh).not.toBe(c.password);
      expect((await c.get('user-info')).statusCode).toBe(401);
    });

    it('serves a NetNewsWire-style sync: subscriptions, labels, counts, unread ids, contents in batches, edit-tag and mark-all-as-read', async () => {
      const c = await client();
      const news = await c.feed(
        'News',
        range(1, 5).map((i) => item(i)),
      );
      const tech = await c.feed(
        'Tech',
        range(6, 8).map((i) => item(i, { title: `Tech ${i}`, guid: `tech-${i}` })),
      );
      await c.ok('subscription/edit', [
        ['ac', 'edit'],
        ['s', `feed/${tech}`],
        ['a', 'user/-/label/Gadgets'],
      ]);

      const subs = await c.json('subscription/list?output=json');
      expect(subs.subscriptions).toHaveLength(2);
      expect(subs.subscriptions[0]).toMatchObject({ id: `feed/${news}`, title: 'News', categories: [], url: expect.stringMatching(/^http:\/\/127\.0\.0\.1/) });
      expect(subs.subscriptions[1]).toMatchObject({
        id: `feed/${tech}`,
        title: 'Tech',
        categories: [{ id: 'user/-/label/Gadgets', label: 'Gadgets', type: 'folder' }],
      });
      const tags = await c.json('tag/list?output=json');
      expect(tags.tags).toEqual([{ id: STARRED }, { id: 'user/-/label/Gadgets', type: 'folder', unread_count: 3 }]);
      const counts = await c.json('unread-count?output=json');
      expect(counts.max).toBe(8);
      expect(counts.unreadcounts).toEqual(
        expect.arrayContaining([
          { id: `feed/${news}`, count: 5, newestItemTimestampUsec: `${ITEM_EPOCH_MS + 5 * 3_600_000}000` },
          expect.objectContaining({ id: `feed/${tech}`, count: 3 }),
          expect.objectContaining({ id: 'user/-/label/Gadgets', count: 3 }),
          expect.objectContaining({ id: READING_LIST, count: 8 }),
        ]),
      );

      const unread = idsOf(await c.ids(`s=${READING_LIST}&xt=${READ}&n=1000&output=json`));
      expect(unread).toHaveLength(8);
      expect(unread.every((id) => /^[0-9]+$/.test(id))).toBe(true);
      const starred = await c.ids(`s=${STARRED}&n=1000`);
      expect(starred).toEqual({ itemRefs: [] });

      // Contents in batches of 3, short ids, as NetNewsWire fetches them.
      const items: Item[] = [];
      for (let i = 0; i < unread.length; i += 3) items.push(...(await c.contents(unread.slice(i, i + 3))));
      expect(items.map((x) => x.id).sort()).toEqual(unread.map((id) => longItemId(Number(id))).sort());
      const five = items.find((x) => x.title === 'Item 5')!;
      expect(five).toMatchObject({
        origin: { streamId: `feed/${news}`, title: 'News' },
        categories: [READING_LIST],
        published: (ITEM_EPOCH_MS + 5 * 3_600_000) / 1000,
        summary: { content: '<p>About Item 5</p>' },
      });
      expect(five.timestampUsec).toBe(`${five.crawlTimeMsec}000`);
      expect(items.find((x) => x.title === 'Tech 7')!.categories).toEqual([READING_LIST, 'user/-/label/Gadgets']);

      // edit-tag: read with the long form, starred with the short form, T as the token endpoint gives it.
      const T = (await c.get('token')).body.trim();
      const id5 = BigInt('0x' + five.id.slice(ITEM_PREFIX.length)).toString();
      await c.ok('edit-tag', [
        ['i', five.id],
        ['a', READ],
        ['T', T],
      ]);
      await c.ok('edit-tag', [
        ['i', id5],
        ['a', STARRED],
        ['a', 'user/-/label/Unknown'],
        ['T', 'x'],
      ]);
      const [after] = await c.contents([id5]);
      expect(after.categories).toEqual([READING_LIST, READ, STARRED]);
      expect(idsOf(await c.ids(`s=${STARRED}`))).toEqual([id5]);
      expect(await c.unread(`feed/${news}`)).toBe(4);
      expect(idsOf(await c.ids(`s=${READING_LIST}&xt=${READ}&n=1000`))).not.toContain(id5);
      expect(idsOf(await c.ids(`s=${READ}`))).toEqual([id5]);
      expect(idsOf(await c.ids(`s=${READING_LIST}&xt=user/-/state/com.google/unread`))).toEqual([id5]);
      expect(idsOf(await c.ids(`s=${READING_LIST}&it=${READ}`))).toEqual([id5]);
      expect(idsOf(await c.ids(`s=${READ}&xt=${READ}`))).toEqual([]);
      // The web app sees the same state.
      const web = await t.app.inject({
        method: 'GET',
        url: '/api/articles/favorites',
        headers: t.bearer((await t.login(c.email, 'correct horse battery')).access_token),
      });
      expect(web.json().articles.map((a: { id: number }) => a.id)).toEqual([Number(id5)]);
      await c.ok('edit-tag', [
        ['i', id5],
        ['r', READ],
        ['r', STARRED],
      ]);
      expect(await c.unread(`feed/${news}`)).toBe(5);
      await c.ok('edit-tag', [
        ['i', id5],
        ['a', READ],
      ]);
      await c.ok('edit-tag', [
        ['i', id5],
        ['a', 'user/-/state/com.google/kept-unread'],
      ]);
      expect(await c.unread(`feed/${news}`)).toBe(5);

      // mark-all-as-read with ts: what arrived after ts stays unread.
      const ts = `${t.clock.now().getTime() + 30 * 60_000}000`;
      t.clock.advance(3_600_000);
      const path = (await t.database.db.selectFrom('feeds').select('url').where('id', '=', news).executeTakeFirstOrThrow()).url.replace(/^http:\/\/[^/]+/, '');
      server.set(path, {
        body: rss(
          'News',
          range(1, 7).map((i) => item(i)),
        ),
      });
      expect((await t.refresh.refreshFeed(news)).status).toBe('ok');
      expect(await c.unread(`feed/${news}`)).toBe(7);
      await c.ok('mark-all-as-read', [
        ['s', `feed/${news}`],
        ['ts', ts],
      ]);
      expect(await c.unread(`feed/${news}`)).toBe(2);
      expect(await c.unread(`feed/${tech}`)).toBe(3);
      await c.ok('mark-all-as-read', [['s', 'user/-/label/Gadgets']]);
      expect(await c.unread(`feed/${tech}`)).toBe(0);
      await c.ok('mark-all-as-read', [
        ['s', READING_LIST],
        ['ts', `${t.clock.now().getTime()}000`],
      ]);
      expect(await c.unread(READING_LIST)).toBe(0);
      expect((await c.json('unread-count')).max).toBe(0);
    });

    it('pages with continuations without gaps or repeats, newest or oldest first, also while items are marked read', async () => {
      const c = await client();
      await c.feed(
        'Many',
        range(1, 25).map((i) => item(i)),
      );
      await c.feed(
        'Same time',
        range(1, 6).map((i) => item(i, { guid: `same-${i}`, title: `Same ${i}`, pubDate: new Date(ITEM_EPOCH_MS + 10 * 3_600_000).toUTCString() })),
      );

      const pages = async (base: string, n: number) => {
        const seen: string[] = [];
        let c0: string | undefined;
        let calls = 0;
        do {
          const page = await c.json<{ items: Item[]; continuation?: string }>(`${base}&n=${n}${c0 ? `&c=${c0}` : ''}`);
          expect(page.items.length).toBeLessThanOrEqual(n);
          if (page.continuation !== undefined) expect(typeof page.continuation).toBe('string');
          seen.push(...titles(page.items));
          c0 = page.continuation;
        } while (c0 !== undefined && ++calls < 20);
        return seen;
      };
      const all = await pages(`stream/contents/${READING_LIST}?output=json`, 7);
      expect(all).toHaveLength(31);
      expect(new Set(all).size).toBe(31);
      expect(all[0]).toBe('Item 25');
      expect(all.slice(-1)[0]).toBe('Item 1');
      expect(await pages(`stream/contents/${READING_LIST}?output=json`, 31)).toEqual(all);
      const oldest = await pages(`stream/contents/${encodeURIComponent(READING_LIST)}?r=o`, 4);
      expect(oldest).toEqual([...all].reverse());

      // Read You style: unread ids with xt=read, page by page, marking each page read before asking the next.
      const unread: string[] = [];
      let cont: string | undefined;
      do {
        const page = await c.ids(`s=${READING_LIST}&xt=${READ}&n=5${cont ? `&c=${cont}` : ''}`);
        unread.push(...idsOf(page));
        if (page.itemRefs.length) await c.ok('edit-tag', [...page.itemRefs.map((r): [string, string] => ['i', r.id]), ['a', READ]]);
        cont = page.continuation;
      } while (cont !== undefined);
      expect(unread).toHaveLength(31);
      expect(new Set(unread).size).toBe(31);
      expect(await c.unread(READING_LIST)).toBe(0);
      // Last page exactly full: no continuation after it.
      const exact = await c.ids(`s=${READING_LIST}&n=31`);
      expect(exact.itemRefs).toHaveLength(31);
      expect(exact.continuation).toBeUndefined();
    });

    it('names items by long, short and bare-hex ids and streams by feed id, feed URL, label and query', async () => {
      const c = await client();
      const feedId = await c.feed(
        'Forms',
        range(1, 3).map((i) => item(i)),
      );
      await c.ok('subscription/edit', [
        ['ac', 'edit'],
        ['s', `feed/${feedId}`],
        ['a', 'user/-/label/Folder One'],
      ]);
      const short = idsOf(await c.ids(`s=feed/${feedId}`));
      expect(short).toHaveLength(3);
      const long = short.map((id) => longItemId(Number(id)));
      const bare = long.map((id) => id.slice(ITEM_PREFIX.length));
      for (const form_ of [short, long, bare]) expect(titles(await c.contents(form_))).toEqual(['Item 3', 'Item 2', 'Item 1']);
      // As a GET query, and oldest first.
      const viaGet = await c.json(`stream/items/contents?${short.map((i) => `i=${i}`).join('&')}&r=o`);
      expect(titles(viaGet.items)).toEqual(['Item 1', 'Item 2', 'Item 3']);

      const url = (await t.database.db.selectFrom('feeds').select('url').where('id', '=', feedId).executeTakeFirstOrThrow()).url;
      const expected = ['Item 3', 'Item 2', 'Item 1'];
      expect(titles((await c.json(`stream/contents/feed/${feedId}`)).items)).toEqual(expected);
      expect(titles((await c.json(`stream/contents/${encodeURIComponent(`feed/${url}`)}`)).items)).toEqual(expected);
      expect(titles((await c.json(`stream/contents/user/-/label/Folder%20One`)).items)).toEqual(expected);
      // The feed URL unencoded in the path (older clients), and a trailing slash on a plain call.
      expect(titles((await c.json(`stream/contents/feed/${url}`)).items)).toEqual(expected);
      expect((await c.json('tag/list/')).tags[0]).toEqual({ id: STARRED });
      expect(titles((await c.json(`stream/contents?s=${encodeURIComponent('user/-/label/Folder One')}`)).items)).toEqual(expected);
      expect(titles((await c.json(`stream/contents/user/${c.id}/label/Folder%20One`)).items)).toEqual(expected);
      const page = await c.json(`stream/contents/feed/${feedId}?n=1`);
      expect(page).toMatchObject({ id: `feed/${feedId}`, title: 'Forms', continuation: short[0] });
      expect(idsOf(await c.ids(`s=${encodeURIComponent(`feed/${url}`)}`))).toEqual(short);
      const sub = await c.ids(`s=${READING_LIST}&includeAllDirectSubstreams=true`);
      expect(sub.itemRefs[0]).toMatchObject({ id: short[0], directStreamIds: [`feed/${feedId}`, 'user/-/label/Folder One'] });
      // Unknown feed or label: an empty stream, not an error.
      expect((await c.json('stream/contents/feed/999999')).items).toEqual([]);
      expect((await c.json('stream/contents/user/-/label/Nope')).items).toEqual([]);
      // ot: crawled since (seconds); nt: crawled before.
      const crawled = Math.floor(Number((await c.contents([short[0]]))[0].crawlTimeMsec) / 1000);
      expect(idsOf(await c.ids(`s=feed/${feedId}&ot=${crawled - 5}`))).toHaveLength(3);
      expect(idsOf(await c.ids(`s=feed/${feedId}&ot=${crawled + 5}`))).toHaveLength(0);
      expect(idsOf(await c.ids(`s=feed/${feedId}&nt=${crawled - 5}`))).toHaveLength(0);
    });

    it('subscribes, renames, moves between labels, quick-adds and unsubscribes; renames and disables labels', async () => {
      const c = await client();
      server.set(`/sub-${dialect}.xml`, { body: rss('Subscribed', [item(1), item(2)]) });
      server.set(`/quick-${dialect}.xml`, { body: rss('Quick', [item(1)]) });
      const url = server.url(`/sub-${dialect}.xml`);
      await c.ok('subscription/edit', [
        ['ac', 'subscribe'],
        ['s', `feed/${url}`],
        ['t', 'My title'],
        ['a', 'user/-/label/Reading'],
      ]);
      let subs = (await c.json('subscription/list')).subscriptions;
      expect(subs).toHaveLength(1);
      expect(subs[0]).toMatchObject({ title: 'My title', url, categories: [{ id: 'user/-/label/Reading', label: 'Reading' }] });
      const feedId = Number(subs[0].id.slice(5));
      // Subscribing again is no error, and the label can change on the way.
      await c.ok('subscription/edit', [
        ['ac', 'subscribe'],
        ['s', `feed/${url}`],
        ['a', 'user/-/label/Other'],
      ]);
      expect((await c.json('subscription/list')).subscriptions[0].categories).toEqual([{ id: 'user/-/label/Other', label: 'Other', type: 'folder' }]);
      await c.ok('subscription/edit', [
        ['ac', 'edit'],
        ['s', `feed/${feedId}`],
        ['t', 'Renamed'],
        ['a', 'user/-/label/Reading'],
      ]);
      await c.ok('subscription/edit', [
        ['ac', 'edit'],
        ['s', `feed/${feedId}`],
        ['r', 'user/-/label/Other'],
      ]);
      subs = (await c.json('subscription/list')).subscriptions;
      expect(subs[0]).toMatchObject({ title: 'Renamed', categories: [{ id: 'user/-/label/Reading', label: 'Reading' }] });
      await c.ok('subscription/edit', [
        ['ac', 'edit'],
        ['s', `feed/${feedId}`],
        ['r', 'user/-/label/Reading'],
      ]);
      expect((await c.json('subscription/list')).subscriptions[0].categories).toEqual([]);

      const quick = await c.post('subscription/quickadd', [['quickadd', server.url(`/quick-${dialect}.xml`)]]);
      expect(quick.statusCode, quick.body).toBe(200);
      expect(quick.json()).toMatchObject({ numResults: 1, streamId: expect.stringMatching(/^feed\/\d+$/), streamName: 'Quick' });
      const missing = await c.post('subscription/quickadd', [['quickadd', server.url('/nothing-here.xml')]]);
      expect(missing.statusCode).toBe(404);

      // Labels: rename, refuse a clash, disable (the folder goes, its feeds stay).
      await c.ok('subscription/edit', [
        ['ac', 'edit'],
        ['s', `feed/${feedId}`],
        ['a', 'user/-/label/Reading'],
      ]);
      await c.ok('rename-tag', [
        ['s', 'user/-/label/Reading'],
        ['dest', 'user/-/label/Later'],
      ]);
      expect((await c.json('tag/list')).tags.map((x: { id: string }) => x.id)).toEqual([STARRED, 'user/-/label/Later', 'user/-/label/Other']);
      expect(
        (
          await c.post('rename-tag', [
            ['s', 'user/-/label/Later'],
            ['dest', 'user/-/label/other'],
          ])
        ).statusCode,
      ).toBe(409);
      expect(
        (
          await c.post('rename-tag', [
            ['s', 'user/-/label/Nope'],
            ['dest', 'user/-/label/X'],
          ])
        ).statusCode,
      ).toBe(404);
      await c.ok('disable-tag', [['s', 'user/-/label/Later']]);
      expect((await c.json('tag/list')).tags.map((x: { id: string }) => x.id)).toEqual([STARRED, 'user/-/label/Other']);
      subs = (await c.json('subscription/list')).subscriptions;
      expect(subs).toHaveLength(2);
      expect(subs.every((s: { categories: unknown[] }) => s.categories.length === 0)).toBe(true);

      await c.ok('subscription/edit', [
        ['ac', 'unsubscribe'],
        ['s', `feed/${feedId}`],
      ]);
      expect((await c.json('subscription/list')).subscriptions.map((s: { id: string }) => s.id)).not.toContain(`feed/${feedId}`);
      expect(
        (
          await c.post('subscription/edit', [
            ['ac', 'unsubscribe'],
            ['s', `feed/${feedId}`],
          ])
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await c.post('subscription/edit', [
            ['ac', 'explode'],
            ['s', `feed/${feedId}`],
          ])
        ).statusCode,
      ).toBe(400);
    });

    it('serves the Atom stream as valid Atom with continuation', async () => {
      const c = await client();
      const feedId = await c.feed(
        'Atom <source>',
        range(1, 3).map((i) => item(i, { title: `A & B ${i}` })),
      );
      const res = await t.app.inject({ method: 'GET', url: `/api/greader.php/reader/atom/feed/${feedId}?n=2`, headers: c.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/atom\+xml/);
      // Well-formed XML (a strict parser: jsdom's XML mode reports any error as a parsererror document).
      const xml = new new JSDOM('').window.DOMParser().parseFromString(res.body, 'application/xml');
      expect(xml.getElementsByTagName('parsererror')).toHaveLength(0);
      expect(xml.documentElement.namespaceURI).toBe('http://www.w3.org/2005/Atom');
      expect(xml.getElementsByTagNameNS('http://www.w3.org/2005/Atom', 'entry')).toHaveLength(2);
      const parsed = parseFeed(res.body, { url: 'http://feeder.test/' });
      expect(parsed.items.map((i) => i.title)).toEqual(['A & B 3', 'A & B 2']);
      expect(res.body).toMatch(/<gr:continuation>\d+<\/gr:continuation>/);
      expect(res.body).toContain(`gr:stream-id="feed/${feedId}"`);
      const all = await t.app.inject({ method: 'GET', url: '/api/greader.php/reader/atom', headers: c.headers });
      expect(parseFeed(all.body, { url: 'http://feeder.test/' }).items).toHaveLength(3);
      expect((await t.app.inject({ method: 'GET', url: `/api/greader.php/reader/atom/feed/${feedId}` })).statusCode).toBe(401);
    });

    it('keeps muted feeds and filtered-out articles invisible and unchangeable, and another user’s items untouched', async () => {
      const a = await client();
      const b = await client();
      const muted = await a.feed(
        'Muted',
        range(1, 3).map((i) => item(i, { guid: `m-${i}` })),
      );
      const filtered = await a.feed('Filtered', [item(1, { title: 'Keep me', guid: 'f-1' }), item(2, { title: 'Hide me', guid: 'f-2' })]);
      const bearer = t.bearer((await t.login(a.email, 'correct horse battery')).access_token);
      const mutedIds = idsOf(await a.ids(`s=feed/${muted}`));
      const all = idsOf(await a.ids(`s=${READING_LIST}&n=100`));
      expect(all).toHaveLength(5);
      const hidden = (await a.contents(all)).find((i) => i.title === 'Hide me')!;
      expect((await t.app.inject({ method: 'POST', url: `/api/feeds/${muted}/mute`, headers: bearer, payload: { permanently: true } })).statusCode).toBe(200);
      const filter = await t.app.inject({
        method: 'POST',
        url: `/api/feeds/${filtered}/filters`,
        headers: bearer,
        payload: { filter_type: 'exclude', filter_scope: 'title', filter_text: 'hide' },
      });
      expect(filter.statusCode, filter.body).toBe(201);

      const visible = idsOf(await a.ids(`s=${READING_LIST}&n=100`));
      expect(visible).toHaveLength(1);
      expect(titles(await a.contents(all))).toEqual(['Keep me']);
      expect((await a.json(`stream/contents/feed/${muted}`)).items).toEqual([]);
      const counts = (await a.json('unread-count')).unreadcounts.map((u: { id: string }) => u.id);
      expect(counts).not.toContain(`feed/${muted}`);
      expect((await a.json('subscription/list')).subscriptions.map((s: { id: string }) => s.id)).toContain(`feed/${muted}`);
      await a.ok('edit-tag', [...mutedIds.map((i): [string, string] => ['i', i]), ['i', hidden.id], ['a', READ], ['a', STARRED]]);
      const state = await t.database.db
        .selectFrom('user_articles')
        .select(['is_read', 'is_favorite'])
        .where('user_id', '=', a.id)
        .where('article_id', 'in', [...mutedIds.map(Number), Number(BigInt('0x' + hidden.id.slice(ITEM_PREFIX.length)))])
        .execute();
      expect(state.every((s) => s.is_read === 0 && s.is_favorite === 0)).toBe(true);

      // B names A's items and feeds: nothing is shown and nothing changes.
      const keep = visible[0];
      expect(await b.contents([keep, ...all])).toEqual([]);
      await b.ok('edit-tag', [
        ['i', keep],
        ['a', READ],
        ['a', STARRED],
      ]);
      expect((await b.json(`stream/contents/feed/${filtered}`)).items).toEqual([]);
      await b.ok('mark-all-as-read', [['s', `feed/${filtered}`]]);
      expect(
        (
          await b.post('subscription/edit', [
            ['ac', 'unsubscribe'],
            ['s', `feed/${filtered}`],
          ])
        ).statusCode,
      ).toBe(404);
      expect((await b.get(`stream/items/ids?s=${READING_LIST}&c=${keep}`)).statusCode).toBe(400);
      expect((await a.contents([keep]))[0].categories).toEqual([READING_LIST]);
      expect(await a.unread(`feed/${filtered}`)).toBe(1);
    });

    it('answers hostile parameters with 4xx or sane answers, never a 500', async () => {
      const c = await client();
      const feedId = await c.feed(
        'Hostile',
        range(1, 3).map((i) => item(i)),
      );
      const expectStatus = async (method: 'GET' | 'POST', path: string, status: number, payload = '') => {
        const res = await t.app.inject({ method, url: `/api/greader.php${path}`, headers: { ...c.headers, ...FORM }, payload });
        expect(res.statusCode, `${method} ${path} ${payload}: ${res.body}`).toBe(status);
        return res;
      };
      const huge = await expectStatus('GET', `/reader/api/0/stream/contents/${READING_LIST}?n=99999999999`, 200);
      expect(huge.json().items).toHaveLength(3);
      await expectStatus('GET', `/reader/api/0/stream/items/ids?s=${READING_LIST}&n=-5`, 200);
      await expectStatus('GET', `/reader/api/0/stream/items/ids?s=${READING_LIST}&n=abc`, 200);
      for (const c0 of ['junk', '-1', '99999999999999999999', '0', '2147483647', "1' or 1=1"]) {
        await expectStatus('GET', `/reader/api/0/stream/contents/${READING_LIST}?c=${encodeURIComponent(c0)}`, 400);
      }
      for (const s of ['nonsense', 'feed/', 'feed/abc', 'feed/0', 'user/-/state/com.google/broadcast', 'user/-/label/', 'splice/x', 'feed/javascript:alert(1)']) {
        await expectStatus('GET', `/reader/api/0/stream/items/ids?s=${encodeURIComponent(s)}`, 400);
        await expectStatus('GET', `/reader/api/0/stream/contents/${encodeURIComponent(s)}`, 400);
      }
      for (const i of ['abc', '-1', '0', 'tag:google.com,2005:reader/item/zz', `tag:google.com,2005:reader/item/${'f'.repeat(17)}`, '1.5', '']) {
        if (i === '') continue;
        await expectStatus('POST', '/reader/api/0/stream/items/contents', 400, form([['i', i]]));
        await expectStatus(
          'POST',
          '/reader/api/0/edit-tag',
          400,
          form([
            ['i', i],
            ['a', READ],
          ]),
        );
      }
      // Ids that are well-formed but name nothing: an empty answer.
      const none = await expectStatus(
        'POST',
        '/reader/api/0/stream/items/contents',
        200,
        form([
          ['i', '999999999'],
          ['i', 'ffffffffffffffff'.replace(/f/g, '0').replace(/0$/, '1')],
        ]),
      );
      expect(none.json().items).toEqual([]);
      await expectStatus(
        'POST',
        '/reader/api/0/stream/items/contents',
        400,
        range(1, 1001)
          .map((i) => `i=${i}`)
          .join('&'),
      );
      // An edit-tag without any item is a 400 (README.md "Calls"), as FreshRSS and Miniflux answer it.
      await expectStatus('POST', '/reader/api/0/edit-tag', 400, form([['a', READ]]));
      await expectStatus(
        'POST',
        '/reader/api/0/edit-tag',
        401,
        form([
          ['i', '1'],
          ['a', READ],
          ['T', 'not-the-token'],
        ]),
      );
      await expectStatus('POST', '/reader/api/0/mark-all-as-read', 400, form([['ts', '123']]));
      await expectStatus(
        'POST',
        '/reader/api/0/mark-all-as-read',
        400,
        form([
          ['s', READING_LIST],
          ['ts', 'yesterday'],
        ]),
      );
      await expectStatus('POST', '/reader/api/0/mark-all-as-read', 400, form([['s', 'bogus']]));
      await expectStatus('GET', `/reader/api/0/stream/contents/${READING_LIST}?ot=soon`, 400);
      await expectStatus('GET', `/reader/api/0/stream/contents/${READING_LIST}?ot=99999999999999`, 400);
      await expectStatus('POST', '/reader/api/0/subscription/edit', 400, form([['ac', 'subscribe']]));
      await expectStatus(
        'POST',
        '/reader/api/0/subscription/edit',
        400,
        form([
          ['ac', 'subscribe'],
          ['s', 'feed/not a url'],
        ]),
      );
      await expectStatus(
        'POST',
        '/reader/api/0/subscription/edit',
        400,
        form([
          ['ac', 'edit'],
          ['s', `feed/${feedId}`],
          ['a', 'user/-/label/' + 'x'.repeat(201)],
        ]),
      );
      await expectStatus(
        'POST',
        '/reader/api/0/subscription/edit',
        400,
        form([
          ['ac', 'edit'],
          ['s', `feed/${feedId}`],
          ['a', 'not-a-label'],
        ]),
      );
      await expectStatus('POST', '/reader/api/0/subscription/quickadd', 400, '');
      await expectStatus('POST', '/reader/api/0/rename-tag', 400, form([['s', 'user/-/label/A']]));
      await expectStatus('POST', '/reader/api/0/disable-tag', 400, '');
      await expectStatus('GET', '/reader/api/0/no/such/call', 404);
      await expectStatus('GET', '/reader/api/0/stream/contents/%E0%A4%A', 400);
      await expectStatus('GET', '/somewhere/else', 404);
      await expectStatus('POST', '/reader/api/0/edit-tag', 400, '%%%&&&===');
      const jsonBody = await t.app.inject({ method: 'POST', url: `${API}/edit-tag`, headers: { ...c.headers, 'content-type': 'application/json' }, payload: '{"i":1' });
      // Read as a form, that body names no item: a 400 like any edit-tag without i.
      expect(jsonBody.statusCode).toBe(400);
      const ok = await t.app.inject({ method: 'GET', url: '/api/greader.php' });
      expect(ok.body).toBe('OK');
      // Feed list still intact after all that.
      expect((await c.json('subscription/list')).subscriptions.map((s: { id: string }) => s.id)).toEqual([`feed/${feedId}`]);
    });
  });
}
