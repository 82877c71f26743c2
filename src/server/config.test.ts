import { chmodSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ConfigError, legalWarning, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'feeder-config-'));

describe('loadConfig', () => {
  it('needs no configuration: SQLite in DATA_DIR, port 3000, a generated secret kept for the next start', () => {
    const dir = tempDir();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(3000);
    expect(a.database).toEqual({ dialect: 'sqlite', file: join(dir, 'feeder.db'), cacheMb: 8 });
    expect(a.publicUrl).toBe('http://localhost:3000');
    expect(a.registrationDomains).toEqual([]);
    expect(a.secret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'secret'), 'utf8').trim()).toBe(a.secret);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).secret).toBe(a.secret);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it('takes group and other rights from a secret file an older version left readable', () => {
    const dir = tempDir();
    const a = loadConfig({ DATA_DIR: dir });
    chmodSync(join(dir, 'secret'), 0o644);
    expect(loadConfig({ DATA_DIR: dir }).secret).toBe(a.secret);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
  });

  it('takes the operator of the legal pages from OPERATOR_*, and says at start when a public address has none', () => {
    const dir = tempDir();
    const local = loadConfig({ DATA_DIR: dir });
    expect(local.legal).toEqual({ status: 'example', operator: null });
    expect(legalWarning(local)).toBeNull();
    for (const url of ['http://127.0.0.1:8080', 'http://[::1]:3000', 'http://feeder.localhost']) {
      expect(loadConfig({ DATA_DIR: dir, PUBLIC_URL: url }).legal.status, url).toBe('example');
    }
    const site = loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://feeds.example.com' });
    expect(site.legal).toEqual({ status: 'unavailable', operator: null });
    expect(legalWarning(site)).toMatch(/OPERATOR_NAME.*not all set.*https:\/\/feeds\.example\.com/);

    const full = loadConfig({
      DATA_DIR: dir,
      PUBLIC_URL: 'https://feeds.example.com',
      OPERATOR_NAME: '  Feeder\nGmbH ',
      OPERATOR_ADDRESS: 'Hauptstraße 5||10115 Berlin| ',
      OPERATOR_EMAIL: ' info@feeds.example.com ',
      OPERATOR_REPRESENTATIVE: 'Grace Hopper',
      OPERATOR_PHONE: ' ',
    });
    expect(full.legal).toEqual({
      status: 'configured',
      operator: { name: 'Feeder GmbH', address: ['Hauptstraße 5', '10115 Berlin'], email: 'info@feeds.example.com', phone: null, representative: 'Grace Hopper' },
    });
    expect(legalWarning(full)).toBeNull();

    const partial = loadConfig({ DATA_DIR: dir, OPERATOR_NAME: 'Half', OPERATOR_ADDRESS: ' | ' });
    expect(partial.legal.status).toBe('example');
    expect(partial.operatorMissing).toEqual(['OPERATOR_ADDRESS', 'OPERATOR_EMAIL']);
    expect(legalWarning(partial)).toMatch(/OPERATOR_ADDRESS, OPERATOR_EMAIL missing/);
    expect(() => loadConfig({ DATA_DIR: dir, OPERATOR_EMAIL: 'not an address' })).toThrow(ConfigError);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      DATA_DIR: tempDir(),
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db:5432/feeder',
      REDIS_URL: 'redis://r:6379',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'Feeds <f@example.com>',
      PUBLIC_URL: 'https://feeds.example.com/',
      REGISTRATION_EMAIL_DOMAINS: ' Example.com, @example.org ,',
      SECRET: 'a-secret-of-enough-length',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      database: { dialect: 'postgres', url: 'postgres://u:p@db:5432/feeder' },
      redisUrl: 'redis://r:6379',
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'Feeds <f@example.com>',
      publicUrl: 'https://feeds.example.com',
      registrationDomains: ['example.com', 'example.org'],
      secret: 'a-secret-of-enough-length',
      logLevel: 'warn',
      trustProxy: true,
    });
  });

  it('refuses values that cannot work, with a clear message', () => {
    const dir = tempDir();
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: 'mysql://x' })).toThrow(/postgres/);
    expect(() => loadConfig({ DATA_DIR: dir, SECRET: 'short' })).toThrow(/16/);
    expect(() => loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ DATA_DIR: dir, SQLITE_CACHE_MB: '1' })).toThrow(/SQLITE_CACHE_MB must be a number from 2 to 4096/);
    expect(() => loadConfig({ DATA_DIR: dir, SQLITE_CACHE_MB: 'lots' })).toThrow(/SQLITE_CACHE_MB/);
  });

  it('accepts sqlite: URLs', () => {
    const c = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'sqlite:/tmp/x/feeder.db' });
    expect(c.database).toEqual({ dialect: 'sqlite', file: '/tmp/x/feeder.db', cacheMb: 8 });
  });

  it("takes SQLite's page cache from SQLITE_CACHE_MB, and the database opens with it", async () => {
    const dir = tempDir();
    const c = loadConfig({ DATA_DIR: dir, SQLITE_CACHE_MB: '24' });
    expect(c.database).toEqual({ dialect: 'sqlite', file: join(dir, 'feeder.db'), cacheMb: 24 });
    const cacheSize = async (config: ReturnType<typeof loadConfig>) => {
      const database = openDatabase(config);
      try {
        return (await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db)).rows[0].cache_size;
      } finally {
        await database.destroy();
      }
    };
    expect(await cacheSize(c)).toBe(-24576);
    expect(await cacheSize(loadConfig({ DATA_DIR: tempDir() }))).toBe(-8192);
  });
});
