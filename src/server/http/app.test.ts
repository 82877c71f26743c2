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
  });

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

  it('sends security headers with a strict script policy', async () => {
    const res = await app.inject('/');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBeDefined();
  });
});
