import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feed, Folder, FolderFeedResponse } from '../../common/api.js';
import { DIALECTS } from '../test/dialects.js';
import { signedInUser, subscribeTo } from '../test/feed-user.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { MAX_FOLDER_NAME_LENGTH } from '../../common/limits.js';

/**
 * The folders API (dashboard.md §7 "Folders", §8 "Folders"; docs/decisions.md "Organising: folders and reading
 * lists") through HTTP, on both dialects. Feeds are subscribed through the repository (no fetching needed here).
 */
for (const dialect of DIALECTS) {
  describe(`folders API (${dialect})`, () => {
    let t: TestApp;
    let feedCounter = 0;

    beforeAll(async () => {
      t = await createTestApp({ dialect });
    });
    afterAll(() => t.close());

    async function user() {
      const u = await signedInUser(t);
      return {
        ...u,
        async folder(name: string): Promise<Folder> {
          const res = await u.post('/api/folders', { name });
          expect(res.statusCode, res.body).toBe(201);
          return res.json().folder;
        },
        folders: async (): Promise<Folder[]> => (await u.get('/api/folders')).json().folders,
        feeds: async (): Promise<Feed[]> => (await u.get('/api/feeds')).json(),
        /** Subscribes to a new feed (no fetch: the repository, as subscribing does after discovery). */
        feed: (): Promise<number> => subscribeTo(t, u.id, `http://folders.test/${dialect}/${++feedCounter}.xml`),
      };
    }

    it('needs a signed-in user', async () => {
      for (const [method, url] of [
        ['GET', '/api/folders'],
        ['POST', '/api/folders'],
        ['PUT', '/api/folders/1'],
        ['DELETE', '/api/folders/1'],
        ['POST', '/api/folders/1/feeds'],
        ['DELETE', '/api/folders/1/feeds/1'],
        ['POST', '/api/folders/sort'],
      ] as const) {
        const res = await t.app.inject({ method, url, payload: {} });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });

    it('creates, lists, renames and orders folders', async () => {
      const u = await user();
      expect(await u.folders()).toEqual([]);
      const a = await u.folder('  Nachrichten  ');
      expect(a).toMatchObject({ name: 'Nachrichten', feeds: [], sort_order: 0 });
      expect(a.created_at).toMatch(/Z$/);
      const b = await u.folder('Tech');
      expect(b.sort_order).toBe(1);
      expect((await u.folders()).map((f) => f.name)).toEqual(['Nachrichten', 'Tech']);

      const renamed = await u.put(`/api/folders/${a.id}`, { name: ' News ' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().folder).toMatchObject({ id: a.id, name: 'News' });
      // Renaming to its own name (other case) is allowed.
      expect((await u.put(`/api/folders/${a.id}`, { name: 'NEWS' })).statusCode).toBe(200);

      const sorted = await u.post('/api/folders/sort', { folder_order: [b.id, a.id] });
      expect(sorted.statusCode, sorted.body).toBe(200);
      expect(sorted.json().folders.map((f: Folder) => [f.id, f.sort_order])).toEqual([
        [b.id, 0],
        [a.id, 1],
      ]);
      expect((await u.folders()).map((f) => f.id)).toEqual([b.id, a.id]);
      // Folders not named keep their relative order after the named ones.
      const c = await u.folder('Science');
      await u.post('/api/folders/sort', { folder_order: [c.id] });
      expect((await u.folders()).map((f) => f.id)).toEqual([c.id, b.id, a.id]);
    });

    it('validates names: required after trimming, at most 100 characters, unique ignoring case', async () => {
      const u = await user();
      for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }]) {
        const res = await u.post('/api/folders', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code).toBe('FOLDER_NAME_REQUIRED');
      }
      const long = await u.post('/api/folders', { name: 'x'.repeat(MAX_FOLDER_NAME_LENGTH + 1) });
      expect(long.statusCode).toBe(400);
      expect(long.json().code).toBe('FOLDER_NAME_TOO_LONG');
      // 100 characters as a person counts them (emoji are one each).
      expect((await u.post('/api/folders', { name: '🗞'.repeat(MAX_FOLDER_NAME_LENGTH) })).statusCode).toBe(201);
      const f = await u.folder('Blogs');
      const dup = await u.post('/api/folders', { name: ' blogs ' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().code).toBe('FOLDER_EXISTS');
      const other = await u.folder('Other');
      const clash = await u.put(`/api/folders/${other.id}`, { name: 'BLOGS' });
      expect(clash.statusCode).toBe(409);
      const blank = await u.put(`/api/folders/${f.id}`, { name: ' ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().code).toBe('FOLDER_NAME_REQUIRED');
      expect((await u.post('/api/folders', { name: 42 })).statusCode).toBe(400);
      // Nothing half-written: the folders are the three created.
      expect((await u.folders()).map((x) => x.name)).toEqual(['🗞'.repeat(MAX_FOLDER_NAME_LENGTH), 'Blogs', 'Other']);
    });

    it('moves feeds into a folder, between folders and back to the root', async () => {
      const u = await user();
      const [f1, f2, f3] = [await u.feed(), await u.feed(), await u.feed()];
      const a = await u.folder('A');
      const b = await u.folder('B');

      const moved = await u.post(`/api/folders/${a.id}/feeds`, { feed_id: f2 });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json<FolderFeedResponse>()).toMatchObject({ code: 'FEED_MOVED_TO_FOLDER', folder: { id: a.id, feeds: [f2] } });
      await u.post(`/api/folders/${a.id}/feeds`, { feed_id: f1 });
      // Inside a folder the feeds follow the user's feed order.
      expect((await u.folders()).find((f) => f.id === a.id)!.feeds).toEqual([f1, f2]);
      expect((await u.feeds()).map((f) => [f.id, f.folder_id])).toEqual([
        [f1, a.id],
        [f2, a.id],
        [f3, null],
      ]);

      const again = await u.post(`/api/folders/${a.id}/feeds`, { feed_id: f2 });
      expect(again.statusCode).toBe(200);
      expect(again.json().code).toBe('FEED_ALREADY_IN_FOLDER');

      // A feed is in at most one folder: adding it to B takes it out of A.
      await u.post(`/api/folders/${b.id}/feeds`, { feed_id: f2 });
      const after = await u.folders();
      expect(after.find((f) => f.id === a.id)!.feeds).toEqual([f1]);
      expect(after.find((f) => f.id === b.id)!.feeds).toEqual([f2]);

      const out = await u.del(`/api/folders/${b.id}/feeds/${f2}`);
      expect(out.statusCode, out.body).toBe(200);
      expect(out.json()).toMatchObject({ code: 'FEED_REMOVED_FROM_FOLDER', folder: { id: b.id, feeds: [] } });
      const notIn = await u.del(`/api/folders/${b.id}/feeds/${f2}`);
      expect(notIn.statusCode).toBe(404);
      expect(notIn.json().code).toBe('FEED_NOT_IN_FOLDER');
      expect((await u.feeds()).find((f) => f.id === f2)!.folder_id).toBeNull();
    });

    it('deletes a folder and keeps its feeds at the root', async () => {
      const u = await user();
      const [f1, f2] = [await u.feed(), await u.feed()];
      const a = await u.folder('Doomed');
      await u.post(`/api/folders/${a.id}/feeds`, { feed_id: f1 });
      await u.post(`/api/folders/${a.id}/feeds`, { feed_id: f2 });
      const res = await u.del(`/api/folders/${a.id}`);
      expect(res.statusCode).toBe(204);
      expect(await u.folders()).toEqual([]);
      expect((await u.feeds()).map((f) => [f.id, f.folder_id])).toEqual([
        [f1, null],
        [f2, null],
      ]);
      expect((await u.del(`/api/folders/${a.id}`)).statusCode).toBe(404);
    });

    it('reorders root feeds and the feeds of one folder through POST /api/feeds/sort', async () => {
      const u = await user();
      const [r1, r2, x1, x2, x3] = [await u.feed(), await u.feed(), await u.feed(), await u.feed(), await u.feed()];
      const folder = await u.folder('X');
      for (const id of [x1, x2, x3]) await u.post(`/api/folders/${folder.id}/feeds`, { feed_id: id });
      // The web app sends only the group it reordered: here the folder's feeds.
      expect((await u.post('/api/feeds/sort', { feed_order: [x3, x1, x2] })).statusCode).toBe(200);
      expect((await u.folders())[0].feeds).toEqual([x3, x1, x2]);
      // …and here the root feeds: the folder's own order stays.
      expect((await u.post('/api/feeds/sort', { feed_order: [r2, r1] })).statusCode).toBe(200);
      const feeds = await u.feeds();
      expect(feeds.filter((f) => f.folder_id === null).map((f) => f.id)).toEqual([r2, r1]);
      expect((await u.folders())[0].feeds).toEqual([x3, x1, x2]);
    });

    it("answers another user's and unknown folders and feeds with 404 and distinct codes", async () => {
      const owner = await user();
      const intruder = await user();
      const ownersFolder = await owner.folder('Mine');
      const ownersFeed = await owner.feed();
      await owner.post(`/api/folders/${ownersFolder.id}/feeds`, { feed_id: ownersFeed });
      const intrudersFolder = await intruder.folder('Theirs');
      const intrudersFeed = await intruder.feed();

      const cases: [Promise<{ statusCode: number; json: () => { code: string } }>, string][] = [
        [intruder.put(`/api/folders/${ownersFolder.id}`, { name: 'Hijacked' }), 'FOLDER_NOT_FOUND'],
        [intruder.del(`/api/folders/${ownersFolder.id}`), 'FOLDER_NOT_FOUND'],
        [intruder.post(`/api/folders/${ownersFolder.id}/feeds`, { feed_id: intrudersFeed }), 'FOLDER_NOT_FOUND'],
        [intruder.del(`/api/folders/${ownersFolder.id}/feeds/${ownersFeed}`), 'FOLDER_NOT_FOUND'],
        [intruder.post(`/api/folders/${intrudersFolder.id}/feeds`, { feed_id: ownersFeed }), 'FEED_NOT_FOUND'],
        [intruder.del(`/api/folders/${intrudersFolder.id}/feeds/${ownersFeed}`), 'FEED_NOT_FOUND'],
        [intruder.post('/api/folders/sort', { folder_order: [ownersFolder.id] }), 'FOLDER_NOT_FOUND'],
        [intruder.put('/api/folders/2147483647', { name: 'x' }), 'FOLDER_NOT_FOUND'],
      ];
      for (const [pending, code] of cases) {
        const res = await pending;
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe(code);
      }
      // The owner's folder is untouched.
      expect(await owner.folders()).toMatchObject([{ id: ownersFolder.id, name: 'Mine', feeds: [ownersFeed] }]);
      expect(await intruder.folders()).toMatchObject([{ id: intrudersFolder.id, feeds: [] }]);
    });

    it('refuses malformed ids and bodies with 400', async () => {
      const u = await user();
      const f = await u.folder('F');
      for (const [res, what] of [
        [await u.put('/api/folders/abc', { name: 'x' }), 'text id'],
        [await u.put('/api/folders/0', { name: 'x' }), 'zero id'],
        [await u.put('/api/folders/99999999999', { name: 'x' }), 'huge id'],
        [await u.post(`/api/folders/${f.id}/feeds`, {}), 'no feed_id'],
        [await u.post(`/api/folders/${f.id}/feeds`, { feed_id: 'x' }), 'text feed_id'],
        [await u.post('/api/folders/sort', { folder_order: 'x' }), 'order not a list'],
        [await u.post('/api/folders/sort', {}), 'no order'],
      ] as const) {
        expect(res.statusCode, what).toBe(400);
        expect(typeof res.json().code, what).toBe('string');
      }
      const dup = await u.post('/api/folders/sort', { folder_order: [f.id, f.id] });
      expect(dup.statusCode).toBe(400);
      expect(dup.json().code).toBe('DUPLICATE_FOLDER_ID');
    });
  });
}
