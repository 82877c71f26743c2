import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors.js';
import type { LogRecord } from '../log.js';
import { ReaderError } from '../reader/types.js';
import { toWorkerError, type WorkerAnswer, type WorkerMessage } from './document-pool.js';
import { runJob, type JobKind } from './pool-jobs.js';
import { packTexts } from './pack-texts.js';
import type { StoredDocument } from './process-document.js';

/**
 * The worker-thread side of document-pool.ts: runs the jobs it receives (pool-jobs.ts) in order, answers with its output
 * or its error (ReaderErrors and AppErrors keep their code, so the user gets a translatable error).
 */
/**
 * Nice value of a worker thread. On Linux a thread's nice value is its own (setpriority(2), "Bugs"), so the main
 * thread, which answers requests and writes to the database, gets the CPU first when both want it, and a core
 * busy with a long parse does not delay a request's few milliseconds of work (docs/decisions.md "Worker pool").
 * Elsewhere the value would apply to the whole process, so it is left alone there.
 */
const WORKER_NICE = 10;
if (process.platform === 'linux') {
  try {
    setPriority(WORKER_NICE);
  } catch {
    // Not allowed (an unusual sandbox): the worker runs at the process's priority, as before.
  }
}

/**
 * A log record of this thread: posted to the pool, which writes it through the process's one logger (log.ts), so
 * a thread's lines are the same JSON lines as everyone else's, in order with them.
 */
function log(record: LogRecord): void {
  parentPort!.postMessage({ log: record } satisfies WorkerMessage);
}

/**
 * Jobs run one after the other and are answered in the order they came: the pool posts a refresh document ahead
 * while the one before it runs (document-pool.ts), and matches answers to jobs by that order.
 */
let previous: Promise<void> = Promise.resolve();

async function answer(message: { kind: JobKind; input: never }): Promise<void> {
  let reply: WorkerAnswer;
  try {
    reply = { ok: await runJob(message.kind, message.input) };
  } catch (err) {
    // ReaderErrors and AppErrors are the document's fault and reach the user with their code; anything else is a
    // bug in a parser or a job, worth its stack in the log.
    if (!(err instanceof ReaderError) && !(err instanceof AppError)) {
      log({ level: 'error', msg: 'parse job failed unexpectedly', fields: { kind: message.kind, err: err instanceof Error ? err.stack : String(err) } });
    }
    reply = { error: toWorkerError(err) };
  }
  try {
    // A refresh document's new texts go as one buffer, and its search vectors as another, moved rather than copied
    // (pack-texts.ts).
    const doc = message.kind === 'document' && 'ok' in reply ? (reply.ok as StoredDocument) : null;
    if (doc) packTexts(doc);
    parentPort!.postMessage(reply satisfies WorkerAnswer, doc?.buffers ?? []);
  } catch (err) {
    // An answer that cannot be copied (a bug) still answers its job, so the ones after it keep their answers.
    parentPort!.postMessage({ error: toWorkerError(err) } satisfies WorkerAnswer);
  }
}

parentPort!.on('message', (message: { kind: JobKind; input: never }) => {
  previous = previous.then(() => answer(message)).catch(() => {});
});
