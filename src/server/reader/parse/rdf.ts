/**
 * RSS 1.0 / 0.90 (RDF) → ParsedFeed (the decisions are listed in normalize.ts).
 */
import type { ParsedFeed } from '../types.js';
import type { RawRdf } from './raw-feed.js';
import { type ItemDraft, feedOf } from './identity.js';
import { type NormalizeContext, MediaCollector, first, firstAuthor, firstDate, firstText, firstUrl, joinNames, mediaDescription, ttlMinutes } from './shared.js';
import { nonEmpty, textWithMarkupToText, titleToText } from './text.js';
import { resolveBase } from './urls.js';

export function normalizeRdf(feed: RawRdf, ctx: NormalizeContext): ParsedFeed {
  const xmlBase = feed.xml?.base;
  const docBase = resolveBase(xmlBase, ctx.url);
  const siteUrl = firstUrl(docBase, feed.link, feed.rdf?.about);
  const itemParentBase = xmlBase ? docBase : (siteUrl ?? ctx.url);
  const feedAuthor = joinNames(feed.dc?.creators ?? [], textWithMarkupToText);

  const drafts = (feed.items ?? []).map((item): ItemDraft => {
    const base = resolveBase(item.xml?.base, itemParentBase);
    const media = new MediaCollector(base);
    media.media(item.media);
    const summary = nonEmpty(item.description) ?? nonEmpty(first(item.dc?.descriptions)) ?? mediaDescription(item.media);
    return {
      // rdf:about is the item's URI, its identity in RDF (RSS 1.0 §5.5).
      id: nonEmpty(item.rdf?.about),
      url: firstUrl(base, item.link, item.rdf?.about),
      rawLink: nonEmpty(item.link),
      title: titleToText(firstText(item.title, first(item.dc?.titles))),
      author: firstAuthor(joinNames(item.dc?.creators ?? [], textWithMarkupToText), feedAuthor),
      content: nonEmpty(item.content?.encoded) ?? summary,
      summary,
      publishedAt: firstDate(ctx, first(item.dc?.dates), first(item.dcterms?.issued), first(item.dcterms?.created), first(item.dcterms?.modified)),
      updatedAt: firstDate(ctx, first(item.dcterms?.modified)),
      imageUrl: media.imageUrl(),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'rdf',
    {
      title: titleToText(firstText(feed.title, first(feed.dc?.titles))),
      siteUrl,
      description: nonEmpty(textWithMarkupToText(feed.description)),
      imageUrl: firstUrl(itemParentBase, feed.image?.url),
      language: nonEmpty(first(feed.dc?.languages)),
      ttlMinutes: ttlMinutes(undefined, feed.sy),
    },
    drafts,
  );
}
