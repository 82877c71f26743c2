#!/usr/bin/env node
// `npm run bench`: runs every benchmark in bench/ in turn and prints one JSON line per measurement.
// Results are recorded by hand in bench/README.md with the date and machine. Budgets (bench/README.md "Budgets") are compared in
// the README, never in tests; only hostile-html asserts, a bound (well under a second on hostile input) and not a budget.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
let failed = 0;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort();
// `-- web` runs web.bench.mjs alone (not web-size too): a name that is a benchmark's whole name picks that one;
// any other text picks every benchmark whose name contains it (`-- auth`, `-- reading`).
const exact = files.includes(`${only}.bench.mjs`);
for (const file of files) {
  if (only && (exact ? file !== `${only}.bench.mjs` : !file.includes(only))) continue;
  console.log(`\n## ${file}`);
  const r = spawnSync(process.execPath, [`${dir}/${file}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
