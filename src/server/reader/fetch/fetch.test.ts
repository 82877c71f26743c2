import { getEventListeners } from 'node:events';
import { createServer } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FetcherOptions } from '../types.js';
import { createFetcher, type Fetcher } from './index.js';
import { readerError, startTestServer, type TestServer } from './test-server.js';

const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>';

let server: TestServer;
const fetchers: Fetcher[] = [];

function fetcher(overrides: Partial<FetcherOptions> = {}): Fetcher {
  const f = createFetcher({
    timeoutMs: 5_000,
    maxBytes: 1024 * 1024,
    allowPrivateHosts: true,
    userAgent: 'Feeder/test (+https://feeder.test; feed reader)',
    ...overrides,
  });
  fetchers.push(f);
  return f;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await Promise.all(fetchers.splice(0).map((f) => f.close()));
});

describe('fetch: ordinary answers', () => {
  it('returns body, content type and validators, and sends a clear User-Agent, Accept and Accept-Encoding', async () => {
    server.on('/plain.xml', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', etag: '"v1"', 'last-modified': 'Wed, 01 May 2024 10:00:00 GMT' });
      res.end(RSS);
    });
    const result = await fetcher().fetch(server.url('/plain.xml'));
    expect(result).toMatchObject({
      status: 'ok',
      url: server.url('/plain.xml'),
      permanentUrl: null,
      contentType: 'application/rss+xml; charset=utf-8',
      etag: '"v1"',
      lastModified: 'Wed, 01 May 2024 10:00:00 GMT',
    });
    expect(result.status === 'ok' && result.body.toString()).toBe(RSS);
    const sent = server.requests.findLast((r) => r.path === '/plain.xml')!.headers;
    expect(sent['user-agent']).toBe('Feeder/test (+https://feeder.test; feed reader)');
    expect(sent.accept).toMatch(/^application\/rss\+xml, application\/atom\+xml, application\/feed\+json/);
    expect(sent.accept).toContain('*/*;q=0.1');
    expect(sent['accept-encoding']).toBe('gzip, deflate, br');
    expect(sent['if-none-match']).toBeUndefined();
  });

  it('returns the body whatever the content type says; the parser decides', async () => {
    server.on('/wrong-type', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(RSS);
    });
    const result = await fetcher().fetch(server.url('/wrong-type'));
    expect(result.status === 'ok' && result.body.toString()).toBe(RSS);
  });

  it('sends user:pass@ from the URL as Basic authorization', async () => {
    server.on('/private.xml', (req, res) => {
      res.writeHead(req.headers.authorization === `Basic ${Buffer.from('anna:p@ss wörd').toString('base64')}` ? 200 : 401);
      res.end(RSS);
    });
    const url = server.url('/private.xml').replace('http://', 'http://anna:p%40ss%20w%C3%B6rd@');
    expect((await fetcher().fetch(url)).status).toBe('ok');
  });

  it('refuses URLs that are not http(s)', async () => {
    for (const url of ['ftp://example.com/feed', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '']) {
      expect((await readerError(fetcher().fetch(url))).code).toBe('FETCH_INVALID_URL');
    }
  });

  it('leaves no listener behind on a long-lived caller signal', async () => {
    const shutdown = new AbortController();
    const f = fetcher();
    for (let i = 0; i < 5; i++) await f.fetch(server.url('/plain.xml'), { signal: shutdown.signal });
    await f.fetch(server.url('/status-none'), { signal: shutdown.signal }).catch(() => {});
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  it('throws the caller’s abort reason when the caller aborts', async () => {
    server.on('/hang', () => {});
    const controller = new AbortController();
    const pending = fetcher().fetch(server.url('/hang'), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    await expect(pending).rejects.toThrow('shutting down');
  });
});

describe('fetch: beforeBody (the refresh takes its document slot)', () => {
  it('is awaited after a successful answer’s headers and before its body, and never for a 304 or an error', async () => {
    server.on('/slot.xml', (req, res) => {
      if (req.headers['if-none-match'] === '"s1"') return void res.writeHead(304, { etag: '"s1"' }).end();
      res.writeHead(200, { 'content-type': 'application/rss+xml', etag: '"s1"' }).end(RSS);
    });
    server.on('/slot-gone', (_req, res) => void res.writeHead(404).end('gone'));
    const calls: string[] = [];
    const beforeBody = async (signal: AbortSignal) => {
      expect(signal.aborted).toBe(false);
      calls.push('before');
      await new Promise((r) => setTimeout(r, 30));
      calls.push('after');
    };
    const f = fetcher();
    const ok = await f.fetch(server.url('/slot.xml'), { beforeBody });
    expect(ok.status === 'ok' && ok.body.toString()).toBe(RSS);
    expect(calls).toEqual(['before', 'after']);
    expect((await f.fetch(server.url('/slot.xml'), { validators: { etag: '"s1"' }, beforeBody })).status).toBe('not-modified');
    expect((await readerError(f.fetch(server.url('/slot-gone'), { beforeBody }))).code).toBe('FETCH_HTTP_ERROR');
    expect(calls).toHaveLength(2);
  });

  it('counts the wait towards the time limit, and closes the unread body', async () => {
    server.on('/slot-wait.xml', (_req, res) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS));
    const f = fetcher({ timeoutMs: 300 });
    // A wait that only ends with the fetch's own signal: the slot never came within the time limit.
    const never = (signal: AbortSignal) => new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
    const err = await readerError(f.fetch(server.url('/slot-wait.xml'), { beforeBody: never }));
    expect(err.code).toBe('FETCH_TIMEOUT');
    // The connection is usable again at once: the next fetch of the origin is answered.
    expect((await f.fetch(server.url('/slot-wait.xml'))).status).toBe('ok');
  });
});

describe('fetch: decompression', () => {
  const body = Buffer.from(RSS.repeat(50));
  const cases: [string, string, Buffer][] = [
    ['gzip', 'gzip', zlib.gzipSync(body)],
    ['x-gzip', 'x-gzip', zlib.gzipSync(body)],
    ['deflate (zlib-wrapped, RFC 9110)', 'deflate', zlib.deflateSync(body)],
    ['deflate (raw, as old IIS sends it)', 'deflate', zlib.deflateRawSync(body)],
    ['br', 'br', zlib.brotliCompressSync(body)],
    ['gzip then br', 'gzip, br', zlib.brotliCompressSync(zlib.gzipSync(body))],
    ['a plain body labelled gzip', 'gzip', body],
    ['a nonsense coding (taken as plain)', 'utf-8', body],
    ['a truncated gzip body (what arrived is kept)', 'gzip', zlib.gzipSync(body).subarray(0, -8)],
  ];
  it.each(cases)('%s', async (_name, coding, encoded) => {
    const path = `/coded-${encodeURIComponent(_name)}`;
    server.on(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': coding });
      res.end(encoded);
    });
    const result = await fetcher().fetch(server.url(path));
    expect(result.status === 'ok' && result.body.equals(body)).toBe(true);
  });

  it('fails readably on a corrupt compressed body', async () => {
    server.on('/corrupt-gzip', (_req, res) => {
      const gz = zlib.gzipSync(body);
      gz.fill(0xab, 10, 40);
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gz);
    });
    const err = await readerError(fetcher().fetch(server.url('/corrupt-gzip')));
    expect(err.code).toBe('FETCH_CONNECTION');
    expect(err.message).toMatch(/damaged gzip-compressed body/);
  });
});

describe('fetch: hostile servers', () => {
  it('times out a slow drip (headers at once, then a byte now and then) within the overall limit', async () => {
    let timer: NodeJS.Timeout | undefined;
    server.on('/drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.write('<');
      timer = setInterval(() => res.write('x'), 300);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const err = await readerError(fetcher({ timeoutMs: 1_500 }).fetch(server.url('/drip')));
    clearInterval(timer);
    expect(err.code).toBe('FETCH_TIMEOUT');
    expect(err.message).toMatch(/within 1.5 seconds/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('times out a server that never answers', async () => {
    server.on('/silent', () => {});
    const err = await readerError(fetcher({ timeoutMs: 500 }).fetch(server.url('/silent')));
    expect(err.code).toBe('FETCH_TIMEOUT');
  });

  it('stops an endless body as soon as it passes the cap', async () => {
    let sent = 0;
    server.on('/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
      };
      res.on('drain', pump);
      pump();
    });
    const started = Date.now();
    const err = await readerError(fetcher({ maxBytes: 1024 * 1024 }).fetch(server.url('/endless')));
    expect(err.code).toBe('FETCH_TOO_LARGE');
    expect(err.message).toBe('The feed is larger than 1 MB');
    expect(Date.now() - started).toBeLessThan(3_000);
    // The connection was dropped: the server could not push much more than the cap plus socket buffers.
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the cap without reading the body', async () => {
    server.on('/huge', (_req, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.write('a');
    });
    const err = await readerError(fetcher({ maxBytes: 1024 }).fetch(server.url('/huge')));
    expect(err.code).toBe('FETCH_TOO_LARGE');
    expect(err.message).toBe('The feed is larger than 1 KB');
  });

  it('applies a per-fetch maxBytes', async () => {
    server.on('/two-kb', (_req, res) => res.end(Buffer.alloc(2048, 'a')));
    expect((await readerError(fetcher().fetch(server.url('/two-kb'), { maxBytes: 1000 }))).code).toBe('FETCH_TOO_LARGE');
    expect((await fetcher().fetch(server.url('/two-kb'))).status).toBe('ok');
  });

  it.each(['gzip', 'deflate', 'br'])('stops a %s bomb (1 GB of zeros) at the cap on the decompressed size', async (coding) => {
    let fed = 0;
    server.on(`/bomb-${coding}`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': coding });
      // Compressed on the fly, so only as much is ever produced as the client reads before it hangs up.
      const compressor =
        coding === 'gzip'
          ? zlib.createGzip({ level: 1 })
          : coding === 'deflate'
            ? zlib.createDeflate({ level: 1 })
            : zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
      compressor.pipe(res);
      const zeros = Buffer.alloc(1024 * 1024);
      const feed = () => {
        while (!res.destroyed && fed < 1024 ** 3) {
          fed += zeros.length;
          if (!compressor.write(zeros)) return void compressor.once('drain', feed);
        }
        compressor.end();
      };
      res.on('close', () => compressor.destroy());
      feed();
    });
    const started = Date.now();
    const err = await readerError(fetcher({ maxBytes: 2 * 1024 * 1024 }).fetch(server.url(`/bomb-${coding}`)));
    expect(err.code).toBe('FETCH_TOO_LARGE');
    expect(Date.now() - started).toBeLessThan(3_000);
    // The server stopped compressing when we hung up: far short of the 1 GB it meant to send.
    expect(fed).toBeLessThan(256 * 1024 * 1024);
  });
});

describe('fetch: redirects (RFC 9110 §15.4)', () => {
  beforeAll(() => {
    // /hop/N redirects N more times, then serves the feed.
    server.on('/hop', (req, res) => {
      const n = Number(new URL(req.url!, 'http://x').searchParams.get('n'));
      const code = Number(new URL(req.url!, 'http://x').searchParams.get('code') ?? 302);
      if (n > 0) {
        res.writeHead(code, { location: `/hop?n=${n - 1}&code=${code}` });
        res.end('moved');
      } else {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        res.end(RSS);
      }
    });
  });

  it('sends one request after another to a host over one connection, after a body, an error answer and a redirect', async () => {
    server.on('/reuse.xml', (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS));
    server.on('/reuse-moved', (_req, res) => res.writeHead(302, { location: '/reuse.xml' }).end());
    const f = fetcher();
    const before = server.connections;
    expect((await f.fetch(server.url('/reuse.xml'))).status).toBe('ok');
    expect((await readerError(f.fetch(server.url('/reuse-missing')))).code).toBe('FETCH_HTTP_ERROR');
    expect((await readerError(f.fetch(server.url('/reuse-missing-too')))).code).toBe('FETCH_HTTP_ERROR');
    expect((await f.fetch(server.url('/reuse-moved'))).status).toBe('ok');
    expect(server.connections - before).toBe(1);
  });

  it('follows 5 redirects', async () => {
    const result = await fetcher().fetch(server.url('/hop?n=5'));
    expect(result).toMatchObject({ status: 'ok', url: server.url('/hop?n=0&code=302'), permanentUrl: null });
  });

  it('refuses a 6th redirect', async () => {
    const err = await readerError(fetcher().fetch(server.url('/hop?n=6')));
    expect(err.code).toBe('FETCH_TOO_MANY_REDIRECTS');
    expect(err.message).toBe('The server redirected more than 5 times');
  });

  it('detects a redirect loop', async () => {
    server.on('/loop-a', (_req, res) => res.writeHead(302, { location: '/loop-b' }).end());
    server.on('/loop-b', (_req, res) => res.writeHead(307, { location: server.url('/loop-a') }).end());
    const err = await readerError(fetcher().fetch(server.url('/loop-a')));
    expect(err.code).toBe('FETCH_TOO_MANY_REDIRECTS');
    expect(err.message).toMatch(/loop/);
  });

  it('sets permanentUrl only when every hop was 301 or 308', async () => {
    expect(await fetcher().fetch(server.url('/hop?n=2&code=301'))).toMatchObject({ permanentUrl: server.url('/hop?n=0&code=301') });
    expect(await fetcher().fetch(server.url('/hop?n=1&code=308'))).toMatchObject({ permanentUrl: server.url('/hop?n=0&code=308') });
    server.on('/perm-then-temp', (_req, res) => res.writeHead(301, { location: '/hop?n=1&code=302' }).end());
    expect(await fetcher().fetch(server.url('/perm-then-temp'))).toMatchObject({ status: 'ok', permanentUrl: null });
    expect(await fetcher().fetch(server.url('/hop?n=1&code=307'))).toMatchObject({ permanentUrl: null });
    expect(await fetcher().fetch(server.url('/hop?n=0'))).toMatchObject({ permanentUrl: null });
  });

  it('resolves relative Location against the current URL', async () => {
    server.on('/a/b/old.xml', (_req, res) => res.writeHead(301, { location: '../new.xml' }).end());
    server.on('/a/new.xml', (_req, res) => res.end(RSS));
    expect(await fetcher().fetch(server.url('/a/b/old.xml'))).toMatchObject({ status: 'ok', url: server.url('/a/new.xml') });
  });

  it('refuses a redirect to a non-http scheme', async () => {
    server.on('/to-ftp', (_req, res) => res.writeHead(302, { location: 'ftp://example.com/feed' }).end());
    expect((await readerError(fetcher().fetch(server.url('/to-ftp')))).code).toBe('FETCH_INVALID_URL');
  });
});

describe('fetch: conditional GET (RFC 9111 §4.3)', () => {
  it('sends If-None-Match and If-Modified-Since and reports 304 as not-modified', async () => {
    server.on('/cond.xml', (req, res) => {
      if (req.headers['if-none-match'] === '"abc"') {
        res.writeHead(304, { etag: '"abc"' });
        res.end();
      } else {
        res.writeHead(200, { etag: '"abc"' });
        res.end(RSS);
      }
    });
    const result = await fetcher().fetch(server.url('/cond.xml'), {
      validators: { etag: '"abc"', lastModified: 'Wed, 01 May 2024 10:00:00 GMT' },
    });
    expect(result).toEqual({
      status: 'not-modified',
      url: server.url('/cond.xml'),
      permanentUrl: null,
      etag: '"abc"',
      // The 304 did not repeat Last-Modified; the one we hold stays valid (RFC 9111 §4.3.4).
      lastModified: 'Wed, 01 May 2024 10:00:00 GMT',
    });
    const sent = server.requests.findLast((r) => r.path === '/cond.xml')!.headers;
    expect(sent['if-none-match']).toBe('"abc"');
    expect(sent['if-modified-since']).toBe('Wed, 01 May 2024 10:00:00 GMT');
  });
});

describe('fetch: error answers', () => {
  it.each([
    [404, 'The server answered 404 Not Found'],
    [500, 'The server answered 500 Internal Server Error'],
    [410, 'The server answered 410 Gone'],
  ])('%i → FETCH_HTTP_ERROR', async (status, message) => {
    server.on(`/status-${status}`, (_req, res) => res.writeHead(status).end('nope'));
    const err = await readerError(fetcher().fetch(server.url(`/status-${status}`)));
    expect(err.code).toBe('FETCH_HTTP_ERROR');
    expect(err.details.status).toBe(status);
    expect(err.message).toBe(message);
  });

  it('429 with Retry-After in seconds → FETCH_RATE_LIMITED', async () => {
    server.on('/429', (_req, res) => res.writeHead(429, { 'retry-after': '120' }).end());
    const err = await readerError(fetcher().fetch(server.url('/429')));
    expect(err.code).toBe('FETCH_RATE_LIMITED');
    expect(err.details).toEqual({ status: 429, retryAfterSeconds: 120 });
    expect(err.message).toBe('The server answered 429 Too Many Requests and asks to retry in 120 seconds');
  });

  it('503 with Retry-After as an HTTP-date → FETCH_RATE_LIMITED', async () => {
    server.on('/503', (_req, res) => res.writeHead(503, { 'retry-after': new Date(Date.now() + 600_000).toUTCString() }).end());
    const err = await readerError(fetcher().fetch(server.url('/503')));
    expect(err.code).toBe('FETCH_RATE_LIMITED');
    expect(err.details.status).toBe(503);
    expect(err.details.retryAfterSeconds).toBeGreaterThanOrEqual(598);
    expect(err.details.retryAfterSeconds).toBeLessThanOrEqual(601);
  });

  it('caps Retry-After at 7 days and ignores garbage', async () => {
    server.on('/429-long', (_req, res) => res.writeHead(429, { 'retry-after': '99999999' }).end());
    server.on('/503-garbage', (_req, res) => res.writeHead(503, { 'retry-after': 'soon-ish' }).end());
    expect((await readerError(fetcher().fetch(server.url('/429-long')))).details.retryAfterSeconds).toBe(7 * 24 * 3600);
    expect((await readerError(fetcher().fetch(server.url('/503-garbage')))).details).toEqual({ status: 503 });
  });

  it('a connection dropped mid-body → FETCH_CONNECTION', async () => {
    server.on('/cut', (_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('<rss>');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const err = await readerError(fetcher().fetch(server.url('/cut')));
    expect(err.code).toBe('FETCH_CONNECTION');
    expect(err.message).toMatch(/^The connection to 127\.0\.0\.1:\d+ was interrupted$/);
  });

  it('connection refused → FETCH_CONNECTION', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const err = await readerError(fetcher().fetch(`http://127.0.0.1:${port}/feed`));
    expect(err.code).toBe('FETCH_CONNECTION');
    expect(err.message).toBe(`127.0.0.1:${port} refused the connection`);
  });

  it('a name that does not resolve → FETCH_DNS', async () => {
    const err = await readerError(fetcher().fetch('http://no-such-host.invalid/feed'));
    expect(err.code).toBe('FETCH_DNS');
    expect(err.message).toBe('The host name no-such-host.invalid could not be found');
  });
});

describe('fetch: private addresses (SSRF guard)', () => {
  beforeAll(() => {
    server.on('/secret', (_req, res) => res.end('internal'));
  });

  it('refuses loopback by IP, by a name resolving to it, and in other spellings', async () => {
    const port = new URL(server.url('/')).port;
    const guarded = fetcher({ allowPrivateHosts: false });
    for (const url of [
      server.url('/secret'),
      `http://localhost:${port}/secret`,
      `http://[::1]:${port}/secret`,
      `http://[::ffff:127.0.0.1]:${port}/secret`,
      `http://0x7f000001:${port}/secret`,
      `http://2130706433:${port}/secret`,
      `http://0.0.0.0:${port}/secret`,
    ]) {
      const err = await readerError(guarded.fetch(url));
      expect(err.code, url).toBe('FETCH_BLOCKED_ADDRESS');
    }
    const viaName = await readerError(guarded.fetch(`http://localhost:${port}/secret`));
    // Only the host the user gave, never the address it resolved to.
    expect(viaName.message).toBe('The address of localhost is not allowed: fetching from private networks is switched off');
    expect(viaName.message).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });

  it('refuses the cloud metadata address and private ranges without connecting', async () => {
    const guarded = fetcher({ allowPrivateHosts: false });
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', 'http://192.168.1.1/', 'http://[fd00::1]/']) {
      const err = await readerError(guarded.fetch(url));
      expect(err.code, url).toBe('FETCH_BLOCKED_ADDRESS');
    }
    expect((await readerError(guarded.fetch('http://169.254.169.254/'))).message).toBe(
      'The address of 169.254.169.254 is not allowed: fetching from private networks is switched off',
    );
  });

  it('allows them when allowPrivateHosts is true', async () => {
    const port = new URL(server.url('/')).port;
    const open = fetcher({ allowPrivateHosts: true });
    for (const url of [server.url('/secret'), `http://localhost:${port}/secret`]) {
      const result = await open.fetch(url);
      expect(result.status === 'ok' && result.body.toString()).toBe('internal');
    }
  });
});
