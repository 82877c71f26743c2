import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFeed, subscribe } from '../feeds/feeds.repository.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * "Nothing a client sends yields a 500" (issue 2, design.md §4 rule 5): every account endpoint is fed arbitrary
 * JSON values, arbitrary raw bodies and odd content types, with and without a valid token; the reading endpoints
 * (issue 4) arbitrary bodies and query strings. Each answer must be a success or a 4xx carrying `{message, code}`.
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
  const db = t.database.db;
  const now = new Date().toISOString();
  feedId = (await ensureFeed(db, 'http://hostile.test/feed.xml', now)).feed.id;
  articleId = (
    await db
      .insertInto('articles')
      .values({ feed_id: feedId, guid_hash: 'h', guid: 'g', title: 'An article', content_hash: 'x', published_at: now, created_at: now, last_seen_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await subscribe(db, signedIn.user.id, feedId, now);
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
    refresh_token: fc.oneof(fc.string(), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('hostile input on the account endpoints', () => {
  it('answers arbitrary JSON bodies with success or a 4xx {message, code}', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), fc.oneof(fc.jsonValue(), fieldish), fc.boolean(), async (ep, body, withToken) => {
        const res = await t.app.inject({
          method: ep.method,
          url: ep.url,
          headers: { 'content-type': 'application/json', ...(withToken || ep.auth ? t.bearer(token) : {}) },
          payload: JSON.stringify(body),
        });
        expectClientAnswer(res, `${ep.method} ${ep.url} ${JSON.stringify(body).slice(0, 120)}`);
      }),
      { numRuns: 400 },
    );
  });

  it('answers arbitrary raw bodies and content types with a 4xx', async () => {
    const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/json; charset=latin1', '');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), fc.string({ maxLength: 300 }), contentType, async (ep, raw, type) => {
        const res = await t.app.inject({
          method: ep.method,
          url: ep.url,
          headers: { ...(type ? { 'content-type': type } : {}), ...(ep.auth ? t.bearer(token) : {}) },
          payload: raw,
        });
        expectClientAnswer(res, `${ep.method} ${ep.url} [${type}] ${JSON.stringify(raw).slice(0, 120)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('answers arbitrary query strings and bearer headers on the GET endpoints', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/auth/verify-email', '/auth/me', '/api/config'), fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), async (path, query, bearer) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `${path}?${encodeURI(query).replace(/#/g, '%23')}`,
          headers: { authorization: `Bearer ${bearer.replace(/[^\x21-\x7e]/g, 'x')}` },
        });
        expectClientAnswer(res, `GET ${path}?${query}`);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a body over the limit with 413 and deeply nested JSON without crashing', async () => {
    const big = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: deep });
    expectClientAnswer(res, 'deep nesting');
    const proto = await t.app.inject({ method: 'PUT', url: '/auth/me', headers: { 'content-type': 'application/json', ...t.bearer(token) }, payload: '{"__proto__": {"admin": true}, "name": "P"}' });
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
  },
  { requiredKeys: [] },
);

describe('hostile input on the reading endpoints', () => {
  it('answers arbitrary JSON bodies with success or a 4xx {message, code}', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...readingEndpoints()), fc.oneof(fc.jsonValue(), readingFieldish), async (ep, body) => {
        const res = await t.app.inject({
          method: ep.method,
          url: ep.url,
          headers: { 'content-type': 'application/json', ...t.bearer(token) },
          payload: JSON.stringify(body),
        });
        expectClientAnswer(res, `${ep.method} ${ep.url} ${JSON.stringify(body).slice(0, 120)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('answers arbitrary query strings on the article lists and search', async () => {
    const paths = ['/api/articles', `/api/feeds/${feedId}/articles`, '/api/articles/search', '/api/articles/favorites', '/api/articles/read'];
    // Raw text, or the real parameters with hostile values (search syntax, huge or negative pages, odd booleans).
    const param = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('"', '*', 'NEAR(a b)', '-x', "a'b", 'a:*', '\\', '0', '-1', '1e9', 'true', '2'));
    const query = fc.oneof(
      fc.string({ maxLength: 200 }).map((q) => encodeURI(q).replace(/#/g, '%23')),
      fc
        .record({ q: param, page: param, per_page: param, show_read: param, feed_id: param }, { requiredKeys: [] })
        .map((r) => new URLSearchParams(r as Record<string, string>).toString()),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), query, async (path, query) => {
        const res = await t.app.inject({ method: 'GET', url: `${path}?${query}`, headers: t.bearer(token) });
        expectClientAnswer(res, `GET ${path}?${query}`);
      }),
      { numRuns: 300 },
    );
  });
});
