import { MAX_ID } from '../../../common/limits.js';

/**
 * The Google Reader protocol's vocabulary (apis/greader/README.md): item ids, stream ids and request parameters
 * as clients send them. Pure functions, no I/O.
 */

export const ITEM_PREFIX = 'tag:google.com,2005:reader/item/';
export const STATE_PREFIX = 'user/-/state/com.google/';
export const LABEL_PREFIX = 'user/-/label/';
export const READING_LIST = `${STATE_PREFIX}reading-list`;
export const READ = `${STATE_PREFIX}read`;
export const STARRED = `${STATE_PREFIX}starred`;
export const KEPT_UNREAD = `${STATE_PREFIX}kept-unread`;
/** Not Google's: FreshRSS's, for `xt` and `it` only. */
export const UNREAD = `${STATE_PREFIX}unread`;

/** An article id in the long form: 16 lower-case hex digits after the tag prefix (the Google Reader ItemId). */
export const longItemId = (id: number) => ITEM_PREFIX + id.toString(16).padStart(16, '0');

/**
 * An item id as clients send it, or null when it is not one:
 * - long form `tag:google.com,2005:reader/item/<hex>` (what stream/contents gives out);
 * - short form, decimal (what stream/items/ids gives out);
 * - the bare 16 hex digits of the long form, without its prefix (Reeder does this; FreshRSS issue #2956).
 *   A 16-character string is read as hex: a decimal article id of 16 digits (10^15) cannot occur.
 */
export function parseItemId(raw: string): number | null {
  const text = raw.trim();
  let value: number;
  if (text.startsWith(ITEM_PREFIX)) {
    const hex = text.slice(ITEM_PREFIX.length);
    if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) return null;
    value = parseInt(hex, 16);
  } else if (/^[0-9a-fA-F]{16}$/.test(text)) {
    value = parseInt(text, 16);
  } else if (/^[0-9]{1,15}$/.test(text)) {
    value = Number(text);
  } else {
    return null;
  }
  return Number.isSafeInteger(value) && value > 0 && value <= MAX_ID ? value : null;
}

/** What a stream id names. Feeds by URL and labels by name are resolved against the user's data by the service. */
export type StreamRef =
  | { kind: 'reading-list' }
  | { kind: 'starred' }
  | { kind: 'read' }
  | { kind: 'kept-unread' }
  | { kind: 'feed'; feedId: number }
  | { kind: 'feed-url'; url: string }
  | { kind: 'label'; name: string };

const STATE_STREAMS: Record<string, StreamRef | undefined> = Object.assign(Object.create(null), {
  'reading-list': { kind: 'reading-list' },
  starred: { kind: 'starred' },
  read: { kind: 'read' },
  'kept-unread': { kind: 'kept-unread' },
});

/**
 * A stream id, or null when it is none we know. `user/<anything>/…` is read as the user's own (clients put the
 * userId from user-info there, or `-`); every look-up is scoped to the signed-in user anyway.
 */
export function parseStreamId(raw: string): StreamRef | null {
  const text = raw.trim();
  if (text.startsWith('feed/')) {
    const rest = text.slice(5);
    if (/^[0-9]{1,10}$/.test(rest)) {
      const feedId = Number(rest);
      return feedId > 0 && feedId <= MAX_ID ? { kind: 'feed', feedId } : null;
    }
    // "feed/http://example.com/rss" (the original Google form, which some clients still send).
    return /^https?:\/\//i.test(rest) && rest.length <= 2048 ? { kind: 'feed-url', url: rest } : null;
  }
  // The short form of the state streams (`stream/contents/reading-list`), which FreshRSS accepts too.
  const short = STATE_STREAMS[text];
  if (short) return short;
  const user = /^user\/[^/]+\/(state\/com\.google|label)\/(.+)$/.exec(text);
  if (!user) return null;
  if (user[1] === 'label') {
    const name = user[2].trim();
    return name && name.length <= 200 ? { kind: 'label', name } : null;
  }
  switch (user[2]) {
    case 'reading-list':
      return { kind: 'reading-list' };
    case 'starred':
      return { kind: 'starred' };
    case 'read':
      return { kind: 'read' };
    case 'kept-unread':
      return { kind: 'kept-unread' };
    default:
      return null;
  }
}

/**
 * Request parameters from the query string and the urlencoded body together (clients differ in which they use,
 * and use both at once: FreshRSS reads $_REQUEST). Repeated names (i, s, t, a, r) keep every value, body first.
 */
export class Params {
  private readonly values = new Map<string, string[]>();

  constructor(...sources: (string | undefined)[]) {
    for (const source of sources) {
      if (!source) continue;
      for (const [name, value] of new URLSearchParams(source)) {
        const list = this.values.get(name);
        if (list) list.push(value);
        else this.values.set(name, [value]);
      }
    }
  }

  /** The first value, trimmed; undefined when absent or empty. */
  get(name: string): string | undefined {
    const value = this.values.get(name)?.[0]?.trim();
    return value ? value : undefined;
  }

  all(name: string): string[] {
    return (this.values.get(name) ?? []).map((v) => v.trim()).filter((v) => v !== '');
  }

  /** Every name with its values, as decoded (for the NUL check of the whole call). */
  entries(): [string, string[]][] {
    return [...this.values];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }
}

/** A count parameter (n): missing or unreadable gives the default, anything else is clamped to 1…max. */
export function countParam(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || !/^-?[0-9]{1,12}$/.test(raw)) return fallback;
  return Math.min(max, Math.max(1, Number(raw)));
}

/** A time in seconds (ot, nt) as an ISO timestamp; undefined when absent; null when it is not a number. */
export function secondsParam(raw: string | undefined): string | undefined | null {
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,12}$/.test(raw)) return null;
  const ms = Number(raw) * 1000;
  if (ms <= 0) return undefined;
  return ms > 8_640_000_000_000_000 ? null : new Date(ms).toISOString();
}

/** A time in microseconds (mark-all-as-read's ts) as an ISO timestamp; undefined when absent or 0; null when junk. */
export function microsecondsParam(raw: string | undefined): string | undefined | null {
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,20}$/.test(raw)) return null;
  const ms = Math.floor(Number(raw) / 1000);
  if (ms <= 0) return undefined;
  return ms > 8_640_000_000_000_000 ? null : new Date(ms).toISOString();
}

/** ISO timestamp → seconds, milliseconds and microseconds as the protocol writes them. */
export const toSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
export const toMsecString = (iso: string) => String(Date.parse(iso));
export const toUsecString = (iso: string) => `${Date.parse(iso)}000`;
