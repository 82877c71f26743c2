import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import { normalizeFeedUrl } from '../feeds/feed-url.js';
import { subscribedUrls } from '../feeds/subscriptions.repository.js';

/**
 * The built-in feed catalog (dashboard.md §2 "Feed catalog", §3 "Catalog category"): the catalog itself, and which
 * of its entries the user subscribes to (docs/decisions.md "The catalog's subscribed entries").
 */

interface LoadedCatalog {
  /** GET /api/catalog's body and its entity tag: the data changes only with a release. */
  json: string;
  etag: string;
  /** Every address the catalog lists, once, in catalog order, with its normal form (feeds/feed-url.ts). */
  entries: readonly { xmlUrl: string; url: string }[];
  /** The normal forms, once each: what the subscribed check asks the database about. */
  urls: readonly string[];
}

async function loadCatalog(): Promise<LoadedCatalog> {
  const { CATALOG } = await import('./catalog.js');
  const json = JSON.stringify({ categories: CATALOG });
  const seen = new Set<string>();
  const entries: { xmlUrl: string; url: string }[] = [];
  for (const { xmlUrl } of CATALOG.flatMap((c) => c.feeds)) {
    const url = normalizeFeedUrl(xmlUrl);
    if (url === null || seen.has(xmlUrl)) continue;
    seen.add(xmlUrl);
    entries.push({ xmlUrl, url });
  }
  return {
    json,
    etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    entries,
    urls: [...new Set(entries.map((e) => e.url))],
  };
}

export class CatalogService {
  /**
   * Loaded on the first request, not at start: most processes never serve it (docs/decisions.md "Process memory:
   * idle and peak"). Read-only once loaded; a failed load is tried again by the next request.
   */
  private loaded: Promise<LoadedCatalog> | null = null;

  constructor(private readonly deps: { db: Db }) {}

  private load(): Promise<LoadedCatalog> {
    return (this.loaded ??= loadCatalog().catch((err: unknown) => {
      this.loaded = null;
      throw err;
    }));
  }

  /** GET /api/catalog as JSON text, with its entity tag. */
  async catalog(): Promise<{ json: string; etag: string }> {
    const { json, etag } = await this.load();
    return { json, etag };
  }

  /**
   * The catalog's addresses (as the catalog lists them, in its order) that match one of the user's subscriptions,
   * matched as subscribing matches a feed the user reads already (FeedsService.add): by the normal form of the
   * address. With an entity tag of the answer, so an unchanged list costs the browser a 304.
   */
  async subscribed(userId: number): Promise<{ subscribed: string[]; etag: string }> {
    const { entries, urls } = await this.load();
    const have = await subscribedUrls(this.deps.db, userId, urls);
    const subscribed = entries.filter((e) => have.has(e.url)).map((e) => e.xmlUrl);
    // sha1, as the feed summaries': plenty for telling two versions of one user's list apart.
    return { subscribed, etag: `"${createHash('sha1').update(JSON.stringify(subscribed)).digest('base64url')}"` };
  }
}
