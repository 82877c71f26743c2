import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher } from '../fetch/index.js';
import { readerError, startTestServer, type TestServer } from '../fetch/test-server.js';
import { discoverFeeds, inlineParsers } from './index.js';
import { normalizeInput } from './input.js';
import { youtubeFeedUrl } from './youtube.js';

const rss = (title: string, site = 'https://site.example/') =>
  `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>${title}</title><link>${site}</link>` +
  `<item><title>One</title><link>${site}one</link><guid>${site}one</guid></item></channel></rss>`;
const atom = (title: string) =>
  `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title>` +
  `<id>urn:x:${title}</id><updated>2024-05-01T00:00:00Z</updated><link rel="alternate" href="https://site.example/"/></feed>`;
const jsonFeed = (title: string) => JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title, home_page_url: 'https://site.example/', items: [] });

let server: TestServer;
let fetcher: Fetcher;

function serve(path: string, body: string, contentType: string): void {
  server.on(path, (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  });
}

beforeAll(async () => {
  server = await startTestServer();
  fetcher = createFetcher({ timeoutMs: 3_000, maxBytes: 1024 * 1024, allowPrivateHosts: true, userAgent: 'Feeder/test' });
});
afterAll(async () => {
  await fetcher.close();
  await server.close();
});

describe('discoverFeeds: a feed URL', () => {
  it('returns the feed itself, titled from the feed, with the site’s favicon', async () => {
    serve('/direct/feed.xml', rss('Direct Feed', 'https://blog.example/'), 'application/rss+xml');
    expect(await discoverFeeds(server.url('/direct/feed.xml'), fetcher, inlineParsers)).toEqual([
      { title: 'Direct Feed', url: server.url('/direct/feed.xml'), favicon_url: 'https://blog.example/favicon.ico' },
    ]);
  });

  it('recognises a feed served as text/plain', async () => {
    serve('/direct/atom.txt', atom('Plain Atom'), 'text/plain');
    const [feed] = await discoverFeeds(server.url('/direct/atom.txt'), fetcher, inlineParsers);
    expect(feed.title).toBe('Plain Atom');
  });

  it('returns the new URL after a permanent redirect, the typed one after a temporary one', async () => {
    serve('/moved/new.xml', rss('Moved'), 'application/rss+xml');
    server.on('/moved/old.xml', (_req, res) => res.writeHead(301, { location: '/moved/new.xml' }).end());
    server.on('/moved/temp.xml', (_req, res) => res.writeHead(302, { location: '/moved/new.xml' }).end());
    expect((await discoverFeeds(server.url('/moved/old.xml'), fetcher, inlineParsers))[0].url).toBe(server.url('/moved/new.xml'));
    expect((await discoverFeeds(server.url('/moved/temp.xml'), fetcher, inlineParsers))[0].url).toBe(server.url('/moved/temp.xml'));
  });
});

describe('discoverFeeds: an HTML page', () => {
  it('lists <link rel="alternate"> feeds in order, resolved against <base href>, deduplicated, titled', async () => {
    serve(
      '/site/page.html',
      `<!doctype html><html><head>
        <title>My Site</title>
        <base href="/site/sub/">
        <link rel="icon" href="../img/favicon.png" type="image/png">
        <link rel="alternate" type="application/rss+xml" title="Posts &amp; News" href="posts.xml">
        <link rel="alternate" type="application/atom+xml" href="/site/atom.xml">
        <link rel="alternate" type="application/rss+xml" title="Posts again" href="posts.xml">
        <link rel="ALTERNATE" type="application/feed+json; charset=utf-8" title="JSON" href="feed.json">
        <link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/2">
        <link rel="alternate" type="application/json" href="/site/real.json">
        <link rel="alternate" hreflang="de" href="/de/">
        <link rel="stylesheet" href="style.css">
      </head><body><a href="/other.xml">not a link element</a></body></html>`,
      'text/html; charset=utf-8',
    );
    serve('/site/atom.xml', atom('Atom Title From Feed'), 'application/atom+xml');
    server.on('/wp-json/wp/v2/pages/2', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":2}'));
    serve('/site/real.json', jsonFeed('Real JSON Feed'), 'application/json');

    expect(await discoverFeeds(server.url('/site/page.html'), fetcher, inlineParsers)).toEqual([
      { title: 'Posts & News', url: server.url('/site/sub/posts.xml'), favicon_url: server.url('/site/img/favicon.png') },
      { title: 'Atom Title From Feed', url: server.url('/site/atom.xml'), favicon_url: server.url('/site/img/favicon.png') },
      { title: 'JSON', url: server.url('/site/sub/feed.json'), favicon_url: server.url('/site/img/favicon.png') },
      { title: 'Real JSON Feed', url: server.url('/site/real.json'), favicon_url: server.url('/site/img/favicon.png') },
    ]);
  });

  it('decodes the page in its declared charset', async () => {
    server.on('/latin1.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        Buffer.from('<html><head><meta charset="iso-8859-1"><link rel="alternate" type="application/rss+xml" title="Caf\xe9" href="/x.xml"></head></html>', 'latin1'),
      );
    });
    expect((await discoverFeeds(server.url('/latin1.html'), fetcher, inlineParsers))[0]).toEqual({
      title: 'Café',
      url: server.url('/x.xml'),
      favicon_url: server.url('/favicon.ico'),
    });
  });

  it('returns at most 20 feeds', async () => {
    const links = Array.from({ length: 30 }, (_, i) => `<link rel="alternate" type="application/rss+xml" title="F${i}" href="/f${i}.xml">`);
    serve('/many.html', `<html><head>${links.join('')}</head></html>`, 'text/html');
    const feeds = await discoverFeeds(server.url('/many.html'), fetcher, inlineParsers);
    expect(feeds).toHaveLength(20);
    expect(feeds[19].title).toBe('F19');
  });
});

describe('discoverFeeds: probing common paths', () => {
  it('finds feeds at the usual paths when the page links none, each feed once', async () => {
    const probe = await startTestServer();
    try {
      probe.on('/', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Bare</title></head></html>'));
      probe.on('/feed', (_req, res) => res.writeHead(301, { location: '/feed/' }).end());
      probe.on('/feed/', (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('WordPress Feed')));
      // WordPress answers ?feed=rss2 with the same document under another URL.
      probe.on('/?feed=rss2', (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('WordPress Feed')));
      probe.on('/index.xml', (_req, res) => res.writeHead(200, { 'content-type': 'application/xml' }).end(atom('Hugo Feed')));
      // An HTML page at /rss is not a feed.
      probe.on('/rss', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>RSS explained</body></html>'));

      const feeds = await discoverFeeds(probe.url('/'), fetcher, inlineParsers);
      expect(feeds).toEqual([
        { title: 'WordPress Feed', url: probe.url('/feed/'), favicon_url: probe.url('/favicon.ico') },
        { title: 'Hugo Feed', url: probe.url('/index.xml'), favicon_url: probe.url('/favicon.ico') },
      ]);
      // Probes were bounded to the known list (plus redirects), not a crawl.
      expect(probe.requests.length).toBeLessThanOrEqual(14);
    } finally {
      await probe.close();
    }
  });

  it('tries feed paths under a section page first', async () => {
    const probe = await startTestServer();
    try {
      probe.on('/blog/', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
      probe.on('/blog/index.xml', (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('Section Feed')));
      expect(await discoverFeeds(probe.url('/blog/'), fetcher, inlineParsers)).toEqual([
        { title: 'Section Feed', url: probe.url('/blog/index.xml'), favicon_url: probe.url('/favicon.ico') },
      ]);
    } finally {
      await probe.close();
    }
  });

  it('throws DISCOVER_NO_FEED when nothing is found', async () => {
    const probe = await startTestServer();
    try {
      probe.on('/', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Hello</body></html>'));
      const err = await readerError(discoverFeeds(probe.url('/'), fetcher, inlineParsers));
      expect(err.code).toBe('DISCOVER_NO_FEED');
      expect(err.message).toMatch(/^No feed was found at or around 127\.0\.0\.1:\d+$/);
    } finally {
      await probe.close();
    }
  });
});

describe('discoverFeeds: input and first-request errors', () => {
  it.each([
    '',
    '   ',
    'ftp://example.com/feed',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'mailto:me@example.com',
    'data:text/html,<b>x</b>',
    'not a url',
    'hello',
    'http://',
  ])('%j → FETCH_INVALID_URL', async (input) => {
    expect((await readerError(discoverFeeds(input, fetcher, inlineParsers))).code).toBe('FETCH_INVALID_URL');
  });

  it('falls back to http when the address was typed without a scheme and the site has no TLS', async () => {
    serve('/plain-http.xml', rss('Plain HTTP'), 'application/rss+xml');
    const typed = server.url('/plain-http.xml').replace(/^http:\/\//, '');
    const [feed] = await discoverFeeds(typed, fetcher, inlineParsers);
    expect(feed).toMatchObject({ title: 'Plain HTTP', url: server.url('/plain-http.xml') });
  });

  it('does not fall back to http when https was typed', async () => {
    const typed = server.url('/plain-http.xml').replace(/^http:/, 'https:');
    expect((await readerError(discoverFeeds(typed, fetcher, inlineParsers))).code).toBe('FETCH_CONNECTION');
  });

  it('propagates the first request’s failure', async () => {
    const err = await readerError(discoverFeeds(server.url('/does-not-exist'), fetcher, inlineParsers));
    expect(err.code).toBe('FETCH_HTTP_ERROR');
    expect(err.details.status).toBe(404);
  });
});

describe('normalizeInput', () => {
  it.each([
    ['example.com/blog', 'https://example.com/blog'],
    ['  https://Example.com/Feed  ', 'https://example.com/Feed'],
    ['http://example.com', 'http://example.com/'],
    ['example.com:8080/rss', 'https://example.com:8080/rss'],
    ['//example.com/rss', 'https://example.com/rss'],
    ['feed://example.com/rss.xml', 'https://example.com/rss.xml'],
    ['feed:https://example.com/rss.xml', 'https://example.com/rss.xml'],
    ['localhost:3000', 'https://localhost:3000/'],
    ['http://intranet/feed', 'http://intranet/feed'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeInput(input).href).toBe(expected);
  });
});

describe('YouTube', () => {
  it.each([
    ['https://www.youtube.com/channel/UCXuqSBlHAE6Xw-yeJA0Tunw', 'https://www.youtube.com/feeds/videos.xml?channel_id=UCXuqSBlHAE6Xw-yeJA0Tunw'],
    ['https://youtube.com/channel/UCXuqSBlHAE6Xw-yeJA0Tunw/videos', 'https://www.youtube.com/feeds/videos.xml?channel_id=UCXuqSBlHAE6Xw-yeJA0Tunw'],
    ['https://m.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf', 'https://www.youtube.com/feeds/videos.xml?playlist_id=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf'],
    ['https://www.youtube.com/@LinusTechTips', null],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', null],
    ['https://www.youtube.com/channel/not-a-channel-id', null],
    ['https://example.com/channel/UCXuqSBlHAE6Xw-yeJA0Tunw', null],
  ])('%s → %s', (input, expected) => {
    expect(youtubeFeedUrl(new URL(input))).toBe(expected);
  });

  it('reads the channel of a handle page from its canonical link, titled by the channel name', async () => {
    serve(
      '/@somechannel',
      `<html><head><title>Some Channel - YouTube</title>
        <link rel="canonical" href="https://www.youtube.com/channel/UC0123456789abcdefghijkl">
        <link rel="shortcut icon" href="https://www.youtube.com/s/desktop/favicon.ico">
        <meta property="og:title" content="Some Channel"></head><body></body></html>`,
      'text/html',
    );
    expect(await discoverFeeds(server.url('/@somechannel'), fetcher, inlineParsers)).toEqual([
      {
        title: 'Some Channel',
        url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UC0123456789abcdefghijkl',
        favicon_url: 'https://www.youtube.com/s/desktop/favicon.ico',
      },
    ]);
  });

  it('falls back to the channel id in the page’s inline data, and uses the RSS link when present', async () => {
    serve(
      '/@inline',
      `<html><head><title>Inline Channel - YouTube</title><meta property="og:url" content="https://www.youtube.com/@inline"></head>
        <body><script>var ytInitialData = {"metadata":{"channelMetadataRenderer":{"externalId":"UCabcdefghijklmnopqrstuv"}},
        "related":{"channelId":"UCzzzzzzzzzzzzzzzzzzzzzz"}};</script></body></html>`,
      'text/html',
    );
    expect(await discoverFeeds(server.url('/@inline'), fetcher, inlineParsers)).toEqual([
      { title: 'Inline Channel', url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv', favicon_url: server.url('/favicon.ico') },
    ]);

    serve(
      '/@linked',
      `<html><head><meta property="og:url" content="https://www.youtube.com/@linked"><meta property="og:title" content="Linked">
        <link rel="alternate" type="application/rss+xml" title="RSS" href="https://www.youtube.com/feeds/videos.xml?channel_id=UC1111111111111111111111">
        <meta itemprop="channelId" content="UC2222222222222222222222"></head></html>`,
      'text/html',
    );
    expect((await discoverFeeds(server.url('/@linked'), fetcher, inlineParsers))[0]).toMatchObject({
      title: 'Linked',
      url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UC1111111111111111111111',
    });
  });
});
