import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';

/**
 * Keeps the main thread's young generation at `maxBytes` (both semi-spaces) at most, below V8's own maximum (two
 * 16 MB semi-spaces; docs/decisions.md "Process memory: idle and peak"). V8 reads its maximum only when the heap is
 * made (`--max-semi-space-size` on the command line), but it reads the growth factor at every collection that may
 * grow the young generation: after each collection this switches growth off once the young generation has reached
 * `maxBytes`, and on again when V8 has shrunk it (its memory reducer does when the process is idle).
 *
 * The growth factor is a flag of the whole process, and V8 puts it back to 2 (its least) whenever it makes a heap,
 * that is whenever a worker thread starts: the parse threads start at each refresh round. So the factor is set again
 * after every collection, not only when it should change, and as soon as a new thread is online. Observers run
 * between turns of the event loop, so one long synchronous task could still grow it a step past the limit; a
 * server's turns are short. Returns what stops it (growth as V8 has it, 2).
 */
export function limitYoungGeneration(maxBytes: number): () => void {
  let stopped = false;
  const adjust = () => {
    if (stopped) return;
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    v8.setFlagsFromString(`--semi-space-growth-factor=${young && young.space_size >= maxBytes ? 1 : 2}`);
  };
  adjust();
  // A scavenge and a full collection may both resize the young generation; the rule depends only on its size now,
  // so it is applied after every batch of collections, whatever their kind.
  const observer = new PerformanceObserver(adjust);
  observer.observe({ entryTypes: ['gc'] });
  const onWorker = (worker: Worker) => worker.once('online', adjust);
  process.on('worker', onWorker);
  return () => {
    stopped = true;
    observer.disconnect();
    process.off('worker', onWorker);
    v8.setFlagsFromString('--semi-space-growth-factor=2');
  };
}
