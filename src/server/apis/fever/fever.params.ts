import { MAX_ID } from '../../../common/limits.js';

/**
 * The arguments of one Fever call (README.md beside this file). Fever clients put them in the query string
 * (`?api&items&since_id=12`) or in a urlencoded or multipart form body (api_key, mark, as, id, before), and some
 * put everything in one place; the body wins where both name an argument. A repeated argument counts once, the
 * first value, in the query and in the body alike. Nothing a client sends can make this
 * throw: an argument that is not what the protocol says is treated as absent, never as an error (Fever has no
 * error channel besides `auth: 0`).
 */

/** Fever pages hold 50 items, and with_ids takes at most 50 (Fever API "items"). */
export const PAGE_SIZE = 50;

export type Selector = 'groups' | 'feeds' | 'favicons' | 'items' | 'links' | 'unread_item_ids' | 'saved_item_ids';
const SELECTORS: readonly Selector[] = ['groups', 'feeds', 'favicons', 'items', 'links', 'unread_item_ids', 'saved_item_ids'];

export type ItemsWindow = { kind: 'since'; sinceId: number } | { kind: 'max'; maxId: number | null } | { kind: 'with'; ids: number[] };

export type Mark = { mark: 'item'; as: 'read' | 'unread' | 'saved' | 'unsaved'; id: number } | { mark: 'feed' | 'group'; as: 'read'; id: number; before: number | null };

export interface FeverParams {
  apiKey: unknown;
  /** Which read sections the client asked for; several may come in one request. */
  selectors: Set<Selector>;
  items: ItemsWindow;
  /** feed_ids=1,2 on items: only items of these feeds (at most 50 ids); null: every feed. */
  itemFeeds: number[] | null;
  mark: Mark | null;
  unreadRecentlyRead: boolean;
}

type Bag = Record<string, unknown>;

/** The first value of an argument: query strings and forms may repeat a name (Fastify gives an array then). */
function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function asText(value: unknown): string | undefined {
  const v = first(value);
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** A non-negative integer written in plain digits, or undefined ("12abc", "-1", "1e3", "" are not). */
export function parseId(value: unknown): number | undefined {
  const text = asText(value)?.trim();
  if (!text || !/^\d{1,20}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
}

/** with_ids and feed_ids: a comma-separated list; the first 50 distinct valid positive ids, the rest ignored. */
export function parseIdList(value: unknown): number[] {
  const text = asText(value);
  if (!text) return [];
  const ids = new Set<number>();
  // Bounded work however long the list: stop once 50 are taken or after a generous number of pieces.
  let start = 0;
  for (let pieces = 0; pieces < 1000 && start <= text.length && ids.size < PAGE_SIZE; pieces++) {
    const comma = text.indexOf(',', start);
    const end = comma === -1 ? text.length : comma;
    const id = parseId(text.slice(start, Math.min(end, start + 32)));
    if (id !== undefined && id > 0 && id <= MAX_ID) ids.add(id);
    if (comma === -1) break;
    start = comma + 1;
  }
  return [...ids];
}

function has(bag: Bag, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(bag, name) && first(bag[name]) !== undefined;
}

/** Merges query and body (the body wins) and reads the Fever arguments from them. */
export function parseFeverParams(query: unknown, body: unknown): FeverParams {
  const bag: Bag = { ...(isBag(query) ? query : {}), ...(isBag(body) ? body : {}) };
  const selectors = new Set<Selector>(SELECTORS.filter((s) => has(bag, s)));

  let items: ItemsWindow;
  // Precedence as the reference servers have it: with_ids, then max_id, then since_id; none = from the start.
  if (has(bag, 'with_ids')) items = { kind: 'with', ids: parseIdList(bag.with_ids) };
  else if (has(bag, 'max_id')) {
    const maxId = parseId(bag.max_id);
    items = { kind: 'max', maxId: maxId === undefined || maxId === 0 ? null : Math.min(maxId, MAX_ID) };
  } else items = { kind: 'since', sinceId: Math.min(parseId(bag.since_id) ?? 0, MAX_ID) };

  const itemFeeds = has(bag, 'feed_ids') ? parseIdList(bag.feed_ids) : null;
  return { apiKey: first(bag.api_key), selectors, items, itemFeeds, mark: parseMark(bag), unreadRecentlyRead: asText(bag.unread_recently_read)?.trim() === '1' };
}

function parseMark(bag: Bag): Mark | null {
  const mark = asText(bag.mark)?.trim().toLowerCase();
  const as = asText(bag.as)?.trim().toLowerCase();
  const id = parseId(bag.id);
  if (id === undefined || id > MAX_ID) return null;
  if (mark === 'item') {
    if (id === 0 || !(as === 'read' || as === 'unread' || as === 'saved' || as === 'unsaved')) return null;
    return { mark, as, id };
  }
  if ((mark === 'feed' || mark === 'group') && as === 'read') {
    if (mark === 'feed' && id === 0) return null;
    const rawBefore = asText(bag.before)?.trim();
    // Missing or 0: everything up to now (as FreshRSS does); anything else that is not a time: no mark.
    if (rawBefore === undefined || rawBefore === '' || rawBefore === '0') return { mark, as, id, before: null };
    const before = parseId(rawBefore);
    if (before === undefined) return null;
    return { mark, as, id, before };
  }
  return null;
}

function isBag(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}
