import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DiscoveryParsers } from '../reader/discover/index.js';
import type { IconParsers } from '../reader/icon/index.js';
import { AppError, badRequest } from '../errors.js';
import type { LogRecord } from '../log.js';
import { ReaderError } from '../reader/types.js';
import { JOB_TIME_LIMIT_MS, runJob, type JobInput, type JobKind, type JobOutput } from './pool-jobs.js';
import type { DocumentInput, StoredDocument } from './process-document.js';

/**
 * Where untrusted bytes are parsed (docs/ARCHITECTURE.md "Rules" 15, docs/decisions.md "Worker pool"): a pool of worker
 * threads that runs the jobs of pool-jobs.ts, each with a time limit. Parsing and sanitising are most of a
 * refresh's CPU time (bench/README.md), and the main thread also serves the web app and writes to the database;
 * worker threads let a refresh use every core and keep the web app responsive whatever a page or feed contains.
 * A worker also bounds the memory one job can take (resourceLimits): a job that would exhaust it, or runs past
 * its time limit, ends that worker, not the server; the worker is replaced and the job fails with a clear code.
 */
export interface DocumentProcessor {
  process(input: DocumentInput): Promise<StoredDocument>;
  close(): Promise<void>;
}

/** Runs jobs of every kind off the main thread; what the services use for extraction, discovery and OPML. */
export interface ParsePool {
  run<K extends JobKind>(kind: K, input: JobInput<K>): Promise<JobOutput<K>>;
}

/** Discovery's and the icon finder's parsers on a pool. */
export const poolParsers = (pool: ParsePool): DiscoveryParsers & IconParsers => ({
  feed: (fetched) => pool.run('feed', { body: fetched.body, url: fetched.url, contentType: fetched.contentType }),
  page: (fetched) => pool.run('page', { body: fetched.body, url: fetched.url, contentType: fetched.contentType }),
  svg: (markup) => pool.run('svg', markup),
});

/**
 * Documents processed on the calling thread: only the refresh engine with REFRESH_PARSE_THREADS=0 (and its tests
 * from TypeScript sources, engine.ts). Request paths never run a parse inline.
 */
export const inlineProcessor: DocumentProcessor = {
  process: (input) => runJob('document', input),
  close: async () => {},
};

/**
 * Old-generation heap one worker may use (docs/decisions.md "Parse threads: heap caps"). A feed takes about six
 * times its size while it is parsed (its text, the XML reader's tree and the items; docs/decisions.md "Parse
 * threads: our own XML feed reader"), so a feed at FEED_MAX_BYTES (10 MB) fits; a
 * job that needs more ends its worker alone and fails with a clear error (tooMuch), the process does not grow.
 */
export const WORKER_HEAP_MB = 128;
/**
 * Young generation of a worker. V8 makes its two semi-spaces a third of this each, rounded up to a power of two, and
 * both are resident once the thread has parsed a few feeds: 8 MB gives two 4 MB semi-spaces (8 MB resident), where
 * 16 gave two of 8 and V8's default two of 16. Our own feed reader allocates little that outlives a document, so the
 * smaller space cost no CPU measurably; 4 MB (two 2 MB semi-spaces) costs a parse thread 15–20 % more
 * (docs/decisions.md "Process memory: the peak of a first round").
 */
const WORKER_YOUNG_MB = 8;

/** The compiled worker script beside this module; absent when running from TypeScript sources (tests, dev). */
export const DOCUMENT_WORKER_URL = new URL('./document-worker.js', import.meta.url);

export function documentWorkerAvailable(url: URL = DOCUMENT_WORKER_URL): boolean {
  return url.protocol === 'file:' && existsSync(fileURLToPath(url));
}

/**
 * A worker from TypeScript sources (`npm run dev`, tests of the services): the .ts script beside the missing .js,
 * loaded through tsx's ESM hooks registered inside the worker (a worker does not inherit the parent's loader, and
 * `--import tsx` in execArgv registers too late for the worker's own entry module on Node 20).
 */
function sourceWorker(url: URL, options: ConstructorParameters<typeof Worker>[1]): Worker {
  const source = new URL(url.href.replace(/\.js$/, '.ts'));
  const require = createRequire(import.meta.url);
  const tsxPackage = require.resolve('tsx/package.json');
  const api = new URL(
    (require(tsxPackage) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'].import.default,
    pathToFileURL(tsxPackage),
  );
  const bootstrap = `import(${JSON.stringify(api.href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** The error a job fails with when its worker ran out of time or memory: the user's code for "too much". */
function tooMuch(kind: JobKind, why: 'time' | 'memory', limitMs = JOB_TIME_LIMIT_MS[kind], heapMb = WORKER_HEAP_MB): Error {
  switch (kind) {
    case 'extract':
      return new ReaderError('EXTRACT_TOO_COMPLEX', `The article page is too complex to be read (${why === 'time' ? `over ${limitMs / 1000} s` : 'out of memory'}).`);
    case 'opml':
      return badRequest('OPML_TOO_COMPLEX', 'The OPML file is too large or too complex to be read.');
    default:
      return why === 'time'
        ? new ReaderError('PARSE_TIMEOUT', `The document took longer than ${limitMs / 1000} s to read and was given up.`)
        : new ReaderError('PARSE_INVALID', `The feed is too large or too deeply nested to be read (it needs more than ${heapMb} MB of memory).`);
  }
}

interface Job {
  kind: JobKind;
  input: unknown;
  resolve: (output: never) => void;
  reject: (err: unknown) => void;
}

/** An error as it crosses from the worker: ReaderErrors and AppErrors keep their code (and status). */
export interface WorkerError {
  name?: string;
  code?: string;
  message: string;
  details?: ReaderError['details'];
  status?: number;
  extra?: Record<string, unknown>;
}
export type WorkerAnswer = { ok: unknown } | { error: WorkerError };
/** What a worker posts: a job's answer, or a log record (written by the pool's onLog, docs/decisions.md "Composition root, logging and frozen migrations"). */
export type WorkerMessage = WorkerAnswer | { log: LogRecord };

export function toWorkerError(err: unknown): WorkerError {
  if (err instanceof ReaderError) return { name: err.name, code: err.code, message: err.message, details: err.details };
  if (err instanceof AppError) return { name: err.name, code: err.code, message: err.message, status: err.status, extra: err.extra };
  return { message: err instanceof Error ? err.message : String(err) };
}

function fromWorkerError(e: WorkerError): Error {
  if (e.name === 'ReaderError' && e.code) return new ReaderError(e.code as ReaderError['code'], e.message, e.details);
  if (e.name === 'AppError' && e.code && e.status) return new AppError(e.status, e.code, e.message, e.extra);
  return new Error(e.message);
}

/**
 * A worker nobody needed for this long is ended, giving its heap back (30–45 MB once it has parsed a round's
 * feeds); the next job starts a new one (about 50 ms). A refresh round keeps its workers busy, so a process that
 * refreshes every half hour holds no parse thread between rounds (docs/decisions.md "Process memory: idle and peak").
 */
const WORKER_IDLE_MS = 60_000;

/**
 * Refresh documents a worker holds beyond the one it parses: the next ones are posted while it parses, so it never
 * waits for the main thread to take an answer before it can start the next feed (docs/decisions.md "Parse threads:
 * the next document posted ahead"). The main thread runs SQLite's write groups synchronously, tens of milliseconds
 * at a time, and a worker that was handed one job at a time sat idle through them; four cover a group's commit.
 */
export const DOCUMENTS_AHEAD = 4;
/**
 * Only documents this small are posted ahead: a request's job waits for those on its thread, and a small document
 * takes milliseconds (a typical feed is 73 KB), where a large one may take its whole time limit. Larger documents
 * wait in the pool's queue, behind any request's job.
 */
export const AHEAD_MAX_BYTES = 256 * 1024;

/** Whether a job may be posted to a thread behind the one it runs (takesAhead): a small refresh document. */
const goesAhead = (job: { kind: JobKind; input: unknown }) => job.kind === 'document' && (job.input as DocumentInput).body.byteLength <= AHEAD_MAX_BYTES;

class PooledWorker {
  private worker: Worker | null = null;
  private closing = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private limitTimer: NodeJS.Timeout | null = null;
  /**
   * The jobs posted to the thread, in the order it runs them: the first is the one it runs now (its time limit
   * runs), the others were posted ahead and keep their input until they come first, so that they can go back to the
   * pool if the thread ends before reaching them.
   */
  private readonly posted: Job[] = [];

  constructor(
    private readonly url: URL,
    private readonly limits: Readonly<Record<JobKind, number>>,
    private readonly onIdle: (w: PooledWorker) => void,
    private readonly onReturned: (jobs: Job[]) => void,
    private readonly onLog: (record: LogRecord) => void,
    private readonly heapMb: number,
    private readonly idleMs: number,
  ) {}

  /** Whether a worker thread is running for this slot (started on its first job, ended when idle). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Jobs posted to this worker and not answered yet. */
  get load(): number {
    return this.posted.length;
  }

  /** Whether a refresh document may be posted behind what the thread runs now (only behind documents: short jobs). */
  get takesAhead(): boolean {
    return this.worker !== null && !this.closing && this.posted.length > 0 && this.posted.length <= DOCUMENTS_AHEAD && this.posted.every((j) => j.kind === 'document');
  }

  private spawn(): Worker {
    const options = { resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: Math.min(WORKER_YOUNG_MB, this.heapMb) } };
    const worker = documentWorkerAvailable(this.url) ? new Worker(this.url, options) : sourceWorker(this.url, options);
    worker.unref();
    worker.on('message', (message: WorkerMessage) => {
      if ('log' in message) {
        this.onLog(message.log);
        return;
      }
      const answer = message;
      // A worker ended for its time limit may still have posted an answer: it belongs to no job any more.
      if (this.worker !== worker) return;
      // The thread answers in the order the jobs were posted (document-worker.ts).
      const job = this.finish();
      if (job) {
        if ('ok' in answer) job.resolve(answer.ok as never);
        else job.reject(fromWorkerError(answer.error));
      }
      this.onIdle(this);
    });
    // A worker that dies (out of memory on a monstrous document, or a crash) fails its job and is replaced.
    worker.on('error', (err) => {
      if (this.worker === worker && !this.closing) this.replace(err);
    });
    worker.on('exit', (code) => {
      if (code !== 0 && this.worker === worker && !this.closing) this.replace(new Error(`document worker exited with code ${code}`));
    });
    return worker;
  }

  /** The job the thread runs now starts counting its time (from the moment it comes first) and lets go of its input. */
  private startFirst(): void {
    const job = this.posted[0];
    if (!job) return;
    // The time limit counts from the moment the job comes first (a new worker's start-up included). One posted
    // ahead may have started a little earlier, while the main thread was busy: its limit is that much longer.
    this.limitTimer = setTimeout(() => {
      if (this.posted[0] === job) this.replace('time');
    }, this.limits[job.kind]);
    this.limitTimer.unref();
    // The input was copied into the worker (a Buffer may share its memory with Node's pool, so it is not moved);
    // the job lets go of its copy, so a fetched body is not held on the main thread while it is parsed.
    job.input = null;
  }

  /** Takes the answered job off the front; the next one posted, if any, is now the one the thread runs. */
  private finish(): Job | null {
    const job = this.posted.shift() ?? null;
    if (this.limitTimer) clearTimeout(this.limitTimer);
    this.limitTimer = null;
    this.startFirst();
    return job;
  }

  /**
   * Ends the worker (the next job starts a new one) and fails the job it ran with `reason`'s error; the jobs posted
   * ahead of it were not started and go back to the pool.
   */
  private replace(reason: Error | 'time'): void {
    if (this.limitTimer) clearTimeout(this.limitTimer);
    this.limitTimer = null;
    const job = this.posted.shift();
    const ahead = this.posted.splice(0);
    void this.worker?.terminate().catch(() => {});
    this.worker = null;
    this.onLog({ level: 'warn', msg: 'document worker ended and replaced', fields: { kind: job?.kind, reason: reason === 'time' ? 'time limit' : reason.message } });
    if (job) {
      if (reason === 'time') job.reject(tooMuch(job.kind, 'time', this.limits[job.kind]));
      else {
        const outOfMemory = /memory/i.test(reason.message) || (reason as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        job.reject(outOfMemory ? tooMuch(job.kind, 'memory', this.limits[job.kind], this.heapMb) : reason);
      }
    }
    this.onReturned(ahead);
    this.onIdle(this);
  }

  run(job: Job): void {
    this.posted.push(job);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.worker ??= this.spawn();
    this.worker.postMessage({ kind: job.kind, input: job.input });
    if (this.posted.length === 1) this.startFirst();
  }

  /** Called when the worker has nothing more to do: it ends after a while, giving its memory back. */
  idle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      if (this.posted.length > 0 || !worker) return;
      this.worker = null;
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  async terminate(): Promise<void> {
    this.closing = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.limitTimer) clearTimeout(this.limitTimer);
    for (const job of this.posted.splice(0)) job.reject(new Error('document pool closed'));
    await this.worker?.terminate();
  }
}

/** Jobs a request waits for (everything but a refresh's documents) go ahead of queued documents. */
const urgent = (kind: JobKind) => kind !== 'document';

export class WorkerPoolProcessor implements DocumentProcessor, ParsePool {
  private readonly idle: PooledWorker[] = [];
  private readonly all: PooledWorker[] = [];
  private readonly waiting: Job[] = [];
  private closed = false;

  /**
   * Workers start on the first job that needs one, so a pool nobody uses costs nothing. `timeLimitsMs` overrides
   * JOB_TIME_LIMIT_MS (tests). `onLog` receives the workers' log records and the pool's own (a worker replaced).
   * `heapMb` overrides WORKER_HEAP_MB and `idleMs` WORKER_IDLE_MS (tests).
   */
  constructor(
    size: number,
    url: URL = DOCUMENT_WORKER_URL,
    timeLimitsMs: Partial<Record<JobKind, number>> = {},
    onLog: (record: LogRecord) => void = () => {},
    heapMb = WORKER_HEAP_MB,
    idleMs = WORKER_IDLE_MS,
  ) {
    const limits = { ...JOB_TIME_LIMIT_MS, ...timeLimitsMs };
    for (let i = 0; i < size; i++) {
      const w = new PooledWorker(
        url,
        limits,
        (worker) => this.release(worker),
        (jobs) => this.waiting.unshift(...jobs),
        onLog,
        heapMb,
        idleMs,
      );
      this.all.push(w);
      this.idle.push(w);
    }
  }

  /** How many worker threads run now (none before the first job, and none again once they were idle long enough). */
  get threads(): number {
    return this.all.filter((w) => w.running).length;
  }

  process(input: DocumentInput): Promise<StoredDocument> {
    return this.run('document', input);
  }

  run<K extends JobKind>(kind: K, input: JobInput<K>): Promise<JobOutput<K>> {
    if (this.closed) return Promise.reject(new Error('document pool closed'));
    return new Promise<JobOutput<K>>((resolve, reject) => {
      const job: Job = { kind, input, resolve: resolve, reject };
      const worker = this.idle.pop() ?? (this.waiting.length > 0 || !goesAhead(job) ? undefined : this.all.find((w) => w.takesAhead));
      if (worker) worker.run(job);
      else if (urgent(kind)) {
        const firstDocument = this.waiting.findIndex((j) => !urgent(j.kind));
        this.waiting.splice(firstDocument === -1 ? this.waiting.length : firstDocument, 0, job);
      } else this.waiting.push(job);
    });
  }

  /** Jobs waiting for a worker (not yet posted to one). */
  get queued(): number {
    return this.waiting.length;
  }

  /** A worker answered (or was replaced): it takes the next job, and a refresh document ahead of that if it can. */
  private release(worker: PooledWorker): void {
    if (this.closed) return;
    if (worker.load === 0) {
      const next = this.waiting.shift();
      if (!next) {
        if (!this.idle.includes(worker)) this.idle.push(worker);
        worker.idle();
        return;
      }
      worker.run(next);
    }
    // A request's job (and a large document) waits for a worker with nothing posted rather than behind documents.
    if (worker.takesAhead && this.waiting.length > 0 && goesAhead(this.waiting[0])) worker.run(this.waiting.shift()!);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('document pool closed'));
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}
