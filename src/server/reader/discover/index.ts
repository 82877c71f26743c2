import type { Fetcher } from '../fetch/index.js';
import { looksLikeFeed } from '../parse/looks-like-feed.js';
import { ReaderError, type DiscoveredFeed, type FetchResult } from '../types.js';
import type { PageInfo } from './html.js';
import type { FeedSummary, FetchedBody, ScannedPage } from './parsers.js';
import { normalizeInput, schemeAssumed } from './input.js';
import { channelFeedUrl, isYouTubeUrl, youtubeFeedUrl } from './youtube.js';

/**
 * Feed discovery for the add-feed search (dashboard.md §3): from whatever the user typed to a list of feeds.
 *   1. The URL is a feed itself → that feed.
 *   2. An HTML page → its <link rel="alternate"> feeds (the RSS/Atom autodiscovery convention, also in the HTML
 *      standard's "alternate" + type link semantics), in document order.
 *   3. Nothing linked → the usual feed paths of blog engines on the same origin, probed a few at a time.
 * YouTube channel and playlist URLs map straight to YouTube's feed URLs; handle pages are read for the channel id.
 */

/** The add-feed list shows at most this many. */
const MAX_RESULTS = 20;
/** Requests in flight at once while probing paths or looking up titles: quick, but no burst against one site. */
const CONCURRENCY = 4;
/** Probes and title look-ups share this budget, so an unresponsive site cannot keep the search open for minutes. */
const SECONDARY_BUDGET_MS = 15_000;

const FEED_LINK_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json', 'application/json', 'application/rdf+xml']);

/**
 * Where blog engines put their feeds: WordPress (/feed, /feed/, /?feed=rss2), Ghost (/rss/), Hugo (/index.xml),
 * Jekyll (/feed.xml), Blogger (/feeds/posts/default), Zola/Eleventy (/atom.xml, /rss.xml), Django (/rss/index.xml).
 */
const COMMON_PATHS = ['/feed', '/rss', '/atom.xml', '/feed.xml', '/index.xml', '/rss.xml', '/feed/', '/atom', '/rss/index.xml', '/feeds/posts/default', '/?feed=rss2'];
/** Tried relative to a section page ("example.com/blog/") before the origin-wide paths. */
const SECTION_PATHS = ['feed/', 'index.xml', 'rss', 'atom.xml', 'feed.xml'];

export type { FeedSummary, FetchedBody, ScannedPage } from './parsers.js';

/**
 * Where discovery parses what it fetches. Fetched bodies are untrusted and their parse cost grows with them, so
 * the server passes its worker pool (docs/decisions.md "Worker pool"; docs/ARCHITECTURE.md "Rules" 15); `inlineParsers` are the
 * same functions on the calling thread, for the pipeline's own tests and the worker itself.
 */
export interface DiscoveryParsers {
  feed(fetched: FetchedBody): Promise<FeedSummary>;
  page(fetched: FetchedBody): Promise<ScannedPage>;
}

/**
 * The parsers on the calling thread (tests, the CLI). The parser itself (parsers.ts: the feed parser) is
 * loaded on first use: the server's main thread only ever runs them on the worker pool (refresh/pool-jobs.ts).
 */
export const inlineParsers: DiscoveryParsers = {
  feed: async (fetched) => (await import('./parsers.js')).summariseFeed(fetched),
  page: async (fetched) => (await import('./parsers.js')).scanPage(fetched),
};

interface FoundFeed {
  url: string;
  title: string;
  siteUrl: string | null;
  /** Hash of the body, so one feed served under several paths (/feed, /feed/, /?feed=rss2) is listed once. */
  digest: string;
}

export async function discoverFeeds(input: string, fetcher: Fetcher, parsers: DiscoveryParsers): Promise<DiscoveredFeed[]> {
  let start = normalizeInput(input);

  const youtube = youtubeFeedUrl(start);
  if (youtube) {
    const feed = await readFeed(await fetcher.fetch(youtube), youtube, parsers);
    if (!feed) throw noFeed(start);
    return [toResult(feed, originFavicon(feed.siteUrl ?? 'https://www.youtube.com/'))];
  }

  // The first request's failures (DNS, refused, 404, …) are what the user needs to hear, so they propagate.
  let first: FetchResult;
  try {
    first = await fetcher.fetch(start.href);
  } catch (err) {
    // Typed without a scheme, https was assumed; a site that has no TLS at all (a home server, an old blog)
    // refuses or fails the handshake, and is tried once more over http.
    if (!(err instanceof ReaderError && err.code === 'FETCH_CONNECTION' && schemeAssumed(input))) throw err;
    start = new URL(`http:${start.href.slice('https:'.length)}`);
    first = await fetcher.fetch(start.href);
  }
  const firstUrl = subscribeUrl(first, start.href);
  if (first.status === 'ok' && looksLikeFeed(first.body, first.contentType)) {
    const feed = await parsed(first, firstUrl, parsers);
    return [toResult(feed, originFavicon(feed.siteUrl ?? firstUrl))];
  }

  const deadline = AbortSignal.timeout(SECONDARY_BUDGET_MS);
  const page: ScannedPage = first.status === 'ok' ? await parsers.page(first) : { links: [], title: '', meta: new Map(), channelId: null };
  const favicon = pageFavicon(page, first.url);

  const fromYouTube = youtubeFromPage(page, first.url);
  if (fromYouTube) return [{ ...fromYouTube, favicon_url: favicon }];

  const linked = await linkedFeeds(page, fetcher, parsers, deadline);
  if (linked.length > 0) return linked.map((f) => ({ ...f, favicon_url: favicon }));

  const probed = await probeCommonPaths(new URL(first.url), fetcher, parsers, deadline);
  if (probed.length > 0) return probed.map((f) => toResult(f, favicon));

  throw noFeed(start);
}

function noFeed(url: URL): ReaderError {
  return new ReaderError('DISCOVER_NO_FEED', `No feed was found at or around ${url.host}`);
}

/** The URL to subscribe to: where a permanent redirect chain ended, else what was asked for (RFC 9110 §15.4). */
function subscribeUrl(result: FetchResult, requested: string): string {
  return result.permanentUrl ?? requested;
}

async function parsed(result: FetchResult & { status: 'ok' }, url: string, parsers: DiscoveryParsers): Promise<FoundFeed> {
  return { url, ...(await parsers.feed(result)) };
}

/** The feed behind a fetch result, or null when the body is not a feed. */
async function readFeed(result: FetchResult, requested: string, parsers: DiscoveryParsers): Promise<FoundFeed | null> {
  if (result.status !== 'ok' || !looksLikeFeed(result.body, result.contentType)) return null;
  return parsed(result, subscribeUrl(result, requested), parsers);
}

/** Fetches and parses a candidate; any failure just means "not a feed here". */
async function tryFeed(url: string, fetcher: Fetcher, parsers: DiscoveryParsers, signal: AbortSignal): Promise<FoundFeed | null> {
  try {
    return await readFeed(await fetcher.fetch(url, { signal }), url, parsers);
  } catch {
    return null;
  }
}

function toResult(feed: FoundFeed, favicon: string | null): DiscoveredFeed {
  return { title: feed.title || hostOf(feed.url), url: feed.url, favicon_url: favicon };
}

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

function originFavicon(url: string): string | null {
  try {
    const parsedUrl = new URL(url);
    if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') return null;
    return `${parsedUrl.origin}/favicon.ico`;
  } catch {
    return null;
  }
}

/** The page's declared icon (rel="icon", "shortcut icon", then apple-touch-icon), else /favicon.ico. */
function pageFavicon(page: PageInfo, pageUrl: string): string | null {
  const httpLinks = page.links.filter((l) => !l.href.startsWith('data:'));
  const icon =
    httpLinks.find((l) => l.rel.includes('icon')) ?? httpLinks.find((l) => l.rel.includes('apple-touch-icon') || l.rel.includes('apple-touch-icon-precomposed'));
  return icon?.href ?? originFavicon(pageUrl);
}

/**
 * A YouTube channel page (or a page whose canonical URL is one): its feed, titled with the channel name. The
 * page's own alternate link is titled just "RSS", so the title comes from og:title / <title>.
 */
function youtubeFromPage(page: ScannedPage, pageUrl: string): Omit<DiscoveredFeed, 'favicon_url'> | null {
  const canonical = page.links.find((l) => l.rel.includes('canonical'))?.href ?? page.meta.get('og:url') ?? null;
  const canonicalUrl = canonical ? safeUrl(canonical) : null;
  const onYouTube = isYouTubeUrl(new URL(pageUrl)) || (canonicalUrl !== null && isYouTubeUrl(canonicalUrl));
  if (!onYouTube) return null;
  const linked = page.links.find((l) => l.rel.includes('alternate') && /\/feeds\/videos\.xml\?/.test(l.href))?.href;
  const id = page.channelId;
  const url = linked ?? (canonicalUrl ? youtubeFeedUrl(canonicalUrl) : null) ?? (id ? channelFeedUrl(id) : null) ?? youtubeFeedUrl(new URL(pageUrl));
  if (!url) return null;
  const title = page.meta.get('og:title') || page.meta.get('name') || page.title.replace(/\s+-\s+YouTube$/, '');
  return { title: title || 'YouTube', url };
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** <link rel="alternate" type="…feed type…">, deduplicated, in document order, titled. */
async function linkedFeeds(page: PageInfo, fetcher: Fetcher, parsers: DiscoveryParsers, signal: AbortSignal): Promise<Omit<DiscoveredFeed, 'favicon_url'>[]> {
  const seen = new Set<string>();
  const candidates = page.links.filter((link) => {
    if (!link.rel.includes('alternate') || !FEED_LINK_TYPES.has(link.type) || link.href.startsWith('data:')) {
      return false;
    }
    const key = link.href.replace(/#.*$/, '');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  const resolved = await mapLimit(candidates.slice(0, MAX_RESULTS), CONCURRENCY, async (link) => {
    // application/json alternates are usually not feeds (WordPress links its REST API this way on every page),
    // so those are kept only when the document turns out to be a JSON Feed.
    const mustVerify = link.type === 'application/json';
    if (link.title && !mustVerify) return { title: link.title, url: link.href };
    const feed = await tryFeed(link.href, fetcher, parsers, signal);
    if (!feed) return mustVerify ? null : { title: hostOf(link.href), url: link.href };
    return { title: link.title || feed.title || hostOf(link.href), url: link.href };
  });
  return resolved.filter((f): f is NonNullable<typeof f> => f !== null);
}

/** The usual feed locations on the page's origin (and under its section path), kept when they parse as feeds. */
async function probeCommonPaths(pageUrl: URL, fetcher: Fetcher, parsers: DiscoveryParsers, signal: AbortSignal): Promise<FoundFeed[]> {
  const urls: string[] = [];
  const add = (url: string) => {
    if (!urls.includes(url)) urls.push(url);
  };
  const section = pageUrl.pathname.replace(/[^/]*$/, '');
  if (section !== '/') {
    for (const path of SECTION_PATHS) add(new URL(path, `${pageUrl.origin}${section}`).href);
  }
  for (const path of COMMON_PATHS) add(new URL(path, pageUrl.origin).href);

  const found = await mapLimit(urls, CONCURRENCY, (url) => tryFeed(url, fetcher, parsers, signal));
  const digests = new Set<string>();
  const urlsSeen = new Set<string>();
  const feeds: FoundFeed[] = [];
  for (const feed of found) {
    if (!feed || digests.has(feed.digest) || urlsSeen.has(feed.url)) continue;
    digests.add(feed.digest);
    urlsSeen.add(feed.url);
    feeds.push(feed);
  }
  return feeds.slice(0, MAX_RESULTS);
}

/** Runs fn over items with at most `limit` in flight; results keep the order of items. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
