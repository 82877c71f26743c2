import { createHash } from 'node:crypto';
import { decodeBody } from '../parse/encoding.js';
import { parseFeed } from '../parse/index.js';
import type { FeedSummary, FetchedBody, ScannedPage } from './index.js';
import { scanHtml } from './html.js';
import { channelIdFromPage } from './youtube.js';

/**
 * Discovery's parsing of fetched bodies, run on the worker pool (refresh/pool-jobs.ts) or inline (index.ts
 * inlineParsers). Apart from index.ts so that the main thread, which runs discovery, never loads the parser.
 */

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
