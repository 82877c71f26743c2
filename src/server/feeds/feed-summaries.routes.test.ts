import { Value } from 'typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Feed, FeedSummariesResponse } from '../../common/api.js';
import { FeedSummariesReply } from '../../common/schemas/feeds.js';
import { DIALECTS } from '../test/dialects.js';
import { EMPTY_SUMMARIES, summaryRows } from '../test/feed-summaries.js';
import { item, type TestFeedServer } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, signedInUser, subscribeFetched, subscribeTo } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';
import { iconHash } from './icons.js';

/**
 * GET /api/feeds/summaries (docs/decisions.md "Feed summaries"): the dashboard's slim feed list, written by the
 * database, with an entity tag. Each summary must say what the full list (GET /api/feeds) says of the same feed.
 */

const HOUR = 3_600_000;

for (const dialect of DIALECTS) {
  describe(`feed summaries (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));
    afterEach(() => t.clock.reset());

    async function user() {
      const u = await signedInUser(t);
      return {
        ...u,
        summaries: async (): Promise<FeedSummariesResponse> => {
          const res = await u.get('/api/feeds/summaries');
          expect(res.statusCode, res.body).toBe(200);
          // The route sends the database's JSON as it is: the contract's schema is checked here instead.
          expect([...Value.Errors(FeedSummariesReply, res.json())]).toEqual([]);
          return res.json();
        },
        feeds: async (): Promise<Feed[]> => (await u.get('/api/feeds')).json(),
      };
    }

    /** The summaries unpacked as the web app does, to compare with the full list. */
    function unpack(s: FeedSummariesResponse) {
      return summaryRows(s).map(([id, title, folderId, icon, error]) => ({
        id,
        title,
        folder_id: folderId,
        favicon_url: icon === null ? null : `/api/icons/${icon}`,
        last_error_code: error,
        is_muted: String(id) in s.muted,
        muted_until: s.muted[String(id)] ?? null,
        fetched: !s.unfetched.includes(id),
        always_load_original: s.always_load_original.includes(id),
      }));
    }

    it('needs a signed-in user', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/feeds/summaries' });
      expect([res.statusCode, res.json().code]).toEqual([401, 'UNAUTHORIZED']);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('is empty for a user without feeds', async () => {
      const u = await user();
      expect(await u.summaries()).toEqual(EMPTY_SUMMARIES);
    });

    it('says of every feed what the full list says, in the user’s order', async () => {
      const u = await user();
      const a = await subscribeFetched(t, server, u.id, 'Alpha', [item(1)]);
      const b = await subscribeFetched(t, server, u.id, 'Beta', [item(1)]);
      const c = await subscribeTo(t, u.id, server.url('/never-fetched.xml'));
      const d = await subscribeFetched(t, server, u.id, 'Delta "quoted" \\ ünïcödé', [item(1)]);
      await t.database.db
        .updateTable('feeds')
        .set({ icon_data: 'iVBORw0KGgo=', icon_type: 'image/png', icon_hash: iconHash('iVBORw0KGgo='), last_error_code: 'FETCH_TIMEOUT' })
        .where('id', '=', b.id)
        .execute();
      expect((await u.post('/api/feeds/set_custom_title', { feed_id: a.id, custom_title: 'My alpha' })).statusCode).toBe(200);
      const { folder } = (await u.post('/api/folders', { name: 'News' })).json<{ folder: { id: number } }>();
      expect((await u.post(`/api/folders/${folder.id}/feeds`, { feed_id: d.id })).statusCode).toBeLessThan(300);
      expect((await u.put(`/api/feeds/${b.id}`, { always_load_original: true })).statusCode).toBe(200);
      expect((await u.post(`/api/feeds/${c}/mute`, { permanently: true })).statusCode).toBe(200);
      expect((await u.post(`/api/feeds/${d.id}/mute`, { duration: 8 })).statusCode).toBe(200);
      expect((await u.post('/api/feeds/sort', { feed_order: [d.id, b.id] })).statusCode).toBe(200);

      const summaries = await u.summaries();
      const full = await u.feeds();
      expect(summaries.ids).toEqual([d.id, b.id, a.id, c]);
      expect(unpack(summaries)).toEqual(
        full.map((f) => ({
          id: f.id,
          title: f.title,
          folder_id: f.folder_id,
          favicon_url: f.favicon_url,
          last_error_code: f.last_error_code,
          is_muted: f.is_muted,
          muted_until: f.muted_until,
          fetched: f.last_fetched_at !== null,
          always_load_original: f.always_load_original,
        })),
      );
      expect(summaryRows(summaries)[0]).toEqual([d.id, 'Delta "quoted" \\ ünïcödé', folder.id, null, null]);
      expect(summaryRows(summaries)[1]).toEqual([b.id, 'Beta', null, iconHash('iVBORw0KGgo='), 'FETCH_TIMEOUT']);
      expect(summaries.titles[2]).toBe('My alpha');
      expect(summaries.muted).toEqual({ [String(c)]: null, [String(d.id)]: full[0].muted_until });
      expect(summaries.muted[String(d.id)]).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      expect(summaries.unfetched).toEqual([c]);
      expect(summaries.always_load_original).toEqual([b.id]);

      // A timed mute ends by itself.
      t.clock.advance(9 * HOUR);
      await u.renew();
      expect((await u.summaries()).muted).toEqual({ [String(c)]: null });
    });

    it('a feed without any title has an empty title (the web app shows "Unbenannter Feed")', async () => {
      const u = await user();
      const id = await subscribeTo(t, u.id, server.url('/untitled.xml'));
      await t.database.db.updateTable('feeds').set({ title: '' }).where('id', '=', id).execute();
      expect(summaryRows(await u.summaries())).toEqual([[id, '', null, null, null]]);
    });

    it('shows a user only their own feeds, with their own titles and state', async () => {
      const owner = await user();
      const other = await user();
      const shared = await subscribeFetched(t, server, owner.id, 'Shared', [item(1)]);
      await subscribeTo(t, other.id, server.url(shared.path));
      const own = await subscribeTo(t, owner.id, server.url('/owners-only.xml'));
      await owner.post('/api/feeds/set_custom_title', { feed_id: shared.id, custom_title: 'Mine' });
      await owner.post(`/api/feeds/${shared.id}/mute`, { permanently: true });
      expect(summaryRows(await owner.summaries()).map(([id, title]) => [id, title])).toEqual([
        [shared.id, 'Mine'],
        [own, ''],
      ]);
      expect(await other.summaries()).toEqual({ ...EMPTY_SUMMARIES, ids: [shared.id], titles: ['Shared'], folders: [null], icons: [null], errors: [null] });
    });

    it('carries an entity tag: the same list again is a 304 without a body, a changed one a 200 with a new tag', async () => {
      const u = await user();
      const a = await subscribeFetched(t, server, u.id, 'Tagged', [item(1)]);
      const first = await u.get('/api/feeds/summaries');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      // The browser keeps it, asks again every time, and never shares it.
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');

      const ask = (tag: string) => t.app.inject({ method: 'GET', url: '/api/feeds/summaries', headers: { ...u.headers, 'if-none-match': tag } });
      for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await ask(tag);
        expect([again.statusCode, again.body, again.headers.etag], tag).toEqual([304, '', etag]);
      }
      const stale = await ask('"something else"');
      expect([stale.statusCode, stale.headers.etag]).toEqual([200, etag]);

      await u.post('/api/feeds/set_custom_title', { feed_id: a.id, custom_title: 'Renamed' });
      const changed = await ask(etag);
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.json<FeedSummariesResponse>().titles[0]).toBe('Renamed');

      // Another user's tag never matches a list it was not made from.
      const other = await user();
      await subscribeTo(t, other.id, server.url('/other-tagged.xml'));
      const foreign = await t.app.inject({ method: 'GET', url: '/api/feeds/summaries', headers: { ...other.headers, 'if-none-match': changed.headers.etag as string } });
      expect(foreign.statusCode).toBe(200);
    });
  });
}
