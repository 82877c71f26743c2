import { STATUS_CODES } from 'node:http';
import type { Agent } from 'undici';
import { onFirstUse } from '../../../common/lazy.js';
import { ReaderError, type FetcherOptions, type FetchResult, type Validators } from '../types.js';
import { ACCEPT_ENCODING, BodyDecodeError, BodyTooLargeError, readBody } from './body.js';
import { BlockedAddressError, blockedLiteral, createConnector } from './connect.js';
import { originClients } from './origin-clients.js';
import { loadUndiciParts, type UndiciParts } from './undici-parts.js';

/**
 * The reader's HTTP client (docs/ARCHITECTURE.md "Shape of the system": the first stage of the pipeline). One Fetcher per process: it owns an
 * undici Agent whose keep-alive connection pools are shared by every fetch, which is what makes refreshing many
 * feeds of one host (and the 304-heavy steady state) cheap.
 */

export interface FetchOptions {
  /** Conditional-GET validators from the previous answer (RFC 9110 §13.1.1-2, RFC 9111 §4.3.1). */
  validators?: Validators;
  /** Accept header; defaults to one preferring feed formats. */
  accept?: string;
  /** Aborts the fetch; the abort reason is thrown as it is (cancellation is not a feed error). */
  signal?: AbortSignal;
  /** Body cap for this fetch (e.g. smaller for icons); defaults to FetcherOptions.maxBytes. */
  maxBytes?: number;
  /**
   * Awaited once a successful answer's headers are in, before its body is read; not for a 304, an error status or a
   * redirect. The refresh takes its document slot here (refresh/slots.ts). Given the fetch's own signal, which aborts
   * at the fetch's time limit or the caller's abort; the wait counts towards the time limit (a refresh whose wait runs
   * out hands its feed back rather than record a timeout).
   */
  beforeBody?: (signal: AbortSignal) => Promise<void>;
}

export interface Fetcher {
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /** Closes the pooled connections; waits for running fetches. */
  close(): Promise<void>;
}

/** Feed formats first; HTML pages still come back (*) so discovery can read their <link rel="alternate">. */
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, ' + 'application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1';

/**
 * RFC 9110 §15.4 leaves the limit to the client (browsers allow 20). A moved feed needs at most
 * http→https→www→new path, and every hop spends the same time budget.
 */
/**
 * How many origins at most keep their connections open between requests (origin-clients.ts; docs/decisions.md
 * "Process memory: idle and peak"): about 13 KB each with the socket.
 */
const KEPT_ORIGINS = 256;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** RFC 9110 §15.4.2 / §15.4.9: only these two say "use the new URI from now on". */
const PERMANENT_STATUSES = new Set([301, 308]);
/** A server asking for more than a week is not going to be waited for to the letter. */
const MAX_RETRY_AFTER_SECONDS = 7 * 24 * 3600;
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL', 'ENODATA']);

/**
 * The HTTP client is loaded on the first fetch, not at start, and only the parts of undici it uses (undici-parts.ts):
 * several MB of a process that may sit idle (docs/decisions.md "Process memory: modules on first use").
 */
const loadUndici = onFirstUse('the HTTP client (undici)', loadUndiciParts);

export function createFetcher(options: FetcherOptions): Fetcher {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  let agent: Agent | null = null;
  let closed = false;
  const createAgent = (undici: UndiciParts) =>
    new undici.Agent({
      connect: createConnector(undici.buildConnector, { connectTimeoutMs, allowPrivateHosts: options.allowPrivateHosts }),
      // The overall timer below is the real limit; these make a stalled socket fail even when nothing else runs.
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
      // And no longer when the server offers more (`Keep-Alive: timeout=60`; undici would keep it up to 10 minutes):
      // every host with an open connection keeps a connection pool in memory, and a round reaches thousands of hosts
      // (docs/decisions.md "Process memory: idle and peak").
      keepAliveMaxTimeout: 10_000,
      // Be a polite client: many feeds of one host share a handful of connections instead of opening dozens. An
      // origin's connections are plain Clients, not undici's Pool, whose per-origin queue cost 20 KB for every host
      // reached in the keep-alive time, and only the most recent origins keep theirs (origin-clients.ts).
      factory: originClients(undici, 16, KEPT_ORIGINS),
    });
  // A failed load is thrown as it is (a ModuleLoadError, logged by the refresh as unexpected), not as a feed's error.
  const agentNow = async (): Promise<Agent> => {
    if (agent) return agent;
    const undici = await loadUndici();
    if (closed) throw new ReaderError('FETCH_CONNECTION', 'The fetcher was closed');
    return (agent ??= createAgent(undici));
  };

  async function fetchOnce(dispatcher: Agent, url: string, fetchOptions: FetchOptions): Promise<FetchResult> {
    const maxBytes = fetchOptions.maxBytes ?? options.maxBytes;
    let current = parseTarget(url);
    const callerSignal = fetchOptions.signal;
    callerSignal?.throwIfAborted();
    // One controller per fetch, fed by the overall timer and the caller's signal. Linked by hand rather than with
    // AbortSignal.any(): the caller's signal may live as long as the process (a shutdown signal shared by every
    // refresh), and listeners are removed again below so nothing accumulates on it.
    const controller = new AbortController();
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const signal = controller.signal;
    try {
      let redirects = 0;
      let allPermanent = true;
      const visited = new Set([withoutHash(current)]);
      for (;;) {
        if (!options.allowPrivateHosts) {
          // IP literals are refused before anything is queued; names are checked by the connector's lookup.
          const reason = blockedLiteral(current.hostname);
          if (reason) throw new BlockedAddressError(current.hostname, current.hostname, reason);
        }
        const response = await dispatcher.request({
          origin: current.origin,
          path: current.pathname + current.search,
          method: 'GET',
          headers: requestHeaders(current, options.userAgent, fetchOptions),
          signal,
        });
        const status = response.statusCode;
        const headers = response.headers;
        const location = header(headers, 'location');

        if (REDIRECT_STATUSES.has(status) && location !== null) {
          await response.body.dump();
          await connectionReleased();
          redirects += 1;
          if (redirects > MAX_REDIRECTS) {
            throw new ReaderError('FETCH_TOO_MANY_REDIRECTS', `The server redirected more than ${MAX_REDIRECTS} times`);
          }
          // RFC 9110 §10.2.2: Location may be relative and is resolved against the URI of the request.
          const next = parseRedirect(location, current);
          if (visited.has(withoutHash(next))) {
            throw new ReaderError('FETCH_TOO_MANY_REDIRECTS', `The server redirects in a loop (back to ${next.href})`);
          }
          visited.add(withoutHash(next));
          allPermanent &&= PERMANENT_STATUSES.has(status);
          current = next;
          continue;
        }

        const permanentUrl = redirects > 0 && allPermanent ? current.href : null;
        const etag = header(headers, 'etag');
        const lastModified = header(headers, 'last-modified');

        if (status === 304) {
          await response.body.dump();
          // RFC 9111 §4.3.4: a 304 updates the stored validators it carries; those it leaves out stay valid.
          return {
            status: 'not-modified',
            url: current.href,
            permanentUrl,
            etag: etag ?? fetchOptions.validators?.etag ?? null,
            lastModified: lastModified ?? fetchOptions.validators?.lastModified ?? null,
          };
        }
        if (status === 429 || status === 503) {
          await response.body.dump();
          const retryAfterSeconds = parseRetryAfter(header(headers, 'retry-after'));
          throw new ReaderError(
            'FETCH_RATE_LIMITED',
            `The server answered ${statusLine(status)}` + (retryAfterSeconds !== undefined ? ` and asks to retry in ${retryAfterSeconds} seconds` : ''),
            { status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) },
          );
        }
        if (status < 200 || status >= 300) {
          await response.body.dump();
          throw new ReaderError('FETCH_HTTP_ERROR', `The server answered ${statusLine(status)}`, { status });
        }

        if (fetchOptions.beforeBody) {
          try {
            await fetchOptions.beforeBody(signal);
          } catch (err) {
            // The body is not wanted any more: its connection is closed rather than left holding unread data.
            response.body.destroy();
            throw err;
          }
        }
        const body = await readBody(response.body, header(headers, 'content-encoding') ?? undefined, header(headers, 'content-length') ?? undefined, maxBytes);
        return {
          status: 'ok',
          url: current.href,
          permanentUrl,
          body,
          contentType: header(headers, 'content-type'),
          etag,
          lastModified,
        };
      }
    } catch (err) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timedOut) {
        throw new ReaderError('FETCH_TIMEOUT', `${current.host} did not send the whole answer within ${formatSeconds(options.timeoutMs)}`);
      }
      throw toReaderError(err, current.host, maxBytes);
    } finally {
      clearTimeout(timeout);
      callerSignal?.removeEventListener('abort', onCallerAbort);
      await connectionReleased();
    }
  }

  return {
    fetch: async (url, fetchOptions = {}) => fetchOnce(await agentNow(), url, fetchOptions),
    close: async () => {
      closed = true;
      await agent?.close();
    },
  };
}

/**
 * Resolves once undici has put the connection of a response that was just read back into its pool. Its body ends
 * a turn of the event loop before that, so a request sent at once to the same host (a redirect's target, the icon
 * look-up's page and then /favicon.ico) would find the connection busy and open another one; waiting for the
 * event loop's next turn lets it reuse the connection (docs/decisions.md "Refresh engine: the main thread's cost").
 */
const connectionReleased = () => new Promise<void>((resolve) => setImmediate(resolve));

function parseTarget(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ReaderError('FETCH_INVALID_URL', `"${url}" is not a web address`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ReaderError('FETCH_INVALID_URL', `Only http and https addresses can be fetched, not ${parsed.protocol}`);
  }
  return parsed;
}

function parseRedirect(location: string, base: URL): URL {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch {
    throw new ReaderError('FETCH_INVALID_URL', `The server redirected to an invalid address: ${location}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new ReaderError('FETCH_INVALID_URL', `The server redirected to a ${next.protocol} address, which cannot be fetched`);
  }
  return next;
}

function withoutHash(url: URL): string {
  return url.href.replace(/#.*$/, '');
}

function requestHeaders(url: URL, userAgent: string, options: FetchOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: options.accept ?? FEED_ACCEPT,
    'accept-encoding': ACCEPT_ENCODING,
  };
  // RFC 9110 §13.1.2 / §13.1.3; a server that knows both must prefer If-None-Match (§13.2.2), so sending both is safe.
  if (options.validators?.etag) headers['if-none-match'] = options.validators.etag;
  if (options.validators?.lastModified) headers['if-modified-since'] = options.validators.lastModified;
  // user:pass@ in a feed URL is how password-protected feeds are subscribed to in most readers; it becomes Basic
  // auth (RFC 7617). A redirect keeps it only when its Location is relative (same authority, RFC 3986 §5.2).
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
  }
  return headers;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function statusLine(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** RFC 9110 §10.2.3: Retry-After is either delay-seconds or an HTTP-date. Unparseable values are ignored. */
function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  let seconds: number;
  if (/^\d+$/.test(trimmed)) {
    seconds = Number(trimmed);
  } else {
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) return undefined;
    seconds = Math.ceil((date - now) / 1000);
  }
  return Math.min(Math.max(seconds, 0), MAX_RETRY_AFTER_SECONDS);
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return seconds === 1 ? '1 second' : `${Number(seconds.toFixed(1))} seconds`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

function errorChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = err; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

function toReaderError(err: unknown, host: string, maxBytes: number): ReaderError {
  const chain = errorChain(err);
  for (const e of chain) {
    if (e instanceof ReaderError) return e;
    if (e instanceof BlockedAddressError) return new ReaderError('FETCH_BLOCKED_ADDRESS', `${e.message}`);
    if (e instanceof BodyTooLargeError) {
      return new ReaderError('FETCH_TOO_LARGE', `The feed is larger than ${formatBytes(maxBytes)}`);
    }
    if (e instanceof BodyDecodeError) {
      return new ReaderError('FETCH_CONNECTION', `${host} sent a damaged ${e.coding}-compressed body`);
    }
  }
  const codes = chain.map((e) => (e as { code?: unknown }).code).filter((c): c is string => typeof c === 'string');
  const has = (test: (code: string) => boolean) => codes.some(test);
  if (has((c) => DNS_CODES.has(c))) return new ReaderError('FETCH_DNS', `The host name ${hostOnly(host)} could not be found`);
  if (has((c) => c === 'UND_ERR_CONNECT_TIMEOUT' || c === 'ETIMEDOUT')) {
    return new ReaderError('FETCH_TIMEOUT', `Connecting to ${host} timed out`);
  }
  if (has((c) => c === 'UND_ERR_HEADERS_TIMEOUT' || c === 'UND_ERR_BODY_TIMEOUT')) {
    return new ReaderError('FETCH_TIMEOUT', `${host} stopped answering`);
  }
  if (has((c) => c === 'ECONNREFUSED')) return new ReaderError('FETCH_CONNECTION', `${host} refused the connection`);
  if (has((c) => c === 'EHOSTUNREACH' || c === 'ENETUNREACH')) {
    return new ReaderError('FETCH_CONNECTION', `${host} cannot be reached from here`);
  }
  const tls = codes.find((c) => /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(c) || c === 'ERR_TLS_CERT_ALTNAME_INVALID');
  if (tls) return new ReaderError('FETCH_CONNECTION', `The secure connection to ${host} failed (${tls})`);
  const interrupted = ['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'];
  if (has((c) => interrupted.includes(c))) {
    return new ReaderError('FETCH_CONNECTION', `The connection to ${host} was interrupted`);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ReaderError('FETCH_CONNECTION', `Could not fetch from ${host}: ${message}`);
}

function hostOnly(host: string): string {
  return host.replace(/:\d+$/, '');
}
