import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticlePage, UnreadCounts } from '../../common/api.js';
import { DIALECTS } from '../test/dialects.js';
import { item, type TestFeedServer, type TestItem } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, signedInUser, subscribeFetched } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';

/**
 * The reading flow through HTTP on both dialects: folders as streams (dashboard.md §4 "Folders": list, search and
 * mark-all-read within a folder) and the undo of bulk read marks (docs/decisions.md "Reading flow: undo, mark-read
 * setting, loading the original").
 */

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

for (const dialect of DIALECTS) {
  describe(`reading flow (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));

    async function user() {
      const u = await signedInUser(t);
      return {
        ...u,
        async page(url: string): Promise<ArticlePage> {
          const res = await u.get(url);
          expect(res.statusCode, res.body).toBe(200);
          return res.json();
        },
        // The counts and total alone: every answer also carries its version token (see the delta test in feeds).
        counts: async (): Promise<UnreadCounts> => {
          const { counts, total } = (await u.get('/api/feeds/unread_counts')).json<UnreadCounts>();
          return { counts, total };
        },
        feed: async (title: string, items: TestItem[]): Promise<number> => (await subscribeFetched(t, server, u.id, title, items)).id,
        async folder(name: string, feedIds: number[]): Promise<number> {
          const res = await u.post('/api/folders', { name });
          expect(res.statusCode, res.body).toBe(201);
          const id = res.json<{ folder: { id: number } }>().folder.id;
          for (const feedId of feedIds) expect((await u.post(`/api/folders/${id}/feeds`, { feed_id: feedId })).statusCode).toBe(200);
          return id;
        },
      };
    }
    const titles = (p: ArticlePage) => p.articles.map((a) => a.title);

    describe('folder streams', () => {
      it("lists the folder's feeds' articles as one stream, newest first, with totals, and read ones on request", async () => {
        const u = await user();
        const a = await u.feed('Folder A', [item(1, { title: 'A1' }), item(3, { title: 'A3' })]);
        const b = await u.feed('Folder B', [item(2, { title: 'B2' }), item(4, { title: 'B4' })]);
        const outside = await u.feed('Outside', [item(5, { title: 'O5' })]);
        const folder = await u.folder('News', [a, b]);
        const page = await u.page(`/api/folders/${folder}/articles`);
        expect(titles(page)).toEqual(['B4', 'A3', 'B2', 'A1']);
        expect(page).toMatchObject({ total: 4, pages: 1, current_page: 1 });
        expect(titles(await u.page(`/api/folders/${folder}/articles?per_page=3&page=2`))).toEqual(['A1']);

        const [b4] = page.articles;
        await u.post(`/api/articles/${b4.id}/read`);
        expect(titles(await u.page(`/api/folders/${folder}/articles`))).toEqual(['A3', 'B2', 'A1']);
        const withRead = await u.page(`/api/folders/${folder}/articles?show_read=true`);
        expect(titles(withRead)).toEqual(['B4', 'A3', 'B2', 'A1']);
        expect(withRead.total).toBe(4);
        expect(outside).toBeGreaterThan(0);
      });

      it('leaves muted feeds out, and an empty folder is an empty stream', async () => {
        const u = await user();
        const a = await u.feed('Muted one', [item(1, { title: 'M1' })]);
        const b = await u.feed('Loud one', [item(2, { title: 'L2' })]);
        const folder = await u.folder('Mixed', [a, b]);
        await u.post(`/api/feeds/${a}/mute`, { permanently: true });
        const page = await u.page(`/api/folders/${folder}/articles`);
        expect(titles(page)).toEqual(['L2']);
        expect(page.total).toBe(1);
        const empty = await u.folder('Empty', []);
        expect(await u.page(`/api/folders/${empty}/articles`)).toMatchObject({ articles: [], total: 0, pages: 1 });
        expect((await u.post('/api/articles/read/all', { folder_id: empty })).json()).toMatchObject({ marked: 0, undo_token: null });
      });

      it('searches within a folder', async () => {
        const u = await user();
        const a = await u.feed('Search A', [item(1, { title: 'Zebra crossing in town' })]);
        const b = await u.feed('Search B', [item(2, { title: 'Zebra spotted outside' })]);
        const folder = await u.folder('Zoo', [a]);
        expect(b).toBeGreaterThan(0);
        expect(titles(await u.page('/api/articles/search?q=zebra'))).toEqual(['Zebra spotted outside', 'Zebra crossing in town']);
        const inFolder = await u.page(`/api/articles/search?q=zebra&folder_id=${folder}`);
        expect(titles(inFolder)).toEqual(['Zebra crossing in town']);
        expect(inFolder.total).toBe(1);
        const both = await u.get(`/api/articles/search?q=zebra&folder_id=${folder}&feed_id=${a}`);
        expect(both.statusCode).toBe(400);
        expect(both.json()).toMatchObject({ code: 'ARTICLE_SCOPE_AMBIGUOUS' });
      });

      it("marks a folder's articles read and nothing else", async () => {
        const u = await user();
        const a = await u.feed(
          'Mark A',
          range(1, 3).map((i) => item(i)),
        );
        const b = await u.feed(
          'Mark B',
          range(1, 2).map((i) => item(i)),
        );
        const c = await u.feed(
          'Mark C',
          range(1, 4).map((i) => item(i)),
        );
        const folder = await u.folder('Mark these', [a, b]);
        const res = await u.post('/api/articles/read/all', { folder_id: folder });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ marked: 5 });
        expect(await u.counts()).toEqual({ counts: { [a]: 0, [b]: 0, [c]: 4 }, total: 4 });
        expect((await u.page(`/api/folders/${folder}/articles`)).total).toBe(0);
        expect((await u.post('/api/articles/read/all', { folder_id: folder, feed_id: c })).statusCode).toBe(400);
      });

      it("answers 404 FOLDER_NOT_FOUND for another user's or a missing folder, and 400 for malformed ids", async () => {
        const owner = await user();
        const a = await owner.feed('Private', [item(1)]);
        const folder = await owner.folder('Mine', [a]);
        const stranger = await user();
        for (const res of [
          await stranger.get(`/api/folders/${folder}/articles`),
          await stranger.get(`/api/articles/search?q=item&folder_id=${folder}`),
          await stranger.post('/api/articles/read/all', { folder_id: folder }),
          await owner.get('/api/folders/2147483000/articles'),
        ]) {
          expect(res.statusCode, res.body).toBe(404);
          expect(res.json()).toMatchObject({ code: 'FOLDER_NOT_FOUND', message: expect.any(String) });
        }
        expect((await owner.counts()).total).toBe(1);
        for (const res of [
          await owner.get('/api/folders/abc/articles'),
          await owner.get('/api/folders/0/articles'),
          await owner.get('/api/folders/1.5/articles'),
          await owner.get('/api/folders/99999999999/articles'),
          await owner.get(`/api/folders/${folder}/articles?show_read=sometimes`),
          await owner.get('/api/articles/search?q=x&folder_id=x'),
          await owner.get('/api/articles/search?q=x&folder_id=%00'),
          await owner.post('/api/articles/read/all', { folder_id: 'abc' }),
          await owner.post('/api/articles/read/all', { folder_id: -1 }),
          await owner.post('/api/articles/read/all', { folder_id: null }),
        ]) {
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        }
      });
    });

    describe('undo of bulk read marks', () => {
      const undo = (u: { post: (url: string, body?: unknown) => Promise<{ statusCode: number; json: () => unknown; body: string }> }, token: unknown) =>
        u.post('/api/articles/read/undo', { undo_token: token });

      it('restores exactly what read/all marked, once, with the counters', async () => {
        const u = await user();
        const a = await u.feed(
          'Undo A',
          range(1, 3).map((i) => item(i)),
        );
        const b = await u.feed(
          'Undo B',
          range(1, 2).map((i) => item(i)),
        );
        const [readBefore] = (await u.page(`/api/feeds/${a}/articles`)).articles;
        await u.post(`/api/articles/${readBefore.id}/read`);
        const before = await u.counts();
        expect(before).toEqual({ counts: { [a]: 2, [b]: 2 }, total: 4 });

        const res = await u.post('/api/articles/read/all');
        expect(res.statusCode, res.body).toBe(200);
        const { marked, undo_token } = res.json<{ marked: number; undo_token: string }>();
        expect(marked).toBe(4);
        expect(undo_token).toEqual(expect.any(String));
        expect((await u.counts()).total).toBe(0);

        const undone = await undo(u, undo_token);
        expect(undone.statusCode, undone.body).toBe(200);
        expect(undone.json()).toEqual({ restored: 4 });
        expect(await u.counts()).toEqual(before);
        // The article read before the call stays read.
        const all = await u.page('/api/articles?show_read=true');
        expect(all.articles.filter((x) => x.is_read).map((x) => x.id)).toEqual([readBefore.id]);
        // A token works once.
        const again = await undo(u, undo_token);
        expect(again.statusCode).toBe(404);
        expect(again.json()).toMatchObject({ code: 'UNDO_TOKEN_NOT_FOUND', message: expect.any(String) });
      });

      it('leaves alone what changed since: an article marked unread and read again keeps its new state', async () => {
        const u = await user();
        const a = await u.feed(
          'Undo later',
          range(1, 3).map((i) => item(i)),
        );
        const ids = (await u.page(`/api/feeds/${a}/articles`)).articles.map((x) => x.id);
        const { undo_token } = (await u.post('/api/articles/read/all', { feed_id: a })).json<{ undo_token: string }>();
        // Read again by hand after the bulk mark: its stamp is no longer the call's.
        await u.post(`/api/articles/${ids[0]}/unread`);
        await u.post(`/api/articles/${ids[0]}/read`);
        expect((await undo(u, undo_token)).json()).toEqual({ restored: 2 });
        const after = await u.page(`/api/feeds/${a}/articles?show_read=true`);
        expect(after.articles.map((x) => [x.id, x.is_read])).toEqual(ids.map((id, i) => [id, i === 0]));
        expect((await u.counts()).counts[a]).toBe(2);
      });

      it('gives each call its own token: undoing the second keeps the first', async () => {
        const u = await user();
        const a = await u.feed(
          'Two calls A',
          range(1, 2).map((i) => item(i)),
        );
        const b = await u.feed(
          'Two calls B',
          range(1, 3).map((i) => item(i)),
        );
        const first = (await u.post('/api/articles/read/all', { feed_id: a })).json<{ undo_token: string }>();
        const bIds = (await u.page(`/api/feeds/${b}/articles`)).articles.map((x) => x.id);
        const second = (await u.post('/api/articles/mark-read', { article_ids: bIds.slice(0, 2) })).json<{ marked: number; undo_token: string }>();
        expect(second.marked).toBe(2);
        expect(second.undo_token).not.toBe(first.undo_token);
        expect((await undo(u, second.undo_token)).json()).toEqual({ restored: 2 });
        expect(await u.counts()).toEqual({ counts: { [a]: 0, [b]: 3 }, total: 3 });
        expect((await undo(u, first.undo_token)).json()).toEqual({ restored: 2 });
        expect((await u.counts()).total).toBe(5);
        // Nothing changed, nothing to undo.
        expect((await u.post('/api/articles/mark-read', { article_ids: [2147483000] })).json()).toEqual({ marked: 0, undo_token: null });
      });

      it('undoes a reading list and a folder mark too', async () => {
        const u = await user();
        const a = await u.feed(
          'Undo folder',
          range(1, 2).map((i) => item(i)),
        );
        const folder = await u.folder('Undo here', [a]);
        const { undo_token } = (await u.post('/api/articles/read/all', { folder_id: folder })).json<{ undo_token: string }>();
        expect((await u.page(`/api/folders/${folder}/articles`)).total).toBe(0);
        expect((await undo(u, undo_token)).json()).toEqual({ restored: 2 });
        expect((await u.page(`/api/folders/${folder}/articles`)).total).toBe(2);
        const list = (await u.post('/api/reading-lists', { name: 'Undo list' })).json<{ reading_list: { id: number } }>();
        const [first] = (await u.page(`/api/feeds/${a}/articles`)).articles;
        expect((await u.post(`/api/reading-lists/${list.reading_list.id}/articles/${first.id}`)).statusCode).toBeLessThan(300);
        const listed = (await u.post('/api/articles/read/all', { reading_list_id: list.reading_list.id })).json<{ marked: number; undo_token: string }>();
        expect(listed.marked).toBe(1);
        expect((await undo(u, listed.undo_token)).json()).toEqual({ restored: 1 });
        expect((await u.counts()).counts[a]).toBe(2);
      });

      it("refuses another user's, expired, malformed and missing tokens with a 4xx {message, code}", async () => {
        const owner = await user();
        const a = await owner.feed('Undo owner', [item(1)]);
        const { undo_token } = (await owner.post('/api/articles/read/all', { feed_id: a })).json<{ undo_token: string }>();
        const stranger = await user();
        const foreign = await undo(stranger, undo_token);
        expect(foreign.statusCode).toBe(404);
        expect(foreign.json()).toMatchObject({ code: 'UNDO_TOKEN_NOT_FOUND' });
        expect((await owner.counts()).total).toBe(0);
        for (const bad of ['', 42, null, ['x'], 'x'.repeat(65), 'a\u0000b']) {
          const res = await undo(owner, bad);
          expect(res.statusCode, `${JSON.stringify(bad)} → ${res.body}`).toBe(400);
          expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        }
        const none = await owner.post('/api/articles/read/undo', {});
        expect(none.statusCode).toBe(400);
        expect((await undo(owner, 'no-such-token')).statusCode).toBe(404);

        t.clock.advance(16 * 60_000);
        try {
          await owner.renew();
          const late = await undo(owner, undo_token);
          expect(late.statusCode).toBe(410);
          expect(late.json()).toMatchObject({ code: 'UNDO_TOKEN_EXPIRED', message: expect.any(String) });
          expect((await owner.counts()).total).toBe(0);
        } finally {
          t.clock.reset();
        }
      });
    });
  });
}
