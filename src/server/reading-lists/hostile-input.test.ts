import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFeed, subscribe } from '../feeds/feeds.repository.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * "Nothing a client sends yields a 500" (design.md §4 rule 5) for the folder and reading-list endpoints, as
 * src/server/http/hostile-input.test.ts does for the others: arbitrary JSON bodies (and bodies shaped like the real
 * ones, with hostile values: regexes, huge lists, wrong types) and query strings. Each answer must be a success or
 * a 4xx carrying {message, code}.
 */
let t: TestApp;
let token: string;
let feedId: number;
let articleId: number;
let folderId: number;
let listId: number;
let smartId: number;

beforeAll(async () => {
  t = await createTestApp({ dialect: 'sqlite' });
  const signedIn = await t.signUp();
  token = signedIn.access_token;
  const db = t.database.db;
  const now = new Date().toISOString();
  feedId = (await ensureFeed(db, 'http://hostile-lists.test/feed.xml', now)).feed.id;
  articleId = (
    await db
      .insertInto('articles')
      .values({ feed_id: feedId, guid_hash: 'h', guid: 'g', title: 'An article', content_hash: 'x', published_at: now, created_at: now, last_seen_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await subscribe(db, signedIn.user.id, feedId, now);
  const call = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: t.bearer(token), payload });
  folderId = (await call('/api/folders', { name: 'F' })).json().folder.id;
  listId = (await call('/api/reading-lists', { name: 'L' })).json().reading_list.id;
  smartId = (await call('/api/reading-lists', { name: 'S', is_smart: true, rules: [{ rule_value: 'a' }] })).json().reading_list.id;
});
afterAll(() => t.close());

function expectClientAnswer(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = JSON.parse(res.body);
    expect(typeof body.message, what).toBe('string');
    expect(typeof body.code, what).toBe('string');
  }
}

const endpoints = () =>
  [
    { method: 'POST', url: '/api/folders' },
    { method: 'PUT', url: `/api/folders/${folderId}` },
    { method: 'POST', url: `/api/folders/${folderId}/feeds` },
    { method: 'POST', url: '/api/folders/sort' },
    { method: 'POST', url: '/api/reading-lists' },
    { method: 'PUT', url: `/api/reading-lists/${listId}` },
    { method: 'PUT', url: `/api/reading-lists/${smartId}` },
    { method: 'POST', url: '/api/reading-lists/sort' },
    { method: 'POST', url: `/api/reading-lists/${listId}/articles/${articleId}` },
    { method: 'DELETE', url: `/api/reading-lists/${listId}/articles/${articleId}` },
  ] as const;

const text = fc.oneof(fc.string({ maxLength: 120 }), fc.constantFrom('', '   ', '&lt;script&gt;', '(a+)+$', '(', '\\1', '(?=x)', 'a{99999}', '[[:foo:]]', '\u0000', '🗞'.repeat(101)));
const id = fc.oneof(fc.constantFrom(1, 0, -1, 2 ** 31, 1.5), fc.integer(), fc.jsonValue());
const ruleish = fc.record(
  {
    rule_type: fc.oneof(fc.constantFrom('keyword', 'regex', 'other'), fc.jsonValue()),
    rule_scope: fc.oneof(fc.constantFrom('title', 'content', 'both', ''), fc.jsonValue()),
    rule_value: fc.oneof(text, fc.jsonValue()),
    include_all_feeds: fc.oneof(fc.boolean(), fc.jsonValue()),
    selected_feeds: fc.oneof(fc.array(id, { maxLength: 5 }), fc.jsonValue()),
  },
  { requiredKeys: [] },
);
const fieldish = fc.record(
  {
    name: fc.oneof(text, fc.jsonValue()),
    description: fc.oneof(text, fc.jsonValue()),
    is_smart: fc.oneof(fc.boolean(), fc.jsonValue()),
    rules: fc.oneof(fc.array(ruleish, { maxLength: 4 }), fc.jsonValue()),
    feed_id: id,
    folder_order: fc.oneof(fc.array(id, { maxLength: 5 }), fc.jsonValue()),
    reading_list_order: fc.oneof(fc.array(id, { maxLength: 5 }), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('hostile input on the folder and reading-list endpoints', () => {
  it('answers arbitrary JSON bodies with success or a 4xx {message, code}', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints()), fc.oneof(fc.jsonValue(), fieldish), async (ep, body) => {
        const res = await t.app.inject({
          method: ep.method,
          url: ep.url,
          headers: { 'content-type': 'application/json', ...t.bearer(token) },
          payload: JSON.stringify(body),
        });
        expectClientAnswer(res, `${ep.method} ${ep.url} ${JSON.stringify(body).slice(0, 160)}`);
      }),
      { numRuns: 400 },
    );
  });

  it('answers arbitrary ids and query strings on the list pages', async () => {
    const param = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('0', '-1', '1e9', 'true', '2', '99999999999', 'abc', ''));
    const query = fc
      .record({ page: param, per_page: param, show_read: param }, { requiredKeys: [] })
      .map((r) => new URLSearchParams(r as Record<string, string>).toString());
    const path = fc.oneof(
      fc.constantFrom(`/api/reading-lists/${listId}/articles`, `/api/reading-lists/${smartId}/articles`, `/api/reading-lists/${listId}`, '/api/reading-lists/unread_counts', '/api/folders'),
      param.map((p) => `/api/reading-lists/${encodeURIComponent(p)}/articles`),
    );
    await fc.assert(
      fc.asyncProperty(path, query, async (p, q) => {
        const res = await t.app.inject({ method: 'GET', url: `${p}?${q}`, headers: t.bearer(token) });
        expectClientAnswer(res, `GET ${p}?${q}`);
      }),
      { numRuns: 300 },
    );
  });
});
