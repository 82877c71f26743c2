import { parseArgs } from 'node:util';
import { ConfigError, legalWarning, loadConfig, type Config } from './config.js';
import { compactSqlite, migrateToLatest, openDatabase, type Database } from './db/database.js';
import { buildApp } from './http/app.js';
import { createRateLimitStore } from './http/rate-limit.js';
import { createLogger, type Logger } from './log.js';
import { createMailer } from './mail/mailer.js';
import { startMaintenance } from './maintenance.js';
import { createRefreshEngine, type EngineRole, type RefreshEngine } from './refresh/engine.js';

/**
 * Composition root and the `feeder` command (docs/ARCHITECTURE.md "Where things are"):
 *   feeder [all]          web server + background work in one process (the default, used by npm start)
 *   feeder web            web server only (scaled out: several behind a proxy)
 *   feeder worker         background work only (scaled out)
 *   feeder migrate        apply database migrations and exit
 *   feeder compact        rewrite the SQLite database file (8 KB pages, free space returned) and exit
 *   feeder user create --email E --password P --name N [--verified]
 *   feeder feed add|list|refresh   the feed engine from the command line (feeds/feeds.cli.ts)
 */
const USAGE = `Usage: feeder [all|web|worker|migrate|compact]
       feeder user create --email <e-mail> --password <password> --name <name> [--verified] [--language de|en]
       feeder feed add --email <e-mail> <url>
       feeder feed list [--email <e-mail>]
       feeder feed refresh [<feed id>…]`;

type Stop = () => Promise<void>;

/** What the `feeder` command (bin/feeder.js) asks to hear about while a server starts. */
export interface StartHooks {
  /** Migrations are about to run (the database is behind this version). */
  beforeMigrations?: () => void;
}

async function openMigrated(config: Readonly<Config>, hooks: StartHooks = {}): Promise<Database> {
  const database = openDatabase(config);
  await migrateToLatest(database.db, { beforeRunning: hooks.beforeMigrations });
  return database;
}

async function startWeb(config: Readonly<Config>, database: Database, refresh: RefreshEngine, log: Logger): Promise<Stop> {
  // Outbox link lines are logged whatever LOG_LEVEL says (their own level): they are how `npm start` users sign up.
  const mailLog = log.child({ component: 'mail' }, { level: 'info' });
  const mailer = createMailer(config, (line) => mailLog.info(line));
  // The store warns when Redis becomes unreachable (it counts in memory meanwhile).
  const rateLimitStore = createRateLimitStore(config, log.child({ component: 'rate-limit' }));
  const app = await buildApp({ config, database, mailer, rateLimitStore, refresh, log });
  if (config.registrationDomains.length === 0) {
    app.log.warn('REGISTRATION_EMAIL_DOMAINS is not set: registration is open to every e-mail domain');
  }
  // Said at start: a public Feeder without its operator's details serves no placeholder legal pages (README "Configuration").
  const legal = legalWarning(config);
  if (legal) app.log.warn(legal);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Feeder is listening on ${config.publicUrl} (database: ${config.database.dialect})`);
  if (!config.smtpUrl) app.log.info(`SMTP_URL is not set: mails are written to ${config.dataDir}/outbox and their links logged`);
  return async () => {
    await app.close();
    await mailer.close();
    await rateLimitStore.close(); // closes the Redis connection when there is one
  };
}

function onSignals(stops: Stop[], database: Database, log: Logger): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => log.error({ err }, 'shutting down failed'));
    await database.destroy().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/** `feeder all|web|worker`: opens the database, starts the refresh engine, the web server and the maintenance job. */
async function startServer(command: EngineRole, config: Readonly<Config>, log: Logger, hooks: StartHooks): Promise<void> {
  const database = await openMigrated(config, hooks);
  const stops: Stop[] = [];
  const refresh = createRefreshEngine({ config, database, role: command, log: log.child({ component: 'refresh' }) });
  // Stopped last (stops run in reverse): the web server stops taking requests before the engine's queue closes.
  stops.push(() => refresh.stop());
  if (command !== 'worker') stops.push(await startWeb(config, database, refresh, log));
  if (command !== 'web') {
    const workerLog = log.child({ component: 'worker' });
    stops.push(startMaintenance(database, log.child({ component: 'maintenance' }), { retentionDays: config.feeds.retentionDays }));
    refresh.start();
    workerLog.info(`feed refresh started (${refresh.queue.kind} queue, ${config.feeds.concurrency} at once)`);
    if (command === 'worker') workerLog.info(`started (database: ${config.database.dialect})`);
  }
  onSignals(stops, database, log);
}

async function run(argv: string[], hooks: StartHooks): Promise<number> {
  const [command = 'all', ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();

  switch (command) {
    case 'all':
    case 'web':
    case 'worker': {
      // The process's one logger (log.ts): the web app, the engine, its threads and the maintenance job log through it.
      const log = createLogger(config);
      try {
        await startServer(command, config, log, hooks);
      } catch (err) {
        // A server's last word is a log line like all the others (the CLI commands below answer on the terminal).
        log.fatal({ err }, `Feeder could not start: ${err instanceof Error ? err.message : String(err)}`);
        return 1;
      }
      return -1; // keep running
    }
    case 'migrate': {
      const database = openDatabase(config);
      try {
        const applied = await migrateToLatest(database.db);
        console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');
      } finally {
        await database.destroy();
      }
      return 0;
    }
    case 'compact': {
      if (config.database.dialect !== 'sqlite') {
        console.log('Nothing to compact: PostgreSQL manages its own space (autovacuum).');
        return 0;
      }
      try {
        const { before, after } = compactSqlite(config.database.file);
        const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
        console.log(`Compacted ${config.database.file}: ${mb(before.bytes)} → ${mb(after.bytes)}, pages of ${before.pageSize} → ${after.pageSize} bytes.`);
        return 0;
      } catch (err) {
        // In use, no file, no room for the copy: said on the terminal; the file is as it was.
        console.error(`Could not compact the database: ${err instanceof Error ? err.message : String(err)}`);
        return 1;
      }
    }
    case 'user': {
      const [sub, ...args] = rest;
      if (sub !== 'create') {
        console.error(USAGE);
        return 2;
      }
      const { values } = parseArgs({
        args,
        options: {
          email: { type: 'string' },
          password: { type: 'string' },
          name: { type: 'string' },
          verified: { type: 'boolean', default: false },
          language: { type: 'string', default: 'de' },
        },
      });
      if (!values.email || !values.password || !values.name) {
        console.error(USAGE);
        return 2;
      }
      const database = await openMigrated(config);
      try {
        const { createUserFromCli } = await import('./accounts/accounts.service.js');
        const user = await createUserFromCli(database.db, {
          email: values.email,
          password: values.password,
          name: values.name,
          verified: values.verified ?? false,
          language: values.language === 'en' ? 'en' : 'de',
        });
        console.log(`Created user ${user.id} <${user.email}>${user.is_verified ? ' (verified)' : ''}`);
      } finally {
        await database.destroy();
      }
      return 0;
    }
    case 'feed': {
      const database = await openMigrated(config);
      try {
        // Loaded only for this command: the web and worker processes do not carry discovery (memory budget).
        const { runFeedCommand } = await import('./feeds/feeds.cli.js');
        return await runFeedCommand(rest, config, database);
      } finally {
        await database.destroy();
      }
    }
    default:
      console.error(`Unknown command "${command}".\n${USAGE}`);
      return 2;
  }
}

export async function main(argv = process.argv.slice(2), hooks: StartHooks = {}): Promise<void> {
  try {
    const code = await run(argv, hooks);
    if (code >= 0) process.exit(code);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(2);
    }
    const message = err instanceof Error ? err.message : String(err);
    console.error(`feeder: ${message}`);
    process.exit(1);
  }
}
