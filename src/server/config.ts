import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Every environment variable Feeder reads, parsed once and frozen (design.md §4 rule 6).
 * Nothing else in the code base reads process.env. Each variable is documented in README.md.
 */
export interface Config {
  /** HTTP port (PORT, default 3000). */
  port: number;
  /** Interface to bind (HOST, default 0.0.0.0). */
  host: string;
  /** Where the SQLite database, the generated secret and the mail outbox live (DATA_DIR, default ./data). */
  dataDir: string;
  /** DATABASE_URL: postgres://… for PostgreSQL; unset (or sqlite:path) means SQLite in DATA_DIR/feeder.db. */
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  /** REDIS_URL: when set, refresh jobs and rate limits are shared through Redis (scaled-out mode). */
  redisUrl: string | null;
  /** SMTP_URL: smtp(s)://user:pass@host:port; unset means mails are written to DATA_DIR/outbox as .eml files. */
  smtpUrl: string | null;
  /** MAIL_FROM: sender address of Feeder's mails. */
  mailFrom: string;
  /** PUBLIC_URL: the address users reach Feeder at; used for links in mails. No trailing slash. */
  publicUrl: string;
  /** REGISTRATION_EMAIL_DOMAINS: comma-separated; empty means registration is open to every domain. */
  registrationDomains: string[];
  /** SECRET: signs access tokens and encrypts stored secrets; generated into DATA_DIR/secret when unset. */
  secret: string;
  /** LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  logLevel: string;
  /** TRUST_PROXY: set to 1/true (or a hop count / address list) when Feeder runs behind a reverse proxy. */
  trustProxy: boolean | number | string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 3000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`PORT must be a port number, got "${raw}"`);
  return n;
}

function parseDatabase(raw: string | undefined, dataDir: string): Config['database'] {
  const url = raw?.trim();
  if (!url) return { dialect: 'sqlite', file: join(dataDir, 'feeder.db') };
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!file) throw new ConfigError('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/feeder.db');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : resolve(file) };
  }
  throw new ConfigError('DATABASE_URL must start with postgres:// or sqlite:');
}

function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  if (!raw) return false;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

function parseSmtpUrl(raw: string | undefined): string | null {
  const url = raw?.trim();
  if (!url) return null;
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    /* reported below */
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new ConfigError('SMTP_URL must look like smtp://user:pass@host:587 or smtps://user:pass@host:465');
  return url;
}

/** Reads SECRET, or the secret kept in DATA_DIR, or generates and keeps a new one. */
function loadSecret(raw: string | undefined, dataDir: string): string {
  if (raw && raw.trim()) {
    if (raw.trim().length < 16) throw new ConfigError('SECRET must be at least 16 characters long');
    return raw.trim();
  }
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const dataDir = resolve(env.DATA_DIR?.trim() || 'data');
  const port = parsePort(env.PORT);
  const publicUrl = (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got "${publicUrl}"`);
  }
  const config: Config = {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir,
    database: parseDatabase(env.DATABASE_URL, dataDir),
    redisUrl: env.REDIS_URL?.trim() || null,
    smtpUrl: parseSmtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM?.trim() || 'Feeder <feeder@localhost>',
    publicUrl,
    registrationDomains: (env.REGISTRATION_EMAIL_DOMAINS ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
      .filter(Boolean),
    secret: loadSecret(env.SECRET, dataDir),
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY?.trim()),
  };
  return Object.freeze(config);
}
