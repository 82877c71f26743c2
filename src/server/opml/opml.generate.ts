/**
 * Writes a subscription list as OPML 2.0 (dashboard.md §7 "GET /api/feeds/export/opml"; http://opml.org/spec2.opml).
 * Written by hand rather than with feedsmith's generator so that the attribute order and layout are the ones every
 * reader's export uses (type, text, title, xmlUrl, htmlUrl on one line per feed), and so the escaping is visible here.
 *
 * - text = the name the user sees (custom title, else the feed's title); title = the feed's own title. Importing
 *   the file again reads a differing text as the custom title (opml.parse.ts), so an export re-imports to the
 *   same state.
 * - Folders are outlines holding their feeds; an empty folder is an outline without children.
 */

export interface ExportFeed {
  url: string;
  siteUrl: string | null;
  /** The feed's own title ('' before its first fetch). */
  title: string;
  customTitle: string | null;
}

export interface ExportFolder {
  name: string;
  feeds: ExportFeed[];
}

export interface ExportDocument {
  title: string;
  ownerName?: string | null;
  dateCreated: Date;
  folders: ExportFolder[];
  /** Feeds in no folder, in the user's order. */
  feeds: ExportFeed[];
}

/** Characters XML 1.0 does not allow at all (§2.2 Char), removed rather than written as invalid references. */
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes text for an attribute value in double quotes (and for element content). */
export function escapeXml(value: string): string {
  return value
    .replace(INVALID_XML_CHARS, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

function feedOutline(feed: ExportFeed, indent: string): string {
  const own = feed.title.trim();
  const shown = feed.customTitle?.trim() || own || feed.url;
  const attrs = [`type="rss"`, `text="${escapeXml(shown)}"`];
  // Without a title of its own the feed has nothing to compare the name with: title then repeats text, so the
  // import does not take the name for a custom title.
  attrs.push(`title="${escapeXml(own || shown)}"`);
  attrs.push(`xmlUrl="${escapeXml(feed.url)}"`);
  if (feed.siteUrl) attrs.push(`htmlUrl="${escapeXml(feed.siteUrl)}"`);
  return `${indent}<outline ${attrs.join(' ')}/>`;
}

export function generateOpmlDocument(doc: ExportDocument): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    <title>${escapeXml(doc.title)}</title>`,
    `    <dateCreated>${doc.dateCreated.toUTCString()}</dateCreated>`,
  ];
  if (doc.ownerName?.trim()) lines.push(`    <ownerName>${escapeXml(doc.ownerName.trim())}</ownerName>`);
  lines.push('  </head>', '  <body>');
  for (const folder of doc.folders) {
    const name = escapeXml(folder.name);
    if (folder.feeds.length === 0) {
      lines.push(`    <outline text="${name}" title="${name}"/>`);
      continue;
    }
    lines.push(`    <outline text="${name}" title="${name}">`);
    for (const feed of folder.feeds) lines.push(feedOutline(feed, '      '));
    lines.push('    </outline>');
  }
  for (const feed of doc.feeds) lines.push(feedOutline(feed, '    '));
  lines.push('  </body>', '</opml>', '');
  return lines.join('\n');
}
