/**
 * Atom 0.3 / 1.0 (RFC 4287), including YouTube channel feeds → ParsedFeed (the decisions are listed in
 * normalize.ts).
 */
import type { ParsedFeed } from '../types.js';
import type { RawAtom } from './raw-feed.js';
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
import { nonEmpty, textWithMarkupToText, titleToText } from './text.js';
import { resolveBase } from './urls.js';

export function normalizeAtom(feed: RawAtom, ctx: NormalizeContext, atom03 = false): ParsedFeed {
  const feedBase = resolveBase(feed.xml?.base, ctx.url);
  const feedAuthor = firstAuthor(
    atomNames(feed.authors),
    joinNames(feed.dc?.creators ?? [], textWithMarkupToText),
    joinNames([feed.itunes?.author], textWithMarkupToText),
  );

  const drafts = (feed.entries ?? []).map((entry): ItemDraft => {
    const base = resolveBase(entry.xml?.base, feedBase);
    const media = new MediaCollector(base);
    atomEnclosures(entry.links, media);
    media.media(entry.media);
    media.duration(entry.itunes?.duration);

    const videoId = nonEmpty(entry.yt?.videoId);
    // YouTube feeds carry the description only in media:group (https://www.youtube.com/feeds/videos.xml).
    const summary = atomHtml(entry.summary, atom03) ?? mediaDescription(entry.media);
    const ownContent = atomHtml(entry.content, atom03);
    const content = ownContent ?? summary;
    // Relative URLs in content resolve against the xml:base in scope for the element that supplied it (RFC 4287
    // §2); without any xml:base the store uses the entry's link.
    const contentElement = ownContent ? entry.content : entry.summary;
    const contentBase = content && (feed.xml?.base || entry.xml?.base || contentElement?.xml?.base) ? resolveBase(contentElement?.xml?.base, base) : null;
    const rawLink = atomAlternate(entry.links);
    return {
      id: nonEmpty(entry.id),
      url: firstUrl(base, rawLink, videoId ? `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}` : undefined),
      rawLink: nonEmpty(rawLink),
      title: atomText(entry.title, atom03, titleToText) || titleToText(firstText(mediaTitle(entry.media), entry.itunes?.title)),
      author: firstAuthor(
        atomNames(entry.authors),
        joinNames(entry.dc?.creators ?? [], textWithMarkupToText),
        joinNames([entry.itunes?.author], textWithMarkupToText),
        atomNames(entry.source?.authors),
        feedAuthor,
      ),
      content,
      summary,
      contentBase,
      publishedAt: firstDate(ctx, entry.published, entry.updated, first(entry.dc?.dates)),
      updatedAt: firstDate(ctx, entry.updated),
      imageUrl: media.imageUrl(entry.itunes?.image),
      enclosures: media.enclosures(),
    };
  });

  return feedOf(
    'atom',
    {
      title: atomText(feed.title, atom03, titleToText),
      siteUrl: firstUrl(feedBase, atomAlternate(feed.links)),
      description: nonEmpty(atomText(feed.subtitle, atom03)),
      imageUrl: firstUrl(feedBase, feed.logo, feed.icon, feed.itunes?.image),
      language: nonEmpty(feed.xml?.lang ?? first(feed.dc?.languages)),
      ttlMinutes: ttlMinutes(undefined, feed.sy),
    },
    drafts,
  );
}
