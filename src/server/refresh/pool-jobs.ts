import type { OpmlDocument } from '../opml/opml.parse.js';
import type { FeedSummary, FetchedBody, ScannedPage } from '../reader/discover/index.js';
import type { ExtractedArticle } from '../reader/extract/index.js';
import type { DocumentInput, StoredDocument } from './process-document.js';

/**
 * The kinds of work the worker pool (document-pool.ts) runs: every parse of untrusted bytes whose cost grows with
 * them (docs/ARCHITECTURE.md "Rules" 15; docs/decisions.md "Worker pool"). Each kind names its input and output; both are
 * plain data, copied between threads.
 *   document  a fetched feed for the refresh: parse, identify, sanitise (process-document.ts)
 *   extract   an article page for POST /api/extract-article-content: Readability (reader/extract)
 *   feed      a feed found by discovery: its title and site (reader/discover)
 *   page      an HTML page for discovery and the icon finder: its links and metas (reader/discover/html.ts)
 *   opml      an uploaded OPML file (opml/opml.parse.ts)
 *   svg       an SVG site icon, sanitised (reader/sanitize/svg.ts; at most 256 KB, reader/icon)
 */
export interface PoolJobs {
  document: { input: DocumentInput; output: StoredDocument };
  extract: { input: FetchedBody; output: ExtractedArticle | null };
  feed: { input: FetchedBody; output: FeedSummary };
  page: { input: FetchedBody; output: ScannedPage };
  opml: { input: Uint8Array; output: OpmlDocument };
  svg: { input: string; output: string | null };
}
export type JobKind = keyof PoolJobs;
export type JobInput<K extends JobKind> = PoolJobs[K]['input'];
export type JobOutput<K extends JobKind> = PoolJobs[K]['output'];

/**
 * How long one job may run on its worker before the worker is ended and replaced and the job fails with a clear
 * error (document-pool.ts tooMuch). Generous for real input (the largest article page within the extraction caps
 * takes about 3 s on one core, a 5 MB OPML file about 1 s), short enough that a hostile document cannot hold a
 * worker for long: a request waits at most this long once its job runs. Documents get more: a refresh is not
 * waited for by a person, and a big feed is parsed and all its new items sanitised in one job.
 */
export const JOB_TIME_LIMIT_MS: Readonly<Record<JobKind, number>> = {
  document: 20_000,
  extract: 10_000,
  feed: 10_000,
  page: 10_000,
  opml: 10_000,
  svg: 10_000,
};

/**
 * Runs one job on the calling thread: the worker's side of the pool, and the refresh engine's inline mode
 * (REFRESH_PARSE_THREADS=0). Each kind's code is loaded on its first job, so a worker that only ever parses feeds
 * does not carry linkedom and Readability (bench/README.md "Budgets" memory budget).
 */
export async function runJob<K extends JobKind>(kind: K, input: JobInput<K>): Promise<JobOutput<K>> {
  return await handlers[kind](input);
}

type Handlers = { [K in JobKind]: (input: JobInput<K>) => Promise<JobOutput<K>> };

const handlers: Handlers = {
  document: async (input) => (await import('./process-document.js')).processDocument(input),
  extract: async ({ body, url, contentType }) => {
    const [{ extractArticle }, { decodeBody }] = await Promise.all([import('../reader/extract/index.js'), import('../reader/parse/encoding.js')]);
    return extractArticle(decodeBody(body, contentType), url);
  },
  feed: async (input) => (await import('../reader/discover/parsers.js')).summariseFeed(input),
  page: async (input) => (await import('../reader/discover/parsers.js')).scanPage(input),
  opml: async (input) => (await import('../opml/opml.parse.js')).parseOpmlFile(Buffer.from(input.buffer, input.byteOffset, input.byteLength)),
  svg: async (input) => (await import('../reader/sanitize/svg.js')).sanitizeSvg(input),
};
