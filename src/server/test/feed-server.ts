import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { startTestServer } from '../reader/fetch/test-server.js';

/**
 * A local feed server for refresh tests, on the reader's test server (127.0.0.1, a port the OS picks). Each path
 * has a route the test can change at any time; documents get a strong ETag and a Last-Modified, and a matching
 * conditional request is answered 304, as well-behaved feed servers do. Requests are counted per path.
 *
 *   const server = await startTestFeedServer();
 *   server.set('/a.xml', { body: rss('A', [item(1)]) });
 *   server.url('/a.xml')  // http://127.0.0.1:PORT/a.xml
 */
export interface Route {
  body?: string | Buffer;
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  /** Answer 304 to a matching If-None-Match (default true). */
  conditional?: boolean;
  /** Wait this long before answering (ms). */
  delayMs?: number;
}

export interface TestFeedServer {
  url(path: string): string;
  set(path: string, route: Route): void;
  /** Requests per path, and each request's headers in order. */
  hits(path: string): number;
  requests(path: string): IncomingMessage['headers'][];
  totalHits(): number;
  close(): Promise<void>;
}

const LAST_MODIFIED = 'Sat, 21 Nov 2026 10:00:00 GMT';

export async function startTestFeedServer(): Promise<TestFeedServer> {
  const server = await startTestServer();
  const requests = (path: string) => server.requests.filter((r) => r.path.replace(/\?.*$/, '') === path).map((r) => r.headers);
  return {
    url: server.url,
    set(path, route) {
      const body = typeof route.body === 'string' ? Buffer.from(route.body) : (route.body ?? Buffer.alloc(0));
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      const status = route.status ?? 200;
      server.on(path, (req, res) => {
        const answer = () => {
          if (status === 200 && route.conditional !== false && req.headers['if-none-match'] === etag) {
            res.writeHead(304, { etag, ...route.headers }).end();
            return;
          }
          res
            .writeHead(status, {
              'content-type': route.contentType ?? 'application/rss+xml; charset=utf-8',
              ...(status === 200 ? { etag, 'last-modified': LAST_MODIFIED } : {}),
              ...route.headers,
            })
            .end(body);
        };
        if (route.delayMs) setTimeout(answer, route.delayMs);
        else answer();
      });
    },
    hits: (path) => requests(path).length,
    requests,
    totalHits: () => server.requests.length,
    close: server.close,
  };
}

export interface TestItem {
  guid: string;
  title: string;
  link?: string;
  description?: string;
  pubDate?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A small RSS 2.0 document. Its site (and so the icon look-up after a first fetch) is on 127.0.0.1:9, where the
 * connection is refused at once: tests never wait on DNS for names that do not exist.
 */
export const TEST_SITE = 'http://127.0.0.1:9';
export function rss(title: string, items: TestItem[], extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(title)}</title><link>${TEST_SITE}/</link><description>Test feed</description>${extra}
${items
  .map(
    (i) =>
      `<item><guid isPermaLink="false">${esc(i.guid)}</guid><title>${esc(i.title)}</title>` +
      `<link>${esc(i.link ?? `${TEST_SITE}/${encodeURIComponent(i.guid)}`)}</link>` +
      `<description>${esc(i.description ?? `<p>About ${i.title}</p>`)}</description>` +
      (i.pubDate ? `<pubDate>${i.pubDate}</pubDate>` : '') +
      `</item>`,
  )
  .join('\n')}
</channel></rss>`;
}

/**
 * When test items start: midnight UTC 24 days before the run. Relative to the run, not a fixed date, so that the
 * windows the server applies to real time ("everything unread of the last 30 days", the clean-up's age) hold the
 * items on any day, as they did when the tests were written.
 */
export const ITEM_EPOCH_MS = (Math.floor(Date.now() / 86_400_000) - 24) * 86_400_000;

/** Item n, published n hours after ITEM_EPOCH_MS, so newer items have larger n. */
export function item(n: number, overrides: Partial<TestItem> = {}): TestItem {
  return {
    guid: `item-${n}`,
    title: `Item ${n}`,
    pubDate: new Date(ITEM_EPOCH_MS + n * 3_600_000).toUTCString(),
    ...overrides,
  };
}
