import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feed, OpmlImportResult } from '../../common/api.js';
import { listFolders } from '../folders/folders.repository.js';
import { DIALECTS } from '../test/dialects.js';
import { item, rss, type TestFeedServer } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, signedInUser } from '../test/feed-user.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { WorkerPoolProcessor } from '../refresh/document-pool.js';
import { parseOpmlFile } from './opml.parse.js';
import { IMPORT_URGENT_FEEDS } from './opml.service.js';

/**
 * OPML import and export through HTTP (dashboard.md §5, §7 "Feeds", §9; docs/decisions.md "OPML and the catalog"),
 * on both dialects: folders from nesting, duplicates, broken real-world files, bad uploads, a 10,000-feed import
 * during which other requests are answered, the export's format and name, and the round trip.
 */
const fixture = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url));

/** A multipart/form-data body as browsers send it. */
function multipart(parts: { field: string; filename?: string; content: Buffer | string; type?: string }[]) {
  const boundary = `----feeder${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename !== undefined ? `form-data; name="${p.field}"; filename="${p.filename}"` : `form-data; name="${p.field}"`;
    const type = p.filename !== undefined ? `\r\nContent-Type: ${p.type ?? 'text/x-opml'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const opmlOf = (outlines: string) => `<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>t</title></head><body>${outlines}</body></opml>`;

for (const dialect of DIALECTS) {
  describe(`OPML import and export (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => {
      ({ t, server } = await createTestAppWithFeeds({ dialect }));
      server.set('/shared.xml', { body: rss('Shared feed', [item(1), item(2), item(3)]) });
    });
    afterAll(() => closeTestAppWithFeeds(t, server));

    async function user() {
      const { id, headers } = await signedInUser(t);
      return {
        id,
        headers,
        async upload(content: Buffer | string, filename = 'subscriptions.opml', field = 'opml_file') {
          const body = multipart([{ field, filename, content }]);
          return t.app.inject({ method: 'POST', url: '/api/feeds/import/opml', headers: { ...headers, ...body.headers }, payload: body.payload });
        },
        async import(content: Buffer | string): Promise<OpmlImportResult> {
          const res = await this.upload(content);
          expect(res.statusCode, res.body).toBe(200);
          return res.json();
        },
        feeds: async (): Promise<Feed[]> => (await t.app.inject({ method: 'GET', url: '/api/feeds', headers })).json(),
        export: () => t.app.inject({ method: 'GET', url: '/api/feeds/export/opml', headers }),
        folders: () => listFolders(t.database.db, id),
      };
    }
    type User = Awaited<ReturnType<typeof user>>;

    /** What a user sees: folders in order with their feeds, then the root feeds (name shown, url, custom title). */
    async function state(u: User) {
      const feeds = await u.feeds();
      const folders = await u.folders();
      const shown = (f: Feed) => ({ url: f.url, custom_title: f.custom_title, title: f.title });
      return {
        folders: folders.map((folder) => ({ name: folder.name, feeds: feeds.filter((f) => f.folder_id === folder.id).map(shown) })),
        root: feeds.filter((f) => f.folder_id === null).map(shown),
      };
    }

    it('needs a signed-in user', async () => {
      const body = multipart([{ field: 'opml_file', filename: 'a.opml', content: fixture('feedly.opml') }]);
      expect((await t.app.inject({ method: 'POST', url: '/api/feeds/import/opml', headers: body.headers, payload: body.payload })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/feeds/export/opml' })).statusCode).toBe(401);
      const bad = { authorization: 'Bearer nonsense' };
      expect((await t.app.inject({ method: 'GET', url: '/api/feeds/export/opml', headers: bad })).statusCode).toBe(401);
    });

    it('imports a Feedly export: categories become folders, a feed listed twice counts once', async () => {
      const u = await user();
      const result = await u.import(fixture('feedly.opml'));
      expect(result).toMatchObject({ imported_count: 5, existed_count: 1, failed_count: 0, folders_created: 2 });
      expect(result.message).toMatch(/5 feeds imported/);
      const s = await state(u);
      // "Must Read" held only a feed that was already in "Tech": no empty folder is made for it.
      expect(s.folders.map((f) => f.name)).toEqual(['Tech', 'News']);
      expect(s.folders[0].feeds.map((f) => f.title)).toEqual(['Ars Technica', 'heise online News', 'Stratechery by Ben Thompson']);
      expect(s.folders[1].feeds.map((f) => f.url)).toEqual(['https://feeds.bbci.co.uk/news/world/rss.xml', 'https://www.tagesschau.de/index~rss2.xml']);
      expect(s.root).toEqual([]);
      // Same name as the feed's title: no custom title; the name shows until the first fetch.
      expect(s.folders[0].feeds.every((f) => f.custom_title === null)).toBe(true);
      const feeds = await u.feeds();
      expect(feeds.find((f) => f.url.includes('arstechnica'))?.site_url ?? null).toBe('https://arstechnica.com/');

      // The same file again: everything is there already, nothing is made twice.
      const again = await u.import(fixture('feedly.opml'));
      expect(again).toMatchObject({ imported_count: 0, existed_count: 6, failed_count: 0, folders_created: 0 });
      expect((await u.folders()).map((f) => f.name)).toEqual(['Tech', 'News']);
    });

    it("reads every other reader's export", async () => {
      const u = await user();
      const expected: Record<string, Partial<OpmlImportResult>> = {
        'inoreader.xml': { imported_count: 3, folders_created: 1 },
        'netnewswire.opml': { imported_count: 4, folders_created: 1 },
        'miniflux.opml': { imported_count: 3, folders_created: 2 },
        'freshrss.opml.xml': { imported_count: 3, folders_created: 2 },
        'ttrss.opml': { imported_count: 3, folders_created: 1 },
      };
      for (const [file, counts] of Object.entries(expected)) {
        expect(await u.import(fixture(file)), file).toMatchObject({ ...counts, existed_count: 0, failed_count: 0 });
      }
      expect((await u.folders()).map((f) => f.name)).toEqual(['Wissenschaft', 'Apple', 'All', 'Politik', 'Sans catégorie', 'Kultur & Medien', 'Nachrichten']);
      expect(await u.feeds()).toHaveLength(16);
    });

    it('is lenient with broken files and counts unusable addresses as failed', async () => {
      const u = await user();
      const result = await u.import(fixture('broken-hand-edited.opml'));
      // javascript: and mailto: fail; the same blog with a #fragment is the same feed.
      expect(result).toMatchObject({ imported_count: 5, existed_count: 1, failed_count: 2, folders_created: 1 });
      const feeds = await u.feeds();
      expect(feeds.map((f) => f.url)).toEqual([
        'https://blog.example.org/feed?format=rss&lang=de',
        'https://cafe.example.net/rss.xml',
        'https://news.example.com/atom.xml',
        'https://deep.example.com/feed',
        'https://single.example.com/rss',
      ]);
      expect(feeds[1]).toMatchObject({ custom_title: 'Café Kultur' });
      expect(feeds[0].custom_title).toBeNull();
      expect(feeds[0].title).toBe("Anna & Ben's blog");

      const latin = await user();
      expect(await latin.import(fixture('latin1.opml'))).toMatchObject({ imported_count: 2, folders_created: 1 });
      expect((await latin.folders())[0].name).toBe('Österreich');
      expect((await latin.feeds()).map((f) => f.custom_title)).toEqual(['Der Standard – Überblick', 'ORF.at – Nachrichten für Österreich']);

      const cut = await user();
      expect(await cut.import(fixture('truncated.opml'))).toMatchObject({ imported_count: 2 });
    });

    it('flattens deeper nesting into the top-level folder and keeps a declared empty folder', async () => {
      const u = await user();
      expect(await u.import(fixture('nested-deep.opml'))).toMatchObject({ imported_count: 4, folders_created: 2 });
      const s = await state(u);
      expect(s.folders.map((f) => [f.name, f.feeds.length])).toEqual([
        ['Tech', 3],
        ['Empty folder', 0],
      ]);
      expect(s.root.map((f) => f.title)).toEqual(['Hacker News']);
    });

    it('puts feeds into an existing folder of the same name, and leaves feeds the user reads already untouched', async () => {
      const u = await user();
      await u.import(opmlOf('<outline text="tech"><outline text="Mine" title="Own" xmlUrl="https://keep.example/feed"/></outline>'));
      const result = await u.import(
        opmlOf('<outline text="TECH"><outline text="Renamed" xmlUrl="https://keep.example/feed"/><outline text="New" xmlUrl="https://new.example/feed"/></outline>'),
      );
      expect(result).toMatchObject({ imported_count: 1, existed_count: 1, folders_created: 0 });
      const s = await state(u);
      expect(s.folders).toEqual([
        {
          name: 'tech',
          feeds: [
            { url: 'https://keep.example/feed', custom_title: 'Mine', title: 'Mine' },
            { url: 'https://new.example/feed', custom_title: null, title: 'New' },
          ],
        },
      ]);
    });

    it('keeps to the folder rules: names cut to 100 characters, no folder beyond the limit (its feeds go to the root)', async () => {
      const u = await user();
      const long = `${'Ä'.repeat(99)}xyz`;
      await u.import(opmlOf(`<outline text="${long}"><outline text="L" xmlUrl="https://long.example/feed"/></outline>`));
      const [folder] = await u.folders();
      expect([...folder.name]).toHaveLength(100);

      const { createFolder } = await import('../folders/folders.repository.js');
      const { MAX_FOLDERS } = await import('../../common/limits.js');
      for (let i = 1; i < MAX_FOLDERS; i++) await createFolder(t.database.db, u.id, `F${i}`, new Date().toISOString());
      const result = await u.import(opmlOf('<outline text="One too many"><outline text="R" xmlUrl="https://root.example/feed"/></outline>'));
      expect(result).toMatchObject({ imported_count: 1, folders_created: 0 });
      expect((await u.feeds()).find((f) => f.url === 'https://root.example/feed')?.folder_id).toBeNull();
    });

    it('gives a feed other users read its stored articles, unread and in the smart lists they match', async () => {
      const reader = await user();
      const add = await t.app.inject({ method: 'POST', url: '/api/feeds', headers: reader.headers, payload: { url: server.url('/shared.xml') } });
      expect(add.statusCode, add.body).toBe(201);
      expect((await t.refresh.refreshFeed(add.json().id)).status).toMatch(/ok|not-modified/);

      const u = await user();
      const smart = await t.app.inject({
        method: 'POST',
        url: '/api/reading-lists',
        headers: u.headers,
        payload: { name: 'Two', is_smart: true, rules: [{ rule_type: 'keyword', rule_scope: 'title', rule_value: 'Item 2' }] },
      });
      expect(smart.statusCode, smart.body).toBe(201);
      expect(await u.import(opmlOf(`<outline text="Shared" xmlUrl="${server.url('/shared.xml')}"/>`))).toMatchObject({ imported_count: 1 });
      const [feed] = await u.feeds();
      // The feed row keeps what its fetch stored, not the name in the file.
      expect(feed.title).toBe('Shared feed');
      const counts = (await t.app.inject({ method: 'GET', url: '/api/feeds/unread_counts', headers: u.headers })).json();
      expect(counts.counts[String(feed.id)]).toBe(3);
      // As subscribing by URL does (feeds.repository backfillSubscriptions), the smart list takes its match.
      const listed = await t.app.inject({ method: 'GET', url: `/api/reading-lists/${smart.json().reading_list.id}/articles`, headers: u.headers });
      expect(listed.json().articles.map((a: { title: string }) => a.title)).toEqual(['Item 2']);
    });

    it('refuses bad uploads with 4xx {message, code} and writes nothing', async () => {
      const u = await user();
      const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
        expect(res.statusCode).toBe(status);
        expect(res.json()).toMatchObject({ code, message: expect.any(String) });
      };
      // No file at all: a JSON body, an empty multipart form, a form with the file under another name.
      expectError(await t.app.inject({ method: 'POST', url: '/api/feeds/import/opml', headers: u.headers, payload: { opml_file: 'x' } }), 400, 'OPML_FILE_REQUIRED');
      expectError(await t.app.inject({ method: 'POST', url: '/api/feeds/import/opml', headers: u.headers }), 400, 'OPML_FILE_REQUIRED');
      const fieldOnly = multipart([{ field: 'opml_file', content: 'not a file' }]);
      expectError(
        await t.app.inject({ method: 'POST', url: '/api/feeds/import/opml', headers: { ...u.headers, ...fieldOnly.headers }, payload: fieldOnly.payload }),
        400,
        'OPML_FILE_REQUIRED',
      );
      expectError(await u.upload(fixture('feedly.opml'), 'a.opml', 'file'), 400, 'OPML_FILE_REQUIRED');
      expectError(await u.upload(''), 400, 'OPML_EMPTY');
      expectError(await u.upload(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256))), 400, 'OPML_INVALID');
      expectError(await u.upload('<!doctype html><html><body>Not OPML</body></html>', 'page.xml'), 400, 'OPML_INVALID');
      expectError(await u.upload(fixture('entities.opml')), 400, 'OPML_ENTITIES');
      expectError(await u.upload(opmlOf('')), 400, 'OPML_NO_FEEDS');
      // Over 5 MB.
      const huge = opmlOf(`<outline text="${'x'.repeat(6 * 1024 * 1024)}" xmlUrl="https://huge.example/feed"/>`);
      expectError(await u.upload(huge), 413, 'OPML_TOO_LARGE');
      // A multipart body cut off in the middle of the file.
      const cut = multipart([{ field: 'opml_file', filename: 'a.opml', content: fixture('feedly.opml') }]);
      expectError(
        await t.app.inject({
          method: 'POST',
          url: '/api/feeds/import/opml',
          headers: { ...u.headers, ...cut.headers },
          payload: cut.payload.subarray(0, cut.payload.length - 200),
        }),
        400,
        'OPML_UPLOAD_INVALID',
      );
      expect(await u.feeds()).toEqual([]);
      expect(await u.folders()).toEqual([]);
    });

    it('answers 400 OPML_TOO_COMPLEX when reading the file outlasts its time limit on the worker pool', async () => {
      const strict = await createTestApp({ dialect, database: t.database, engine: { pool: new WorkerPoolProcessor(1, undefined, { opml: 1 }) } });
      try {
        const { access_token } = await strict.signUp();
        const body = multipart([{ field: 'opml_file', filename: 'a.opml', content: opmlOf('<outline text="d" xmlUrl="https://public.example/feed"/>') }]);
        const res = await strict.app.inject({
          method: 'POST',
          url: '/api/feeds/import/opml',
          headers: { ...strict.bearer(access_token), ...body.headers },
          payload: body.payload,
        });
        expect([res.statusCode, res.json().code]).toEqual([400, 'OPML_TOO_COMPLEX']);
      } finally {
        await strict.close();
      }
    });

    it('refuses private addresses when fetching from private networks is off (SSRF rule)', async () => {
      const strict = await createTestApp({ dialect, database: t.database, env: { ALLOW_PRIVATE_FEED_HOSTS: 'false' } });
      try {
        const { access_token } = await strict.signUp();
        const body = multipart([
          {
            field: 'opml_file',
            filename: 'a.opml',
            content: opmlOf(
              '<outline text="a" xmlUrl="http://127.0.0.1:8080/feed"/><outline text="b" xmlUrl="http://[::1]/feed"/>' +
                '<outline text="c" xmlUrl="http://169.254.169.254/latest/meta-data"/><outline text="d" xmlUrl="https://public.example/feed"/>',
            ),
          },
        ]);
        const res = await strict.app.inject({
          method: 'POST',
          url: '/api/feeds/import/opml',
          headers: { ...strict.bearer(access_token), ...body.headers },
          payload: body.payload,
        });
        expect(res.json()).toMatchObject({ imported_count: 1, failed_count: 3 });
      } finally {
        await strict.close();
      }
    });

    it('imports 10,000 feeds in batches while other requests are answered; feeds are fetched in the background', async () => {
      const big = await createTestApp({ dialect, database: t.database });
      try {
        const { access_token, user: me } = await big.signUp();
        const headers = big.bearer(access_token);
        const outlines: string[] = [];
        for (let folder = 0; folder < 20; folder++) {
          outlines.push(`<outline text="Folder ${folder}" title="Folder ${folder}">`);
          for (let i = 0; i < 500; i++) {
            const n = folder * 500 + i;
            outlines.push(
              `<outline type="rss" text="Feed ${n}" title="Feed ${n}" xmlUrl="https://feeds${n % 97}.example.org/${n}/rss.xml" htmlUrl="https://site${n}.example.org/"/>`,
            );
          }
          outlines.push('</outline>');
        }
        const body = multipart([{ field: 'opml_file', filename: 'big.opml', content: opmlOf(outlines.join('\n')) }]);
        let done = false;
        const importing = big.app
          .inject({ method: 'POST', url: '/api/feeds/import/opml', headers: { ...headers, ...body.headers }, payload: body.payload })
          .finally(() => (done = true));

        // Ask for the unread counts until an answer arrives while the import is half way.
        let answeredDuring = false;
        while (!done) {
          const res = await big.app.inject({ method: 'GET', url: '/api/feeds/unread_counts', headers });
          expect(res.statusCode).toBe(200);
          const count = Object.keys(res.json().counts).length;
          if (!done && count > 0 && count < 10_000) answeredDuring = true;
        }
        const res = await importing;
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ imported_count: 10_000, existed_count: 0, failed_count: 0, folders_created: 20 });
        expect(answeredDuring).toBe(true);

        const folders = await listFolders(big.database.db, me.id);
        expect(folders).toHaveLength(20);
        expect(folders.every((f) => f.feed_ids.length === 500)).toBe(true);
        // Nothing was fetched during the import: the first feeds wait in the queue, all of them are due.
        expect(await big.refresh.queue.pending()).toBe(IMPORT_URGENT_FEEDS);
        const due = await big.database.db
          .selectFrom('feeds')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('url', 'like', 'https://feeds%.example.org/%')
          .where('last_fetched_at', 'is', null)
          .where('next_check_at', '<=', new Date().toISOString())
          .executeTakeFirstOrThrow();
        expect(Number(due.n)).toBe(10_000);
      } finally {
        await big.close();
      }
    }, 120_000);

    it('exports OPML 2.0 as feeder-feeds-YYYY-MM-DD.opml with folders, custom titles and addresses, escaped', async () => {
      const u = await user();
      await u.import(fixture('nested-deep.opml'));
      const feeds = await u.feeds();
      const verge = feeds.find((f) => f.url.includes('theverge'))!;
      const renamed = await t.app.inject({
        method: 'POST',
        url: '/api/feeds/set_custom_title',
        headers: u.headers,
        payload: { feed_id: verge.id, custom_title: 'Verge <"tech"> & more' },
      });
      expect(renamed.statusCode).toBe(200);

      const res = await u.export();
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/xml/);
      const day = t.clock.now().toISOString().slice(0, 10);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="feeder-feeds-${day}.opml"`);
      expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<opml version="2.0">/);
      expect(res.body).toContain('text="Verge &lt;&quot;tech&quot;&gt; &amp; more" title="The Verge"');

      const doc = parseOpmlFile(Buffer.from(res.body));
      expect(doc.folders).toEqual(['Tech', 'Empty folder']);
      expect(doc.entries.map((e) => [e.folder, e.xmlUrl, e.customTitle])).toEqual([
        ['Tech', 'https://lwn.net/headlines/rss', null],
        ['Tech', 'https://www.omgubuntu.co.uk/feed', null],
        ['Tech', 'https://www.theverge.com/rss/index.xml', 'Verge <"tech"> & more'],
        [null, 'https://news.ycombinator.com/rss', null],
      ]);

      // Another user's export holds none of it.
      const other = await user();
      expect(parseOpmlFile.bind(null, Buffer.from((await other.export()).body))).toThrow(/no feeds/);
    });

    it('an export re-imports into a fresh account to the same state', async () => {
      const u = await user();
      await u.import(fixture('feedly.opml'));
      await u.import(fixture('broken-hand-edited.opml'));
      await u.import(fixture('nested-deep.opml'));
      const feeds = await u.feeds();
      await t.app.inject({
        method: 'POST',
        url: '/api/feeds/set_custom_title',
        headers: u.headers,
        payload: { feed_id: feeds[2].id, custom_title: 'Mein & dein <Lieblings>feed' },
      });
      const before = await state(u);
      expect(before.folders.length).toBeGreaterThanOrEqual(4);

      const exported = (await u.export()).body;
      const fresh = await user();
      const result = await fresh.import(exported);
      expect(result).toMatchObject({ imported_count: feeds.length, existed_count: 0, failed_count: 0, folders_created: before.folders.length });
      expect(await state(fresh)).toEqual(before);
      // And once more: the second export is the first one (but for its date).
      const strip = (xml: string) => xml.replace(/<dateCreated>.*<\/dateCreated>/, '');
      expect(strip((await fresh.export()).body)).toBe(strip(exported));
    });
  });
}
