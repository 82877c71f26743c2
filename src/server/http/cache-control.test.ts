import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Every answer of the API carries Cache-Control: no-store, successes and errors alike (decisions.md "API answers
 * are never cached"); the web app's own files keep their caching (app.test.ts).
 */
describe('Cache-Control on API answers', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect: 'sqlite' });
    token = (await t.signUp()).access_token;
  });
  afterAll(() => t.close());

  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  it.each([
    ['failed sign-in', () => ({ method: 'POST', url: '/auth/login', payload: { email: 'nobody@example.com', password: 'x' } }), 401],
    ['profile', () => ({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } }), 200],
    ['feeds', () => ({ method: 'GET', url: '/api/feeds', headers: { authorization: `Bearer ${token}` } }), 200],
    ['missing sign-in', () => ({ method: 'GET', url: '/api/feeds' }), 401],
    ['validation error', () => ({ method: 'POST', url: '/auth/forgot-password', payload: { email: 5 } }), 400],
    ['public config', () => ({ method: 'GET', url: '/api/config' }), 200],
    ['unknown API path', () => ({ method: 'GET', url: '/api/nothing-here' }), 404],
    ['health', () => ({ method: 'GET', url: '/healthz' }), 200],
    ['public API authenticate', () => ({ method: 'POST', url: '/public-api/v1/authenticate', payload: { username: 'nobody@example.com', password: 'x' } }), 401],
    ['Fever', () => ({ method: 'POST', url: '/api/fever.php?api', headers: FORM, payload: 'api_key=x' }), 200],
    ['Google Reader ClientLogin', () => ({ method: 'POST', url: '/api/greader.php/accounts/ClientLogin', headers: FORM, payload: 'Email=a&Passwd=b' }), 401],
    ['Google Reader without a token', () => ({ method: 'GET', url: '/api/greader.php/reader/api/0/user-info' }), 401],
  ] as const)('%s', async (_name, request, status) => {
    const res = await t.app.inject(request() as InjectOptions);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps the policy a route chose for public data (the feed catalogue)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/catalog', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
  });
});
