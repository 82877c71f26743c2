// Hostile HTML on the text paths (docs/decisions.md "Sanitising" nesting bound, "Parsing: teasers"): one 1.1 MB item
// of 100,000 nested <div> through the sanitiser (parse threads), htmlToText and articleBody (search text, parse
// threads) and teaser (store time, and the read-time fallback for old rows). Before the nesting bound and the
// stack-free tokenizer these took 9 s and 14–33 s. Each must stay well under a second: unlike the other benches
// this one exits non-zero when a measurement exceeds its bound (BOUND_MS), so a regression to quadratic shows.
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/server/', import.meta.url);
const BOUND_MS = 1000;
const N = 100_000;

let sanitize;
let text;
let articleText;
try {
  sanitize = await import(new URL('reader/sanitize/index.js', dist).href);
  text = await import(new URL('reader/parse/text.js', dist).href);
  articleText = await import(new URL('articles/article-text.js', dist).href);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.log(JSON.stringify({ bench: 'hostile-html', skipped: `not built yet (npm run build): ${fileURLToPath(dist)}` }));
  process.exit(0);
}

const inputs = {
  'nested-div': `${'<div>'.repeat(N)}deep text${'</div>'.repeat(N)}`,
  'unclosed-div': `${'<div>'.repeat(N)}deep text`,
  'nested-mixed': `${'<span><b><i><em>'.repeat(N / 4)}x`,
};
const helpers = {
  sanitizeContent: (s) => sanitize.sanitizeContent(s, { baseUrl: 'https://example.com/' }),
  htmlToText: (s) => text.htmlToText(s),
  textWithMarkupToText: (s) => text.textWithMarkupToText(s),
  articleBody: (s) => articleText.articleBody(s, null),
  teaser: (s) => articleText.teaser(s),
};

let failed = 0;
for (const [input, html] of Object.entries(inputs)) {
  for (const [name, run] of Object.entries(helpers)) {
    run(html); // warm-up
    const t0 = performance.now();
    run(html);
    const ms = Math.round(performance.now() - t0);
    const ok = ms < BOUND_MS;
    if (!ok) failed++;
    console.log(JSON.stringify({ bench: `hostile-html-${name}`, input, bytes: html.length, ms, bound_ms: BOUND_MS, ok }));
  }
}
process.exit(failed ? 1 : 0);
