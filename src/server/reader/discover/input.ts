import { isIP } from 'node:net';
import { ReaderError } from '../types.js';

/**
 * Turns what a user typed into the add-feed box into an absolute http(s) URL:
 * "example.com/blog" → https://example.com/blog; the feed: pseudo-scheme ("feed://host/x", "feed:https://host/x")
 * that browsers and sites use for subscribe links is unwrapped. Anything else with a scheme (ftp:, file:,
 * javascript:, data:, mailto:) and anything that is not an address at all is FETCH_INVALID_URL.
 */
export function normalizeInput(input: string): URL {
  let text = input.trim();
  if (/^feed:/i.test(text)) text = text.slice('feed:'.length);
  if (text.startsWith('//')) text = `https:${text}`;
  // "host:8080/path" is a host with a port, not a scheme called "host".
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(text);
  const typedScheme = scheme !== null;
  if (!typedScheme) text = `https://${text}`;

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(input);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ReaderError('FETCH_INVALID_URL', `Only http and https addresses can be subscribed to, not ${url.protocol}`);
  }
  // Without a scheme, a single word ("hello", "javascript:1" read as host:port) is a typo, not an intranet host;
  // whoever means an intranet host can type http:// in front.
  const host = url.hostname;
  const plausibleHost = host.includes('.') || host === 'localhost' || isIP(host.replace(/^\[|\]$/g, '')) !== 0;
  if (!host || (!typedScheme && !plausibleHost)) throw invalid(input);
  return url;
}

/** True when normalizeInput added the scheme (https) itself: the user typed "example.com/blog". */
export function schemeAssumed(input: string): boolean {
  const text = input.trim().replace(/^feed:/i, '');
  return !text.startsWith('//') && !/^([a-z][a-z0-9+.-]*):(?!\d)/i.test(text);
}

function invalid(input: string): ReaderError {
  const shown = input.trim().length > 80 ? `${input.trim().slice(0, 80)}…` : input.trim();
  return new ReaderError('FETCH_INVALID_URL', shown ? `"${shown}" is not a web address` : 'No address was given');
}
