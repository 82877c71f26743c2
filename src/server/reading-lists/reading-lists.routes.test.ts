import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticlePage, ReadingList, ReadingListRule } from '../../common/api.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import { cleanupArticles } from '../refresh/cleanup.js';
import { DIALECTS } from '../test/dialects.js';
import { ITEM_EPOCH_MS, item, rss, type TestFeedServer, type TestItem } from '../test/feed-server.js';
import { closeTestAppWithFeeds, createTestAppWithFeeds, signedInUser, subscribeFetched } from '../test/feed-user.js';
import type { TestApp } from '../test/test-app.js';
import { MAX_READING_LIST_DESCRIPTION_LENGTH, MAX_READING_LIST_NAME_LENGTH, MAX_RULE_VALUE_LENGTH, MAX_RULES } from '../../common/limits.js';

/**
 * The reading-lists API (dashboard.md §3, §4 "Reading-list membership", §5, §7 "Reading lists", §8; decisions.md
 * "Smart reading lists"; docs/decisions.md "Organising: folders and reading lists") through HTTP, on both dialects,
 * with feeds refreshed from a local feed server (smart lists take arriving articles through a real refresh).
 */

const rule = (value: string, o: Partial<ReadingListRule> = {}): Partial<ReadingListRule> => ({ rule_value: value, ...o });

for (const dialect of DIALECTS) {
  describe(`reading-lists API (${dialect})`, () => {
    let t: TestApp;
    let server: TestFeedServer;

    beforeAll(async () => ({ t, server } = await createTestAppWithFeeds({ dialect })));
    afterAll(() => closeTestAppWithFeeds(t, server));

    async function user() {
      const u = await signedInUser(t);
      const self = {
        ...u,
        async page(url: string): Promise<ArticlePage> {
          const res = await u.get(url);
          expect(res.statusCode, res.body).toBe(200);
          return res.json();
        },
        async list(body: object): Promise<ReadingList> {
          const res = await u.post('/api/reading-lists', body);
          expect(res.statusCode, res.body).toBe(201);
          return res.json().reading_list;
        },
        async one(id: number): Promise<ReadingList> {
          const res = await u.get(`/api/reading-lists/${id}`);
          expect(res.statusCode, res.body).toBe(200);
          return res.json().reading_list;
        },
        /** Titles in a list's page (read ones included), newest first. */
        async titles(listId: number, query = ''): Promise<string[]> {
          return (await self.page(`/api/reading-lists/${listId}/articles?per_page=100${query}`)).articles.map((a) => a.title);
        },
        /** Subscribes to a feed served at a new path with these items and refreshes it; returns the feed and its path. */
        async feed(title: string, items: TestItem[]): Promise<{ feedId: number; path: string }> {
          const { id, path } = await subscribeFetched(t, server, u.id, title, items);
          return { feedId: id, path };
        },
        async follow(feedId: number) {
          await subscribe(t.database.db, u.id, feedId, new Date().toISOString());
        },
        /** Article id by title in the all-feeds list (read ones included). */
        async idOf(title: string): Promise<number> {
          const all = await self.page('/api/articles?show_read=true&per_page=100');
          const found = all.articles.find((a) => a.title === title);
          expect(found, title).toBeDefined();
          return found!.id;
        },
      };
      return self;
    }

    it('needs a signed-in user', async () => {
      for (const [method, url] of [
        ['GET', '/api/reading-lists'],
        ['POST', '/api/reading-lists'],
        ['GET', '/api/reading-lists/unread_counts'],
        ['POST', '/api/reading-lists/sort'],
        ['GET', '/api/reading-lists/1'],
        ['PUT', '/api/reading-lists/1'],
        ['DELETE', '/api/reading-lists/1'],
        ['GET', '/api/reading-lists/1/articles'],
        ['POST', '/api/reading-lists/1/articles/1'],
        ['DELETE', '/api/reading-lists/1/articles/1'],
      ] as const) {
        expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
      }
    });

    it('creates, reads, updates and deletes simple lists', async () => {
      const u = await user();
      expect((await u.get('/api/reading-lists')).json()).toEqual({ reading_lists: [] });
      const created = await u.list({ name: '  Später lesen ', description: ' Für das Wochenende ' });
      expect(created).toMatchObject({
        name: 'Später lesen',
        description: 'Für das Wochenende',
        is_smart: false,
        rules: [],
        article_count: 0,
        unread_article_count: 0,
        sort_order: 0,
      });
      expect(created.created_at).toMatch(/Z$/);
      // Angle brackets arrive escaped from the web app (dashboard.md §5) and are stored as sent.
      const second = await u.list({ name: '&lt;b&gt;Tech&lt;/b&gt;', is_smart: false, rules: [rule('ignored')] });
      expect(second).toMatchObject({ name: '&lt;b&gt;Tech&lt;/b&gt;', description: '', rules: [], sort_order: 1 });
      expect(await u.one(created.id)).toEqual(created);

      const updated = await u.put(`/api/reading-lists/${created.id}`, { name: 'Later', description: '' });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().reading_list).toMatchObject({ id: created.id, name: 'Later', description: '' });
      expect((await u.get('/api/reading-lists')).json().reading_lists.map((l: ReadingList) => l.name)).toEqual(['Later', '&lt;b&gt;Tech&lt;/b&gt;']);

      expect((await u.del(`/api/reading-lists/${created.id}`)).statusCode).toBe(204);
      const gone = await u.get(`/api/reading-lists/${created.id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().code).toBe('READING_LIST_NOT_FOUND');
      expect((await u.del(`/api/reading-lists/${created.id}`)).statusCode).toBe(404);
    });

    it('validates with the codes of dashboard.md §5 and writes nothing on failure', async () => {
      const u = await user();
      const { feedId } = await u.feed('Valid', [item(1)]);
      const other = await user();
      const { feedId: foreignFeed } = await other.feed('Foreign', [item(1)]);
      const cases: [object, string, number?][] = [
        [{}, 'NAME_REQUIRED'],
        [{ name: '   ' }, 'NAME_REQUIRED'],
        [{ name: null }, 'NAME_REQUIRED'],
        [{ name: 'x'.repeat(MAX_READING_LIST_NAME_LENGTH + 1) }, 'NAME_TOO_LONG'],
        [{ name: 'ok', description: 'x'.repeat(MAX_READING_LIST_DESCRIPTION_LENGTH + 1) }, 'DESCRIPTION_TOO_LONG'],
        [{ name: 'ok', is_smart: true }, 'RULES_REQUIRED'],
        [{ name: 'ok', is_smart: true, rules: [] }, 'RULES_REQUIRED'],
        [{ name: 'ok', is_smart: true, rules: Array.from({ length: MAX_RULES + 1 }, () => rule('a')) }, 'TOO_MANY_RULES'],
        [{ name: 'ok', is_smart: true, rules: [rule('fine'), rule('  ')] }, 'RULE_VALUE_REQUIRED', 1],
        [{ name: 'ok', is_smart: true, rules: [{ rule_type: 'keyword' }] }, 'RULE_VALUE_REQUIRED', 0],
        [{ name: 'ok', is_smart: true, rules: [rule('x'.repeat(MAX_RULE_VALUE_LENGTH + 1))] }, 'RULE_VALUE_TOO_LONG', 0],
        [{ name: 'ok', is_smart: true, rules: [rule('a', { include_all_feeds: false, selected_feeds: [] })] }, 'FEEDS_REQUIRED', 0],
        // A feed the user does not read is dropped from the selection, which then is empty.
        [{ name: 'ok', is_smart: true, rules: [rule('a', { include_all_feeds: false, selected_feeds: [foreignFeed] })] }, 'FEEDS_REQUIRED', 0],
        [{ name: 'ok', is_smart: true, rules: [rule('(unclosed', { rule_type: 'regex' })] }, 'INVALID_REGEX', 0],
        // Backreferences and look-arounds need backtracking: RE2 syntax has neither.
        [{ name: 'ok', is_smart: true, rules: [rule('(a)\\1', { rule_type: 'regex' })] }, 'INVALID_REGEX', 0],
        [{ name: 'ok', is_smart: true, rules: [rule('(?=a)b', { rule_type: 'regex' })] }, 'INVALID_REGEX', 0],
        [{ name: 'ok', is_smart: true, rules: [rule('a{2000}', { rule_type: 'regex' })] }, 'INVALID_REGEX', 0],
      ];
      for (const [body, code, index] of cases) {
        const res = await u.post('/api/reading-lists', body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
        expect(res.json()).toMatchObject({ code, ...(index === undefined ? {} : { rule_index: index }) });
      }
      // Types and scopes are checked by the schema.
      for (const bad of [{ rule_type: 'glob' }, { rule_scope: 'author' }, { include_all_feeds: 'yes' }, { selected_feeds: ['x'] }]) {
        const res = await u.post('/api/reading-lists', { name: 'ok', is_smart: true, rules: [{ rule_value: 'a', ...bad }] });
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      }
      expect((await u.get('/api/reading-lists')).json().reading_lists).toEqual([]);

      // Smart rules take the spec's defaults; a foreign feed beside an own one is dropped.
      const smart = await u.list({
        name: 'Smart',
        is_smart: true,
        rules: [rule('item'), rule('x', { include_all_feeds: false, selected_feeds: [feedId, foreignFeed, feedId] })],
      });
      expect(smart.rules).toEqual([
        { rule_type: 'keyword', rule_scope: 'both', rule_value: 'item', include_all_feeds: true, selected_feeds: [] },
        { rule_type: 'keyword', rule_scope: 'both', rule_value: 'x', include_all_feeds: false, selected_feeds: [feedId] },
      ]);
      const bad = await u.put(`/api/reading-lists/${smart.id}`, { name: 'Smart', is_smart: true, rules: [rule('[', { rule_type: 'regex' })] });
      expect(bad.json().code).toBe('INVALID_REGEX');
      expect((await u.one(smart.id)).rules).toEqual(smart.rules);
    });

    it('adds and removes articles of a simple list, with in_reading_list everywhere and counts', async () => {
      const u = await user();
      await u.feed('Manual', [item(1), item(2), item(3)]);
      const [a1, a2] = [await u.idOf('Item 1'), await u.idOf('Item 2')];
      const list = await u.list({ name: 'Keep' });

      const added = await u.post(`/api/reading-lists/${list.id}/articles/${a1}`);
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().reading_list).toMatchObject({ id: list.id, article_count: 1, unread_article_count: 1 });
      const again = await u.post(`/api/reading-lists/${list.id}/articles/${a1}`);
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('ALREADY_IN_LIST');
      await u.post(`/api/reading-lists/${list.id}/articles/${a2}`);

      const page = await u.page(`/api/reading-lists/${list.id}/articles`);
      expect(page).toMatchObject({ total: 2, current_page: 1, pages: 1, per_page: 20 });
      expect(page.articles.map((a) => [a.title, a.in_reading_list, a.is_read])).toEqual([
        ['Item 2', true, false],
        ['Item 1', true, false],
      ]);
      // Every other list marks them too.
      const all = await u.page('/api/articles');
      expect(Object.fromEntries(all.articles.map((a) => [a.title, a.in_reading_list]))).toEqual({ 'Item 3': false, 'Item 2': true, 'Item 1': true });
      const found = await u.page('/api/articles/search?q=item');
      expect(
        found.articles
          .filter((a) => a.in_reading_list)
          .map((a) => a.id)
          .sort(),
      ).toEqual([a1, a2].sort());

      // Read articles: shown by default, left out with show_read=0; the unread count follows.
      expect((await u.post(`/api/articles/${a2}/read`)).statusCode).toBe(200);
      expect(await u.titles(list.id)).toEqual(['Item 2', 'Item 1']);
      expect(await u.titles(list.id, '&show_read=0')).toEqual(['Item 1']);
      expect((await u.page(`/api/reading-lists/${list.id}/articles?show_read=0`)).total).toBe(1);
      expect((await u.get('/api/reading-lists/unread_counts')).json()).toEqual({ unread_counts: [{ id: list.id, unread_article_count: 1 }] });
      expect(await u.one(list.id)).toMatchObject({ article_count: 2, unread_article_count: 1 });

      const removed = await u.del(`/api/reading-lists/${list.id}/articles/${a1}`);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().reading_list).toMatchObject({ article_count: 1, unread_article_count: 0 });
      const notIn = await u.del(`/api/reading-lists/${list.id}/articles/${a1}`);
      expect(notIn.statusCode).toBe(404);
      expect(notIn.json().code).toBe('ARTICLE_NOT_IN_LIST');
      expect((await u.get(`/api/articles/${a1}/reading-lists`)).json()).toEqual({ reading_lists: [] });
      expect((await u.get(`/api/articles/${a2}/reading-lists`)).json()).toEqual({ reading_lists: [{ id: list.id, name: 'Keep', is_smart: false }] });
    });

    it('pages a list like every other list', async () => {
      const u = await user();
      await u.feed(
        'Many',
        Array.from({ length: 25 }, (_, i) => item(i + 1)),
      );
      const list = await u.list({ name: 'Everything', is_smart: true, rules: [rule('item')] });
      expect(list.article_count).toBe(25);
      const first = await u.page(`/api/reading-lists/${list.id}/articles`);
      expect(first).toMatchObject({ total: 25, current_page: 1, pages: 2, per_page: 20 });
      expect(first.articles[0].title).toBe('Item 25');
      const second = await u.page(`/api/reading-lists/${list.id}/articles?page=2`);
      expect(second.articles.map((a) => a.title)).toEqual(['Item 5', 'Item 4', 'Item 3', 'Item 2', 'Item 1']);
      expect((await u.page(`/api/reading-lists/${list.id}/articles?page=9`)).articles).toEqual([]);
    });

    it("answers another user's and unknown lists and articles with 404", async () => {
      const owner = await user();
      const intruder = await user();
      await owner.feed('Owner', [item(1)]);
      await intruder.feed('Intruder', [item(2)]);
      const ownersArticle = await owner.idOf('Item 1');
      const intrudersArticle = await intruder.idOf('Item 2');
      const ownersList = await owner.list({ name: 'Private' });
      await owner.post(`/api/reading-lists/${ownersList.id}/articles/${ownersArticle}`);
      const intrudersList = await intruder.list({ name: 'Mine' });

      for (const [res, code] of [
        [await intruder.get(`/api/reading-lists/${ownersList.id}`), 'READING_LIST_NOT_FOUND'],
        [await intruder.put(`/api/reading-lists/${ownersList.id}`, { name: 'Hijacked' }), 'READING_LIST_NOT_FOUND'],
        [await intruder.del(`/api/reading-lists/${ownersList.id}`), 'READING_LIST_NOT_FOUND'],
        [await intruder.get(`/api/reading-lists/${ownersList.id}/articles`), 'READING_LIST_NOT_FOUND'],
        [await intruder.post(`/api/reading-lists/${ownersList.id}/articles/${intrudersArticle}`), 'READING_LIST_NOT_FOUND'],
        [await intruder.del(`/api/reading-lists/${ownersList.id}/articles/${ownersArticle}`), 'READING_LIST_NOT_FOUND'],
        [await intruder.post(`/api/reading-lists/${intrudersList.id}/articles/${ownersArticle}`), 'ARTICLE_NOT_FOUND'],
        [await intruder.post(`/api/reading-lists/${intrudersList.id}/articles/2147483647`), 'ARTICLE_NOT_FOUND'],
        [await intruder.post('/api/reading-lists/sort', { reading_list_order: [ownersList.id] }), 'READING_LIST_NOT_FOUND'],
        [await intruder.get(`/api/articles/${ownersArticle}/reading-lists`), 'ARTICLE_NOT_FOUND'],
      ] as const) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().code).toBe(code);
      }
      expect(await owner.one(ownersList.id)).toMatchObject({ name: 'Private', article_count: 1 });
      for (const url of ['/api/reading-lists/abc', '/api/reading-lists/0', '/api/reading-lists/99999999999']) {
        expect((await owner.get(url)).statusCode, url).toBe(400);
      }
    });

    it('fills a smart list from existing articles on create, by keyword, regex, scope and feed', async () => {
      const u = await user();
      const news = await u.feed('News', [
        item(1, { title: 'Rust 2.0 released', description: '<p>A systems language</p>' }),
        item(2, { title: 'Weather', description: '<p>Sunny, with a chance of RUST on old cars</p>' }),
        item(3, { title: 'Elections today', description: '<p>Polls open at 8</p>' }),
      ]);
      const blog = await u.feed('Blog', [
        item(4, { title: 'Why I like rust', description: '<p>Ownership</p>' }),
        item(5, { title: 'Gardening', description: '<p>Tomatoes</p>' }),
      ]);

      const both = await u.list({ name: 'Rust', is_smart: true, rules: [rule('RUST')] });
      expect(both.article_count).toBe(3);
      expect(await u.titles(both.id)).toEqual(['Why I like rust', 'Weather', 'Rust 2.0 released']);

      const titleOnly = await u.list({ name: 'T', is_smart: true, rules: [rule('rust', { rule_scope: 'title' })] });
      expect(await u.titles(titleOnly.id)).toEqual(['Why I like rust', 'Rust 2.0 released']);
      const contentOnly = await u.list({ name: 'C', is_smart: true, rules: [rule('rust', { rule_scope: 'content' })] });
      expect(await u.titles(contentOnly.id)).toEqual(['Weather']);

      const oneFeed = await u.list({ name: 'F', is_smart: true, rules: [rule('rust', { include_all_feeds: false, selected_feeds: [blog.feedId] })] });
      expect(await u.titles(oneFeed.id)).toEqual(['Why I like rust']);

      // Regexes are case-insensitive like keywords; any rule matching is enough.
      const regex = await u.list({
        name: 'R',
        is_smart: true,
        rules: [
          rule('^(elections|gardening)\\b', { rule_type: 'regex', rule_scope: 'title' }),
          rule('8$', { rule_type: 'regex', rule_scope: 'content', include_all_feeds: false, selected_feeds: [news.feedId] }),
        ],
      });
      expect(await u.titles(regex.id)).toEqual(['Gardening', 'Elections today']);
      expect((await u.get('/api/reading-lists/unread_counts')).json().unread_counts).toEqual([
        { id: both.id, unread_article_count: 3 },
        { id: titleOnly.id, unread_article_count: 2 },
        { id: contentOnly.id, unread_article_count: 1 },
        { id: oneFeed.id, unread_article_count: 1 },
        { id: regex.id, unread_article_count: 2 },
      ]);
      const lists = await u.get(`/api/articles/${await u.idOf('Why I like rust')}/reading-lists`);
      expect(lists.json().reading_lists.map((l: { name: string; is_smart: boolean }) => [l.name, l.is_smart])).toEqual([
        ['Rust', true],
        ['T', true],
        ['F', true],
      ]);
    });

    it('refuses manual changes to a smart list', async () => {
      const u = await user();
      await u.feed('Smart only', [item(1, { title: 'Alpha' }), item(2, { title: 'Beta' })]);
      const smart = await u.list({ name: 'Alpha', is_smart: true, rules: [rule('alpha')] });
      for (const res of [
        await u.post(`/api/reading-lists/${smart.id}/articles/${await u.idOf('Beta')}`),
        await u.del(`/api/reading-lists/${smart.id}/articles/${await u.idOf('Alpha')}`),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('SMART_LIST_MANUAL');
      }
      expect(await u.titles(smart.id)).toEqual(['Alpha']);
    });

    it('recomputes a smart list when its rules change, and keeps or replaces members when its kind changes', async () => {
      const u = await user();
      await u.feed('Mixed', [item(1, { title: 'Cats' }), item(2, { title: 'Dogs' }), item(3, { title: 'Birds' })]);
      const list = await u.list({ name: 'Pets', is_smart: true, rules: [rule('cats')] });
      expect(await u.titles(list.id)).toEqual(['Cats']);

      const changed = await u.put(`/api/reading-lists/${list.id}`, { name: 'Pets', is_smart: true, rules: [rule('dogs'), rule('birds')] });
      expect(changed.json().reading_list).toMatchObject({ article_count: 2 });
      expect(await u.titles(list.id)).toEqual(['Birds', 'Dogs']);
      // Renaming alone keeps the members.
      await u.put(`/api/reading-lists/${list.id}`, { name: 'Animals', is_smart: true, rules: [rule('dogs'), rule('birds')] });
      expect(await u.titles(list.id)).toEqual(['Birds', 'Dogs']);

      // Made simple: keeps what it holds, and now takes manual changes.
      const simple = await u.put(`/api/reading-lists/${list.id}`, { name: 'Animals', is_smart: false, rules: [rule('dogs')] });
      expect(simple.json().reading_list).toMatchObject({ is_smart: false, rules: [], article_count: 2 });
      expect((await u.post(`/api/reading-lists/${list.id}/articles/${await u.idOf('Cats')}`)).statusCode).toBe(201);
      expect(await u.titles(list.id)).toEqual(['Birds', 'Dogs', 'Cats']);

      // Made smart: holds what its rules match, no more.
      await u.put(`/api/reading-lists/${list.id}`, { name: 'Animals', is_smart: true, rules: [rule('dogs')] });
      expect(await u.titles(list.id)).toEqual(['Dogs']);
    });

    it('takes arriving and edited articles into smart lists through a real refresh', async () => {
      const u = await user();
      const bystander = await user();
      const { feedId, path } = await u.feed('Live', [item(1, { title: 'Old news' })]);
      await bystander.follow(feedId);
      const smart = await u.list({ name: 'Launches', is_smart: true, rules: [rule('launch')] });
      const simple = await u.list({ name: 'Manual' });
      expect(smart.article_count).toBe(0);

      server.set(path, { body: rss('Live', [item(1, { title: 'Old news' }), item(2, { title: 'Rocket launch at dawn' }), item(3, { title: 'Quiet day' })]) });
      t.clock.advance(2 * 3_600_000);
      try {
        expect((await t.refresh.refreshFeed(feedId)).status).toBe('ok');
      } finally {
        t.clock.reset();
      }
      expect(await u.titles(smart.id)).toEqual(['Rocket launch at dawn']);
      expect(await u.titles(simple.id)).toEqual([]);
      expect((await u.get('/api/reading-lists/unread_counts')).json().unread_counts).toEqual([
        { id: smart.id, unread_article_count: 1 },
        { id: simple.id, unread_article_count: 0 },
      ]);
      // The other subscriber has no lists and no memberships.
      expect((await bystander.page('/api/articles')).articles.every((a) => !a.in_reading_list)).toBe(true);

      // An edit that no longer matches leaves the list; one that now matches joins it.
      server.set(path, { body: rss('Live', [item(1, { title: 'Old news' }), item(2, { title: 'Rocket postponed' }), item(3, { title: 'Launch party tonight' })]) });
      t.clock.advance(4 * 3_600_000);
      try {
        expect((await t.refresh.refreshFeed(feedId)).status).toBe('ok');
      } finally {
        t.clock.reset();
      }
      expect(await u.titles(smart.id)).toEqual(['Launch party tonight']);
    });

    it('keeps a list in date order when an edit moves an article', async () => {
      const u = await user();
      const { feedId, path } = await u.feed('Dated', [item(1, { title: 'First' }), item(2, { title: 'Second' })]);
      const list = await u.list({ name: 'Both' });
      for (const title of ['First', 'Second']) await u.post(`/api/reading-lists/${list.id}/articles/${await u.idOf(title)}`);
      expect(await u.titles(list.id)).toEqual(['Second', 'First']);
      server.set(path, {
        body: rss('Dated', [item(1, { title: 'First, updated', pubDate: new Date(ITEM_EPOCH_MS + 24 * 3_600_000).toUTCString() }), item(2, { title: 'Second' })]),
      });
      t.clock.advance(2 * 3_600_000);
      try {
        expect((await t.refresh.refreshFeed(feedId)).status).toBe('ok');
      } finally {
        t.clock.reset();
      }
      expect(await u.titles(list.id)).toEqual(['First, updated', 'Second']);
      // Page by page too: the page is cut by the list's own copy of the date.
      expect((await u.page(`/api/reading-lists/${list.id}/articles?per_page=1`)).articles.map((a) => a.title)).toEqual(['First, updated']);
    });

    it('takes the stored articles of a newly subscribed feed into smart lists', async () => {
      const reader = await user();
      const { feedId } = await reader.feed('Shared', [item(1, { title: 'Climate report' }), item(2, { title: 'Football' })]);
      const late = await user();
      const list = await late.list({ name: 'Climate', is_smart: true, rules: [rule('climate')] });
      await late.follow(feedId);
      expect(await late.titles(list.id)).toEqual(['Climate report']);
    });

    it('runs catastrophic patterns in linear time', async () => {
      const u = await user();
      await u.feed('Evil', [item(1, { title: 'a'.repeat(40), description: `<p>${'a'.repeat(30_000)}!</p>` }), item(2, { title: 'aaa' })]);
      // With a backtracking engine these take longer than the universe has left; on RE2 they are linear.
      const list = await u.list({
        name: 'Evil',
        is_smart: true,
        rules: [rule('(a+)+$', { rule_type: 'regex', rule_scope: 'title' }), rule('(a|aa)*b', { rule_type: 'regex' }), rule('(.*a){25}x', { rule_type: 'regex' })],
      });
      expect(await u.titles(list.id)).toEqual(['aaa', 'a'.repeat(40)]);
    });

    it("leaves filtered-out and muted feeds' articles out of list pages and counts", async () => {
      const u = await user();
      const quiet = await u.feed('Quiet', [item(1, { title: 'Quiet tea' }), item(2, { title: 'Quiet coffee' })]);
      await u.feed('Loud', [item(3, { title: 'Loud tea' })]);
      const list = await u.list({ name: 'Tea', is_smart: true, rules: [rule('tea'), rule('coffee')] });
      expect(await u.titles(list.id)).toEqual(['Loud tea', 'Quiet coffee', 'Quiet tea']);

      const filter = await u.post(`/api/feeds/${quiet.feedId}/filters`, { filter_type: 'exclude', filter_scope: 'title', filter_text: 'coffee' });
      expect(filter.statusCode, filter.body).toBe(201);
      expect(await u.titles(list.id)).toEqual(['Loud tea', 'Quiet tea']);
      expect(await u.one(list.id)).toMatchObject({ article_count: 2, unread_article_count: 2 });
      // A hidden article cannot be added by hand either.
      const simple = await u.list({ name: 'Simple' });
      expect(
        (
          await u.post(
            `/api/reading-lists/${simple.id}/articles/${(await t.database.db.selectFrom('articles').select('id').where('title', '=', 'Quiet coffee').executeTakeFirstOrThrow()).id}`,
          )
        ).statusCode,
      ).toBe(404);

      const quietTea = await u.idOf('Quiet tea');
      expect((await u.post(`/api/feeds/${quiet.feedId}/mute`, { permanently: true })).statusCode).toBe(200);
      expect(await u.titles(list.id)).toEqual(['Loud tea']);
      expect((await u.get('/api/reading-lists/unread_counts')).json().unread_counts).toEqual([
        { id: list.id, unread_article_count: 1 },
        { id: simple.id, unread_article_count: 0 },
      ]);
      const muted = await u.post(`/api/reading-lists/${simple.id}/articles/${quietTea}`);
      expect(muted.statusCode).toBe(403);
      expect(muted.json().code).toBe('FEED_MUTED');
      await u.post(`/api/feeds/${quiet.feedId}/unmute`);
      expect(await u.titles(list.id)).toEqual(['Loud tea', 'Quiet tea']);
    });

    it('marks a list read (POST /api/articles/read/all {reading_list_id}), only its visible members', async () => {
      const u = await user();
      const { feedId } = await u.feed('Marks', [item(1, { title: 'Tea one' }), item(2, { title: 'Tea two' }), item(3, { title: 'Water' })]);
      const list = await u.list({ name: 'Tea', is_smart: true, rules: [rule('tea')] });
      const other = await user();
      const foreign = await other.list({ name: 'Theirs' });
      const res = await u.post('/api/articles/read/all', { reading_list_id: list.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ marked: 2, undo_token: expect.any(String) });
      expect(await u.one(list.id)).toMatchObject({ article_count: 2, unread_article_count: 0 });
      // The feed's unread count was recounted: only Water is left.
      expect((await u.get('/api/feeds/unread_counts')).json().counts[String(feedId)]).toBe(1);
      const missing = await u.post('/api/articles/read/all', { reading_list_id: foreign.id });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('READING_LIST_NOT_FOUND');
      const both = await u.post('/api/articles/read/all', { reading_list_id: list.id, feed_id: feedId });
      expect(both.statusCode).toBe(400);
      expect(both.json().code).toBe('READ_ALL_SCOPE_AMBIGUOUS');
    });

    it('sorts lists', async () => {
      const u = await user();
      const [a, b, c] = [await u.list({ name: 'A' }), await u.list({ name: 'B' }), await u.list({ name: 'C' })];
      const res = await u.post('/api/reading-lists/sort', { reading_list_order: [c.id, a.id] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().reading_lists.map((l: ReadingList) => [l.name, l.sort_order])).toEqual([
        ['C', 0],
        ['A', 1],
        ['B', 2],
      ]);
      expect((await u.get('/api/reading-lists/unread_counts')).json().unread_counts.map((x: { id: number }) => x.id)).toEqual([c.id, a.id, b.id]);
      const dup = await u.post('/api/reading-lists/sort', { reading_list_order: [a.id, a.id] });
      expect(dup.statusCode).toBe(400);
      expect(dup.json().code).toBe('DUPLICATE_READING_LIST_ID');
      expect((await u.post('/api/reading-lists/sort', { reading_list_order: 'x' })).statusCode).toBe(400);
    });

    it('drops memberships with the subscription, and the clean-up keeps articles in any list', async () => {
      const u = await user();
      const gone = await u.feed('Leaving', [item(1, { title: 'Leaving tea' })]);
      const kept = await u.feed('Staying', [item(2, { title: 'Old tea' }), item(3, { title: 'Old water' })]);
      const smart = await u.list({ name: 'Tea', is_smart: true, rules: [rule('tea')] });
      const simple = await u.list({ name: 'Simple' });
      await u.post(`/api/reading-lists/${simple.id}/articles/${await u.idOf('Leaving tea')}`);
      expect(await u.titles(smart.id)).toEqual(['Old tea', 'Leaving tea']);

      expect((await u.del(`/api/feeds/${gone.feedId}`)).statusCode).toBe(204);
      expect(await u.titles(smart.id)).toEqual(['Old tea']);
      expect(await u.one(simple.id)).toMatchObject({ article_count: 0 });

      // Old, read, gone from the feed's document: the clean-up's candidates. Only the listed one stays.
      await u.post('/api/articles/read/all', {});
      server.set(kept.path, { body: rss('Staying', [item(4, { title: 'New water' })]) });
      t.clock.advance(2 * 3_600_000);
      try {
        expect((await t.refresh.refreshFeed(kept.feedId)).status).toBe('ok');
      } finally {
        t.clock.reset();
      }
      await cleanupArticles(t.database, { retentionDays: 1, now: new Date(Date.UTC(2027, 5, 1)) });
      const left = await t.database.db.selectFrom('articles').select('title').where('feed_id', '=', kept.feedId).orderBy('title').execute();
      expect(left.map((r) => r.title)).toEqual(['New water', 'Old tea']);
      expect(await u.titles(smart.id)).toEqual(['Old tea']);

      // Deleting all feeds empties the lists but keeps them.
      expect((await u.del('/api/feeds/all')).statusCode).toBe(204);
      expect((await u.get('/api/reading-lists')).json().reading_lists.map((l: ReadingList) => [l.name, l.article_count])).toEqual([
        ['Tea', 0],
        ['Simple', 0],
      ]);
      const rows = await t.database.db.selectFrom('reading_list_articles').select('article_id').where('user_id', '=', u.id).execute();
      expect(rows).toEqual([]);
    });
  });
}
