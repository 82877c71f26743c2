import { createHash } from 'node:crypto';
import { decodeBody } from '../parse/encoding.js';
import { parseFeed } from '../parse/index.js';
import { scanHtml, type PageInfo } from './html.js';
import { channelIdFromPage } from './youtube.js';

/**
 * Discovery's parsing of fetched bodies, run on the worker pool (refresh/pool-jobs.ts) or inline (index.ts
 * inlineParsers). Apart from index.ts so that the main thread, which runs discovery, never loads the parser.
 */

/** What discovery fetched and hands to a parser: the bytes, where they came from, their declared type. */
export interface FetchedBody {
  body: Uint8Array;
  url: string;
  contentType: string | null;
}

/** A fetched feed, reduced to what the add-feed list shows (title, site) and a hash of its bytes. */
export interface FeedSummary {
  title: string;
  siteUrl: string | null;
  digest: string;
}

/** A fetched HTML page: its links, title and metas, and the YouTube channel id its scripts mention, if any. */
export interface ScannedPage extends PageInfo {
  channelId: string | null;
}

/** Throws ReaderError (PARSE_*) when the body is not a feed. */
export function summariseFeed({ body, url, contentType }: FetchedBody): FeedSummary {
  const feed = parseFeed(body, { url, contentType });
  return { title: feed.title, siteUrl: feed.siteUrl, digest: createHash('sha1').update(body).digest('hex') };
}

export function scanPage({ body, url, contentType }: FetchedBody): ScannedPage {
  const html = decodeBody(body, contentType);
  const page = scanHtml(html, url);
  return { ...page, channelId: channelIdFromPage(html, page.meta) };
}
