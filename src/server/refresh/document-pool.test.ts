import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.js';
import { ReaderError } from '../reader/types.js';
import { item, rss } from '../test/feed-server.js';
import { AHEAD_MAX_BYTES, DOCUMENTS_AHEAD, documentWorkerAvailable, inlineProcessor, WorkerPoolProcessor } from './document-pool.js';
import type { DocumentInput, StoredDocument } from './process-document.js';
import { storedString } from '../articles/article-text.js';
import type { StoredItem } from '../articles/articles.repository.js';

/**
 * The compiled worker (npm test builds before running the tests): the pool is what `feeder all` and `feeder worker`
 * use, so it is tested as it runs there.
 */
const WORKER = new URL('../../../dist/server/refresh/document-worker.js', import.meta.url);

/** A document with its items' texts as strings, however they came. */
const withStrings = (doc: StoredDocument): StoredDocument => {
  const strings = (i: StoredItem): StoredItem => ({
    ...i,
    content: storedString(i.content),
    summary: storedString(i.summary),
    ...(i.text === undefined ? {} : { text: storedString(i.text) }),
    ...(i.teaser === undefined ? {} : { teaser: storedString(i.teaser) }),
  });
  // The buffers the answer moved (pack-texts.ts) are what the views above were read from.
  const { buffers: _moved, ...rest } = doc;
  return { ...rest, fresh: doc.fresh.map(strings), changed: doc.changed.map(strings) };
};

const input = (body: string, known = new Map<string, string>()): DocumentInput => ({
  body: Buffer.from(body),
  url: 'https://example.com/feed.xml',
  contentType: 'application/rss+xml',
  known,
  now: Date.parse('2026-11-22T12:00:00Z'),
});

/**
 * A feed (22 MB) that needs far more than a 32 MB heap cap while it is parsed (it stands for one over WORKER_HEAP_MB).
 * The cap leaves a thread room enough to load its modules and parse a small feed under any garbage-collection timing
 * (16 MB did not, now and then, on a loaded machine).
 */
const TEST_HEAP_MB = 32;
const HUGE_FEED = rss(
  'Huge',
  Array.from({ length: 16000 }, (_, n) => item(n + 1, { description: `<p>${'Lots of text in a huge feed. '.repeat(40)}</p>` })),
);

describe('document processing on worker threads', () => {
  it('finds the compiled worker (run `npm run build` first)', () => {
    expect(documentWorkerAvailable(WORKER)).toBe(true);
  });

  it('answers exactly as inline processing does, for many documents at once', async () => {
    const pool = new WorkerPoolProcessor(2, WORKER);
    try {
      const docs = Array.from({ length: 12 }, (_, n) =>
        input(rss(`Feed ${n}`, [item(n + 2), item(n + 1, { description: '<p onclick="x()">Hi<script>alert(1)</script></p>' })])),
      );
      const [pooled, inline] = await Promise.all([Promise.all(docs.map((d) => pool.process(d))), Promise.all(docs.map((d) => inlineProcessor.process(d)))]);
      // The threads' answers carry their new texts as UTF-8 bytes (pack-texts.ts): the same texts.
      expect(pooled.map(withStrings)).toEqual(inline);
      expect(pooled[3].feed.title).toBe('Feed 3');
      expect(pooled[3].fresh).toHaveLength(2);
      expect(pooled[3].fresh[1].content).toBeInstanceOf(Uint8Array);
      expect(pooled[3].buffers).toEqual([(pooled[3].fresh[1].content as Uint8Array).buffer]);
      expect(storedString(pooled[3].fresh[1].content)).toBe('<p>Hi</p>');
    } finally {
      await pool.close();
    }
  });

  it('sanitises only new and edited items', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const first = await pool.process(input(rss('Blog', [item(2), item(1)])));
      const known = new Map(first.fresh.map((i) => [i.guidHash, i.contentHash]));
      const second = await pool.process(input(rss('Blog', [item(3), item(2, { title: 'Edited' }), item(1)]), known));
      expect(second.fresh.map((i) => i.title)).toEqual(['Item 3']);
      expect(second.changed.map((i) => i.title)).toEqual(['Edited']);
      expect(second.seen).toHaveLength(3);
    } finally {
      await pool.close();
    }
  });

  it('passes reader errors through with their code, and keeps working after them', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const err = await pool.process(input('<html><body>no feed here</body></html>')).catch((e) => e);
      expect(err).toBeInstanceOf(ReaderError);
      expect(err.code).toBe('PARSE_NOT_A_FEED');
      const billion = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><rss version="2.0"><channel><title>&lol2;</title></channel></rss>`;
      expect((await pool.process(input(billion)).catch((e) => e)).code).toBe('PARSE_ENTITY_LIMIT');
      expect((await pool.process(input(rss('Fine', [item(1)])))).feed.title).toBe('Fine');
    } finally {
      await pool.close();
    }
  });

  it('ends a job at its time limit with a clear code, replaces the worker, and runs the next job', async () => {
    // Within the extraction caps but slow for Readability (0.7 s on a quiet 2-core machine, seconds under load):
    // well over a 0.25 s limit however fast the machine is.
    const para = `<p>${'Readable text of some length. '.repeat(10)}</p>`;
    const slow = `<html><body>${Array.from({ length: 340 }, () => `${'<div>'.repeat(140)}${para}${'</div>'.repeat(140)}`).join('')}</body></html>`;
    const page = (html: string) => ({ body: Buffer.from(html), url: 'https://example.com/a', contentType: 'text/html' });
    const pool = new WorkerPoolProcessor(1, WORKER, { extract: 250 });
    try {
      const err = await pool.run('extract', page(slow)).catch((e) => e);
      expect(err).toBeInstanceOf(ReaderError);
      expect(err.code).toBe('EXTRACT_TOO_COMPLEX');
      expect(err.message).toMatch(/over 0\.25 s/);
      // The next job gets a fresh worker and its own answer, not the ended worker's. (Not another extraction: a
      // fresh worker loads linkedom and Readability within the job's time, which a loaded machine cannot do in
      // 0.25 s.)
      expect((await pool.process(input(rss('After', [item(1)])))).feed.title).toBe('After');
    } finally {
      await pool.close();
    }
  });

  it('fails a feed document past its time limit with PARSE_TIMEOUT, which the feed records', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER, { document: 1 });
    try {
      const err = await pool.process(input(rss('Slow', [item(1)]))).catch((e) => e);
      expect(err).toBeInstanceOf(ReaderError);
      expect(err.code).toBe('PARSE_TIMEOUT');
    } finally {
      await pool.close();
    }
  });

  it("fails a feed too big for its worker's heap cap alone, with a clear error, and keeps serving the others", async () => {
    const pool = new WorkerPoolProcessor(2, WORKER, {}, () => {}, TEST_HEAP_MB);
    try {
      const [err, fine] = await Promise.all([pool.process(input(HUGE_FEED)).catch((e) => e), pool.process(input(rss('Fine', [item(1)])))]);
      expect(err).toBeInstanceOf(ReaderError);
      expect(err.code).toBe('PARSE_INVALID');
      expect(err.message).toMatch(/too large .* more than 32 MB of memory/);
      expect(fine.feed.title).toBe('Fine');
      // The ended worker is replaced: the pool goes on with both workers.
      const after = await Promise.all([1, 2, 3].map((n) => pool.process(input(rss(`After ${n}`, [item(n)])))));
      expect(after.map((d) => d.feed.title)).toEqual(['After 1', 'After 2', 'After 3']);
    } finally {
      await pool.close();
    }
  });

  it('posts the next document to a busy thread ahead, and answers every job with its own result in order', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const docs = Array.from({ length: DOCUMENTS_AHEAD + 4 }, (_, n) => input(rss(`Feed ${n}`, [item(n + 1)])));
      const answers = docs.map((d) => pool.process(d));
      // One document runs, DOCUMENTS_AHEAD are posted behind it, the rest wait for the thread.
      expect(pool.queued).toBe(3);
      expect((await Promise.all(answers)).map((d) => d.feed.title)).toEqual(docs.map((_, n) => `Feed ${n}`));
      expect(pool.queued).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('lets a request job go before queued documents, never behind one posted ahead', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const onThread = 1 + DOCUMENTS_AHEAD;
      const docs = Array.from({ length: onThread + 1 }, (_, n) => pool.process(input(rss(`Feed ${n}`, [item(n + 1)]))));
      const order: string[] = [];
      docs.forEach((d, n) => void d.then(() => order.push(`feed ${n}`)));
      const svg = pool.run('svg', '<svg xmlns="http://www.w3.org/2000/svg"><circle r="8"/></svg>').then(() => order.push('svg'));
      // The first feeds are on the thread; the icon waits for it, before the last feed.
      expect(pool.queued).toBe(2);
      await Promise.all([...docs, svg]);
      expect(order).toEqual([...Array.from({ length: onThread }, (_, n) => `feed ${n}`), 'svg', `feed ${onThread}`]);
    } finally {
      await pool.close();
    }
  });

  it('posts no large document ahead: it waits in the queue, behind a request that comes later', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const large = rss('Large', [item(1, { description: `<p>${'x'.repeat(AHEAD_MAX_BYTES)}</p>` })]);
      const order: string[] = [];
      const first = pool.process(input(rss('First', [item(1)]))).then(() => order.push('first'));
      const big = pool.process(input(large)).then(() => order.push('large'));
      expect(pool.queued).toBe(1);
      const svg = pool.run('svg', '<svg xmlns="http://www.w3.org/2000/svg"><circle r="8"/></svg>').then(() => order.push('svg'));
      await Promise.all([first, big, svg]);
      expect(order).toEqual(['first', 'svg', 'large']);
    } finally {
      await pool.close();
    }
  });

  it('gives a document posted ahead of one that ends its thread to the new thread, unharmed', async () => {
    // One thread with a small cap: the huge feed ends it; the small one was posted ahead of it on that thread.
    const pool = new WorkerPoolProcessor(1, WORKER, {}, () => {}, TEST_HEAP_MB);
    try {
      const hugeAnswer = pool.process(input(HUGE_FEED)).catch((e) => e);
      const fineAnswer = pool.process(input(rss('Fine', [item(1)])));
      expect(pool.queued).toBe(0);
      const err = await hugeAnswer;
      expect(err.code).toBe('PARSE_INVALID');
      expect((await fineAnswer).feed.title).toBe('Fine');
    } finally {
      await pool.close();
    }
  });

  it('refuses a page nested deeper than the extraction cap before building a DOM', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const deep = `<html><body>${'<div>'.repeat(2000)}<p>text</p>${'</div>'.repeat(2000)}</body></html>`;
      const err = await pool.run('extract', { body: Buffer.from(deep), url: 'https://example.com/a', contentType: 'text/html' }).catch((e) => e);
      expect(err.code).toBe('EXTRACT_TOO_COMPLEX');
      expect(err.message).toMatch(/nested more than 150/);
    } finally {
      await pool.close();
    }
  });

  it('passes AppErrors of the OPML parser through with their status and code', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const err = await pool.run('opml', Buffer.from('<rss version="2.0"></rss>')).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect([err.status, err.code]).toEqual([400, 'OPML_INVALID']);
      const doc = await pool.run('opml', Buffer.from('<opml version="2.0"><body><outline text="A" xmlUrl="https://a.example/feed"/></body></opml>'));
      expect(doc.entries.map((e) => e.xmlUrl)).toEqual(['https://a.example/feed']);
    } finally {
      await pool.close();
    }
  });

  it('sanitises SVG icons and scans pages for the icon finder and discovery', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    try {
      const svg = await pool.run('svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle r="8"/></svg>');
      expect(svg).toContain('<circle');
      expect(svg).not.toMatch(/alert|onload/);
      const page = await pool.run('page', {
        body: Buffer.from('<html><head><title>Blog</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head></html>'),
        url: 'https://example.com/',
        contentType: 'text/html',
      });
      expect([page.title, page.links.map((l) => l.href)]).toEqual(['Blog', ['https://example.com/feed.xml']]);
    } finally {
      await pool.close();
    }
  });

  describe('thread lifecycle', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('starts no thread before there is work, one per job at once, and ends them after the idle period', async () => {
      // Only the pool's own timers are faked (the idle period and the job time limit); the threads answer for real.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const pool = new WorkerPoolProcessor(2, WORKER, {}, () => {}, undefined, 1000);
      try {
        expect(pool.threads).toBe(0);
        expect((await pool.process(input(rss('One', [item(1)])))).feed.title).toBe('One');
        expect(pool.threads).toBe(1);
        const both = await Promise.all([pool.process(input(rss('A', [item(1)]))), pool.process(input(rss('B', [item(2)])))]);
        expect(both.map((d) => d.feed.title)).toEqual(['A', 'B']);
        expect(pool.threads).toBe(2);
        vi.advanceTimersByTime(999);
        expect(pool.threads).toBe(2);
        vi.advanceTimersByTime(1);
        expect(pool.threads).toBe(0);
        // The next job starts a thread again.
        expect((await pool.process(input(rss('Again', [item(3)])))).feed.title).toBe('Again');
        expect(pool.threads).toBe(1);
      } finally {
        await pool.close();
      }
    });

    it('keeps a thread that gets work within the idle period', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const pool = new WorkerPoolProcessor(1, WORKER, {}, () => {}, undefined, 1000);
      try {
        await pool.process(input(rss('First', [item(1)])));
        vi.advanceTimersByTime(900);
        await pool.process(input(rss('Second', [item(2)])));
        // The idle period counts again from the second job's end.
        vi.advanceTimersByTime(900);
        expect(pool.threads).toBe(1);
        vi.advanceTimersByTime(100);
        expect(pool.threads).toBe(0);
      } finally {
        await pool.close();
      }
    });
  });

  it('refuses new work once closed', async () => {
    const pool = new WorkerPoolProcessor(1, WORKER);
    await pool.close();
    await expect(pool.process(input(rss('Late', [])))).rejects.toThrow(/closed/);
  });
});

describe('processDocument', () => {
  it('strips campaign parameters from the article link, keeping the others', async () => {
    const doc = await inlineProcessor.process(input(rss('Blog', [item(1, { link: 'https://example.com/a?id=7&utm_source=rss&utm_medium=feed' })])));
    expect(doc.fresh[0].url).toBe('https://example.com/a?id=7');
  });
});
