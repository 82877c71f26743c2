import type { ExtractContentResponse } from '../../common/api.js';
import { FEED_ERROR_CODES, type FeedErrorCode } from '../../common/feed-errors.js';
import type { Db } from '../db/database.js';
import type { Fetcher } from '../reader/fetch/index.js';
import { ReaderError } from '../reader/types.js';
import { articleNotFound } from './articles.service.js';
import type { ParsePool } from '../refresh/document-pool.js';
import * as repo from './reading.repository.js';

/**
 * POST /api/extract-article-content (dashboard.md §2 "Extended mode", §4 "entering extended loads the full
 * content once", §8 "Full content load failure"): the article page, fetched through the SSRF-guarded fetcher,
 * reduced by Readability and sanitised (reader/extract). Only the article's own URL is ever fetched, never one the
 * client names. The outcome is cached on the article for every reader: a success for good, a failure for
 * RETRY_AFTER_MS (the page may come back), during which the stored content is answered with the warning.
 */
export const RETRY_AFTER_MS = 60 * 60_000;
/** Article pages above this are not read (a page's HTML is rarely over 2 MB; feeds may be larger). */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
const HTML_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1';
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;

export interface ExtractServiceDeps {
  db: Db;
  fetcher: Pick<Fetcher, 'fetch'>;
  /** Readability runs on the worker pool with a time limit, never on the main thread (docs/decisions.md "Worker pool"). */
  pool: ParsePool;
  now: () => Date;
  log: { warn(obj: object, msg: string): void };
}

type ExtractCode = Extract<FeedErrorCode, `EXTRACT_${string}`>;

class ExtractFailure extends Error {
  constructor(
    readonly code: ExtractCode,
    message: string,
  ) {
    super(message);
  }
}

export class ExtractService {
  constructor(private readonly deps: ExtractServiceDeps) {}

  async extract(userId: number, articleId: number): Promise<ExtractContentResponse> {
    const { db } = this.deps;
    const article = await repo.findUserArticle(db, userId, articleId);
    if (!article) throw articleNotFound();
    const own = article.content ?? article.summary ?? '';
    if (article.extracted_content !== null) return { content: article.extracted_content, warning: null, error: null, cached: true };
    const now = this.deps.now();
    if (article.extract_error && article.extracted_at && now.getTime() - Date.parse(article.extracted_at) < RETRY_AFTER_MS) {
      const code = article.extract_error as ExtractCode;
      return { content: own, warning: code, error: FEED_ERROR_CODES[code] ?? FEED_ERROR_CODES.EXTRACT_FAILED, cached: true };
    }
    try {
      if (!article.url) throw new ExtractFailure('EXTRACT_NO_URL', FEED_ERROR_CODES.EXTRACT_NO_URL);
      const content = await this.fetchReadable(article.url);
      await repo.saveExtraction(db, article.id, { content }, now.toISOString());
      return { content, warning: null, error: null, cached: false };
    } catch (err) {
      const failure = err instanceof ExtractFailure ? err : this.failureOf(err, article.url);
      await repo.saveExtraction(db, article.id, { error: failure.code }, now.toISOString());
      return { content: own, warning: failure.code, error: failure.message, cached: false };
    }
  }

  private async fetchReadable(url: string): Promise<string> {
    const result = await this.deps.fetcher.fetch(url, { accept: HTML_ACCEPT, maxBytes: MAX_PAGE_BYTES });
    if (result.status !== 'ok') throw new ExtractFailure('EXTRACT_FETCH_FAILED', 'The page answered without content.');
    if (!result.contentType || !HTML_TYPES.test(result.contentType.trim())) {
      throw new ExtractFailure('EXTRACT_NOT_HTML', `${FEED_ERROR_CODES.EXTRACT_NOT_HTML} (${result.contentType ?? 'no content type'})`);
    }
    const article = await this.deps.pool.run('extract', { body: result.body, url: result.url, contentType: result.contentType });
    if (!article) throw new ExtractFailure('EXTRACT_FAILED', FEED_ERROR_CODES.EXTRACT_FAILED);
    return article.content;
  }

  private failureOf(err: unknown, url: string | null): ExtractFailure {
    // A page over the caps or the time limit (reader/extract, document-pool.ts) is said so; the feed's content shows.
    if (err instanceof ReaderError && err.code === 'EXTRACT_TOO_COMPLEX') return new ExtractFailure(err.code, err.message);
    if (err instanceof ReaderError) return new ExtractFailure('EXTRACT_FETCH_FAILED', `${FEED_ERROR_CODES.EXTRACT_FETCH_FAILED} ${err.message}`);
    this.deps.log.warn({ err, url }, 'article extraction failed unexpectedly');
    return new ExtractFailure('EXTRACT_FAILED', FEED_ERROR_CODES.EXTRACT_FAILED);
  }
}
