import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { LoginResponse, User } from '../../common/api.js';
import type { Language } from '../../common/constants.js';
import { createUserFromCli } from '../accounts/accounts.service.js';
import { TEST_PASSWORD_HASHING } from '../accounts/passwords.js';
import { loadConfig, type Config } from '../config.js';
import type { Database, Dialect } from '../db/database.js';
import { AUTH_LIMITS, type AuthLimits } from '../accounts/accounts.routes.js';
import { buildApp, type App, type AppDeps } from '../http/app.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../http/rate-limit.js';
import type { Mailer } from '../mail/mailer.js';
import { createRefreshEngine, type RefreshEngine, type RefreshEngineDeps } from '../refresh/engine.js';
import type { Services } from '../services.js';
import { createTestDatabase } from './dialects.js';
import { RecordingMailer } from './recording-mailer.js';
import { BackgroundWork } from '../background.js';

/**
 * A Feeder app for integration tests (fastify.inject, no port): a fresh database of the given dialect, a temp
 * DATA_DIR, a recording mailer, an in-memory rate-limit store, cheap argon2 and a clock the test can move.
 *
 *   const t = await createTestApp({ dialect });
 *   const { access_token } = await t.signUp();                       // verified user, signed in
 *   const res = await t.app.inject({ method: 'GET', url: '/auth/me', headers: t.bearer(access_token) });
 *   await t.close();
 */
export class TestClock {
  private offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  reset(): void {
    this.offsetMs = 0;
  }
}

export interface TestAppOptions {
  dialect?: Dialect;
  /** Use this database instead of a fresh one (it is not destroyed by close()). */
  database?: Database;
  /** Extra environment for loadConfig, e.g. { REGISTRATION_EMAIL_DOMAINS: 'example.com' }. */
  env?: Record<string, string>;
  /** Passed on by the recording mailer (e.g. an OutboxMailer or SmtpMailer); default: recorded only. */
  innerMailer?: Mailer;
  rateLimitStore?: RateLimitStore;
  /**
   * Rate limits of the account endpoints. Default: the production limits ×1000, so suites that sign in many
   * users from one address never hit them; pass `{}` for the production limits or small ones to test 429s.
   */
  authLimits?: Partial<AuthLimits>;
  /** Rate limits of the public API v1 (default: production's); small ones test 429s. */
  publicApiLimits?: AppDeps['publicApiLimits'];
  /** Engine options (e.g. a fake fetcher); the engine is created for every test app, allowed to fetch from 127.0.0.1. */
  engine?: Partial<RefreshEngineDeps>;
}

const RELAXED_LIMITS = Object.fromEntries(Object.entries(AUTH_LIMITS).map(([name, l]) => [name, { ...l, limit: l.limit * 1000 }])) as AuthLimits;

export interface TestApp {
  app: App;
  config: Readonly<Config>;
  database: Database;
  mailer: RecordingMailer;
  clock: TestClock;
  dataDir: string;
  /** The refresh engine the routes use (not started: tests call refreshFeed or schedule themselves). */
  refresh: RefreshEngine;
  /** The services the routes use (services.ts createServices), the very instances. */
  services: Services;
  /** `{ authorization: 'Bearer …' }` */
  bearer(token: string): { authorization: string };
  /** Creates a user directly (as `feeder user create` does); verified unless told otherwise. */
  createUser(options?: TestUserOptions): Promise<{ user: User; email: string; password: string }>;
  /** POST /auth/login; throws unless it answers 200. */
  login(email: string, password: string): Promise<LoginResponse>;
  /** A verified user, signed in: the user, the password and a token pair. */
  signUp(options?: { email?: string; password?: string; name?: string; language?: Language }): Promise<LoginResponse & { email: string; password: string }>;
  close(): Promise<void>;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${process.pid}-${Date.now()}-${++counter}@example.com`;

export type TestUserOptions = { email?: string; password?: string; name?: string; verified?: boolean; language?: Language };

/** Creates a user directly in the database (as `feeder user create` does, with cheap argon2); verified unless told otherwise. */
export async function createTestUser(
  db: Database['db'],
  o: TestUserOptions = {},
  now: () => Date = () => new Date(),
): Promise<{ user: User; email: string; password: string }> {
  const email = o.email ?? uniqueEmail();
  const password = o.password ?? 'correct horse battery';
  const user = await createUserFromCli(
    db,
    { email, password, name: o.name ?? 'Test User', verified: o.verified ?? true, language: o.language ?? 'en' },
    { hashing: TEST_PASSWORD_HASHING, now },
  );
  return { user, email, password };
}

/** The parsed JSON body of an inject response. */
export const json = <T = unknown>(res: LightMyRequestResponse): T => res.json<T>();

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'feeder-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET: 'test-secret-0123456789abcdef',
    PUBLIC_URL: 'http://feeder.test',
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_FEED_HOSTS: 'true',
    FEED_FETCH_TIMEOUT: '5',
    ...options.env,
  });
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(options.dialect ?? 'sqlite'));
  const background = new BackgroundWork();
  const mailer = new RecordingMailer(options.innerMailer, background);
  const clock = new TestClock();
  const refresh = createRefreshEngine({ config, database, role: 'all', now: clock.now, ...options.engine });
  let services: Services | undefined;
  const app = await buildApp({
    onServices: (s) => (services = s),
    refresh,
    config,
    database,
    logger: false,
    mailer,
    background,
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(() => clock.now().getTime()),
    passwordHashing: TEST_PASSWORD_HASHING,
    clock: clock.now,
    authLimits: options.authLimits ?? RELAXED_LIMITS,
    publicApiLimits: options.publicApiLimits,
    webDir: join(dataDir, 'no-web-build'),
  });
  await app.ready();

  const t: TestApp = {
    app,
    config,
    database,
    mailer,
    clock,
    dataDir,
    refresh,
    services: services!,
    bearer: (token) => ({ authorization: `Bearer ${token}` }),
    createUser: (o = {}) => createTestUser(database.db, o, clock.now),
    async login(email, password) {
      const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return res.json<LoginResponse>();
    },
    async signUp(o = {}) {
      const { email, password } = await t.createUser({ ...o, verified: true });
      return { ...(await t.login(email, password)), email, password };
    },
    async close() {
      await app.close();
      await refresh.stop(1000);
      await mailer.close();
      if (ownsDatabase) await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}
