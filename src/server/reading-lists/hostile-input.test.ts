import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { assertGetsAnswered, assertJsonBodiesAnswered, paramsQuery, subscribedFeedWithArticle } from '../test/hostile.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * "Nothing a client sends yields a 500" (docs/ARCHITECTURE.md "Rules" 5) for the folder and reading-list endpoints, as
 * src/server/http/hostile-input.test.ts does for the others: arbitrary JSON bodies (and bodies shaped like the real
 * ones, with hostile values: regexes, huge lists, wrong types) and query strings. Each answer must be a success or
 * a 4xx carrying {message, code}.
 */
let t: TestApp;
let token: string;
let articleId: number;
let folderId: number;
let listId: number;
let smartId: number;

beforeAll(async () => {
  t = await createTestApp({ dialect: 'sqlite' });
  const signedIn = await t.signUp();
  token = signedIn.access_token;
  ({ articleId } = await subscribedFeedWithArticle(t, signedIn.user.id, 'http://hostile-lists.test/feed.xml'));
  const call = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: t.bearer(token), payload });
  folderId = (await call('/api/folders', { name: 'F' })).json().folder.id;
  listId = (await call('/api/reading-lists', { name: 'L' })).json().reading_list.id;
  smartId = (await call('/api/reading-lists', { name: 'S', is_smart: true, rules: [{ rule_value: 'a' }] })).json().reading_list.id;
});
afterAll(() => t.close());

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

const text = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.constantFrom('', '   ', '&lt;script&gt;', '(a+)+$', '(', '\\1', '(?=x)', 'a{99999}', '[[:foo:]]', '\u0000', '🗞'.repeat(101)),
);
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
    await assertJsonBodiesAnswered(t, {
      endpoints: fc.constantFrom(...endpoints()),
      bodies: fc.oneof(fc.jsonValue(), fieldish),
      headers: () => t.bearer(token),
      numRuns: 400,
    });
  });

  it('answers arbitrary ids and query strings on the list pages', async () => {
    const param = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('0', '-1', '1e9', 'true', '2', '99999999999', 'abc', ''));
    const query = paramsQuery(['page', 'per_page', 'show_read'], param);
    const path = fc.oneof(
      fc.constantFrom(
        `/api/reading-lists/${listId}/articles`,
        `/api/reading-lists/${smartId}/articles`,
        `/api/reading-lists/${listId}`,
        '/api/reading-lists/unread_counts',
        '/api/folders',
      ),
      param.map((p) => `/api/reading-lists/${encodeURIComponent(p)}/articles`),
    );
    await assertGetsAnswered(
      t,
      fc.tuple(path, query).map(([p, q]) => ({ url: `${p}?${q}`, headers: t.bearer(token) })),
      300,
    );
  });
});
