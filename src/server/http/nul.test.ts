import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableReaderAppsWithNewPassword } from '../apis/app-password.js';
import { DIALECTS } from '../test/dialects.js';
import { item, type TestFeedServer } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, signedInUser, subscribeFetched, subscribeTo, type SignedInUser } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';

/**
 * U+0000 in request input is a 400 INVALID_CHARACTERS on both databases, never a 500 (PostgreSQL cannot store
 * it), and feed text from the network is stored without it (decisions.md "No NUL characters").
 */
const N = 'a\u0000b';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

function multipart(parts: { name: string; value: string; filename?: string }[]) {
  const boundary = 'nul-test-boundary';
  const body =
    parts
      .map(
        (p) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n` +
          (p.filename ? 'Content-Type: text/x-opml\r\n' : '') +
          `\r\n${p.value}\r\n`,
      )
      .join('') + `--${boundary}--\r\n`;
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const dialect of DIALECTS) {
  describe(`NUL characters (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;
    let u: SignedInUser;
    let feedId: number;
    let folderId: number;
    let listId: number;
    let greaderAuth: string;

    beforeAll(async () => {
      ({ t, server } = await createTestAppWithFeeds({ dialect }));
      u = await signedInUser(t);
      ({ id: feedId } = await subscribeFetched(t, server, u.id, 'News', [item(1)]));
      folderId = (await u.call('POST', '/api/folders', { name: 'Folder' })).json().id;
      listId = (await u.call('POST', '/api/reading-lists', { name: 'List' })).json().id;
      const password = await enableReaderAppsWithNewPassword(t.database.db, t.config.secret, { id: u.id, email: u.email });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/greader.php/accounts/ClientLogin',
        headers: FORM,
        payload: form([
          ['Email', u.email],
          ['Passwd', password],
        ]),
      });
      expect(login.statusCode, login.body).toBe(200);
      greaderAuth = /^Auth=(.+)$/m.exec(login.body)![1]!;
    });
    afterAll(() => closeTestAppWithFeeds(t, server));

    type Req = { name: string; method: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown; headers?: Record<string, string>; auth?: boolean };
    const requests = (): Req[] => [
      // unauthenticated
      { name: 'login', method: 'POST', url: '/auth/login', payload: { email: `x${N}@example.com`, password: 'secret password' } },
      { name: 'login password', method: 'POST', url: '/auth/login', payload: { email: u.email, password: N } },
      { name: 'register', method: 'POST', url: '/auth/register', payload: { name: 'New', email: `new${N}@example.com`, password: 'long enough password' } },
      { name: 'register name', method: 'POST', url: '/auth/register', payload: { name: N, email: `new-${Date.now()}@example.com`, password: 'long enough password' } },
      { name: 'forgot password', method: 'POST', url: '/auth/forgot-password', payload: { email: `x${N}@example.com` } },
      { name: 'resend verification', method: 'POST', url: '/auth/resend-verification', payload: { email: `x${N}@example.com` } },
      { name: 'reset password', method: 'POST', url: '/auth/reset-password', payload: { token: N, password: 'long enough password' } },
      { name: 'verify e-mail (query)', method: 'GET', url: '/auth/verify-email?token=a%00b' },
      { name: 'refresh', method: 'POST', url: '/auth/refresh', payload: { refresh_token: N } },
      { name: 'public API authenticate', method: 'POST', url: '/public-api/v1/authenticate', payload: { username: `x${N}@example.com`, password: 'x' } },
      {
        name: 'Google Reader ClientLogin (form)',
        method: 'POST',
        url: '/api/greader.php/accounts/ClientLogin',
        headers: FORM,
        payload: form([
          ['Email', `x${N}@example.com`],
          ['Passwd', 'x'],
        ]),
      },
      { name: 'Google Reader ClientLogin (query)', method: 'GET', url: '/api/greader.php/accounts/ClientLogin?Email=a%00b&Passwd=x' },
      { name: 'Fever api_key (form)', method: 'POST', url: '/api/fever.php?api', headers: FORM, payload: form([['api_key', N]]) },
      { name: 'Fever api_key (query)', method: 'GET', url: '/api/fever.php?api&api_key=a%00b' },
      { name: 'Fever (multipart)', method: 'POST', url: '/api/fever.php?api', ...multipart([{ name: 'api_key', value: N }]) },
      { name: 'bearer token header', method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${N}` } },
      // signed in
      { name: 'profile', method: 'PUT', url: '/auth/me', payload: { name: N }, auth: true },
      { name: 'language', method: 'POST', url: '/api/users/update-language', payload: { language: N }, auth: true },
      { name: 'add feed', method: 'POST', url: '/api/feeds', payload: { url: `http://127.0.0.1/${N}` }, auth: true },
      { name: 'search feeds', method: 'POST', url: '/api/feeds/search', payload: { url: N }, auth: true },
      { name: 'custom title', method: 'POST', url: '/api/feeds/set_custom_title', payload: { feed_id: feedId, custom_title: N }, auth: true },
      { name: 'feed update', method: 'PUT', url: `/api/feeds/${feedId}`, payload: { custom_title: N }, auth: true },
      { name: 'filter', method: 'POST', url: `/api/feeds/${feedId}/filters`, payload: { filter_type: 'include', filter_scope: 'title', filter_text: N }, auth: true },
      { name: 'new folder', method: 'POST', url: '/api/folders', payload: { name: N }, auth: true },
      { name: 'rename folder', method: 'PUT', url: `/api/folders/${folderId}`, payload: { name: N }, auth: true },
      { name: 'new reading list', method: 'POST', url: '/api/reading-lists', payload: { name: N }, auth: true },
      { name: 'edit reading list', method: 'PUT', url: `/api/reading-lists/${listId}`, payload: { description: N }, auth: true },
      { name: 'article search (query)', method: 'GET', url: '/api/articles/search?q=a%00b', auth: true },
      { name: 'path parameter', method: 'GET', url: '/api/reading-lists/1%00', auth: true },
      { name: 'extract', method: 'POST', url: '/api/extract-article-content', payload: { url: `http://127.0.0.1/${N}` }, auth: true },
      {
        name: 'OPML import',
        method: 'POST',
        url: '/api/feeds/import/opml',
        ...multipart([
          {
            name: 'opml_file',
            filename: 'x.opml',
            value: `<?xml version="1.0"?><opml version="2.0"><body><outline text="x" xmlUrl="http://127.0.0.1/${N}"/></body></opml>`,
          },
        ]),
        auth: true,
      },
    ];

    it('refuses U+0000 in any string of a request with 400 INVALID_CHARACTERS', async () => {
      for (const r of requests()) {
        const res = await t.app.inject({
          method: r.method,
          url: r.url,
          headers: { ...r.headers, ...(r.auth ? u.headers : {}) },
          ...(r.payload === undefined ? {} : { payload: r.payload as string }),
        });
        expect(res.statusCode, `${r.name}: ${res.body}`).toBe(400);
        expect(res.json(), r.name).toEqual({ message: expect.any(String), code: 'INVALID_CHARACTERS' });
      }
    });

    it('refuses U+0000 in Google Reader calls of a signed-in client (edit-tag, stream ids)', async () => {
      const headers = { authorization: `GoogleLogin auth=${greaderAuth}`, ...FORM };
      const api = '/api/greader.php/reader/api/0';
      const editTag = await t.app.inject({
        method: 'POST',
        url: `${api}/edit-tag`,
        headers,
        payload: form([
          ['i', '1'],
          ['a', `user/-/label/${N}`],
        ]),
      });
      expect(editTag.statusCode, editTag.body).toBe(400);
      expect(editTag.json()).toMatchObject({ code: 'INVALID_CHARACTERS' });
      const stream = await t.app.inject({ method: 'GET', url: `${api}/stream/contents/user%2F-%2Flabel%2Fa%00b`, headers });
      expect(stream.statusCode, stream.body).toBe(400);
      // The same calls without the NUL still work.
      const ok = await t.app.inject({
        method: 'POST',
        url: `${api}/edit-tag`,
        headers,
        payload: form([
          ['i', '1'],
          ['a', 'user/-/label/Fine'],
        ]),
      });
      expect(ok.statusCode, ok.body).toBeLessThan(500);
    });

    it('stores a feed whose title, items and links carry U+0000 without them', async () => {
      // JSON Feed, where "\u0000" is an ordinary escape in any string.
      const feed = {
        version: 'https://jsonfeed.org/version/1.1',
        title: `Feed${N}`,
        home_page_url: `http://127.0.0.1:9/${N}`,
        description: `About${N}`,
        items: [
          {
            id: `g${N}1`,
            url: `http://127.0.0.1:9/x${N}y`,
            title: `Title${N}`,
            content_html: `<p>Body${N}</p>`,
            summary: `Sum${N}mary`,
            image: `http://127.0.0.1:9/i${N}.png`,
            authors: [{ name: `Au${N}thor` }],
            date_published: '2026-11-01T10:00:00Z',
            attachments: [{ url: `http://127.0.0.1:9/e${N}.mp3`, mime_type: 'audio/mpeg' }],
          },
        ],
      };
      server.set('/nul.json', { body: JSON.stringify(feed), contentType: 'application/feed+json' });
      const id = await subscribeTo(t, u.id, server.url('/nul.json'));
      expect(await t.refresh.refreshFeed(id)).toMatchObject({ status: 'ok', newArticles: 1 });
      const row = await t.database.db.selectFrom('feeds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const articles = await t.database.db.selectFrom('articles').selectAll().where('feed_id', '=', id).execute();
      expect(articles).toHaveLength(1);
      expect(JSON.stringify([row, articles])).not.toContain('\\u0000');
      expect(row.title).toBe('Feedab');
      expect(articles[0].content).toContain('Bodyab');
      expect(articles[0].title).toBe('Titleab');
      expect(articles[0].author).toBe('Auabthor');
      // What a reader then sees through the API.
      const list = await u.get(`/api/feeds/${id}/articles`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.body).not.toContain('\\u0000');
    });
  });
}
