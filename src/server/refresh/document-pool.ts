import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ReaderError } from '../reader/types.js';
import type { DocumentInput, ProcessedDocument } from './process-document.js';

/**
 * Where documents are parsed and sanitised (process-document.ts): inline on the calling thread, or on a pool of
 * worker threads. Parsing and sanitising are most of a refresh's CPU time (bench/README.md), and the main thread
 * also serves the web app and writes to the database; worker threads let a refresh use every core and keep the
 * web app responsive. A worker also bounds the memory one document can take (resourceLimits): a document that
 * would exhaust it ends that worker, not the server, and is recorded as a feed error.
 */
export interface DocumentProcessor {
  process(input: DocumentInput): Promise<ProcessedDocument>;
  close(): Promise<void>;
}

/**
 * Processing on the calling thread. The parser and sanitiser are loaded on first use: a process whose documents
 * go to worker threads (or a web process, which never parses) does not carry them (design.md §5 memory budget).
 */
export const inlineProcessor: DocumentProcessor = {
  process: async (input) => (await import('./process-document.js')).processDocument(input),
  close: async () => {},
};

/** Heap one worker may use; a feed is at most FEED_MAX_BYTES (10 MB) and parses well within this. */
const WORKER_HEAP_MB = 256;

/** The compiled worker script beside this module; absent when running from TypeScript sources (tests, dev). */
export const DOCUMENT_WORKER_URL = new URL('./document-worker.js', import.meta.url);

export function documentWorkerAvailable(url: URL = DOCUMENT_WORKER_URL): boolean {
  return url.protocol === 'file:' && existsSync(fileURLToPath(url));
}

interface Job {
  input: DocumentInput;
  resolve: (doc: ProcessedDocument) => void;
  reject: (err: unknown) => void;
}

type WorkerAnswer = { ok: ProcessedDocument } | { error: { code?: string; message: string; details?: ReaderError['details'] } };

/** A worker nobody needed for this long is ended; the next document starts a new one (about 50 ms). */
const WORKER_IDLE_MS = 60_000;

class PooledWorker {
  private worker: Worker | null = null;
  private closing = false;
  private idleTimer: NodeJS.Timeout | null = null;
  current: Job | null = null;

  constructor(
    private readonly url: URL,
    private readonly onIdle: (w: PooledWorker) => void,
  ) {}

  private spawn(): Worker {
    const worker = new Worker(this.url, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref();
    worker.on('message', (answer: WorkerAnswer) => {
      const job = this.current;
      this.current = null;
      if (job) {
        if ('ok' in answer) job.resolve(answer.ok);
        else if (answer.error.code) job.reject(new ReaderError(answer.error.code as ReaderError['code'], answer.error.message, answer.error.details));
        else job.reject(new Error(answer.error.message));
      }
      this.onIdle(this);
    });
    // A worker that dies (out of memory on a monstrous document, or a crash) fails its job and is replaced.
    worker.on('error', (err) => {
      if (!this.closing) this.replace(err);
    });
    worker.on('exit', (code) => {
      if (code !== 0 && this.worker === worker && !this.closing) this.replace(new Error(`document worker exited with code ${code}`));
    });
    return worker;
  }

  private replace(err: Error): void {
    const job = this.current;
    this.current = null;
    void this.worker?.terminate().catch(() => {});
    this.worker = null;
    if (job) {
      const outOfMemory = /memory/i.test(err.message) || (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      job.reject(
        outOfMemory
          ? new ReaderError('PARSE_INVALID', 'The feed is too large or too deeply nested to be read.')
          : err,
      );
    }
    this.onIdle(this);
  }

  run(job: Job): void {
    this.current = job;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.worker ??= this.spawn();
    // The body is copied into the worker (a Buffer may share its memory with Node's pool, so it is not moved).
    this.worker.postMessage({ ...job.input, known: [...job.input.known] });
  }

  /** Called when the worker has nothing more to do: it ends after a while, giving its memory back. */
  idle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      if (this.current || !worker) return;
      this.worker = null;
      void worker.terminate();
    }, WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  async terminate(): Promise<void> {
    this.closing = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.current?.reject(new Error('document pool closed'));
    this.current = null;
    await this.worker?.terminate();
  }
}

export class WorkerPoolProcessor implements DocumentProcessor {
  private readonly idle: PooledWorker[] = [];
  private readonly all: PooledWorker[] = [];
  private readonly waiting: Job[] = [];
  private closed = false;

  constructor(size: number, url: URL = DOCUMENT_WORKER_URL) {
    for (let i = 0; i < size; i++) {
      const w = new PooledWorker(url, (worker) => this.release(worker));
      this.all.push(w);
      this.idle.push(w);
    }
  }

  process(input: DocumentInput): Promise<ProcessedDocument> {
    if (this.closed) return Promise.reject(new Error('document pool closed'));
    return new Promise((resolve, reject) => {
      const job = { input, resolve, reject };
      const worker = this.idle.pop();
      if (worker) worker.run(job);
      else this.waiting.push(job);
    });
  }

  private release(worker: PooledWorker): void {
    if (worker.current) return;
    const next = this.waiting.shift();
    if (next && !this.closed) worker.run(next);
    else {
      if (!this.idle.includes(worker)) this.idle.push(worker);
      worker.idle();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new Error('document pool closed'));
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}
