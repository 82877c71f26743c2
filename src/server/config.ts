import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { LegalInfo, Operator } from '../common/api.js';
import { SQLITE_CACHE_MB } from './db/sqlite-cache.js';
import { tightenMode } from './private-file.js';

/**
 * Every environment variable Feeder reads, parsed once and frozen (docs/ARCHITECTURE.md "Rules" 6).
 * Nothing else in the code base reads process.env. Each variable is documented in README.md.
 */
export interface Config {
  /** HTTP port (PORT, default 3000). */
  port: number;
  /** Interface to bind (HOST, default 0.0.0.0). */
  host: string;
  /** Where the SQLite database, the generated secret and the mail outbox live (DATA_DIR, default ./data). */
  dataDir: string;
  /**
   * DATABASE_URL: postgres://… for PostgreSQL; unset (or sqlite:path) means SQLite in DATA_DIR/feeder.db.
   * SQLITE_CACHE_MB: SQLite's page cache in MB (default 8; docs/decisions.md "SQLite's page cache: 8 MB, and 16 for a
   * scope's rewrite").
   */
  database: { dialect: 'sqlite'; file: string; cacheMb?: number } | { dialect: 'postgres'; url: string };
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
  /** Feed engine; see README "Configuration". */
  feeds: FeedEngineConfig;
  /**
   * OPERATOR_NAME, OPERATOR_ADDRESS (lines separated by `|`), OPERATOR_EMAIL, OPERATOR_PHONE, OPERATOR_REPRESENTATIVE:
   * the operator the legal pages name, and what the pages may show (docs/decisions.md "Legal pages: the operator
   * from configuration").
   */
  legal: LegalInfo;
  /** OPERATOR_* variables given but not all of name, address and e-mail: named in the start-up warning. */
  operatorMissing: string[];
}

export interface FeedEngineConfig {
  /** ALLOW_PRIVATE_FEED_HOSTS: fetch from loopback/private/link-local addresses (home networks, tests). Default false. */
  allowPrivateHosts: boolean;
  /** FEED_FETCH_TIMEOUT: seconds for one fetch, redirects and body included (default 30). */
  fetchTimeoutMs: number;
  /** FEED_MAX_BYTES: body cap per fetch in bytes (default 10 MB). */
  maxBytes: number;
  /** REFRESH_MIN_INTERVAL / REFRESH_MAX_INTERVAL: bounds of the next check in minutes (default 15 and 1440). */
  minIntervalMinutes: number;
  maxIntervalMinutes: number;
  /**
   * REFRESH_CONCURRENCY: feeds whose documents are read, parsed and stored at once per process (default 16); four
   * times as many refreshes are under way, the others conditional requests waiting for a 304 (refresh/engine.ts
   * REQUESTS_PER_DOCUMENT_SLOT).
   */
  concurrency: number;
  /** REFRESH_PER_HOST: requests at once to one host per process (default 2). */
  perHost: number;
  /**
   * REFRESH_PARSE_THREADS: worker threads that parse and sanitise fetched feeds (default: one less than the cores, at
   * least 1, at most 4; 0 = inline). The main thread, which stores what they parse, keeps a core (docs/decisions.md
   * "Parse threads: heap caps").
   */
  parseThreads: number;
  /** ARTICLE_RETENTION_DAYS: read, unkept articles older than this are removed (default 180). */
  retentionDays: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 3000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`PORT must be a port number, got "${raw}"`);
  return n;
}

function parseDatabase(raw: string | undefined, dataDir: string, cacheRaw: string | undefined): Config['database'] {
  const url = raw?.trim();
  const cacheMb = Math.floor(parseNumber('SQLITE_CACHE_MB', cacheRaw, SQLITE_CACHE_MB, 2, 4096));
  if (!url) return { dialect: 'sqlite', file: join(dataDir, 'feeder.db'), cacheMb };
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!file) throw new ConfigError('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/feeder.db');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : resolve(file), cacheMb };
  }
  throw new ConfigError('DATABASE_URL must start with postgres:// or sqlite:');
}

function parseNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return n;
}

function parseBoolean(raw: string | undefined): boolean {
  return /^(1|true|yes|on)$/i.test(raw?.trim() ?? '');
}

function parseFeedEngine(env: Env): FeedEngineConfig {
  const minIntervalMinutes = parseNumber('REFRESH_MIN_INTERVAL', env.REFRESH_MIN_INTERVAL, 15, 1, 7 * 24 * 60);
  const maxIntervalMinutes = parseNumber('REFRESH_MAX_INTERVAL', env.REFRESH_MAX_INTERVAL, 24 * 60, 1, 30 * 24 * 60);
  if (maxIntervalMinutes < minIntervalMinutes) throw new ConfigError('REFRESH_MAX_INTERVAL must not be below REFRESH_MIN_INTERVAL');
  return {
    allowPrivateHosts: parseBoolean(env.ALLOW_PRIVATE_FEED_HOSTS),
    fetchTimeoutMs: parseNumber('FEED_FETCH_TIMEOUT', env.FEED_FETCH_TIMEOUT, 30, 1, 600) * 1000,
    maxBytes: Math.floor(parseNumber('FEED_MAX_BYTES', env.FEED_MAX_BYTES, 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024)),
    minIntervalMinutes,
    maxIntervalMinutes,
    concurrency: Math.floor(parseNumber('REFRESH_CONCURRENCY', env.REFRESH_CONCURRENCY, 16, 1, 256)),
    perHost: Math.floor(parseNumber('REFRESH_PER_HOST', env.REFRESH_PER_HOST, 2, 1, 64)),
    parseThreads: Math.floor(parseNumber('REFRESH_PARSE_THREADS', env.REFRESH_PARSE_THREADS, Math.max(1, Math.min(4, availableParallelism() - 1)), 0, 32)),
    retentionDays: parseNumber('ARTICLE_RETENTION_DAYS', env.ARTICLE_RETENTION_DAYS, 180, 1, 36500),
  };
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

/** Host names that mean "this machine": a Feeder there is a trial, where example legal details are harmless. */
function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]' || host === '::1';
}

/** A short single-line value: trimmed, inner whitespace runs (line breaks from a .env file) made one space. */
const oneLine = (raw: string | undefined) => (raw ?? '').replace(/\s+/g, ' ').trim();

/**
 * The operator of the legal pages from OPERATOR_*: 'configured' when name, address and e-mail are set; otherwise
 * 'example' on a local PUBLIC_URL and 'unavailable' elsewhere, so a public Feeder never shows a placeholder operator
 * as if it were real (docs/decisions.md "Legal pages: the operator from configuration").
 */
function parseLegal(env: Env, publicUrl: string): { legal: LegalInfo; operatorMissing: string[] } {
  const name = oneLine(env.OPERATOR_NAME);
  const address = (env.OPERATOR_ADDRESS ?? '')
    .split('|')
    .map((line) => oneLine(line))
    .filter(Boolean);
  const email = oneLine(env.OPERATOR_EMAIL);
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new ConfigError(`OPERATOR_EMAIL must be an e-mail address, got "${email}"`);
  const missing = [!name && 'OPERATOR_NAME', address.length === 0 && 'OPERATOR_ADDRESS', !email && 'OPERATOR_EMAIL'].filter((x): x is string => x !== false);
  const anyGiven = Boolean(name || address.length > 0 || email || oneLine(env.OPERATOR_PHONE) || oneLine(env.OPERATOR_REPRESENTATIVE));
  if (missing.length === 0) {
    const operator: Operator = {
      name,
      address,
      email,
      phone: oneLine(env.OPERATOR_PHONE) || null,
      representative: oneLine(env.OPERATOR_REPRESENTATIVE) || null,
    };
    return { legal: { status: 'configured', operator }, operatorMissing: [] };
  }
  return { legal: { status: isLocalUrl(publicUrl) ? 'example' : 'unavailable', operator: null }, operatorMissing: anyGiven ? missing : [] };
}

/** The start-up warning about the legal pages, or null when there is nothing to say. */
export function legalWarning(config: Pick<Config, 'legal' | 'operatorMissing' | 'publicUrl'>): string | null {
  const { status } = config.legal;
  const partly = config.operatorMissing.length > 0 ? ` (${config.operatorMissing.join(', ')} missing)` : '';
  if (status === 'unavailable') {
    return `OPERATOR_NAME, OPERATOR_ADDRESS and OPERATOR_EMAIL are not all set${partly}: the imprint, privacy notice and terms show no operator at ${config.publicUrl}, only a notice that the details are not published yet`;
  }
  if (partly) return `OPERATOR_NAME, OPERATOR_ADDRESS and OPERATOR_EMAIL are not all set${partly}: the legal pages show example details (PUBLIC_URL is local)`;
  return null;
}

/** Reads SECRET, or the secret kept in DATA_DIR, or generates and keeps a new one. */
function loadSecret(raw: string | undefined, dataDir: string): string {
  if (raw && raw.trim()) {
    if (raw.trim().length < 16) throw new ConfigError('SECRET must be at least 16 characters long');
    return raw.trim();
  }
  const file = join(dataDir, 'secret');
  if (existsSync(file)) {
    tightenMode(file); // decisions.md "Data files are the owner's only"
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
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
    database: parseDatabase(env.DATABASE_URL, dataDir, env.SQLITE_CACHE_MB),
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
    feeds: Object.freeze(parseFeedEngine(env)),
    ...parseLegal(env, publicUrl),
  };
  return Object.freeze(config);
}
