import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openSqlite, migrateToLatest, type Database } from '../db/database.js';
import { buildApp, type App } from './app.js';

describe('http app: SPA serving, health, headers', () => {
  let app: App;
  let database: Database;
  let formDataBefore: PropertyDescriptor | undefined;
  beforeAll(async () => {
    formDataBefore = Object.getOwnPropertyDescriptor(globalThis, 'FormData');
    const webDir = mkdtempSync(join(tmpdir(), 'feeder-web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Feeder</title><div id="root"></div>');
    writeFileSync(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(join(webDir, 'assets', 'app-abc123.css'), 'body{margin:0}');
    writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    mkdirSync(join(webDir, 'screenshots'));
    writeFileSync(join(webDir, 'screenshots', 'reading.webp'), Buffer.from([0x52, 0x49, 0x46, 0x46, 0, 1, 2, 3]));
    writeFileSync(join(webDir, '.env'), 'SECRET=1');
    writeFileSync(join(webDir, 'assets', '.hidden.js'), 'secret()');
    database = openSqlite(':memory:');
    await migrateToLatest(database.db);
    app = await buildApp({ config: loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'feeder-data-')) }), database, webDir, logger: false });
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  it('leaves the global FormData as it was (the multipart plugin registers without it: http/multipart.ts)', () => {
    expect(Object.getOwnPropertyDescriptor(globalThis, 'FormData')).toEqual(formDataBefore);
    expect(new FormData()).toBeInstanceOf(FormData);
  });

  it('answers /healthz after checking the database', async () => {
    const res = await app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it.each(['/', '/login', '/dashboard/settings', '/reset-password?token=abc', '/some/unknown/page'])('serves the app shell for %s', async (url) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const res = await app.inject('/assets/app-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe('console.log(1)');
  });

  it.each([
    ['/assets/app-abc123.js', 'text/javascript; charset=utf-8', 'immutable', 'console.log(1)'],
    ['/assets/app-abc123.css', 'text/css; charset=utf-8', 'immutable', 'body{margin:0}'],
    ['/favicon.svg', 'image/svg+xml', 'no-cache', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['/screenshots/reading.webp', 'image/webp', 'no-cache', null],
  ])('serves %s as %s with its cache policy and its length', async (url, type, cache, body) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toContain(cache);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    if (body !== null) expect(res.body).toBe(body);
    else expect([...res.rawPayload]).toEqual([0x52, 0x49, 0x46, 0x46, 0, 1, 2, 3]);
  });

  it('answers a conditional GET of a file with 304, by ETag or by date', async () => {
    const first = await app.inject('/assets/app-abc123.js');
    const etag = first.headers.etag as string;
    const modified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const byTag = await app.inject({ url: '/assets/app-abc123.js', headers: { 'if-none-match': `"other", ${etag}` } });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.body).toBe('');
    expect((await app.inject({ url: '/assets/app-abc123.js', headers: { 'if-modified-since': modified } })).statusCode).toBe(304);
    expect((await app.inject({ url: '/assets/app-abc123.js', headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
    // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
    expect((await app.inject({ url: '/assets/app-abc123.js', headers: { 'if-none-match': '"other"', 'if-modified-since': modified } })).statusCode).toBe(200);
    const older = new Date(Date.parse(modified) - 60_000).toUTCString();
    expect((await app.inject({ url: '/assets/app-abc123.js', headers: { 'if-modified-since': older } })).statusCode).toBe(200);
  });

  it('answers HEAD of a file with its headers and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/assets/app-abc123.css' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['content-length']).toBe('14');
    expect(res.body).toBe('');
  });

  it.each(['/.env', '/assets/.hidden.js', '/assets/../.env', '/assets/%2e%2e/.env', '/../package.json', '/assets/app-abc123.js/x'])(
    'serves no hidden file and nothing outside the build for %s (the app shell instead)',
    async (url) => {
      const res = await app.inject(url);
      expect(res.body).not.toContain('SECRET');
      expect(res.body).not.toContain('secret()');
      expect(res.body).not.toContain('"name"');
      if (res.statusCode === 200) expect(res.body).toContain('<div id="root">');
    },
  );

  it.each([
    ['GET', '/api/does-not-exist'],
    ['POST', '/auth/nothing-here'],
    ['GET', '/public-api/v1/nothing'],
    ['DELETE', '/login'],
  ])('answers unknown endpoints %s %s with a JSON 404', async (method, url) => {
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(res.json().message).toEqual(expect.any(String));
  });

  // What @fastify/helmet sent with Feeder's policy before the headers became our own list (security-headers.ts).
  const SECURITY_HEADERS = {
    'content-security-policy':
      "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: https: http:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self';frame-src https://www.youtube-nocookie.com https://player.vimeo.com https://www.dailymotion.com https://geo.dailymotion.com;media-src 'self' https: http:",
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };

  it.each([
    ['GET', '/', undefined],
    ['GET', '/assets/app-abc123.js', undefined],
    ['GET', '/healthz', undefined],
    ['GET', '/api/does-not-exist', undefined],
    ['POST', '/auth/login', '{not json'],
  ])('sends the same security headers on %s %s (page, file, API, 404, 400)', async (method, url, payload) => {
    const res = await app.inject({ method: method as 'GET', url, payload, headers: payload ? { 'content-type': 'application/json' } : {} });
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
  });

  it('sends security headers with a strict script policy', async () => {
    const res = await app.inject('/');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBeDefined();
  });
});
