/**
 * The feed summaries this process answered last, per user (docs/decisions.md "Feed summaries: the list's version"):
 * an answer is served again while the user's feed-list version is the one it was read at and no timed mute in it
 * has ended. Bounded by the bytes of the texts it holds; the user used least recently leaves first. One per
 * FeedsService, so per app: nothing is shared between processes or test apps, and every entry is one user's.
 */
export interface KeptSummaries {
  json: string;
  etag: string;
  version: number;
  /** ISO time the first timed mute in it ends (the answer changes then), or null. */
  muteEnds: string | null;
}

/** What the cache holds at most: 16 MB of text is about twenty users with 12,000 feeds, or 1,000 with 250. */
export const SUMMARIES_CACHE_BYTES = 16 * 1024 * 1024;

export class SummariesCache {
  private readonly entries = new Map<number, KeptSummaries>();
  private bytes = 0;

  constructor(private readonly maxBytes = SUMMARIES_CACHE_BYTES) {}

  /** The user's kept answer if it is still what the database would say at `now` with the list at `version`. */
  get(userId: number, version: number, now: string): KeptSummaries | undefined {
    const kept = this.entries.get(userId);
    if (!kept) return undefined;
    if (kept.version !== version || (kept.muteEnds !== null && now >= kept.muteEnds)) {
      this.delete(userId);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(userId);
    this.entries.set(userId, kept);
    return kept;
  }

  /** Whether the cache holds anything of the user (then the version is worth reading first). */
  has(userId: number): boolean {
    return this.entries.has(userId);
  }

  set(userId: number, entry: KeptSummaries): void {
    this.delete(userId);
    const size = entry.json.length;
    if (size > this.maxBytes) return;
    this.entries.set(userId, entry);
    this.bytes += size;
    for (const [oldest, kept] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= kept.json.length;
    }
  }

  private delete(userId: number): void {
    const kept = this.entries.get(userId);
    if (!kept) return;
    this.entries.delete(userId);
    this.bytes -= kept.json.length;
  }

  /** Bytes of text held (tests). */
  get size(): number {
    return this.bytes;
  }
}
