import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Keeps the main thread's young generation at `maxBytes` (both semi-spaces) at most, below V8's own maximum (two
 * 16 MB semi-spaces; docs/decisions.md "Process memory: idle and peak"). V8 reads its maximum only when the heap is
 * made (`--max-semi-space-size` on the command line), but it reads the growth factor at every young collection: after
 * each one this switches growth off once the young generation has reached `maxBytes`, and on again when V8 has
 * shrunk it (its memory reducer does when the process is idle). Observers run between turns of the event loop, so
 * one long synchronous task could still grow it past the limit; a server's turns are short. Returns what stops it
 * (growth as V8 has it, 2).
 */
export function limitYoungGeneration(maxBytes: number): () => void {
  let growth = 0;
  const adjust = () => {
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    const wanted = young && young.space_size >= maxBytes ? 1 : 2;
    if (wanted === growth) return;
    growth = wanted;
    v8.setFlagsFromString(`--semi-space-growth-factor=${wanted}`);
  };
  adjust();
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => (e as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)) adjust();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    v8.setFlagsFromString('--semi-space-growth-factor=2');
  };
}
