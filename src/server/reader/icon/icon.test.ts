import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher } from '../fetch/index.js';
import { startTestServer, type TestServer } from '../fetch/test-server.js';
import { fetchIcon, inlineIconParsers } from './index.js';

// Only the leading bytes matter to the sniffer; the rest stands in for image data.
const PNG_16 = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('png-16')]);
const PNG_64 = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('png-64')]);
const ICO = Buffer.concat([Buffer.from([0x00, 0x00, 0x01, 0x00, 0x01, 0x00]), Buffer.from('ico-data')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg-data')]);
const GIF = Buffer.from('GIF89a-gif-data');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 data')]);
const HTML_404 = '<!doctype html><html><head><title>Page not found</title></head><body>Oops</body></html>';

let fetcher: Fetcher;
const servers: TestServer[] = [];

/** A fresh site per test, so favicon.ico and page handlers never leak between tests. */
async function site(): Promise<TestServer> {
  const s = await startTestServer();
  servers.push(s);
  return s;
}

function serve(s: TestServer, path: string, body: string | Buffer, contentType: string): void {
  s.on(path, (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  });
}

function page(head: string): string {
  return `<!doctype html><html><head><title>Site</title>${head}</head><body>Hello</body></html>`;
}

beforeAll(() => {
  fetcher = createFetcher({ timeoutMs: 3_000, maxBytes: 1024 * 1024, allowPrivateHosts: true, userAgent: 'Feeder/test' });
});
afterAll(async () => {
  await fetcher.close();
  await Promise.all(servers.map((s) => s.close()));
});

describe('fetchIcon', () => {
  it('uses the page’s <link rel="icon">, preferring a reasonably sized one', async () => {
    const s = await site();
    serve(s, '/', page(`<link rel="icon" sizes="16x16" href="/icons/16.png"><link rel="icon" type="image/png" sizes="64x64" href="icons/64.png">`), 'text/html');
    serve(s, '/icons/16.png', PNG_16, 'image/png');
    serve(s, '/icons/64.png', PNG_64, 'image/png');
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed.xml'), feedImageUrl: null }, fetcher, inlineIconParsers)).toEqual({
      mimeType: 'image/png',
      data: PNG_64.toString('base64'),
    });
    expect(s.requests.at(-1)!.headers.accept).toMatch(/^image\/png/);
  });

  it('understands "shortcut icon" and apple-touch-icon, and sniffs the type whatever the server says', async () => {
    const s = await site();
    serve(s, '/', page(`<link rel="shortcut icon" href="/fav"><link rel="apple-touch-icon" href="/touch.gif">`), 'text/html');
    serve(s, '/touch.gif', GIF, 'image/gif');
    serve(s, '/fav', WEBP, 'text/plain');
    // The apple-touch-icon (180 px) ranks above an undeclared favicon, and is GIF; the favicon is the fallback.
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toEqual({
      mimeType: 'image/gif',
      data: GIF.toString('base64'),
    });
    s.on('/touch.gif', (_req, res) => res.writeHead(404).end());
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toEqual({
      mimeType: 'image/webp',
      data: WEBP.toString('base64'),
    });
  });

  it('falls back to /favicon.ico of the site, or of the feed’s origin when there is no site URL', async () => {
    const s = await site();
    serve(s, '/blog/', page(''), 'text/html');
    serve(s, '/favicon.ico', ICO, 'image/vnd.microsoft.icon');
    const expected = { mimeType: 'image/x-icon', data: ICO.toString('base64') };
    expect(await fetchIcon({ siteUrl: s.url('/blog/'), feedUrl: s.url('/blog/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toEqual(expected);
    expect(await fetchIcon({ siteUrl: null, feedUrl: s.url('/blog/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toEqual(expected);
  });

  it('refuses an HTML page served with status 200 as the icon, and falls back to the feed image', async () => {
    const s = await site();
    serve(s, '/', page(`<link rel="icon" href="/missing.png">`), 'text/html');
    serve(s, '/missing.png', HTML_404, 'image/png');
    serve(s, '/favicon.ico', HTML_404, 'text/html');
    serve(s, '/logo.jpg', JPEG, 'image/jpeg');
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: s.url('/logo.jpg') }, fetcher, inlineIconParsers)).toEqual({
      mimeType: 'image/jpeg',
      data: JPEG.toString('base64'),
    });
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toBeNull();
  });

  it('sanitises SVG icons and refuses ones the sanitiser rejects', async () => {
    const s = await site();
    const svg =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" onload="alert(1)">' +
      '<script>alert(2)</script><circle cx="8" cy="8" r="8" fill="red"/></svg>';
    serve(s, '/', page(`<link rel="icon" type="image/svg+xml" href="/icon.svg">`), 'text/html');
    serve(s, '/icon.svg', svg, 'image/svg+xml');
    const icon = await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: null }, fetcher, inlineIconParsers);
    expect(icon?.mimeType).toBe('image/svg+xml');
    const stored = Buffer.from(icon!.data, 'base64').toString('utf8');
    expect(stored).toContain('<circle');
    expect(stored).not.toMatch(/script|onload|alert/);

    // Two root elements: not an SVG document the sanitiser accepts, so no icon (favicon.ico is a 404 here).
    serve(s, '/icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg><svg></svg>', 'image/svg+xml');
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toBeNull();
  });

  it('refuses icons over 256 KB', async () => {
    const s = await site();
    serve(s, '/', page(`<link rel="icon" href="/huge.png">`), 'text/html');
    serve(s, '/huge.png', Buffer.concat([PNG_64, Buffer.alloc(300 * 1024)]), 'image/png');
    serve(s, '/favicon.ico', ICO, 'image/x-icon');
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toEqual({
      mimeType: 'image/x-icon',
      data: ICO.toString('base64'),
    });
  });

  it('reads data: URL icons without a request', async () => {
    const s = await site();
    serve(s, '/', page(`<link rel="icon" href="data:image/png;base64,${PNG_16.toString('base64')}">`), 'text/html');
    expect(await fetchIcon({ siteUrl: s.url('/'), feedUrl: s.url('/feed'), feedImageUrl: null }, fetcher, inlineIconParsers)).toEqual({
      mimeType: 'image/png',
      data: PNG_16.toString('base64'),
    });
  });

  it('returns null instead of throwing for unreachable or nonsense input', async () => {
    const s = await site();
    const port = new URL(s.url('/')).port;
    await s.close();
    expect(
      await fetchIcon({ siteUrl: `http://127.0.0.1:${port}/`, feedUrl: `http://127.0.0.1:${port}/feed`, feedImageUrl: null }, fetcher, inlineIconParsers),
    ).toBeNull();
    expect(await fetchIcon({ siteUrl: 'javascript:alert(1)', feedUrl: 'not a url', feedImageUrl: 'ftp://x/y.png' }, fetcher, inlineIconParsers)).toBeNull();
  });
});
