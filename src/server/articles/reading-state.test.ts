import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableReaderAppsWithNewPassword } from '../apis/app-password.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import { createFolder, setFeedFolder } from '../folders/folders.repository.js';
import { DIALECTS } from '../test/dialects.js';
import { item, type TestFeedServer } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, refetch, subscribeFetched } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';
import { purgeExpiredTokens } from '../maintenance.js';
import * as readingState from './reading-state.js';

/**
 * The reading state's owner keeps the counters right by construction (docs/decisions.md "Reading state and
 * visibility: one owner"): every state-changing call of every adapter (web API, Fever, Google Reader, public API v1)
 * and every other writer (filters, refresh, mute) is run, and after each the stored counters of every subscription
 * must equal a full recount from user_articles, on both dialects.
 */

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
const GREADER = '/api/greader.php/reader/api/0';

for (const dialect of DIALECTS) {
  describe(`reading state owner (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));

    /** Stored counters that differ from a full recount (user, feed, stored, recounted); empty when all agree. */
    async function counterDrift() {
      const rows = await t.database.db
        .selectFrom('subscriptions')
        .select([
          'user_id',
          'feed_id',
          'unread_count',
          'article_count',
          sql<number>`(select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_read = 0 and ua.is_hidden = 0)`.as(
            'unread',
          ),
          sql<number>`(select count(*) from user_articles ua where ua.user_id = subscriptions.user_id and ua.feed_id = subscriptions.feed_id and ua.is_hidden = 0)`.as(
            'total',
          ),
        ])
        .execute();
      return rows
        .filter((r) => Number(r.unread_count) !== Number(r.unread) || Number(r.article_count) !== Number(r.total))
        .map((r) => ({ user: r.user_id, feed: r.feed_id, stored: [r.unread_count, r.article_count], recount: [Number(r.unread), Number(r.total)] }));
    }

    async function unreadOf(userId: number) {
      const row = await t.database.db
        .selectFrom('subscriptions')
        .select((eb) => eb.fn.sum<number>('unread_count').as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    }

    it('every verb through every adapter leaves every counter equal to a full recount', async () => {
      const { user, email, password: webPassword } = await t.createUser();
      const appPassword = await enableReaderAppsWithNewPassword(t.database.db, t.config.secret, { id: user.id, email });
      const other = await t.createUser();

      const web = await t.login(email, webPassword);
      const webCall = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: t.bearer(web.access_token), ...(payload === undefined ? {} : { payload }) });
      const fever = (fields: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/api/fever.php?api', headers: FORM, payload: form(Object.entries({ api_key: md5(`${email}:${appPassword}`), ...fields })) });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/greader.php/accounts/ClientLogin',
        headers: FORM,
        payload: form([
          ['Email', email],
          ['Passwd', appPassword],
        ]),
      });
      const greaderHeaders = { authorization: `GoogleLogin auth=${/^Auth=(.+)$/m.exec(login.body)![1]}` };
      const greader = (path: string, pairs: [string, string][]) =>
        t.app.inject({ method: 'POST', url: `${GREADER}/${path}`, headers: { ...greaderHeaders, ...FORM }, payload: form(pairs) });
      const pubAuth = await t.app.inject({ method: 'POST', url: '/public-api/v1/authenticate', payload: { username: email, password: webPassword } });
      const pub = (url: string, payload?: object) =>
        t.app.inject({
          method: 'POST',
          url: `/public-api/v1${url}`,
          headers: { authorization: `Bearer ${pubAuth.json().token}` },
          ...(payload === undefined ? {} : { payload }),
        });

      // Three feeds of the user (one shared with another user, two in a folder), 5 articles each.
      const items = (prefix: string, from: number) => Array.from({ length: 5 }, (_, i) => item(from + i, { title: `${prefix} ${from + i}` }));
      const a = await subscribeFetched(t, server, user.id, 'A', items('Rust', 1));
      const b = await subscribeFetched(t, server, user.id, 'B', items('Go', 1));
      const c = await subscribeFetched(t, server, user.id, 'C', items('Zig', 1));
      await subscribe(t.database.db, other.user.id, a.id, new Date().toISOString());
      const now = new Date().toISOString();
      const folder = await createFolder(t.database.db, user.id, 'Both', now);
      await setFeedFolder(t.database.db, user.id, b.id, folder.id);
      await setFeedFolder(t.database.db, user.id, c.id, folder.id);
      const idsOf = async (feedId: number) =>
        (await t.database.db.selectFrom('articles').select('id').where('feed_id', '=', feedId).orderBy('id').execute()).map((r) => r.id);
      const [aIds, bIds, cIds] = [await idsOf(a.id), await idsOf(b.id), await idsOf(c.id)];
      expect(await counterDrift()).toEqual([]);
      expect(await unreadOf(user.id)).toBe(15);

      const steps: [string, () => Promise<{ statusCode: number; body: string } | void>][] = [
        ['web read', () => webCall('POST', `/api/articles/${aIds[0]}/read`)],
        ['web unread', () => webCall('POST', `/api/articles/${aIds[0]}/unread`)],
        ['web favourite', () => webCall('POST', `/api/articles/${aIds[1]}/favorite`)],
        ['web mark-read ids', () => webCall('POST', '/api/articles/mark-read', { article_ids: [aIds[1], bIds[0], 999_999] })],
        ['web read/all feed', () => webCall('POST', '/api/articles/read/all', { feed_id: c.id })],
        [
          'web read/all folder, undone',
          async () => {
            const marked = await webCall('POST', '/api/articles/read/all', { folder_id: folder.id });
            expect(marked.json().undo_token, marked.body).toEqual(expect.any(String));
            expect(await counterDrift()).toEqual([]);
            return webCall('POST', '/api/articles/read/undo', { undo_token: marked.json().undo_token });
          },
        ],
        [
          'web read/all everything, undone',
          async () => {
            const marked = await webCall('POST', '/api/articles/read/all', {});
            const undone = await webCall('POST', '/api/articles/read/undo', { undo_token: marked.json().undo_token });
            expect(marked.json().marked, marked.body).toBeGreaterThan(0);
            expect(undone.json().restored, undone.body).toBe(marked.json().marked);
            return undone;
          },
        ],
        ['web filter add', () => webCall('POST', `/api/feeds/${b.id}/filters`, { filter_type: 'exclude', filter_scope: 'title', filter_text: 'Go 2' })],
        ['fever item unread', () => fever({ mark: 'item', as: 'unread', id: String(cIds[0]) })],
        ['fever item read', () => fever({ mark: 'item', as: 'read', id: String(aIds[2]) })],
        ['fever saved', () => fever({ mark: 'item', as: 'saved', id: String(aIds[3]) })],
        ['fever unread_recently_read', () => fever({ unread_recently_read: '1' })],
        ['fever feed read', () => fever({ mark: 'feed', as: 'read', id: String(a.id), before: '0' })],
        [
          'greader edit-tag unread',
          () =>
            greader('edit-tag', [
              ['i', String(aIds[0])],
              ['i', String(aIds[4])],
              ['r', 'user/-/state/com.google/read'],
            ]),
        ],
        [
          'greader edit-tag read+star',
          () =>
            greader('edit-tag', [
              ['i', String(bIds[3])],
              ['a', 'user/-/state/com.google/read'],
              ['a', 'user/-/state/com.google/starred'],
            ]),
        ],
        [
          'greader kept-unread',
          () =>
            greader('edit-tag', [
              ['i', String(bIds[3])],
              ['a', 'user/-/state/com.google/kept-unread'],
            ]),
        ],
        ['web mute', () => webCall('POST', `/api/feeds/${c.id}/mute`, { duration: 1, permanently: false })],
        ['greader mark-all label', () => greader('mark-all-as-read', [['s', 'user/-/label/Both']])],
        ['web unmute', () => webCall('POST', `/api/feeds/${c.id}/unmute`)],
        ['public unread', () => pub(`/articles/${cIds[1]}/unread`)],
        ['public read ids', () => pub('/articles/read/all', { article_ids: [cIds[1], cIds[2]] })],
        ['fever group read', () => fever({ mark: 'group', as: 'read', id: String(folder.id), before: '0' })],
        ['refresh new articles', () => refetch(t, server, a, 'A', items('Rust', 6))],
        ['public read feed', () => pub('/articles/read/all', { feed_id: a.id })],
        ['refresh more', () => refetch(t, server, b, 'B', items('Go', 6))],
        ['greader mark-all reading-list', () => greader('mark-all-as-read', [['s', 'user/-/state/com.google/reading-list']])],
        [
          'web filter remove',
          async () => {
            const list = (await webCall('GET', `/api/feeds/${b.id}/filters`)).json();
            return webCall('DELETE', `/api/feeds/filters/${list.filters[0].id}`);
          },
        ],
        ['fever kindling read', () => fever({ mark: 'group', as: 'read', id: '0', before: '0' })],
        ['web read/all everything', () => webCall('POST', '/api/articles/read/all', {})],
      ];
      for (const [name, step] of steps) {
        const res = await step();
        if (res) expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
        expect(await counterDrift(), name).toEqual([]);
      }
      // The other subscriber of feed A was never touched by this user's calls.
      expect(await unreadOf(other.user.id)).toBe(10);
      expect(await unreadOf(user.id)).toBe(0);
    });

    it('keeps undoable marks of one millisecond apart, from each other and from plain marks', async () => {
      const { user } = await t.createUser();
      const feed = await subscribeFetched(
        t,
        server,
        user.id,
        'Same instant',
        [1, 2, 3, 4].map((i) => item(i)),
      );
      const ids = (await t.database.db.selectFrom('user_articles').select('article_id').where('user_id', '=', user.id).orderBy('article_id').execute()).map(
        (r) => r.article_id,
      );
      const now = '2030-01-01T10:00:00.123Z';
      const until = '2030-01-01T10:15:00.000Z';
      const db = t.database.db;
      const first = await readingState.markReadUndoable(db, user.id, now, until, { articleIds: [ids[0]], reach: 'own' });
      const second = await readingState.markReadUndoable(db, user.id, now, until, { articleIds: [ids[1]], reach: 'own' });
      await readingState.setRead(db, user.id, now, [ids[2]], true, 'own');
      const third = await readingState.markReadUndoable(db, user.id, now, until, { scope: { feedIds: [feed.id] } });
      expect([first.marked, second.marked, third.marked]).toEqual([1, 1, 1]);
      expect(new Set([first.undoToken, second.undoToken, third.undoToken]).size).toBe(3);
      expect(await readingState.undoRead(db, user.id, now, second.undoToken!)).toEqual({ restored: 1 });
      expect(await readingState.undoRead(db, user.id, now, third.undoToken!)).toEqual({ restored: 1 });
      const readNow = await db.selectFrom('user_articles').select('article_id').where('user_id', '=', user.id).where('is_read', '=', 1).orderBy('article_id').execute();
      expect(readNow.map((r) => r.article_id)).toEqual([ids[0], ids[2]]);
      expect(await readingState.undoRead(db, user.id, '2030-01-01T10:15:00.001Z', first.undoToken!)).toBe('expired');
      expect(await readingState.undoRead(db, user.id, now, first.undoToken!)).toBe('unknown');
      expect(await counterDrift()).toEqual([]);
      // The hourly maintenance removes tokens past their time.
      const tokens = () => db.selectFrom('read_undo').select('token').where('user_id', '=', user.id).execute();
      await readingState.markReadUndoable(db, user.id, now, until, { articleIds: [ids[3]], reach: 'own' });
      expect(await tokens()).toHaveLength(1);
      await purgeExpiredTokens(t.database, '2030-01-01T10:14:00.000Z');
      expect(await tokens()).toHaveLength(1);
      await purgeExpiredTokens(t.database, '2030-01-01T10:15:00.001Z');
      expect(await tokens()).toEqual([]);
    });
  });
}
