/**
 * JSON Feed 1.0 / 1.1 (https://www.jsonfeed.org/version/1.1/) → ParsedFeed (the decisions are listed in
 * normalize.ts).
 */
import type { JsonFeed } from 'feedsmith';
import type { ParsedFeed } from '../types.js';
import { type ItemDraft, feedOf } from './identity.js';
import { type NormalizeContext, MediaCollector, firstAuthor, firstDate, firstUrl, joinNames } from './shared.js';
import { collapseWhitespace, nonEmpty, textToHtml } from './text.js';

export function normalizeJson(feed: JsonFeed.Feed<string>, ctx: NormalizeContext): ParsedFeed {
  const base = ctx.url;
  const names = (authors: JsonFeed.Author[] | undefined) =>
    joinNames(
      (authors ?? []).map((a) => a.name),
      collapseWhitespace,
    );
  const feedAuthor = names(feed.authors);

  const drafts = (feed.items ?? []).map((item): ItemDraft => {
    const media = new MediaCollector(base);
    for (const a of item.attachments ?? []) {
      media.enclosure(a.url, a.mime_type, a.size_in_bytes, a.duration_in_seconds);
    }
    // JSON Feed: summary is "a plain text sentence or two"; content_text is plain text.
    const summary = item.summary ? nonEmpty(textToHtml(item.summary)) : null;
    const content = nonEmpty(item.content_html) ?? (item.content_text ? nonEmpty(textToHtml(item.content_text)) : null) ?? summary;
    return {
      id: nonEmpty(item.id),
      url: firstUrl(base, item.url, item.external_url),
      rawLink: nonEmpty(item.url ?? item.external_url),
      title: collapseWhitespace(item.title ?? ''),
      author: firstAuthor(names(item.authors), feedAuthor),
      content,
      summary,
      publishedAt: firstDate(ctx, item.date_published, item.date_modified),
      updatedAt: firstDate(ctx, item.date_modified),
      imageUrl: media.imageUrl(item.image, item.banner_image),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'json',
    {
      title: collapseWhitespace(feed.title ?? ''),
      siteUrl: firstUrl(base, feed.home_page_url),
      description: nonEmpty(collapseWhitespace(feed.description ?? '')),
      imageUrl: firstUrl(base, feed.icon, feed.favicon),
      language: nonEmpty(feed.language),
      ttlMinutes: null,
    },
    drafts,
  );
}
