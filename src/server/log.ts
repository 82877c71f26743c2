import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/** The levels a log call can have (pino's, which Fastify uses). */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * The one structured logger of a Feeder process (docs/decisions.md "Composition root, logging and frozen
 * migrations"): pino, Fastify's own logger, writing one JSON object per line ({"level":30,"time":…,"msg":…}) to
 * stdout. main.ts creates it once from LOG_LEVEL; the web app gets it as Fastify's loggerInstance, the refresh
 * engine, the maintenance job and the queue's worker log through children of it (`component` says whose line it
 * is), and the parse threads post their records to the pool, which writes them here.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel };
  return destination ? pino(options, destination) : pino(options);
}

/** A log record a worker thread posts to its parent (refresh/document-worker.ts), written by the parent's logger. */
export interface LogRecord {
  level: LogLevel;
  msg: string;
  fields?: Record<string, unknown>;
}

/** Writes a record posted by a thread through `log`. */
export function writeRecord(log: Logger, record: LogRecord): void {
  const level: LogLevel = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].includes(record.level) ? record.level : 'info';
  log[level](record.fields ?? {}, String(record.msg));
}
