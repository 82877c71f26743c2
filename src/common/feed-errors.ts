/**
 * The codes a feed's last refresh error is stored and sent with (`last_error_code`), with their English text.
 * The reader pipeline throws them (src/server/reader/types.ts ReaderError); the web app translates each under
 * `feedErrors.<CODE>` (de and en); the server's English `last_error` carries the details (status, size, …).
 */
export const FEED_ERROR_CODES = {
  // fetch
  FETCH_INVALID_URL: 'This is not a valid web address (http or https).',
  FETCH_BLOCKED_ADDRESS: 'This address is in a private network; Feeder does not fetch from there.',
  FETCH_DNS: 'The server name could not be found.',
  FETCH_CONNECTION: 'The server could not be reached.',
  FETCH_TIMEOUT: 'The server took too long to answer.',
  FETCH_TOO_LARGE: 'The feed is too large.',
  FETCH_TOO_MANY_REDIRECTS: 'The server redirects too often.',
  FETCH_HTTP_ERROR: 'The server answered with an error.',
  FETCH_RATE_LIMITED: 'The server asked us to come back later.',
  // parse
  PARSE_NOT_A_FEED: 'This address does not serve a feed.',
  PARSE_INVALID: 'The feed is broken and cannot be read.',
  PARSE_ENTITY_LIMIT: 'The feed contains entity declarations, which are refused for safety.',
  PARSE_TIMEOUT: 'The feed took too long to read and was given up.',
  // discover
  DISCOVER_NO_FEED: 'No feed was found at this address.',
  // full-article extraction (POST /api/extract-article-content; the article's own content is shown instead)
  EXTRACT_FAILED: 'The full article could not be loaded.',
  EXTRACT_FETCH_FAILED: 'The article page could not be loaded.',
  EXTRACT_NOT_HTML: 'The article link does not lead to a web page.',
  EXTRACT_NO_URL: 'This article has no link to load the full text from.',
  EXTRACT_TOO_COMPLEX: 'The article page is too complex to be read.',
  // anything else (not the feed's fault)
  REFRESH_FAILED: 'The feed could not be refreshed because of an internal error.',
} as const;

export type FeedErrorCode = keyof typeof FEED_ERROR_CODES;
