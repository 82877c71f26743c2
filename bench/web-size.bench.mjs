// Initial JavaScript and CSS of the built web app, gzip-compressed (budget: initial JS < 200 KB gzip, bench/README.md "Budgets").
// "Initial" = what index.html loads before any lazy route: its module script, modulepreloads and stylesheets.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const web = new URL('../dist/web/', import.meta.url).pathname;
const html = readFileSync(join(web, 'index.html'), 'utf8');
const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let js = 0;
let css = 0;
for (const ref of new Set(refs)) {
  const size = gzipSync(readFileSync(join(web, ref))).length;
  if (ref.endsWith('.js')) js += size;
  else css += size;
}
console.log(JSON.stringify({ bench: 'web-size', initial_js_gzip_kb: +(js / 1024).toFixed(1), initial_css_gzip_kb: +(css / 1024).toFixed(1), budget_js_kb: 200 }));
