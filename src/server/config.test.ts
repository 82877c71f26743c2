import { chmodSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'feeder-config-'));

describe('loadConfig', () => {
  it('needs no configuration: SQLite in DATA_DIR, port 3000, a generated secret kept for the next start', () => {
    const dir = tempDir();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(3000);
    expect(a.database).toEqual({ dialect: 'sqlite', file: join(dir, 'feeder.db') });
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
  });

  it('accepts sqlite: URLs', () => {
    const c = loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'sqlite:/tmp/x/feeder.db' });
    expect(c.database).toEqual({ dialect: 'sqlite', file: '/tmp/x/feeder.db' });
  });
});
