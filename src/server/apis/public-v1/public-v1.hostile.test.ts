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
} from '../../test/hostile.js';
import { startTestServer, type TestServer } from '../../reader/fetch/test-server.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * "Nothing a client sends yields a 500" (docs/ARCHITECTURE.md "Rules" 5) for the public API v1: arbitrary JSON and raw bodies,
 * content types, query strings, path ids and bearer headers on every endpoint. Each answer must be a success or a
 * 4xx carrying `{message, code}`. The limits are raised so the generator never runs into a 429 (tested elsewhere).
 * Feed discovery (search, subscribe) gets only addresses that cannot leave the machine: bodies whose url is a
 * string are pointed at a local server that answers 404 to every path, so no run waits on the network. (A closed
 * port would be answered 502 FETCH_CONNECTION: the site could not be reached, an upstream failure by design,
 * feeds.service.ts discoveryError, not what this test is about.)
 */
const BASE = '/public-api/v1';
const MANY = { limit: 1_000_000, windowMs: 60_000 };

let t: TestApp;
let site: TestServer;
let token: string;
let feedId: number;
let articleId: number;
beforeAll(async () => {
  site = await startTestServer();
  t = await createTestApp({ dialect: 'sqlite', publicApiLimits: { perMinute: MANY, perDay: MANY, authPerIp: MANY, authPerAccount: MANY, anonPerIp: MANY } });
  const { email, password, user } = await t.createUser();
  const res = await t.app.inject({ method: 'POST', url: `${BASE}/authenticate`, payload: { username: email, password } });
  token = res.json().token;
  ({ feedId, articleId } = await subscribedFeedWithArticle(t, user.id, 'http://hostile.test/public-feed.xml'));
});
afterAll(async () => {
  await t.close();
  await site.close();
});

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

/** A string url becomes an address on the local 404 server with the generated text in its path. */
function offline(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { url?: unknown }).url === 'string') {
    return { ...body, url: site.url(`/${encodeURIComponent((body as { url: string }).url)}`) };
  }
  return body;
}

describe('hostile input on the public API v1', () => {
  const headers = () => ({ authorization: `Bearer ${token}` });

  it('answers arbitrary JSON bodies with success or a 4xx {message, code}', async () => {
    await assertJsonBodiesAnswered(t, {
      endpoints: fc.constantFrom(...endpoints()),
      bodies: fc.oneof(fc.jsonValue(), fieldish),
      headers,
      numRuns: 300,
      prepare: offline,
    });
  });

  it('answers a subscription or search of an address that has no feed with a 4xx, whatever its text', async () => {
    // A run of the generator once found `{"url":""}` alone, and a closed port answered it 502.
    for (const url of ['', 'x', '%', ' feed ', '../..']) {
      for (const path of ['/feeds/subscribe', '/feeds/search']) {
        const res = await t.app.inject({ method: 'POST', url: `${BASE}${path}`, headers: headers(), payload: offline({ url }) as object });
        expectClientAnswer(res, `POST ${path} ${JSON.stringify(url)}`);
        expect(res.statusCode).toBe(404);
      }
    }
  });

  it('answers arbitrary raw bodies and content types with a 4xx or success', async () => {
    // A raw body that happens to be JSON with a url could reach discovery: keep it off the network.
    const prepare = (raw: string) => (/"url"/.test(raw) ? raw.replace(/"url"/g, '"u"') : raw);
    await assertRawBodiesAnswered(t, { endpoints: fc.constantFrom(...endpoints()), headers, numRuns: 300, prepare });
  });

  it('answers arbitrary query strings, path ids and bearer headers', async () => {
    const param = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('0', '-1', '1e9', '101', '2147483648', 'true', 'false', '1', '', 'null', '[]', String(feedId)));
    const query = fc.oneof(rawQuery, paramsQuery(['page', 'per_page', 'feed_id', 'folder_id', 'unread', 'include_base64_favicons', 'include_favicons'], param));
    const bearer = fc.oneof(fc.constant(token), anyBearer(80));
    const lists = fc
      .tuple(fc.constantFrom('/articles', '/feeds'), query, bearer)
      .map(([path, q, auth]) => ({ url: `${BASE}${path}?${q}`, headers: { authorization: `Bearer ${auth}` } }));
    await assertGetsAnswered(t, lists, 300);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.constantFrom('read', 'unread', 'favorite', 'unfavorite'), async (id, change) => {
        const res = await t.app.inject({ method: 'POST', url: `${BASE}/articles/${encodeURIComponent(id)}/${change}`, headers: headers() });
        expectClientAnswer(res, `POST /articles/${id}/${change}`);
      }),
      { numRuns: 200 },
    );
  });
});
