import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Feed, FeedSummariesResponse } from '../../common/api.js';
import { DIALECTS } from '../test/dialects.js';
import { EMPTY_SUMMARIES, summariesFromFullList } from '../test/feed-summaries.js';
import { item, type TestFeedServer } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, refetch, signedInUser, subscribeFetched, subscribeTo, type SignedInUser } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';
import { iconHash } from './icons.js';
import { feedListVersion } from './subscriptions.repository.js';
import { SummariesCache } from './summaries-cache.js';

/**
 * The feed list's version and the summaries kept per process (docs/decisions.md "Feed summaries: the list's
 * version"). Every step first lets the app keep the user's summaries, then writes, then asks again: the answer must
 * be what the database says now. A write the triggers missed would leave the kept answer in place and fail here.
 */

const HOUR = 3_600_000;

/** A multipart/form-data body holding one OPML file, as browsers send it. */
function opmlUpload(outlines: string) {
  const boundary = '----feeder-test-boundary';
  const content = `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>${outlines}</body></opml>`;
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="opml_file"; filename="a.opml"\r\nContent-Type: text/x-opml\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const dialect of DIALECTS) {
  describe(`feed list version (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));
    afterEach(() => t.clock.reset());

    const version = (u: SignedInUser) => feedListVersion(t.database.db, u.id);
    const served = async (u: SignedInUser): Promise<FeedSummariesResponse> => {
      const res = await u.get('/api/feeds/summaries');
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    /** What the summaries must say: worked out from the full list, which reads the feeds themselves. */
    const truth = async (u: SignedInUser): Promise<FeedSummariesResponse> => summariesFromFullList((await u.get('/api/feeds')).json<Feed[]>());

    /** Keeps the user's summaries, runs the write, and checks the answer and that the version moved (or not). */
    async function step(u: SignedInUser, what: string, write: () => Promise<unknown>, moves = true) {
      await served(u);
      const before = await version(u);
      await write();
      expect(await served(u), what).toEqual(await truth(u));
      if (moves) expect(await version(u), what).toBeGreaterThan(before);
      else expect(await version(u), what).toBe(before);
    }

    const ok = (res: { statusCode: number; body: string }) => expect(res.statusCode, res.body).toBeLessThan(300);

    it('moves with every write that changes the summaries, and only with those', async () => {
      const u = await signedInUser(t);
      expect(await version(u)).toBe(0);
      let a = { id: 0, path: '' };
      await step(u, 'subscribe and first fetch', async () => (a = await subscribeFetched(t, server, u.id, 'Alpha', [item(1), item(2)])));
      const b = await subscribeTo(t, u.id, server.url('/version-b.xml'));
      await step(u, 'subscribe without a fetch', () => subscribeTo(t, u.id, server.url('/version-c.xml')));
      await step(u, 'custom title', async () => ok(await u.post('/api/feeds/set_custom_title', { feed_id: a.id, custom_title: 'Mine' })));
      await step(u, 'custom title cleared', async () => ok(await u.post('/api/feeds/set_custom_title', { feed_id: a.id, custom_title: null })));
      const { folder } = (await u.post('/api/folders', { name: 'News' })).json<{ folder: { id: number } }>();
      await step(u, 'into a folder', async () => ok(await u.post(`/api/folders/${folder.id}/feeds`, { feed_id: b })));
      await step(u, 'out of the folder', async () => ok(await u.del(`/api/folders/${folder.id}/feeds/${b}`)));
      await u.post(`/api/folders/${folder.id}/feeds`, { feed_id: a.id });
      await step(u, 'folder deleted', async () => ok(await u.del(`/api/folders/${folder.id}`)));
      await step(u, 'reordered', async () => ok(await u.post('/api/feeds/sort', { feed_order: [b, a.id] })));
      await step(u, 'always load the original', async () => ok(await u.put(`/api/feeds/${b}`, { always_load_original: true })));
      await step(u, 'muted for hours', async () => ok(await u.post(`/api/feeds/${a.id}/mute`, { duration: 8 })));
      await step(u, 'unmuted', async () => ok(await u.post(`/api/feeds/${a.id}/unmute`)));
      await step(u, 'muted for good', async () => ok(await u.post(`/api/feeds/${b}/mute`, { permanently: true })));
      await step(u, 'feed renamed by its site', () => refetch(t, server, a, 'Alpha, renamed', [item(1), item(2), item(3)]));
      await step(u, 'icon found', () =>
        t.database.db
          .updateTable('feeds')
          .set({ icon_data: 'iVBORw0KGgo=', icon_type: 'image/png', icon_hash: iconHash('iVBORw0KGgo=') })
          .where('id', '=', a.id)
          .execute(),
      );
      await step(u, 'fetch failed', () => t.database.db.updateTable('feeds').set({ last_error_code: 'FETCH_TIMEOUT' }).where('id', '=', a.id).execute());
      await step(u, 'fetch worked again', () => refetch(t, server, a, 'Alpha, renamed', [item(1), item(2), item(3), item(4)]));
      await step(u, 'OPML import', async () =>
        ok(
          await t.app.inject({
            method: 'POST',
            url: '/api/feeds/import/opml',
            ...withHeaders(u, opmlUpload(`<outline text="d" xmlUrl="${server.url('/version-d.xml')}"/>`)),
          }),
        ),
      );
      await step(u, 'unsubscribed', async () => ok(await u.del(`/api/feeds/${b}`)));

      // What the summaries do not show leaves the version alone: new articles, reading, the counters.
      await step(u, 'new articles', () => refetch(t, server, a, 'Alpha, renamed', [item(1), item(2), item(3), item(4), item(5)]), false);
      const ids = (await u.get(`/api/feeds/${a.id}/articles`)).json<{ articles: { id: number }[] }>().articles.map((x) => x.id);
      expect(ids.length).toBeGreaterThan(0);
      await step(u, 'marked read', async () => ok(await u.post('/api/articles/mark-read', { article_ids: ids })), false);
      await step(u, 'a refresh with nothing new', async () => expect((await t.refresh.refreshFeed(a.id)).status).toBe('not-modified'), false);

      await step(u, 'every feed unsubscribed', async () => ok(await u.del('/api/feeds/all')));
      expect(await served(u)).toEqual(EMPTY_SUMMARIES);
    });

    it('a timed mute ends in the kept answer without a write', async () => {
      const u = await signedInUser(t);
      const a = await subscribeTo(t, u.id, server.url('/version-mute.xml'));
      ok(await u.post(`/api/feeds/${a}/mute`, { duration: 8 }));
      expect(Object.keys((await served(u)).muted)).toEqual([String(a)]);
      t.clock.advance(9 * HOUR);
      await u.renew();
      expect((await served(u)).muted).toEqual({});
    });

    it('a feed changed for all its readers moves every reader’s version', async () => {
      const [x, y] = [await signedInUser(t), await signedInUser(t)];
      const shared = await subscribeFetched(t, server, x.id, 'Shared', [item(1)]);
      await subscribeTo(t, y.id, server.url(shared.path));
      await served(x);
      await served(y);
      const [vx, vy] = [await version(x), await version(y)];
      await refetch(t, server, shared, 'Shared, renamed', [item(1)]);
      expect([await version(x), await version(y)]).toEqual([vx + 1, vy + 1]);
      expect((await served(x)).titles[0]).toBe('Shared, renamed');
      expect((await served(y)).titles[0]).toBe('Shared, renamed');
    });

    it('interleaved users each get their own list, however their requests and writes alternate', async () => {
      const users = [await signedInUser(t), await signedInUser(t), await signedInUser(t)];
      const feeds = await Promise.all(users.map((u, i) => subscribeTo(t, u.id, server.url(`/interleaved-${i}.xml`))));
      for (let round = 0; round < 4; round++) {
        for (const [i, u] of users.entries()) {
          if ((round + i) % 2 === 0) ok(await u.post('/api/feeds/set_custom_title', { feed_id: feeds[i], custom_title: `user ${i} round ${round}` }));
          const answers = await Promise.all(users.map((v) => served(v)));
          for (const [j, answer] of answers.entries()) {
            expect(answer.ids).toEqual([feeds[j]]);
            expect(answer).toEqual(await truth(users[j]));
          }
        }
      }
    });

    it('a user can be deleted with their subscriptions (the triggers keep out of the cascade)', async () => {
      const u = await signedInUser(t);
      await subscribeTo(t, u.id, server.url('/version-deleted.xml'));
      await t.database.db.deleteFrom('users').where('id', '=', u.id).execute();
      expect(await t.database.db.selectFrom('feed_list_versions').selectAll().where('user_id', '=', u.id).execute()).toEqual([]);
    });
  });
}

function withHeaders(u: SignedInUser, body: { payload: string; headers: Record<string, string> }) {
  return { headers: { ...u.headers, ...body.headers }, payload: body.payload };
}

describe('SummariesCache', () => {
  const entry = (version: number, json: string, muteEnds: string | null = null) => ({ json, etag: `"${json}"`, version, muteEnds });

  it('answers only for the version and the time it was read at', () => {
    const cache = new SummariesCache(1000);
    cache.set(1, entry(3, 'a', '2026-01-01T10:00:00.000Z'));
    expect(cache.get(1, 3, '2026-01-01T09:00:00.000Z')?.json).toBe('a');
    expect(cache.get(2, 3, '2026-01-01T09:00:00.000Z')).toBeUndefined();
    expect(cache.get(1, 4, '2026-01-01T09:00:00.000Z')).toBeUndefined();
    // A stale entry is dropped at once.
    expect(cache.has(1)).toBe(false);
    cache.set(1, entry(3, 'a', '2026-01-01T10:00:00.000Z'));
    expect(cache.get(1, 3, '2026-01-01T10:00:00.000Z')).toBeUndefined();
  });

  it('holds at most its bytes, dropping the user used least recently', () => {
    const cache = new SummariesCache(10);
    cache.set(1, entry(1, 'aaaa'));
    cache.set(2, entry(1, 'bbbb'));
    expect(cache.get(1, 1, 'now')?.json).toBe('aaaa');
    cache.set(3, entry(1, 'cccc'));
    expect([cache.has(1), cache.has(2), cache.has(3), cache.size]).toEqual([true, false, true, 8]);
    cache.set(1, entry(2, 'aaaaaaa'));
    expect([cache.has(1), cache.has(3), cache.size]).toEqual([true, false, 7]);
    // An answer larger than the whole cache is not kept, and takes nothing else out.
    cache.set(4, entry(1, 'x'.repeat(11)));
    expect([cache.has(4), cache.has(1), cache.size]).toEqual([false, true, 7]);
  });
});
