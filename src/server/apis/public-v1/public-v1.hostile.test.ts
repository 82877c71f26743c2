import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFeed, subscribe } from '../../feeds/feeds.repository.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * "Nothing a client sends yields a 500" (design.md §4 rule 5) for the public API v1: arbitrary JSON and raw bodies,
 * content types, query strings, path ids and bearer headers on every endpoint. Each answer must be a success or a
 * 4xx carrying `{message, code}`. The limits are raised so the generator never runs into a 429 (tested elsewhere).
 * Feed discovery (search, subscribe) gets only addresses that cannot leave the machine: bodies whose url is a
 * string are pointed at a closed port, so no run waits on the network.
 */
const BASE = '/public-api/v1';
const MANY = { limit: 1_000_000, windowMs: 60_000 };

let t: TestApp;
let token: string;
let feedId: number;
let articleId: number;
beforeAll(async () => {
  t = await createTestApp({ dialect: 'sqlite', publicApiLimits: { perMinute: MANY, perDay: MANY, authPerIp: MANY, authPerAccount: MANY, anonPerIp: MANY } });
  const { email, password, user } = await t.createUser();
  const res = await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email, password } });
  token = res.json().token;
  const db = t.database.db;
  const now = new Date().toISOString();
  feedId = (await ensureFeed(db, 'http://hostile.test/public-feed.xml', now)).feed.id;
  articleId = (
    await db
      .insertInto('articles')
      .values({ feed_id: feedId, guid_hash: 'h', guid: 'g', title: 'An article', content_hash: 'x', published_at: now, created_at: now, last_seen_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await subscribe(db, user.id, feedId, now);
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
    { method: 'POST', url: `${BASE}/authenticate` },
    { method: 'POST', url: `${BASE}/feeds/search` },
    { method: 'POST', url: `${BASE}/feeds/subscribe` },
    { method: 'POST', url: `${BASE}/articles/read/all` },
    { method: 'POST', url: `${BASE}/articles/${articleId}/read` },
    { method: 'POST', url: `${BASE}/articles/${articleId}/unread` },
    { method: 'POST', url: `${BASE}/articles/${articleId}/favorite` },
    { method: 'POST', url: `${BASE}/articles/${articleId}/unfavorite` },
  ] as const;

const fieldish = fc.record(
  {
    username: fc.oneof(fc.emailAddress(), fc.string(), fc.jsonValue()),
    password: fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue()),
    url: fc.oneof(fc.string({ maxLength: 100 }), fc.jsonValue()),
    feed_id: fc.oneof(fc.constant(1), fc.integer(), fc.jsonValue()),
    article_ids: fc.oneof(fc.array(fc.integer()), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

/** A string url becomes an address on a closed local port with the generated text in its path. */
function offline(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { url?: unknown }).url === 'string') {
    return { ...body, url: `http://127.0.0.1:9/${encodeURIComponent((body as { url: string }).url)}` };
  }
  return body;
}

describe('hostile input on the public API v1', () => {
  it('answers arbitrary JSON bodies with success or a 4xx {message, code}', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints()), fc.oneof(fc.jsonValue(), fieldish), async (ep, body) => {
        const payload = JSON.stringify(offline(body)) ?? 'null';
        const res = await t.app.inject({ method: ep.method, url: ep.url, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, payload });
        expectClientAnswer(res, `${ep.method} ${ep.url} ${payload.slice(0, 120)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('answers arbitrary raw bodies and content types with a 4xx or success', async () => {
    const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/json; charset=latin1', '');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints()), fc.string({ maxLength: 300 }), contentType, async (ep, raw, type) => {
        // A raw body that happens to be JSON with a url could reach discovery: keep it off the network.
        const payload = /"url"/.test(raw) ? raw.replace(/"url"/g, '"u"') : raw;
        const res = await t.app.inject({ method: ep.method, url: ep.url, headers: { ...(type ? { 'content-type': type } : {}), authorization: `Bearer ${token}` }, payload });
        expectClientAnswer(res, `${ep.method} ${ep.url} [${type}] ${JSON.stringify(raw).slice(0, 120)}`);
      }),
      { numRuns: 300 },
    );
  });

  it('answers arbitrary query strings, path ids and bearer headers', async () => {
    const param = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('0', '-1', '1e9', '101', '2147483648', 'true', 'false', '1', '', 'null', '[]', String(feedId)));
    const query = fc.oneof(
      fc.string({ maxLength: 200 }).map((q) => encodeURI(q).replace(/#/g, '%23')),
      fc
        .record({ page: param, per_page: param, feed_id: param, unread: param, include_base64_favicons: param, include_favicons: param }, { requiredKeys: [] })
        .map((r) => new URLSearchParams(r as Record<string, string>).toString()),
    );
    const bearer = fc.oneof(fc.constant(token), fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/articles', '/feeds'), query, bearer, async (path, q, auth) => {
        const res = await t.app.inject({ method: 'GET', url: `${BASE}${path}?${q}`, headers: { authorization: `Bearer ${auth}` } });
        expectClientAnswer(res, `GET ${path}?${q}`);
      }),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.constantFrom('read', 'unread', 'favorite', 'unfavorite'), async (id, change) => {
        const res = await t.app.inject({ method: 'POST', url: `${BASE}/articles/${encodeURIComponent(id)}/${change}`, headers: { authorization: `Bearer ${token}` } });
        expectClientAnswer(res, `POST /articles/${id}/${change}`);
      }),
      { numRuns: 200 },
    );
  });
});
