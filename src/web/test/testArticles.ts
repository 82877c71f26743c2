import { vi } from 'vitest';
import type { Article, ArticlePage } from '../../common/api.js';

/** An article as the list endpoints answer it, for the web tests. Newer ids are newer articles. */
export function makeArticle(overrides: Partial<Article> & Pick<Article, 'id'>): Article {
  const minute = String(overrides.id % 60).padStart(2, '0');
  return {
    url: `https://example.org/posts/${overrides.id}`,
    title: `Article ${overrides.id}`,
    summary: `First sentence of ${overrides.id}. Second one. Third one. Fourth one is hidden.`,
    content: `<p>Content of article ${overrides.id}.</p>`,
    author: null,
    image_url: null,
    published_at: `2026-11-20T10:${minute}:00.000Z`,
    feed_id: 1,
    feed_title: 'Feed 1',
    feed_favicon: null,
    feed_favicon_base64: null,
    feed_favicon_type: null,
    is_read: false,
    is_favorite: false,
    in_reading_list: false,
    ...overrides,
  };
}

export function page(articles: Article[], opts: Partial<ArticlePage> = {}): ArticlePage {
  const total = opts.total ?? articles.length;
  return {
    articles,
    total,
    current_page: opts.current_page ?? 1,
    pages: opts.pages ?? Math.max(1, Math.ceil(total / 20)),
    per_page: 20,
    active_filters: opts.active_filters ?? [],
    has_active_filters: (opts.active_filters ?? []).length > 0,
  };
}

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type Route = (req: Request) => [number, unknown?] | undefined;

/**
 * A fetch stub that hands every request to `route` (first non-undefined answer wins; none: 404) and records
 * the requests, with the query string parsed, so tests can assert on paths and parameters.
 */
export function stubApi(route: Route): Request[] {
  const requests: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const req: Request = {
        method: init.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      requests.push(req);
      const answer = route(req) ?? [404, { message: 'Not found.', code: 'NOT_FOUND' }];
      const [status, payload] = answer;
      return new Response(payload === undefined ? '' : JSON.stringify(payload), { status });
    }),
  );
  return requests;
}

/** IntersectionObserver for jsdom: tests call `intersect()` to bring every observed element into view. */
export function stubIntersectionObserver() {
  const observers = new Set<{ cb: IntersectionObserverCallback; els: Element[]; options?: IntersectionObserverInit }>();
  class FakeObserver {
    private entry: { cb: IntersectionObserverCallback; els: Element[]; options?: IntersectionObserverInit };
    constructor(cb: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { cb, els: [], options };
      observers.add(this.entry);
    }
    observe(el: Element) {
      this.entry.els.push(el);
    }
    unobserve() {}
    disconnect() {
      observers.delete(this.entry);
    }
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  return {
    options: () => [...observers].map((o) => o.options),
    intersect() {
      for (const o of [...observers]) {
        o.cb(
          o.els.map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry),
          o as unknown as IntersectionObserver,
        );
      }
    },
  };
}
