/**
 * JSON Feed 1.0 / 1.1 (https://www.jsonfeed.org/version/1.1/) read from a parsed JSON value into the fields json.ts
 * normalises. The reading is the one feeds were read with before, when feedsmith's `parseJsonFeed` read them
 * (json-feed.test.ts compares the two on every JSON fixture and on random documents): member names match exactly or
 * else in any case, a list where one value is expected gives its first, a single value where a list is expected is a
 * list of one, strings are trimmed (and blank ones dropped), numbers where strings are expected become their text,
 * dates are read as the XML reader reads text (xml-text.ts), and an object or list with nothing usable in it is left
 * out. Our own, so that a parse thread does not load feedsmith (its RSS, Atom, RDF and OPML parsers and generators
 * with fast-xml-parser) for the one format it was used for (docs/decisions.md "Process memory: modules on first use").
 * Linear in the size of the value.
 */
import type { JsonFeed } from 'feedsmith';
import { isNonEmptyString, parseBoolean, parseNumber, parseString, parseVerbatimString } from './xml-text.js';

type JsonObject = Record<string, unknown>;

/** What readJsonFeed found: a feed, a JSON Feed with nothing usable in it, or no JSON Feed at all. */
export type JsonFeedReading = { feed: JsonFeed.Feed<string> } | 'empty' | 'not-json-feed';

/** An object as JSON.parse makes them (not an array, not one whose own `constructor` member hides Object's). */
function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as JsonObject).constructor === Object;
}

/** A member by its exact name, else the first whose name matches in any case. */
function member(object: JsonObject, name: string): unknown {
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  for (const key in object) if (key.toLowerCase() === lower) return object[key];
  return undefined;
}

const singular = (value: unknown): unknown => (Array.isArray(value) ? (value[0] as unknown) : value);

/** Text as written, trimmed; a number as its text. */
const verbatim = (value: unknown): string | undefined => (typeof value === 'number' ? value.toString() : parseVerbatimString(value));

const text = (value: unknown) => verbatim(singular(value));
const date = (value: unknown): string | undefined => {
  const v = singular(value);
  return typeof v === 'number' ? v.toString() : parseString(v);
};

/** The members that are present (not null or undefined); undefined when none is. */
function present<T extends object>(object: T): T | undefined {
  let kept = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null) continue;
    out[key] = value;
    kept = true;
  }
  return kept ? (out as T) : undefined;
}

/** A list: an array, an object with a length, or one whose keys are 0, 1, 2, …; undefined for anything else. */
function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return undefined;
  if (value.length) return heldElements(value, toLength(value.length));
  const keys = Object.keys(value);
  if (keys.length === 0) return undefined;
  for (let i = 0; i < keys.length; i++) if (Number(keys[i]) !== i) return undefined;
  return Object.values(value);
}

/** `length` as Array.from reads it (ToLength): a whole number from 0 to 2^53 − 1. */
function toLength(length: unknown): number {
  const n = Number(length);
  if (!(n > 0)) return 0;
  return Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER);
}

/**
 * The elements Array.from would read from an object with a `length`, without the indices the object does not hold:
 * those read as undefined, which every reader of listOf skips. Array.from itself walks every index below `length`,
 * so a hostile `"length": 4294967295` took minutes and all the memory there is; this costs what the object's own
 * members do.
 */
function heldElements(object: JsonObject, length: number): unknown[] {
  const held: Array<[number, unknown]> = [];
  for (const key of Object.keys(object)) {
    const index = Number(key);
    if (Number.isInteger(index) && index >= 0 && index < length && String(index) === key) held.push([index, object[key]]);
  }
  // Object.keys lists array indices in ascending order, but keys from 2^32 − 1 up in the order they were written.
  return held.sort((a, b) => a[0] - b[0]).map(([, element]) => element);
}

/** Each element read with `read`, without those it gives nothing for; undefined when none is left. */
function listOf<T>(value: unknown, read: (element: unknown) => T | undefined): T[] | undefined {
  const list = asList(value) ?? (value === undefined || value === null ? undefined : [value]);
  if (!list) return undefined;
  const out: T[] = [];
  for (const element of list) {
    const item = read(element);
    if (item !== undefined && item !== null) out.push(item);
  }
  return out.length > 0 ? out : undefined;
}

function author(value: unknown): JsonFeed.Author | undefined {
  if (isPlainObject(value)) {
    return present({ name: text(member(value, 'name')), url: text(member(value, 'url')), avatar: text(member(value, 'avatar')) });
  }
  if (typeof value === 'number' || isNonEmptyString(value)) return present({ name: verbatim(value) });
  return undefined;
}

/** JSON Feed 1.1's `authors`, else 1.0's `author`. */
function authors(object: JsonObject): JsonFeed.Author[] | undefined {
  const list = listOf(member(object, 'authors'), author);
  return list?.length ? list : listOf(member(object, 'author'), author);
}

function attachment(value: unknown): JsonFeed.Attachment | undefined {
  if (!isPlainObject(value)) return undefined;
  return present({
    url: text(member(value, 'url')),
    mime_type: text(member(value, 'mime_type')),
    title: text(member(value, 'title')),
    size_in_bytes: parseNumber(singular(member(value, 'size_in_bytes'))),
    duration_in_seconds: parseNumber(singular(member(value, 'duration_in_seconds'))),
  });
}

function item(value: unknown): JsonFeed.Item<string> | undefined {
  if (!isPlainObject(value)) return undefined;
  return present({
    id: text(member(value, 'id')),
    url: text(member(value, 'url')),
    external_url: text(member(value, 'external_url')),
    title: text(member(value, 'title')),
    content_html: text(member(value, 'content_html')),
    content_text: text(member(value, 'content_text')),
    summary: text(member(value, 'summary')),
    image: text(member(value, 'image')),
    banner_image: text(member(value, 'banner_image')),
    date_published: date(member(value, 'date_published')),
    date_modified: date(member(value, 'date_modified')),
    tags: listOf(member(value, 'tags'), verbatim),
    authors: authors(value),
    language: text(member(value, 'language')),
    attachments: listOf(member(value, 'attachments'), attachment),
  });
}

function hub(value: unknown): JsonFeed.Hub | undefined {
  if (!isPlainObject(value)) return undefined;
  return present({ type: text(member(value, 'type')), url: text(member(value, 'url')) });
}

/**
 * Whether a JSON object is a JSON Feed: its `version` names jsonfeed.org's, or (without a version) it has a title and
 * items or one of the feed's own members.
 */
function isJsonFeed(object: JsonObject): boolean {
  const version = member(object, 'version');
  if (isNonEmptyString(version)) return version.includes('jsonfeed.org/version/');
  const hasTitle = isNonEmptyString(member(object, 'title'));
  const hasItems = Array.isArray(member(object, 'items'));
  return hasTitle && (hasItems || Boolean(member(object, 'home_page_url') || member(object, 'feed_url') || member(object, 'authors')));
}

export function readJsonFeed(value: unknown): JsonFeedReading {
  if (!isPlainObject(value) || !isJsonFeed(value)) return 'not-json-feed';
  const feed = present({
    title: text(member(value, 'title')),
    home_page_url: text(member(value, 'home_page_url')),
    feed_url: text(member(value, 'feed_url')),
    description: text(member(value, 'description')),
    user_comment: text(member(value, 'user_comment')),
    next_url: text(member(value, 'next_url')),
    icon: text(member(value, 'icon')),
    favicon: text(member(value, 'favicon')),
    language: text(member(value, 'language')),
    expired: parseBoolean(singular(member(value, 'expired'))),
    hubs: listOf(member(value, 'hubs'), hub),
    authors: authors(value),
    items: listOf(member(value, 'items'), item),
  }) as JsonFeed.Feed<string> | undefined;
  return feed ? { feed } : 'empty';
}
