// Parse throughput of the refresh pipeline (bench/README.md "Budgets": ≥ 200 feeds/s fetched, parsed and stored on 2 cores),
// without HTTP or a database: the same 2,000 feeds × 50 items bench/lib/feed-server.mjs serves, parsed by
//   feeder            Feeder's parser (dist/server/reader/parse), bytes → ParsedFeed
//   feeder+sanitize   the same plus sanitizeContent on every item's content (else summary): the real pipeline cost
//   sanitize          sanitizeContent alone, on the items Feeder's parser produced (its peak RSS includes parsing
//                     all 2,000 feeds up front, so only its throughput means something)
//   document          processDocument (dist/server/refresh/process-document.js): everything a parse thread does per
//                     new feed (parse, identify, hash, sanitise, teaser and search text); its cpu_ms_per_feed is
//                     the parse threads' share of a refresh's CPU per new feed
//   feed-parser       @rowanmanning/feed-parser 2 (parseFeed(xmlString)), for comparison
//   rss-parser        rss-parser 3 (new Parser().parseString(xml)), for comparison
// Each runs in its own Node process, so its peak RSS is its own: the process first loads the documents (written
// once to a temporary directory by this parent) and runs a warm-up, which gives the baseline RSS, then times one
// pass over every document. Decoding bytes to text is part of each parser's timed work (the comparison parsers get
// `buffer.toString('utf8')`, Feeder's decodes the Buffer itself, sniffing the encoding).
// Options: --feeds=2000 --items=50 --format=mixed|rss|atom, --only=<name> to run one parser, --dist=<path> to
// measure another build (a checkout's dist/ directory: back-to-back comparisons of two commits), and --sites=loopback
// for the refresh benchmark's documents (feed and site on http://127.0.x.y:3901, as bench/refresh.bench.mjs serves
// them) instead of the default https://site<i>.example sites.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFeed, loopbackHost } from './lib/feed-server.mjs';

const PARSERS = ['feeder', 'feeder+sanitize', 'sanitize', 'document', 'feed-parser', 'rss-parser'];
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const feeds = Number(args.feeds ?? 2000);
const items = Number(args.items ?? 50);
const format = args.format ?? 'mixed';
const sites = args.sites ?? 'example';
if (sites !== 'example' && sites !== 'loopback') throw new Error(`--sites=${sites}: example or loopback`);
/** The refresh benchmark's hosts (feed-server.mjs loopbackHost), on a port of the kind it listens on. */
const loopbackOrigin = (i) => `http://${loopbackHost(i, 3901)}`;
const dist = args.dist ? new URL(`file://${args.dist.replace(/\/?$/, '/')}server/reader/`) : new URL('../dist/server/reader/', import.meta.url);
/** Bytes of item HTML handed to sanitizeContent in the timed pass (sanitising parsers only). */
let htmlBytes = 0;

if (args.child) {
  await child(args.child, args.dir);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'feeder-parse-bench-'));
  let failed = 0;
  try {
    // One generation for all parsers; a manifest keeps each document's URL and Content-Type.
    const manifest = [];
    for (let i = 0; i < feeds; i++) {
      const doc = generateFeed(i, sites === 'loopback' ? { items, format, url: `${loopbackOrigin(i)}/feed/${i}.xml`, site: loopbackOrigin(i) } : { items, format });
      writeFileSync(join(dir, `${i}.xml`), doc.body);
      manifest.push({ url: doc.url, contentType: doc.contentType });
    }
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    for (const name of PARSERS) {
      if (args.only && args.only !== name) continue;
      const r = spawnSync(
        process.execPath,
        [
          '--expose-gc',
          fileURLToPath(import.meta.url),
          `--child=${name}`,
          `--dir=${dir}`,
          `--feeds=${feeds}`,
          `--items=${items}`,
          `--format=${format}`,
          `--sites=${sites}`,
          ...(args.dist ? [`--dist=${args.dist}`] : []),
        ],
        { stdio: 'inherit' },
      );
      if (r.status !== 0) failed++;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

async function importOrNull(relative) {
  try {
    return await import(new URL(relative, dist).href);
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') return null;
    throw error;
  }
}

/** Returns `run(doc) → item count` for a parser name, or a reason string when it cannot run here. */
async function load(name) {
  if (name === 'feed-parser') {
    const { parseFeed } = (await import('@rowanmanning/feed-parser')).default;
    return (doc) => parseFeed(doc.body.toString('utf8')).items.length;
  }
  if (name === 'rss-parser') {
    const Parser = (await import('rss-parser')).default;
    const parser = new Parser();
    return async (doc) => (await parser.parseString(doc.body.toString('utf8'))).items.length;
  }
  if (name === 'document') {
    const pd = await importOrNull('../refresh/process-document.js');
    if (!pd) return 'dist/server/refresh/process-document.js is not built yet (npm run build)';
    const now = Date.UTC(2026, 10, 2);
    return (doc) => pd.processDocument({ body: doc.body, url: doc.url, contentType: doc.contentType, known: new Map(), now }).fresh.length;
  }
  const parse = await importOrNull('parse/index.js');
  if (!parse) return 'dist/server/reader/parse/index.js is not built yet (npm run build)';
  const parseOne = (doc) => parse.parseFeed(doc.body, { url: doc.url, contentType: doc.contentType });
  if (name === 'feeder') return (doc) => parseOne(doc).items.length;
  const sanitize = await importOrNull('sanitize/index.js');
  if (!sanitize) return 'dist/server/reader/sanitize/index.js is not built yet (npm run build)';
  const clean = (feed, doc) => {
    for (const item of feed.items) {
      const html = item.content ?? item.summary;
      if (!html) continue;
      htmlBytes += Buffer.byteLength(html);
      sanitize.sanitizeContent(html, { baseUrl: item.url ?? feed.siteUrl ?? doc.url });
    }
    return feed.items.length;
  };
  if (name === 'feeder+sanitize') return (doc) => clean(parseOne(doc), doc);
  // sanitize alone: parse outside the timed pass and keep only what sanitizeContent gets (HTML and base URL).
  const prepare = (doc) => {
    const feed = parseOne(doc);
    doc.feed = { siteUrl: feed.siteUrl, items: feed.items.map((i) => ({ url: i.url, content: i.content, summary: i.content ? null : i.summary })) };
  };
  return { prepare, run: (doc) => clean(doc.feed, doc) };
}

async function child(name, dir) {
  let loaded = await load(name);
  if (typeof loaded === 'string') {
    console.log(JSON.stringify({ bench: `parse-${name}`, skipped: loaded }));
    return;
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const docs = manifest.map((m, i) => ({ ...m, body: readFileSync(join(dir, `${i}.xml`)) }));
  if (typeof loaded === 'object') {
    for (const doc of docs) loaded.prepare(doc);
    loaded = loaded.run;
  }
  const run = loaded;
  const bytes = docs.reduce((n, d) => n + d.body.length, 0);

  // Warm-up: let the JIT see every code path (both formats) before timing.
  for (let k = 0; k < Math.min(100, docs.length); k++) await run(docs[k]);
  globalThis.gc?.();
  htmlBytes = 0;
  const baseline = process.memoryUsage().rss;

  let parsed = 0;
  let errors = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const doc of docs) {
    try {
      parsed += await run(doc);
    } catch {
      errors++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const mb = bytes / 1e6;
  console.log(
    JSON.stringify({
      bench: `parse-${name}`,
      format,
      sites,
      feeds: docs.length,
      items: parsed,
      errors,
      mb: +mb.toFixed(1),
      seconds: +seconds.toFixed(2),
      mb_per_s: +(mb / seconds).toFixed(1),
      ...(htmlBytes ? { html_mb: +(htmlBytes / 1e6).toFixed(1), html_mb_per_s: +(htmlBytes / 1e6 / seconds).toFixed(1) } : {}),
      items_per_s: Math.round(parsed / seconds),
      feeds_per_s: Math.round(docs.length / seconds),
      // CPU time of the process (all its threads, garbage collection included): what a busy machine does not move.
      cpu_ms_per_feed: +((cpu.user + cpu.system) / 1000 / docs.length).toFixed(2),
      rss_baseline_mb: Math.round(baseline / 1e6),
      peak_rss_mb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
    }),
  );
  if (errors) process.exitCode = 1;
}
