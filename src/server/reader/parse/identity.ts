/**
 * Item identity within one document (the rule is described in normalize.ts, "Identity"), and the assembly of a
 * ParsedFeed from the per-format drafts, including the display title of an untitled item.
 */
import { createHash } from 'node:crypto';
import type { Enclosure, FeedFormat, ParsedFeed, ParsedItem } from '../types.js';
import { htmlToText } from './text.js';

/** An item before identity is assigned. */
export interface ItemDraft {
  id: string | null;
  url: string | null;
  rawLink: string | null;
  title: string;
  author: string | null;
  content: string | null;
  summary: string | null;
  /** See ParsedItem.contentBase; only Atom sets it. */
  contentBase?: string | null;
  publishedAt: string | null;
  updatedAt: string | null;
  imageUrl: string | null;
  enclosures: Enclosure[];
}

const MAX_GUID_LENGTH = 1000;

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** The key of an item without its own id: its link, else its first enclosure, else null. */
function linkKey(d: ItemDraft): string | null {
  return d.url ?? d.rawLink ?? d.enclosures[0]?.url ?? null;
}

/**
 * The identity of each draft (docs/decisions.md "Feeds read right: dates, identity, fallbacks"): its own id;
 * else its link (or first enclosure) when no other id-less item of the document shares it; else, for id-less
 * items sharing a link, a hash of link, title and content, so that two articles behind one link stay two; else a
 * hash of title and content. A link that is unique in its document keeps the key it always had, so stored
 * articles keep theirs.
 */
function identities(drafts: ItemDraft[]): string[] {
  const linkCounts = new Map<string, number>();
  for (const d of drafts) {
    const key = d.id ? null : linkKey(d);
    if (key) linkCounts.set(key, (linkCounts.get(key) ?? 0) + 1);
  }
  return drafts.map((d) => {
    const body = d.content ?? d.summary ?? '';
    const key = d.id ? null : linkKey(d);
    let guid: string;
    if (d.id) guid = d.id;
    else if (key && linkCounts.get(key) === 1) guid = key;
    else if (key) guid = `sha256:${sha256(`${key}\n${d.title}\n${body}`)}`;
    else guid = `sha256:${sha256(`${d.title}\n${body}`)}`;
    return guid.length > MAX_GUID_LENGTH ? `sha256:${sha256(guid)}` : guid;
  });
}

/** Characters of the text an untitled item's display title is cut from. */
const DISPLAY_TITLE_LENGTH = 100;

/**
 * The title shown for an item that has none (as Miniflux does): the start of its text, cut at a word boundary
 * within DISPLAY_TITLE_LENGTH characters, else its URL, else "". Applied after identity, which keeps weighing
 * the empty title, so stored articles keep their keys.
 */
function displayTitle(d: ItemDraft): string {
  const text = htmlToText(d.content ?? d.summary);
  if (text !== '') {
    const chars = [...text];
    if (chars.length <= DISPLAY_TITLE_LENGTH) return text;
    const cut = chars.slice(0, DISPLAY_TITLE_LENGTH).join('');
    const space = cut.lastIndexOf(' ');
    return `${(space > DISPLAY_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
  }
  return d.url ?? d.rawLink ?? '';
}

function finishItems(drafts: ItemDraft[]): ParsedItem[] {
  const seen = new Set<string>();
  const items: ParsedItem[] = [];
  const guids = identities(drafts);
  drafts.forEach((d, i) => {
    const guid = guids[i];
    if (seen.has(guid)) return;
    seen.add(guid);
    items.push({
      guid,
      url: d.url,
      title: d.title || displayTitle(d),
      author: d.author,
      content: d.content,
      summary: d.summary,
      publishedAt: d.publishedAt,
      updatedAt: d.updatedAt,
      imageUrl: d.imageUrl,
      enclosures: d.enclosures,
      ...(d.contentBase ? { contentBase: d.contentBase } : {}),
    });
  });
  return items;
}

export function feedOf(format: FeedFormat, fields: Omit<ParsedFeed, 'format' | 'items'>, drafts: ItemDraft[]): ParsedFeed {
  return { format, ...fields, items: finishItems(drafts) };
}
