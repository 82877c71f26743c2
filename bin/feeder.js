#!/usr/bin/env node
// The `feeder` command: runs the compiled server (npm run build creates dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/server/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('feeder: the server is not built yet; run `npm run build` first.');
  process.exit(1);
}
const { main } = await import(entry.href);
await main();
