import { CODES } from '../common/codes.js';
import { badRequest } from './errors.js';

/**
 * U+0000 has one rule in Feeder (decisions.md "No NUL characters"): PostgreSQL cannot store it in text at all (the
 * query fails, which would be a 500), SQLite would store it and cut strings short in some readers, so
 * - request input holding one is refused with 400 INVALID_CHARACTERS (http/nul.ts for headers, query, path and
 *   parsed bodies; the bodies a route decodes itself call `refuseNul`). No client has a reason to send one, and a
 *   dropped character could quietly turn a password or token into another;
 * - text from the network (feeds) has it dropped before it is stored (`stripNul`).
 */

export const invalidCharacters = () => badRequest('INVALID_CHARACTERS', CODES.INVALID_CHARACTERS);

/**
 * Whether a value (string, or any depth of arrays and objects of them, keys included) holds U+0000. Iterative, so
 * the deepest JSON a body may carry cannot overflow the stack; linear in the size of the value.
 */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      // for…in over own keys rather than Object.entries: no array per object (a parsed feed has thousands).
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (key.includes('\0')) return true;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Throws 400 INVALID_CHARACTERS when the value holds U+0000. */
export function refuseNul(value: unknown): void {
  if (containsNul(value)) throw invalidCharacters();
}

/** The text without U+0000 (feed text from the network, before it is stored). */
export function stripNul<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' && text.includes('\0') ? text.replace(/\0/g, '') : text) as T;
}

/**
 * A copy of a value (strings, arrays, plain objects; anything else kept) with U+0000 dropped from every string: a
 * parsed feed before it is stored, whatever field the NUL came in (title, content, author, URLs, enclosures). The
 * value itself when it holds none. Recursion follows the value's shape, which for a processed feed is a few
 * levels deep.
 */
export function stripNulDeep<T>(value: T): T {
  if (!containsNul(value)) return value;
  const strip = (v: unknown): unknown => {
    if (typeof v === 'string') return stripNul(v);
    if (Array.isArray(v)) return v.map(strip);
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [stripNul(k), strip(item)]));
    }
    return v;
  };
  return strip(value) as T;
}
