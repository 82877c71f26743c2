import { shownFeedTitle } from '../../feeds/feeds.presenter.js';
import type { Enclosure } from '../../reader/types.js';
import type { ArticleText, StreamRef } from './greader.repository.js';
import { LABEL_PREFIX, READ, READING_LIST, STARRED, longItemId, toMsecString, toSeconds, toUsecString } from './protocol.js';

/**
 * Items as Google Reader clients read them, in FreshRSS's shape (apis/greader/README.md "Items"): the long item
 * id, crawl time in msec and usec as strings, published and updated in seconds, the article's whole text in
 * summary.content, its link in canonical and alternate, and the state and label of the item as categories.
 */
export interface GReaderItem {
  id: string;
  crawlTimeMsec: string;
  timestampUsec: string;
  published: number;
  updated: number;
  title: string;
  canonical: { href: string }[];
  alternate: { href: string; type: string }[];
  categories: string[];
  origin: { streamId: string; title: string; htmlUrl: string };
  summary: { direction: 'ltr'; content: string };
  author?: string;
  enclosure?: { href: string; type: string; length?: number }[];
}

/** An item's row: the user's state of it and its article's text, as greader.repository reads it. */
export type ItemRow = StreamRef & ArticleText;

/** What an item shows of its feed: the user's subscription to it. */
export interface ItemFeed {
  title: string;
  custom_title: string | null;
  site_url: string | null;
  folder_name: string | null;
}

export function presentItem(row: ItemRow, feed: ItemFeed): GReaderItem {
  const categories = [READING_LIST];
  if (feed.folder_name !== null) categories.push(LABEL_PREFIX + feed.folder_name);
  if (row.is_read === 1) categories.push(READ);
  if (row.is_favorite === 1) categories.push(STARRED);
  const links = row.url ? [{ href: row.url }] : [];
  const item: GReaderItem = {
    id: longItemId(row.article_id),
    crawlTimeMsec: toMsecString(row.crawled_at),
    timestampUsec: toUsecString(row.crawled_at),
    published: toSeconds(row.published_at),
    updated: toSeconds(row.updated_at ?? row.published_at),
    title: row.title,
    canonical: links,
    alternate: links.map((l) => ({ href: l.href, type: 'text/html' })),
    categories,
    origin: { streamId: `feed/${row.feed_id}`, title: shownFeedTitle(feed.custom_title, feed.title), htmlUrl: feed.site_url ?? '' },
    summary: { direction: 'ltr', content: row.content ?? row.summary ?? '' },
  };
  if (row.author) item.author = row.author;
  const enclosures = parseEnclosures(row.enclosures);
  if (enclosures.length > 0) {
    item.enclosure = enclosures.map((e) => ({ href: e.url, type: e.type ?? 'application/octet-stream', ...(e.length !== null ? { length: e.length } : {}) }));
  }
  return item;
}

function parseEnclosures(json: string | null): Enclosure[] {
  if (!json) return [];
  try {
    const list = JSON.parse(json) as Enclosure[];
    return Array.isArray(list) ? list.filter((e) => e && typeof e.url === 'string') : [];
  } catch {
    return [];
  }
}

const xmlEscape = (s: string) =>
  // eslint-disable-next-line no-control-regex -- deliberate: drops the characters XML 1.0 forbids in text (§2.2)
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');

const CATEGORY_LABELS: Record<string, string> = { [READING_LIST]: 'reading-list', [READ]: 'read', [STARRED]: 'starred' };

/**
 * The older Atom form of a stream (`/reader/atom/<streamId>`), as Google served it: an Atom 1.0 feed (RFC 4287)
 * with the gr: extensions clients read: gr:continuation, each entry's gr:crawl-timestamp-msec, its state as
 * categories in the Google Reader scheme, and its feed as the entry's source with gr:stream-id.
 */
export function presentAtom(o: { streamId: string; title: string; selfUrl: string; updated: Date; items: GReaderItem[]; continuation?: string }): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:gr="http://www.google.com/schemas/reader/atom/" xmlns:idx="urn:atom-extension:indexing" idx:index="no">',
    `<generator uri="https://github.com/feeder">Feeder</generator>`,
    `<id>tag:google.com,2005:reader/${xmlEscape(o.streamId)}</id>`,
    `<title>${xmlEscape(o.title)}</title>`,
    `<link rel="self" href="${xmlEscape(o.selfUrl)}"/>`,
    `<updated>${o.updated.toISOString()}</updated>`,
  ];
  if (o.continuation !== undefined) lines.push(`<gr:continuation>${xmlEscape(o.continuation)}</gr:continuation>`);
  for (const item of o.items) {
    lines.push(`<entry gr:crawl-timestamp-msec="${item.crawlTimeMsec}">`);
    lines.push(`<id gr:original-id="${xmlEscape(item.canonical[0]?.href ?? item.id)}">${item.id}</id>`);
    for (const c of item.categories) {
      const label = CATEGORY_LABELS[c] ?? (c.startsWith(LABEL_PREFIX) ? c.slice(LABEL_PREFIX.length) : c);
      lines.push(`<category term="${xmlEscape(c)}" scheme="http://www.google.com/reader/" label="${xmlEscape(label)}"/>`);
    }
    // Titles are plain text (the parser decoded them): sent as Atom's default text type, escaped once, so "Rust & Go"
    // reads as itself. As type="html" the client would decode "&amp;" once more and drop the "&" (newsboat did).
    lines.push(`<title type="text">${xmlEscape(item.title)}</title>`);
    lines.push(`<published>${new Date(item.published * 1000).toISOString()}</published>`);
    lines.push(`<updated>${new Date(item.updated * 1000).toISOString()}</updated>`);
    for (const l of item.alternate) lines.push(`<link rel="alternate" href="${xmlEscape(l.href)}" type="text/html"/>`);
    for (const e of item.enclosure ?? []) {
      lines.push(`<link rel="enclosure" href="${xmlEscape(e.href)}" type="${xmlEscape(e.type)}"${e.length !== undefined ? ` length="${e.length}"` : ''}/>`);
    }
    lines.push(`<summary${item.origin.htmlUrl ? ` xml:base="${xmlEscape(item.origin.htmlUrl)}"` : ''} type="html">${xmlEscape(item.summary.content)}</summary>`);
    lines.push(`<author><name>${xmlEscape(item.author ?? '')}</name></author>`);
    lines.push(
      `<source gr:stream-id="${xmlEscape(item.origin.streamId)}"><id>tag:google.com,2005:reader/${xmlEscape(item.origin.streamId)}</id>` +
        `<title type="text">${xmlEscape(item.origin.title)}</title>${item.origin.htmlUrl ? `<link rel="alternate" href="${xmlEscape(item.origin.htmlUrl)}" type="text/html"/>` : ''}</source>`,
    );
    lines.push('</entry>');
  }
  lines.push('</feed>');
  return lines.join('\n') + '\n';
}
