/**
 * RSS 0.9x / 2.0 → ParsedFeed (the decisions are listed in normalize.ts).
 */
import type { ParsedFeed } from '../types.js';
import type { RawRss } from './raw-feed.js';
import { type ItemDraft, feedOf } from './identity.js';
import {
  type NormalizeContext,
  MediaCollector,
  atomAlternate,
  atomEnclosures,
  atomHtml,
  atomNames,
  atomText,
  first,
  firstAuthor,
  firstDate,
  firstText,
  firstUrl,
  joinNames,
  mediaDescription,
  mediaTitle,
  ttlMinutes,
} from './shared.js';
import { nonEmpty, textToHtml, textWithMarkupToText, titleToText } from './text.js';
import { resolveBase } from './urls.js';

export function normalizeRss(feed: RawRss, ctx: NormalizeContext): ParsedFeed {
  const xmlBase = feed.xml?.base;
  const docBase = resolveBase(xmlBase, ctx.url);
  const siteUrl = firstUrl(docBase, feed.link, atomAlternate(feed.atom?.links));
  // RSS has no base; relative item links mean "on the site" (see urls.ts). An explicit xml:base wins.
  const itemParentBase = xmlBase ? docBase : (siteUrl ?? ctx.url);

  const feedAuthor = firstAuthor(
    joinNames([feed.managingEditor?.name], textWithMarkupToText),
    joinNames(feed.dc?.creators ?? [], textWithMarkupToText),
    joinNames([feed.itunes?.author], textWithMarkupToText),
    atomNames(feed.atom?.authors),
  );

  const drafts = (feed.items ?? []).map((item): ItemDraft => {
    const base = resolveBase(item.xml?.base, itemParentBase);
    const media = new MediaCollector(base);
    for (const e of item.enclosures ?? []) media.enclosure(e.url, e.type, e.length, undefined);
    media.media(item.media);
    atomEnclosures(item.atom?.links, media);
    media.duration(item.itunes?.duration);

    const guid = nonEmpty(item.guid?.value);
    const atomId = nonEmpty(item.atom?.id);
    // RSS 2.0: a guid is a permalink unless isPermaLink="false".
    const permalink = guid && item.guid?.isPermaLink !== false && /^https?:\/\//i.test(guid) ? guid : undefined;
    const summary =
      nonEmpty(item.description) ??
      nonEmpty(first(item.dc?.descriptions)) ??
      (item.itunes?.summary ? textToHtml(item.itunes.summary) : null) ??
      mediaDescription(item.media) ??
      atomHtml(item.atom?.summary, false);
    const content = nonEmpty(item.content?.encoded) ?? atomHtml(item.atom?.content, false) ?? summary;
    const title =
      titleToText(firstText(item.title, first(item.dc?.titles), item.itunes?.title, mediaTitle(item.media))) || atomText(item.atom?.title, false, titleToText);

    return {
      id: guid ?? atomId,
      url: firstUrl(base, item.link, atomAlternate(item.atom?.links), permalink),
      rawLink: nonEmpty(item.link),
      title,
      author: firstAuthor(
        joinNames(
          (item.authors ?? []).map((a) => a.name),
          textWithMarkupToText,
        ),
        joinNames(item.dc?.creators ?? [], textWithMarkupToText),
        joinNames([item.itunes?.author], textWithMarkupToText),
        atomNames(item.atom?.authors),
        feedAuthor,
      ),
      content,
      summary,
      publishedAt: firstDate(
        ctx,
        item.pubDate,
        first(item.dc?.dates),
        first(item.dcterms?.issued),
        first(item.dcterms?.created),
        item.atom?.published,
        item.atom?.updated,
        first(item.dcterms?.modified),
      ),
      updatedAt: firstDate(ctx, item.atom?.updated, first(item.dcterms?.modified)),
      imageUrl: media.imageUrl(item.itunes?.image),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'rss',
    {
      title: titleToText(firstText(feed.title, feed.itunes?.title, first(feed.dc?.titles))),
      siteUrl,
      description: nonEmpty(textWithMarkupToText(feed.description ?? feed.itunes?.summary ?? feed.itunes?.subtitle)),
      imageUrl: firstUrl(itemParentBase, feed.image?.url, feed.itunes?.image, first(feed.media?.thumbnails)?.url),
      language: nonEmpty(feed.language ?? first(feed.dc?.languages)),
      ttlMinutes: ttlMinutes(feed.ttl, feed.sy),
    },
    drafts,
  );
}
