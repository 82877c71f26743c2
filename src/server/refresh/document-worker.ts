import { parentPort } from 'node:worker_threads';
import { ReaderError } from '../reader/types.js';
import { processDocument, type DocumentInput } from './process-document.js';

/**
 * The worker-thread side of document-pool.ts: receives one fetched document at a time, answers with the
 * processed document or the error (ReaderErrors keep their code, so the feed records a translatable error).
 */
type Message = Omit<DocumentInput, 'known'> & { known: Array<[string, string]> };

parentPort!.on('message', (message: Message) => {
  try {
    parentPort!.postMessage({ ok: processDocument({ ...message, known: new Map(message.known) }) });
  } catch (err) {
    const error =
      err instanceof ReaderError
        ? { code: err.code, message: err.message, details: err.details }
        : { message: err instanceof Error ? err.message : String(err) };
    parentPort!.postMessage({ error });
  }
});
