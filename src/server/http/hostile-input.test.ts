import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anyBearer,
  assertGetsAnswered,
  assertJsonBodiesAnswered,
  assertRawBodiesAnswered,
  expectClientAnswer,
  paramsQuery,
  rawQuery,
  subscribedFeedWithArticle,
} from '../test/hostile.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * "Nothing a client sends yields a 500" (docs/ARCHITECTURE.md "Rules" 5): every account endpoint is fed arbitrary
 * JSON values, arbitrary raw bodies and odd content types, with and without a valid token; the reading endpoints
 * arbitrary bodies and query strings. Each answer must be a success or a 4xx carrying `{message, code}`.
 */
const ENDPOINTS: { method: 'GET' | 'POST' | 'PUT'; url: string; auth?: boolean }[] = [
  { method: 'POST', url: '/auth/register' },
  { method: 'POST', url: '/auth/login' },
  { method: 'POST', url: '/auth/refresh' },
  { method: 'POST', url: '/auth/logout' },
  { method: 'POST', url: '/auth/resend-verification' },
  { method: 'POST', url: '/auth/forgot-password' },
  { method: 'POST', url: '/auth/reset-password' },
  { method: 'POST', url: '/auth/verify-password', auth: true },
  { method: 'PUT', url: '/auth/me', auth: true },
  { method: 'POST', url: '/api/users/update-language', auth: true },
];

let t: TestApp;
let token: string;
/** A feed and an article (without a link, so extraction never fetches) the signed-in user has. */
let feedId: number;
let articleId: number;
beforeAll(async () => {
  t = await createTestApp({ dialect: 'sqlite' });
  const signedIn = await t.signUp();
  token = signedIn.access_token;
  ({ feedId, articleId } = await subscribedFeedWithArticle(t, signedIn.user.id, 'http://hostile.test/feed.xml'));
});
afterAll(() => t.close());

// Values shaped like the real fields, so the generator reaches past the schema now and then.
const fieldish = fc.record(
  {
    email: fc.oneof(fc.emailAddress(), fc.string(), fc.jsonValue()),
    password: fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue()),
    old_password: fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue()),
    name: fc.oneof(fc.string(), fc.jsonValue()),
    token: fc.oneof(fc.string(), fc.jsonValue()),
    language: fc.oneof(fc.constantFrom('de', 'en', 'fr', ''), fc.jsonValue()),
    language_preference: fc.oneof(fc.constantFrom('de', 'en', 'xx'), fc.jsonValue()),
    mark_read_on: fc.oneof(fc.constantFrom('open', 'scroll', 'manual', 'never'), fc.jsonValue()),
    refresh_token: fc.oneof(fc.string(), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('hostile input on the account endpoints', () => {
  // Each endpoint also with a token it does not need.
  const endpoints = fc.tuple(fc.constantFrom(...ENDPOINTS), fc.boolean()).map(([ep, withToken]) => ({ ...ep, auth: ep.auth || withToken }));

  it('answers arbitrary JSON bodies with success or a 4xx {message, code}', async () => {
    await assertJsonBodiesAnswered(t, { endpoints, bodies: fc.oneof(fc.jsonValue(), fieldish), headers: (ep) => (ep.auth ? t.bearer(token) : {}), numRuns: 400 });
  });

  it('answers arbitrary raw bodies and content types with a 4xx', async () => {
    await assertRawBodiesAnswered(t, { endpoints: fc.constantFrom(...ENDPOINTS), headers: (ep) => (ep.auth ? t.bearer(token) : {}), numRuns: 300 });
  });

  it('answers arbitrary query strings and bearer headers on the GET endpoints', async () => {
    const requests = fc
      .tuple(fc.constantFrom('/auth/verify-email', '/auth/me', '/api/config'), rawQuery, anyBearer(200))
      .map(([path, query, bearer]) => ({ url: `${path}?${query}`, headers: { authorization: `Bearer ${bearer}` } }));
    await assertGetsAnswered(t, requests, 300);
  });

  it('refuses a body over the limit with 413 and deeply nested JSON without crashing', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: deep });
    expectClientAnswer(res, 'deep nesting');
    const proto = await t.app.inject({
      method: 'PUT',
      url: '/auth/me',
      headers: { 'content-type': 'application/json', ...t.bearer(token) },
      payload: '{"__proto__": {"admin": true}, "name": "P"}',
    });
    expectClientAnswer(proto, 'prototype poisoning');
  });
});

// The reading endpoints that act on stored data (adding and searching feeds fetch from the network and are fed
// hostile input in their own tests, against a local server).
const readingEndpoints = () =>
  [
    { method: 'PUT', url: `/api/feeds/${feedId}` },
    { method: 'POST', url: '/api/feeds/sort' },
    { method: 'POST', url: `/api/feeds/${feedId}/mute` },
    { method: 'POST', url: `/api/feeds/${feedId}/unmute` },
    { method: 'POST', url: '/api/feeds/set_custom_title' },
    { method: 'POST', url: `/api/feeds/${feedId}/filters` },
    { method: 'POST', url: '/api/articles/mark-read' },
    { method: 'POST', url: '/api/articles/read/all' },
    { method: 'POST', url: '/api/articles/read/undo' },
    { method: 'POST', url: `/api/articles/${articleId}/favorite` },
    { method: 'POST', url: '/api/extract-article-content' },
  ] as const;

const readingFieldish = fc.record(
  {
    feed_id: fc.oneof(fc.constant(1), fc.integer(), fc.jsonValue()),
    custom_title: fc.oneof(fc.string(), fc.jsonValue()),
    feed_order: fc.oneof(fc.array(fc.integer({ min: -1, max: 5 })), fc.jsonValue()),
    duration: fc.oneof(fc.constantFrom(1, 3, 168, 0, -1, null), fc.jsonValue()),
    permanently: fc.oneof(fc.boolean(), fc.jsonValue()),
    filter_type: fc.oneof(fc.constantFrom('include', 'exclude', 'other'), fc.jsonValue()),
    filter_scope: fc.oneof(fc.constantFrom('title', 'content', 'both', ''), fc.jsonValue()),
    filter_text: fc.oneof(fc.string({ maxLength: 600 }), fc.jsonValue()),
    article_ids: fc.oneof(fc.array(fc.integer()), fc.jsonValue()),
    url: fc.oneof(fc.webUrl(), fc.jsonValue()),
    articleId: fc.oneof(fc.integer(), fc.jsonValue()),
    folder_id: fc.oneof(fc.constant(1), fc.integer(), fc.jsonValue()),
    undo_token: fc.oneof(fc.string({ maxLength: 80 }), fc.jsonValue()),
    always_load_original: fc.oneof(fc.boolean(), fc.jsonValue()),
    mark_read_on: fc.oneof(fc.constantFrom('open', 'scroll', 'manual', 'never'), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('hostile input on the reading endpoints', () => {
  it('answers arbitrary JSON bodies with success or a 4xx {message, code}', async () => {
    await assertJsonBodiesAnswered(t, {
      endpoints: fc.constantFrom(...readingEndpoints()),
      bodies: fc.oneof(fc.jsonValue(), readingFieldish),
      headers: () => t.bearer(token),
      numRuns: 300,
    });
  });

  it('answers arbitrary query strings on the article lists and search', async () => {
    const paths = ['/api/articles', `/api/feeds/${feedId}/articles`, '/api/folders/1/articles', '/api/articles/search', '/api/articles/favorites', '/api/articles/read'];
    // Raw text, or the real parameters with hostile values (search syntax, huge or negative pages, odd booleans).
    const param = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('"', '*', 'NEAR(a b)', '-x', "a'b", 'a:*', '\\', '0', '-1', '1e9', 'true', '2'));
    const query = fc.oneof(rawQuery, paramsQuery(['q', 'page', 'per_page', 'show_read', 'feed_id', 'folder_id'], param));
    await assertGetsAnswered(
      t,
      fc.tuple(fc.constantFrom(...paths), query).map(([path, q]) => ({ url: `${path}?${q}`, headers: t.bearer(token) })),
      300,
    );
  });
});
