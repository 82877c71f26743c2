// A local feed server for benchmarks and tests: `startFeedServer({ feeds, items, format })` serves /feed/<i>.xml,
// realistic RSS 2.0 or Atom 1.0 documents generated from a seed, so every run sees the same bytes. Documents are
// generated once at start and kept as Buffers (with their gzip form when asked), so the server does little more
// than write memory to a socket and is not what a refresh benchmark measures. Each feed has a strong ETag and a
// Last-Modified date and is answered 304 to a matching conditional GET (RFC 9110 §13.1.2, §13.1.3), which is
// what the budget "≥ 2,000 feeds/s when the server answers 304" (bench/README.md "Budgets") exercises.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

/** Small, fast, seedable PRNG (mulberry32): deterministic documents without a dependency. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the of and to in is that for it as was with be by on not he this are or his from at which but have an they you ' +
  'were her she there been one all we their has would when if so no will more about up out who them some could ' +
  'feed reader article server update release version performance design privacy browser network storage query ' +
  'garden coffee travel recipe weather history science music library season river mountain city morning evening ' +
  'quickly carefully simple modern quiet bright useful careful gentle honest curious patient sudden steady'
).split(' ');
const NAMES = [
  'Ada Lovelace',
  'Grace Hopper',
  'Alan Turing',
  'Barbara Liskov',
  'Edsger Dijkstra',
  'Frances Allen',
  'Donald Knuth',
  'Margaret Hamilton',
  'Ken Thompson',
  'Radia Perlman',
];
/** Fixed "now" of the generated world, so dates never depend on when the benchmark runs. */
const EPOCH = Date.UTC(2026, 10, 1, 12, 0, 0);

function escapeXml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function words(r, n) {
  let s = '';
  for (let k = 0; k < n; k++) s += (k ? ' ' : '') + WORDS[Math.floor(r() * WORDS.length)];
  return s;
}

function sentence(r) {
  const s = words(r, 8 + Math.floor(r() * 10));
  return s[0].toUpperCase() + s.slice(1) + '.';
}

function paragraph(r, sentences) {
  let p = '';
  for (let k = 0; k < sentences; k++) p += (k ? ' ' : '') + sentence(r);
  return p;
}

/**
 * Item HTML as blogs publish it, about 1–2 KB: text paragraphs with inline markup, a figure, a link with campaign
 * parameters, a relative link, and on a third of the feeds a FeedBurner tracking pixel.
 */
function itemHtml(r, i, j, site) {
  let html = `<p>${paragraph(r, 3 + Math.floor(r() * 3))} <em>${words(r, 3)}</em> ${paragraph(r, 1)}</p>`;
  html += `<figure><img src="https://img.site${i}.example/${j}/photo.jpg?w=800&amp;utm_source=rss" alt="${words(r, 4)}" width="800" height="450" class="wp-image-${j}"><figcaption>${words(r, 6)}</figcaption></figure>`;
  html += `<p>${paragraph(r, 2 + Math.floor(r() * 4))} <a href="${site}/posts/${j}?utm_source=rss&amp;utm_medium=feed">${words(r, 3)}</a>, <a href="/tags/${WORDS[j % WORDS.length]}">${words(r, 2)}</a>.</p>`;
  if (i % 3 === 0) html += `<img src="https://feeds.feedburner.com/~r/site${i}/~4/${j}" height="1" width="1" alt="">`;
  return html;
}

function feedTitle(r, i) {
  const t = words(r, 2 + Math.floor(r() * 3));
  return `${t[0].toUpperCase()}${t.slice(1)} & ${WORDS[i % WORDS.length]} — blog ${i}`;
}

/**
 * Generation g of a feed (startFeedServer's setGeneration) is the same feed g × GENERATION_MS later with `items` new
 * posts: other text, ids and links, newer dates. Generation 0 is the documents as they always were.
 */
const GENERATION_MS = 50 * 3_600_000;
const postId = (g, j) => (g === 0 ? `${j}` : `g${g}-${j}`);

function rss(i, items, selfUrl, site, g = 0) {
  const r = rng(i * 7919 + 1 + g * 104_729);
  const epoch = EPOCH + g * GENERATION_MS;
  let x = '<?xml version="1.0" encoding="UTF-8"?>\n';
  x += '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n';
  x += `<title>${escapeXml(feedTitle(r, i))}</title>\n<link>${site}/</link>\n<description>${escapeXml(sentence(r))}</description>\n`;
  x += `<language>en</language>\n<lastBuildDate>${new Date(epoch - i * 60_000).toUTCString()}</lastBuildDate>\n`;
  x += `<atom:link href="${escapeXml(selfUrl)}" rel="self" type="application/rss+xml"/>\n<ttl>60</ttl>\n`;
  for (let j = 0; j < items; j++) {
    const title = sentence(r).slice(0, -1);
    x += '<item>\n';
    x += `<title>${escapeXml(title)}</title>\n<link>${site}/posts/${postId(g, j)}</link>\n`;
    x += `<guid isPermaLink="false">site${i}-post-${postId(g, j)}</guid>\n`;
    x += `<pubDate>${new Date(epoch - i * 60_000 - j * 3_600_000).toUTCString()}</pubDate>\n`;
    x += `<dc:creator>${NAMES[(i + j) % NAMES.length]}</dc:creator>\n`;
    x += `<description><![CDATA[${itemHtml(r, i, j, site)}]]></description>\n`;
    x += '</item>\n';
  }
  return x + '</channel>\n</rss>\n';
}

function atom(i, items, selfUrl, site, g = 0) {
  const r = rng(i * 7919 + 1 + g * 104_729);
  const epoch = EPOCH + g * GENERATION_MS;
  let x = '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n';
  x += `<title>${escapeXml(feedTitle(r, i))}</title>\n<subtitle>${escapeXml(sentence(r))}</subtitle>\n`;
  x += `<link href="${site}/" rel="alternate" type="text/html"/>\n<link href="${escapeXml(selfUrl)}" rel="self" type="application/atom+xml"/>\n`;
  x += `<id>urn:feeder-bench:site${i}</id>\n<updated>${new Date(epoch - i * 60_000).toISOString()}</updated>\n`;
  for (let j = 0; j < items; j++) {
    const title = sentence(r).slice(0, -1);
    const date = new Date(epoch - i * 60_000 - j * 3_600_000).toISOString();
    x += '<entry>\n';
    x += `<title>${escapeXml(title)}</title>\n<link href="${site}/posts/${postId(g, j)}" rel="alternate" type="text/html"/>\n`;
    x += `<id>urn:feeder-bench:site${i}:post:${postId(g, j)}</id>\n<published>${date}</published>\n<updated>${date}</updated>\n`;
    x += `<author><name>${NAMES[(i + j) % NAMES.length]}</name></author>\n`;
    // Atom's type="html" content is entity-escaped (RFC 4287 §3.1.1.2), the other common way besides CDATA.
    x += `<content type="html">${escapeXml(itemHtml(r, i, j, site))}</content>\n`;
    x += '</entry>\n';
  }
  return x + '</feed>\n';
}

/** The format of feed i: 'mixed' alternates RSS (even) and Atom (odd). */
export function formatOf(i, format) {
  return format === 'mixed' ? (i % 2 === 0 ? 'rss' : 'atom') : format;
}

/**
 * Feed i's own host on the loopback range (127.0.x.y) with a port: the refresh benchmark gives every feed one, so the
 * per-host limit does not serialise the run, and the parse benchmark's --sites=loopback writes the same sites.
 */
export const loopbackHost = (i, port) => `127.0.${Math.floor(i / 250)}.${(i % 250) + 1}:${port}`;

/** The site a feed belongs to (its channel link, item links, images): an unresolvable name by default. */
const defaultSite = (i) => `https://site${i}.example`;

/**
 * One generated feed document. `url` is the URL the document names as its own (rel="self"); the server passes its
 * real address, benchmarks without HTTP the default.
 */
export function generateFeed(i, { items = 50, format = 'rss', url = `http://127.0.0.1/feed/${i}.xml`, site = defaultSite(i), generation = 0 } = {}) {
  const f = formatOf(i, format);
  if (f !== 'rss' && f !== 'atom') throw new Error(`unknown feed format: ${format}`);
  const body = Buffer.from(f === 'rss' ? rss(i, items, url, site, generation) : atom(i, items, url, site, generation), 'utf8');
  const contentType = f === 'rss' ? 'application/rss+xml; charset=utf-8' : 'application/atom+xml; charset=utf-8';
  return { body, format: f, contentType, url, items };
}

/** Whether an If-None-Match header matches the ETag (weak comparison, as RFC 9110 §13.1.2 requires for GET). */
function etagMatches(header, etag) {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Starts the server on a free port. Options: feeds (count), items (per feed, or (i) => feed i's count), format ('rss'
 * | 'atom' | 'mixed'), gzip (also keep a gzip copy and send it to clients that accept it), host (default 127.0.0.1; '0.0.0.0' lets a
 * benchmark give every feed its own loopback address, 127.0.x.y, as distinct hosts), site ((i, port) => origin of
 * feed i's site; default an unresolvable https://site<i>.example — a refresh benchmark points it at this server so
 * icon look-ups are answered locally instead of waiting on DNS). Returns { port, url(i),
 * setGeneration(g), close(), requests, notModified, bytes }; url(i) is on 127.0.0.1, and the counters are live: requests answered,
 * 304s among them, body bytes sent. onRequest (optional) is called synchronously as each request arrives (a refresh
 * benchmark reads the client's CPU time at its first request).
 */
export async function startFeedServer({ feeds = 2000, items = 50, format = 'rss', gzip = false, host = '127.0.0.1', site = null, onRequest = null } = {}) {
  const server = createServer({ keepAlive: true });
  // Idle keep-alive connections stay open for a whole refresh round instead of Node's 5 s default.
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const port = server.address().port;
  const url = (i) => `http://127.0.0.1:${port}/feed/${i}.xml`;

  /** Every feed's document of generation g (generateFeed), with its validators. */
  const generate = (g) => {
    const out = new Array(feeds);
    for (let i = 0; i < feeds; i++) {
      const count = typeof items === 'function' ? items(i) : items;
      const { body, contentType } = generateFeed(i, { items: count, format, url: url(i), site: site ? site(i, port) : defaultSite(i), generation: g });
      const modifiedMs = EPOCH + g * GENERATION_MS - i * 60_000;
      out[i] = {
        body,
        gz: gzip ? gzipSync(body, { level: 6 }) : null,
        contentType,
        etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`,
        // Second precision, as HTTP dates have: the newest item is i minutes before the generation's epoch.
        lastModified: new Date(modifiedMs).toUTCString(),
        lastModifiedMs: Math.floor(modifiedMs / 1000) * 1000,
      };
    }
    return out;
  };
  let docs = generate(0);

  const stats = { requests: 0, notModified: 0, bytes: 0 };
  server.on('request', (req, res) => {
    stats.requests++;
    if (onRequest) onRequest();
    const m = /^\/feed\/(\d+)\.xml(?:\?.*)?$/.exec(req.url ?? '');
    const doc = m ? docs[Number(m[1])] : undefined;
    if (!doc || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(doc ? 405 : 404, { 'content-type': 'text/plain' }).end(doc ? 'method not allowed' : 'not found');
      return;
    }
    const headers = { etag: doc.etag, 'last-modified': doc.lastModified, 'cache-control': 'max-age=0', vary: 'accept-encoding' };
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.2.2).
    const fresh = inm !== undefined ? etagMatches(inm, doc.etag) : ims !== undefined && Date.parse(ims) >= doc.lastModifiedMs;
    if (fresh) {
      stats.notModified++;
      res.writeHead(304, headers).end();
      return;
    }
    const useGzip = doc.gz !== null && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const body = useGzip ? doc.gz : doc.body;
    headers['content-type'] = doc.contentType;
    headers['content-length'] = body.length;
    if (useGzip) headers['content-encoding'] = 'gzip';
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    stats.bytes += body.length;
    res.end(body);
  });

  return {
    port,
    url,
    /** Serves generation g from now on (generateFeed): every feed then has `items` new posts and new validators. */
    setGeneration(g) {
      docs = generate(g);
    },
    get requests() {
      return stats.requests;
    },
    get notModified() {
      return stats.notModified;
    },
    get bytes() {
      return stats.bytes;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
