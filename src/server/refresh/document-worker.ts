import { parentPort } from 'node:worker_threads';
import { toWorkerError, type WorkerAnswer } from './document-pool.js';
import { runJob, type JobKind } from './pool-jobs.js';

/**
 * The worker-thread side of document-pool.ts: receives one job at a time (pool-jobs.ts), answers with its output
 * or its error (ReaderErrors and AppErrors keep their code, so the user gets a translatable error).
 */
parentPort!.on('message', (message: { kind: JobKind; input: never }) => {
  runJob(message.kind, message.input).then(
    (ok) => parentPort!.postMessage({ ok } satisfies WorkerAnswer),
    (err: unknown) => parentPort!.postMessage({ error: toWorkerError(err) } satisfies WorkerAnswer),
  );
});
