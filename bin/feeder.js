#!/usr/bin/env node
// The `feeder` command: runs the compiled server (npm run build creates dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const entry = new URL('../dist/server/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('feeder: the server is not built yet; run `npm run build` first.');
  process.exit(1);
}

// Garbage-collector and compiler settings of the process (docs/decisions.md "Process memory: idle and peak"). These
// are flags V8 reads at every collection or tiering decision, so they take effect although the heap already exists;
// a V8 that no longer knew one would say so on stderr and keep its default.
// - The old generation grows by 50 % past what survived the last full collection, not up to 4 × (V8's factor on a
//   machine with much memory): the main thread's garbage of a refresh round is collected at about 1.5 × its live
//   data instead of being carried up to four times it (the parse threads, given about 1.3 by V8 for their 128 MB
//   cap, get 1.5 too).
// - The young generation does not grow while the server starts: loading the modules would otherwise leave it at its
//   largest (two 16 MB semi-spaces) in a server that then sits idle. Once a server runs it grows up to two 4 MB
//   semi-spaces, not V8's 16 (limitYoungGeneration; docs/decisions.md "Process memory: idle and peak", "Refresh
//   engine: new items' texts as bytes").
// - No optimising compiler (TurboFan) while a server starts (docs/decisions.md "Process memory: modules on first
//   use"): what runs at start runs once, and optimising it kept 6–10 MB in an idle server (optimised code, and the
//   compiler's memory in the malloc arenas of V8's threads, which glibc keeps) while costing more CPU to start. It is
//   switched on again once the server listens, so what is hot in the refresh and the requests is optimised as before,
//   and before migrations run (a migration may rewrite every row). The one-shot commands (migrate, user, feed) run
//   with it throughout.
const command = process.argv[2] ?? 'all';
const serving = command === 'all' || command === 'web' || command === 'worker';
v8.setFlagsFromString('--heap-growing-percent=50');
v8.setFlagsFromString('--semi-space-growth-factor=1');
if (serving) v8.setFlagsFromString('--no-opt');
const optimise = () => v8.setFlagsFromString('--opt');
const { main } = await import(entry.href);
// main() returns once a server is listening (a one-shot command exits inside it).
await main(process.argv.slice(2), { beforeMigrations: optimise });
optimise();
if (serving) {
  const { limitYoungGeneration } = await import(new URL('../dist/server/young-generation.js', import.meta.url).href);
  limitYoungGeneration(8 * 1024 * 1024);
} else v8.setFlagsFromString('--semi-space-growth-factor=2');
