// The API's schemas as data (docs/decisions.md "Process memory: the API's schemas as data"): run by `npm run build`
// after tsc. Every module of dist/common/schemas that builds its schemas with TypeBox at run time is evaluated once
// here and written back as its exports' JSON, so the server loads neither TypeBox (373 modules, 3.4 MB of heap) nor
// the builders. What Fastify, Ajv and @fastify/swagger read is the JSON Schema itself; TypeBox's symbol keys are
// for TypeBox's own functions, which Feeder does not call.
//
// A schema module exports data only. A module whose exports are all functions builds schemas (builders.js): it is
// left as it is, and no data module imports it any more. A module without TypeBox at run time (error-schema.js) is
// left as it is too. Anything else a module exports (a function among the data, a value JSON cannot hold) stops the
// build with the module and the export named. schemas-as-data.test.ts compares the written modules with the
// schemas the sources build.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'common', 'schemas');
const USES_TYPEBOX = /^import [^;]*from ['"]typebox['"];?$/m;

/** Why `value` would not come back from JSON as it is (a function, undefined, NaN, a Date, …), or null. */
function notJson(value, path) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is ${value}`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const why = notJson(value[i], `${path}[${i}]`);
      if (why) return why;
    }
    return null;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return `${path} is a ${proto?.constructor?.name ?? 'object'}`;
    for (const [key, inner] of Object.entries(value)) {
      const why = notJson(inner, `${path}.${key}`);
      if (why) return why;
    }
    return null;
  }
  return `${path} is ${typeof value}`;
}

const files = readdirSync(dir).filter((f) => f.endsWith('.js') && USES_TYPEBOX.test(readFileSync(join(dir, f), 'utf8')));
// Every module is evaluated before any is written: the data modules import each other.
const modules = [];
for (const file of files) modules.push({ file, exports: Object.entries(await import(pathToFileURL(join(dir, file)).href)) });

let written = 0;
for (const { file, exports } of modules) {
  const functions = exports.filter(([, value]) => typeof value === 'function');
  if (functions.length === exports.length) continue;
  let out = `// Built from src/common/schemas/${file.replace(/\.js$/, '.ts')} by scripts/schemas-as-data.mjs: its schemas as data.\n`;
  for (const [name, value] of exports) {
    if (name === 'default') throw new Error(`schemas-as-data: ${file} has a default export; schema modules export named data only`);
    const why = notJson(value, name);
    if (why) throw new Error(`schemas-as-data: ${file} exports ${name}, which is not data (${why}); schema modules export data only`);
    out += `export const ${name} = ${JSON.stringify(value)};\n`;
  }
  writeFileSync(join(dir, file), out);
  rmSync(join(dir, `${file}.map`), { force: true });
  written++;
}
console.log(`schemas-as-data: ${written} schema modules written as data`);
