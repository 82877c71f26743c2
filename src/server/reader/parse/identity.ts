/**
 * Item identity within one document (the rule is described in normalize.ts, "Identity"), and the assembly of a
 * ParsedFeed from the per-format drafts.
 */
import { createHash } from 'node:crypto';
import type { Enclosure, FeedFormat, ParsedFeed, ParsedItem } from '../types.js';

/** An item before identity is assigned. */
export interface ItemDraft {
  id: string | null;
  url: string | null;
  rawLink: string | null;
  title: string;
  author: string | null;
  content: string | null;
  summary: string | null;
  publishedAt: string | null;
  updatedAt: string | null;
  imageUrl: string | null;
  enclosures: Enclosure[];
}

const MAX_GUID_LENGTH = 1000;

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function finishItems(drafts: ItemDraft[]): ParsedItem[] {
  const seen = new Set<string>();
  const items: ParsedItem[] = [];
  for (const d of drafts) {
    let guid =
      d.id ??
      d.url ??
      d.rawLink ??
      d.enclosures[0]?.url ??
      `sha256:${sha256(`${d.title}\n${d.content ?? d.summary ?? ''}`)}`;
    if (guid.length > MAX_GUID_LENGTH) guid = `sha256:${sha256(guid)}`;
    if (seen.has(guid)) continue;
    seen.add(guid);
    items.push({
      guid,
      url: d.url,
      title: d.title,
      author: d.author,
      content: d.content,
      summary: d.summary,
      publishedAt: d.publishedAt,
      updatedAt: d.updatedAt,
      imageUrl: d.imageUrl,
      enclosures: d.enclosures,
    });
  }
  return items;
}

export function feedOf(
  format: FeedFormat,
  fields: Omit<ParsedFeed, 'format' | 'items'>,
  drafts: ItemDraft[],
): ParsedFeed {
  return { format, ...fields, items: finishItems(drafts) };
}
