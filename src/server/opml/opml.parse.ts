import { parseOpml, type Opml } from 'feedsmith';
import { badRequest } from '../errors.js';
import { refuseNul } from '../nul.js';
import { decodeBody } from '../reader/parse/encoding.js';
import { scanProlog } from '../reader/parse/sniff.js';
import { ReaderError } from '../reader/types.js';

/**
 * Reads an OPML subscription list (dashboard.md §7 "POST /api/feeds/import/opml", docs/decisions.md "OPML and the
 * catalog") into a flat list of feed entries with the folder each belongs to. Pure: no database, no network.
 *
 * feedsmith's OPML parser does the XML work. It was tried against the broken files real readers and hand-edited
 * lists produce and is lenient enough: unescaped `&` in attributes, HTML entities (&nbsp; &eacute;), a missing
 * <head>, upper-case tags and attributes (XMLURL), xmlurl/xmlURL spellings, single quotes, unclosed <outline>s.
 * What it does not do is handled here: bytes → text with the feed decoder (BOM, XML declaration, windows-1252 for
 * "ISO-8859-1"), refusing DOCTYPE entity declarations (billion laughs, the same rule as for feeds), and a truncated
 * file (cut off mid-upload or mid-edit) is closed after its last complete element and read as far as it goes.
 *
 * Rules (decided in docs/decisions.md):
 * - an outline with an xmlUrl is a feed, whatever its `type` says (Miniflux writes no type at all);
 * - an outline without one is a folder when it holds feeds; Feeder's folders are one level deep, so a feed nested
 *   deeper goes to its top-level folder;
 * - a top-level outline with text and title, no children and nothing else is an empty folder (Feeder exports empty
 *   folders so; a lone `text` is a note in an outliner file, not a folder);
 * - Tiny Tiny RSS's settings outlines (tt-rss-prefs, -labels, -filters) are not folders;
 * - `text` is the name the user sees, `title` the feed's own title (OPML 2.0 §"outline": "title … probably the same
 *   as text"): when both are there and differ, `text` is a name the user gave the feed and becomes the custom title.
 */

export interface OpmlEntry {
  /** xmlUrl as written (trimmed); checked and normalised by the import service. */
  xmlUrl: string;
  htmlUrl: string | null;
  /** The name to show until the feed's first fetch: title, else text. */
  name: string | null;
  /** The user's own name for the feed (text when it differs from title), or null. */
  customTitle: string | null;
  /** Name of the top-level folder the feed sits in, or null at the root. */
  folder: string | null;
}

export interface OpmlDocument {
  title: string | null;
  entries: OpmlEntry[];
  /** Every folder name in file order (those with feeds and the declared empty ones), first spelling kept. */
  folders: string[];
  /** The folders declared without feeds (a subset of folders). */
  emptyFolders: string[];
}

/** Longest folder name and custom title (folders.name and subscriptions.custom_title are varchar(200)). */
export const MAX_NAME_LENGTH = 200;

const TT_RSS_SECTIONS = new Set(['tt-rss-prefs', 'tt-rss-labels', 'tt-rss-filters']);

type Outline = Opml.Outline<string>;

/** Collapses whitespace and drops control characters; '' for nothing. Cut to MAX_NAME_LENGTH code points. */
export function cleanName(raw: string | undefined | null): string {
  if (!raw) return '';

  const text = raw
    // eslint-disable-next-line no-control-regex -- deliberate: control characters in a name become spaces
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...text];
  return chars.length > MAX_NAME_LENGTH ? chars.slice(0, MAX_NAME_LENGTH).join('').trimEnd() : text;
}

const notOpml = (message: string) => badRequest('OPML_INVALID', message);

/**
 * Parses the uploaded bytes. Throws AppError 400: OPML_INVALID (not XML, not OPML, unreadable), OPML_ENTITIES
 * (a DOCTYPE declaring entities), OPML_NO_FEEDS (an OPML file without a single feed or folder).
 */
export function parseOpmlFile(bytes: Buffer): OpmlDocument {
  if (bytes.length === 0) throw badRequest('OPML_EMPTY', 'The uploaded file is empty.');
  const text = decodeBody(bytes);
  let prolog;
  try {
    prolog = scanProlog(text);
  } catch (err) {
    if (err instanceof ReaderError && err.code === 'PARSE_ENTITY_LIMIT') {
      throw badRequest('OPML_ENTITIES', 'The file declares XML entities; OPML files never need them and they are refused for safety.');
    }
    throw err;
  }
  if (!prolog) throw notOpml('The file is not an XML document. Please choose an OPML file (.opml or .xml).');
  if (prolog.rootLocalName !== 'opml') {
    throw notOpml(`The file is an XML document but not OPML (its root element is <${prolog.rootName.slice(0, 40)}>).`);
  }
  // An OPML file with U+0000 (never valid XML) is refused like any request input (decisions.md "No NUL
  // characters"); a file that is no XML at all was told so above. A character reference (&#0;) is read as U+FFFD.
  refuseNul(text);
  const doc = parseLeniently(text.slice(prolog.rootStart));
  const result = collect(doc);
  if (result.entries.length === 0 && result.folders.length === 0) {
    throw badRequest('OPML_NO_FEEDS', 'The OPML file contains no feeds.');
  }
  return result;
}

function parseLeniently(xml: string): Opml.Document<string> {
  try {
    return parseOpml(xml);
  } catch {
    // A truncated file: keep everything up to the last complete element and close the document.
    const lastClose = xml.lastIndexOf('>');
    if (lastClose > 0) {
      try {
        return parseOpml(`${xml.slice(0, lastClose + 1)}</body></opml>`);
      } catch {
        /* fall through */
      }
    }
    if (!/<outline[\s/>]/i.test(xml)) throw badRequest('OPML_NO_FEEDS', 'The OPML file contains no feeds.');
    throw notOpml('The OPML file could not be read.');
  }
}

function collect(doc: Opml.Document<string>): OpmlDocument {
  const entries: OpmlEntry[] = [];
  const folders = new Map<string, string>();
  const declaredEmpty: string[] = [];
  const addFolder = (name: string) => {
    const key = name.toLowerCase();
    if (!folders.has(key)) folders.set(key, name);
  };

  const walk = (outlines: Outline[] | undefined, folder: string | null) => {
    for (const outline of outlines ?? []) {
      const xmlUrl = outline.xmlUrl?.trim();
      if (xmlUrl) {
        entries.push(entryOf(outline, xmlUrl, folder));
        if (folder) addFolder(folder);
        // Feeds inside a feed outline are rare but exist (hand-made lists); they share its folder.
        walk(outline.outlines, folder);
        continue;
      }
      const name = cleanName(outline.text) || cleanName(outline.title);
      if (folder === null) {
        if (TT_RSS_SECTIONS.has(name)) continue;
        if (name && outline.text && outline.title && !outline.outlines?.length && !outline.type && !outline.htmlUrl && !outline.url) {
          addFolder(name);
          declaredEmpty.push(name);
        }
        walk(outline.outlines, name || null);
      } else {
        walk(outline.outlines, folder);
      }
    }
  };
  walk(doc.body?.outlines, null);
  const names = [...folders.values()];
  const withFeeds = new Set(entries.map((e) => e.folder?.toLowerCase()));
  return {
    title: cleanName(doc.head?.title) || null,
    entries,
    folders: names,
    emptyFolders: declaredEmpty.filter((n) => !withFeeds.has(n.toLowerCase())),
  };
}

function entryOf(outline: Outline, xmlUrl: string, folder: string | null): OpmlEntry {
  const text = cleanName(outline.text);
  const title = cleanName(outline.title);
  return {
    xmlUrl,
    htmlUrl: outline.htmlUrl?.trim() || null,
    name: title || text || null,
    customTitle: text && title && text !== title ? text : null,
    folder,
  };
}
