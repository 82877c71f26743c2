import { createHash } from 'node:crypto';
// @ts-expect-error jsdom ships no types (no @types/jsdom here); the test uses only its strict XML DOMParser.
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/dialects.js';
import { item, type TestFeedServer } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, subscribeFetched } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';
import { enableReaderAppsWithNewPassword } from './app-password.js';

/**
 * The reader apps' own requests, byte for byte as far as the server can tell (method, path, query, body, headers),
 * against the Google Reader API and the Fever API (apis/greader/README.md, apis/fever/README.md). Each test names
 * the client and version whose request it imitates; the request forms come from the clients' sources and from
 * FreshRSS's and Miniflux's protocol notes.
 */

const GR = '/api/greader.php';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const READ = 'user/-/state/com.google/read';
const STARRED = 'user/-/state/com.google/starred';
const READING_LIST = 'user/-/state/com.google/reading-list';
const enc = encodeURIComponent;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

for (const dialect of DIALECTS) {
  describe(`reader apps' requests (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;
    let email: string;
    let password: string;
    let userId: number;
    let feedId: number;
    let articleIds: number[];

    beforeAll(async () => {
      ({ t, server } = await createTestAppWithFeeds({ dialect }));
      const created = await t.createUser();
      email = created.email;
      userId = created.user.id;
      password = await enableReaderAppsWithNewPassword(t.database.db, t.config.secret, { id: userId, email });
      // Titles with the characters clients have got wrong: an ampersand and angle brackets, as plain text.
      const items = [item(1, { title: 'Rust & Go' }), item(2, { title: 'a < b > c' }), item(3, { title: 'Plain' })];
      feedId = (await subscribeFetched(t, server, userId, 'News & Views', items)).id;
      articleIds = (await t.database.db.selectFrom('articles').select('id').where('feed_id', '=', feedId).orderBy('id').execute()).map((r) => r.id);
    });
    afterAll(() => closeTestAppWithFeeds(t, server));

    const clientLogin = async (body: string) => {
      const res = await t.app.inject({ method: 'POST', url: `${GR}/accounts/ClientLogin`, headers: FORM, payload: body });
      expect(res.statusCode, res.body).toBe(200);
      return /^Auth=(.+)$/m.exec(res.body)![1];
    };
    const unread = async () =>
      (await t.database.db.selectFrom('user_articles').select('article_id').where('user_id', '=', userId).where('is_read', '=', 0).orderBy('article_id').execute()).map(
        (r) => r.article_id,
      );
    const markAllUnread = () => t.database.db.updateTable('user_articles').set({ is_read: 0, read_at: null }).where('user_id', '=', userId).execute();

    it('newsboat 2.21 (Google Reader through its FeedHQ source and the Atom stream): plain-text titles arrive as text', async () => {
      // newsboat's feedhq_api: ClientLogin with service, source and continue; then the Atom stream of each feed.
      const auth = await clientLogin(`service=reader&Email=${enc(email)}&Passwd=${enc(password)}&source=newsboat&continue=${enc('http://www.google.com/')}`);
      const headers = { authorization: `GoogleLogin auth=${auth}` };
      const subs = await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/subscription/list?output=json`, headers });
      expect(subs.statusCode).toBe(200);
      const streamId = subs.json().subscriptions[0].id as string;
      const res = await t.app.inject({ method: 'GET', url: `${GR}/reader/atom/${enc(streamId)}?n=100`, headers });
      expect(res.statusCode, res.body).toBe(200);
      const doc = new new JSDOM('').window.DOMParser().parseFromString(res.body, 'application/xml');
      expect(doc.getElementsByTagName('parsererror').length).toBe(0);
      const entries = [...doc.getElementsByTagName('entry')] as Element[];
      const titleOf = (el: Element) => {
        const title = [...el.children].find((c) => c.localName === 'title')!;
        return { type: title.getAttribute('type'), text: title.textContent };
      };
      // Atom text titles (RFC 4287 §3.1.1.1) are shown as they are: one level of XML escaping, no HTML decoding.
      expect(entries.map(titleOf).sort((a, b) => a.text.localeCompare(b.text))).toEqual([
        { type: 'text', text: 'a < b > c' },
        { type: 'text', text: 'Plain' },
        { type: 'text', text: 'Rust & Go' },
      ]);
      expect(res.body).toContain('<title type="text">Rust &amp; Go</title>');
      const source = entries[0].getElementsByTagName('source')[0];
      expect(titleOf(source)).toEqual({ type: 'text', text: 'News & Views' });
      // newsboat marks read with edit-tag and the action token from /token.
      const token = (await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/token`, headers })).body.trim();
      const id = [...entries[0].getElementsByTagName('id')][0].textContent;
      const edit = await t.app.inject({
        method: 'POST',
        url: `${GR}/reader/api/0/edit-tag`,
        headers: { ...headers, ...FORM },
        payload: `a=${enc(READ)}&ac=edit&i=${enc(id)}&T=${token}`,
      });
      expect(edit.statusCode, edit.body).toBe(200);
      expect((await unread()).length).toBe(2);
      await markAllUnread();
    });

    it('Liferea 1.14.4 (Debian 12): stream/items/contents posted with the token only in T and no Authorization header', async () => {
      // Liferea's google source: ClientLogin as newsboat's; ids with the header; contents posted with T=<Auth> only.
      const auth = await clientLogin(`service=reader&Email=${enc(email)}&Passwd=${enc(password)}&source=liferea&continue=${enc('http://www.google.com')}`);
      const headers = { authorization: `GoogleLogin auth=${auth}` };
      const ids = await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/stream/items/ids?s=${enc(READING_LIST)}&n=100&output=json`, headers });
      expect(ids.statusCode, ids.body).toBe(200);
      const refs = ids.json().itemRefs.map((r: { id: string }) => r.id) as string[];
      expect(refs.length).toBe(3);
      const contents = await t.app.inject({
        method: 'POST',
        url: `${GR}/reader/api/0/stream/items/contents?output=json`,
        headers: FORM,
        payload: `${refs.map((r) => `i=${r}`).join('&')}&T=${enc(auth)}`,
      });
      expect(contents.statusCode, contents.body).toBe(200);
      expect(
        contents
          .json()
          .items.map((i: { title: string }) => i.title)
          .sort(),
      ).toEqual(['Plain', 'Rust & Go', 'a < b > c']);
      // Its edits go the same way: T carries the ClientLogin token, and it is not an action token.
      const edit = await t.app.inject({
        method: 'POST',
        url: `${GR}/reader/api/0/edit-tag`,
        headers: FORM,
        payload: `i=${refs[0]}&a=${enc(READ)}&ac=edit-tags&T=${enc(auth)}`,
      });
      expect(edit.statusCode, edit.body).toBe(200);
      expect((await unread()).length).toBe(2);
      await markAllUnread();
      // Every other check stays: a wrong T, a T on a GET, or a T beside a wrong header signs nobody in.
      const refused = [
        await t.app.inject({
          method: 'POST',
          url: `${GR}/reader/api/0/stream/items/contents`,
          headers: FORM,
          payload: `i=${refs[0]}&T=${enc(`${userId}/${'0'.repeat(40)}`)}`,
        }),
        await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/stream/items/contents?i=${refs[0]}&T=${enc(auth)}` }),
        await t.app.inject({
          method: 'POST',
          url: `${GR}/reader/api/0/stream/items/contents`,
          headers: { ...FORM, authorization: 'GoogleLogin auth=nope' },
          payload: `i=${refs[0]}&T=${enc(auth)}`,
        }),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual([401, 401, 401]);
    });

    it('RSS Guard 4.0.4: ClientLogin, tags, unread ids and contents in batches, edit-tag with the header', async () => {
      // GreaderNetwork: ClientLogin with Email/Passwd only; the rest with the header and output=json.
      const auth = await clientLogin(`Email=${enc(email)}&Passwd=${enc(password)}`);
      const headers = { authorization: `GoogleLogin auth=${auth}` };
      const get = (path: string) => t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/${path}`, headers });
      expect((await get('tag/list?output=json')).statusCode).toBe(200);
      const ids = await get(`stream/items/ids?output=json&n=1000&s=${enc(READING_LIST)}&xt=${enc(READ)}`);
      const refs = ids.json().itemRefs.map((r: { id: string }) => r.id) as string[];
      expect(refs.length).toBe(3);
      const contents = await t.app.inject({
        method: 'POST',
        url: `${GR}/reader/api/0/stream/items/contents?output=json`,
        headers: { ...headers, ...FORM },
        payload: refs.map((r) => `i=${r}`).join('&'),
      });
      expect(contents.statusCode, contents.body).toBe(200);
      expect(contents.json().items.length).toBe(3);
      const edit = await t.app.inject({
        method: 'POST',
        url: `${GR}/reader/api/0/edit-tag`,
        headers: { ...headers, ...FORM },
        payload: `a=${enc(STARRED)}&i=${refs[0]}&i=${refs[1]}`,
      });
      expect(edit.statusCode, edit.body).toBe(200);
      // An edit-tag that names no item is a client error, not a silent OK.
      const empty = await t.app.inject({ method: 'POST', url: `${GR}/reader/api/0/edit-tag`, headers: { ...headers, ...FORM }, payload: `a=${enc(READ)}` });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ code: 'ITEM_REQUIRED' });
      await t.database.db.updateTable('user_articles').set({ is_favorite: 0, favorited_at: null }).where('user_id', '=', userId).execute();
    });

    it('Reeder 5 (Google Reader): bare hex ids, T=x, and ClientLogin with output=json', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${GR}/accounts/ClientLogin`,
        headers: FORM,
        payload: `Email=${enc(email)}&Passwd=${enc(password)}&output=json`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json<{ SID: string; LSID: string; Auth: string }>();
      expect(body.Auth).toMatch(/^\d+\/[0-9a-f]{40}$/);
      const headers = { authorization: `GoogleLogin auth=${body.Auth}` };
      const hex = articleIds[0].toString(16).padStart(16, '0');
      const edit = await t.app.inject({ method: 'POST', url: `${GR}/reader/api/0/edit-tag`, headers: { ...headers, ...FORM }, payload: `i=${hex}&a=${enc(READ)}&T=x` });
      expect(edit.statusCode, edit.body).toBe(200);
      expect(await unread()).toEqual(articleIds.slice(1));
      await markAllUnread();
    });

    it('NetNewsWire 6 and FreshRSS-style clients: the short stream form stream/contents/reading-list', async () => {
      const auth = await clientLogin(`Email=${enc(email)}&Passwd=${enc(password)}`);
      const headers = { authorization: `GoogleLogin auth=${auth}` };
      const short = await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/stream/contents/reading-list?n=50&output=json`, headers });
      const long = await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/stream/contents/${READING_LIST}?n=50&output=json`, headers });
      expect(short.statusCode, short.body).toBe(200);
      expect(short.json().items.map((i: { id: string }) => i.id)).toEqual(long.json().items.map((i: { id: string }) => i.id));
      expect(short.json().items.length).toBe(3);
      // NetNewsWire's own sync: unread ids, then contents posted with the action token.
      const token = (await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/token`, headers })).body.trim();
      const ids = await t.app.inject({ method: 'GET', url: `${GR}/reader/api/0/stream/items/ids?s=${enc(READING_LIST)}&n=1000&output=json&xt=${enc(READ)}`, headers });
      const longIds = ids.json().itemRefs.map((r: { id: string }) => `tag:google.com,2005:reader/item/${Number(r.id).toString(16).padStart(16, '0')}`);
      const contents = await t.app.inject({
        method: 'POST',
        url: `${GR}/reader/api/0/stream/items/contents`,
        headers: { ...headers, ...FORM },
        payload: `T=${token}&${longIds.map((i: string) => `i=${enc(i)}`).join('&')}`,
      });
      expect(contents.json().items.length).toBe(3);
    });

    describe('Fever', () => {
      const key = () => md5(`${email}:${password}`);

      it('Reeder 5 (Fever): OPTIONS /api/fever.php answers 204 with Allow', async () => {
        const res = await t.app.inject({ method: 'OPTIONS', url: '/api/fever.php' });
        expect(res.statusCode).toBe(204);
        expect(res.headers.allow).toBe('GET, POST, OPTIONS');
        expect(res.body).toBe('');
      });

      it('a repeated argument means the same in the query and in the urlencoded body: the first counts', async () => {
        const [a, b] = articleIds;
        // In the body: mark=item&as=read&id=<a>&id=<b> marks a (before: the last value won, b).
        await t.app.inject({ method: 'POST', url: '/api/fever.php?api', headers: FORM, payload: `api_key=${key()}&mark=item&as=read&id=${a}&id=${b}` });
        expect(await unread()).toEqual(articleIds.filter((id) => id !== a));
        await markAllUnread();
        // In the query, the same.
        await t.app.inject({ method: 'POST', url: `/api/fever.php?api&mark=item&as=read&id=${a}&id=${b}`, headers: FORM, payload: `api_key=${key()}` });
        expect(await unread()).toEqual(articleIds.filter((id) => id !== a));
        await markAllUnread();
      });

      it('FreshRSS-style items&feed_ids: only items of those feeds', async () => {
        const other = await subscribeFetched(t, server, userId, 'Other', [item(10, { title: 'Elsewhere' })]);
        const items = async (query: string) => {
          const res = await t.app.inject({ method: 'POST', url: `/api/fever.php?api&items${query}`, headers: FORM, payload: `api_key=${key()}` });
          return (res.json().items as { feed_id: number }[]).map((i) => i.feed_id);
        };
        expect(new Set(await items(''))).toEqual(new Set([feedId, other.id]));
        expect(await items(`&feed_ids=${feedId}`)).toEqual([feedId, feedId, feedId]);
        expect(await items(`&feed_ids=${other.id}`)).toEqual([other.id]);
        expect(new Set(await items(`&feed_ids=${feedId},${other.id}`))).toEqual(new Set([feedId, other.id]));
        // Nothing valid in the list: no items (not every item).
        expect(await items('&feed_ids=abc')).toEqual([]);
      });
    });
  });
}
