import fc from 'fast-check';
import { expect } from 'vitest';
import { ensureFeed } from '../feeds/feeds.repository.js';
import { subscribe } from '../feeds/subscriptions.repository.js';
import type { TestApp } from './test-app.js';

/**
 * The harness of the "nothing a client sends yields a 500" tests (docs/ARCHITECTURE.md "Rules" 5): generators for hostile
 * query strings and content types, and runners that feed an app arbitrary JSON bodies, raw bodies and GET requests
 * and check every answer is a success or a 4xx carrying `{message, code}`.
 */

export type HostileMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export interface HostileEndpoint {
  method: HostileMethod;
  url: string;
}
type Headers = Record<string, string>;
type Answer = { statusCode: number; body: string };

/** A success, or a 4xx with `{message, code}`; `what` names the request in the failure. */
export function expectClientAnswer(res: Answer, what: string): void {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = JSON.parse(res.body);
    expect(typeof body.message, what).toBe('string');
    expect(typeof body.code, what).toBe('string');
  }
}

/** A feed with one article (no link, so content extraction never fetches) that the user is subscribed to. */
export async function subscribedFeedWithArticle(t: TestApp, userId: number, url: string): Promise<{ feedId: number; articleId: number }> {
  const db = t.database.db;
  const now = new Date().toISOString();
  const feedId = (await ensureFeed(db, url, now)).feed.id;
  const articleId = (
    await db
      .insertInto('articles')
      .values({ feed_id: feedId, guid_hash: 'h', guid: 'g', title: 'An article', content_hash: 'x', published_at: now, created_at: now, last_seen_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await subscribe(db, userId, feedId, now);
  return { feedId, articleId };
}

/** Any text as a query string (encoded so it stays one URL, `#` included). */
export const rawQuery = fc.string({ maxLength: 200 }).map((q) => encodeURI(q).replace(/#/g, '%23'));

/** The named parameters, any of them left out, each with a value from `param`, as a query string. */
export const paramsQuery = (names: string[], param: fc.Arbitrary<string>) =>
  fc.record(Object.fromEntries(names.map((n) => [n, param])), { requiredKeys: [] }).map((r) => new URLSearchParams(r as Record<string, string>).toString());

/** Any printable-ASCII text as a bearer token. */
export const anyBearer = (maxLength: number) => fc.string({ maxLength }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x'));

/** The content types a raw body is sent with: the right one, wrong ones, a wrong charset, none. */
export const contentTypes = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/json; charset=latin1',
  '',
);

/** Sends each endpoint JSON bodies from `bodies` (after `prepare`), with the headers `headers(endpoint)` gives. */
export async function assertJsonBodiesAnswered<E extends HostileEndpoint>(
  t: TestApp,
  o: { endpoints: fc.Arbitrary<E>; bodies: fc.Arbitrary<unknown>; headers: (ep: E) => Headers; numRuns: number; prepare?: (body: unknown) => unknown },
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(o.endpoints, o.bodies, async (ep, body) => {
      const payload = JSON.stringify(o.prepare ? o.prepare(body) : body) ?? 'null';
      const res = await t.app.inject({ method: ep.method, url: ep.url, headers: { 'content-type': 'application/json', ...o.headers(ep) }, payload });
      expectClientAnswer(res, `${ep.method} ${ep.url} ${payload.slice(0, 160)}`);
    }),
    { numRuns: o.numRuns },
  );
}

/** Sends each endpoint arbitrary raw text (after `prepare`) under each of contentTypes. */
export async function assertRawBodiesAnswered<E extends HostileEndpoint>(
  t: TestApp,
  o: { endpoints: fc.Arbitrary<E>; headers: (ep: E) => Headers; numRuns: number; prepare?: (raw: string) => string },
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(o.endpoints, fc.string({ maxLength: 300 }), contentTypes, async (ep, raw, type) => {
      const res = await t.app.inject({
        method: ep.method,
        url: ep.url,
        headers: { ...(type ? { 'content-type': type } : {}), ...o.headers(ep) },
        payload: o.prepare ? o.prepare(raw) : raw,
      });
      expectClientAnswer(res, `${ep.method} ${ep.url} [${type}] ${JSON.stringify(raw).slice(0, 120)}`);
    }),
    { numRuns: o.numRuns },
  );
}

/** GETs each generated url with its headers. */
export async function assertGetsAnswered(t: TestApp, requests: fc.Arbitrary<{ url: string; headers: Headers }>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(requests, async ({ url, headers }) => {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expectClientAnswer(res, `GET ${url}`);
    }),
    { numRuns },
  );
}
