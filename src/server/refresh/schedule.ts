/**
 * When to check a feed next ("Refresh"): from its posting frequency, within configured bounds
 * (default 15 min to 24 h), exponentially later after errors, and never sooner than the server asked
 * (Retry-After, RFC 9110 §10.2.3) or the feed allows (RSS ttl, sy:updatePeriod).
 */
export interface ScheduleBounds {
  minIntervalMinutes: number;
  maxIntervalMinutes: number;
}

const MINUTE = 60_000;
/** How many recent articles define the posting frequency. */
export const FREQUENCY_SAMPLE = 10;

/**
 * A feed's posting frequency, as the feed row keeps it (migration 0010): the average gap between its newest posts
 * in minutes and the newest post's time. Stored when a document is stored, so a 304 (nothing new) schedules the
 * next check without reading the feed's articles (docs/decisions.md "Refresh engine: storing in groups").
 * `gapMinutes` null: not known (a feed stored before 0010); `newestAt` null with a gap: fewer than two dated posts.
 */
export interface PostingFrequency {
  gapMinutes: number | null;
  newestAt: string | null;
}

/** The posting frequency of these publication times (any order; future ones are ignored). */
export function postingFrequency(publishedTimes: string[], now: Date): PostingFrequency {
  const times = publishedTimes
    .map((t) => Date.parse(t))
    .filter((t) => Number.isFinite(t) && t <= now.getTime())
    .sort((a, b) => b - a)
    .slice(0, FREQUENCY_SAMPLE);
  if (times.length < 2) return { gapMinutes: 0, newestAt: null };
  return { gapMinutes: (times[0] - times[times.length - 1]) / (times.length - 1) / MINUTE, newestAt: new Date(times[0]).toISOString() };
}

/**
 * The interval after a successful check, from the feed's posting frequency. The average gap between recent posts
 * is the interval: a feed posting hourly is checked hourly, a daily one daily. A feed that has gone quiet is checked
 * less often the longer it has been quiet (a quarter of its silence: a news feed quiet overnight is still checked
 * every two hours, a dormant blog once a day). Without dates (or with one article) the feed is checked every hour,
 * bounded.
 */
export function intervalFromFrequency(frequency: PostingFrequency, now: Date, bounds: ScheduleBounds, ttlMinutes: number | null): number {
  let minutes = 60;
  if (frequency.gapMinutes !== null && frequency.newestAt !== null) {
    const silence = (now.getTime() - Date.parse(frequency.newestAt)) / MINUTE;
    minutes = Math.max(frequency.gapMinutes, silence / 4);
  }
  if (ttlMinutes && ttlMinutes > 0) minutes = Math.max(minutes, ttlMinutes);
  return clamp(minutes, bounds);
}

/** The interval after a successful check; `publishedTimes` are the feed's newest publication times (any order). */
export function successIntervalMinutes(publishedTimes: string[], now: Date, bounds: ScheduleBounds, ttlMinutes: number | null): number {
  return intervalFromFrequency(postingFrequency(publishedTimes, now), now, bounds, ttlMinutes);
}

/** The interval after the n-th error in a row (n ≥ 1): min × 2^(n-1), at most max; at least Retry-After. */
export function errorIntervalMinutes(errorCount: number, bounds: ScheduleBounds, retryAfterSeconds?: number): number {
  const backoff = bounds.minIntervalMinutes * 2 ** Math.min(Math.max(errorCount, 1) - 1, 20);
  const minutes = clamp(backoff, bounds);
  return retryAfterSeconds ? Math.max(minutes, retryAfterSeconds / 60) : minutes;
}

/**
 * now + minutes, spread by ±10 % so feeds added together do not stay in lock-step; never before `notBeforeMinutes`
 * (a server's Retry-After is a floor, not a target to spread around).
 */
export function nextCheckAt(now: Date, minutes: number, random: () => number = Math.random, notBeforeMinutes = 0): string {
  const jitter = 1 + (random() - 0.5) * 0.2;
  return new Date(now.getTime() + Math.max(minutes * jitter, notBeforeMinutes) * MINUTE).toISOString();
}

function clamp(minutes: number, bounds: ScheduleBounds): number {
  return Math.min(Math.max(minutes, bounds.minIntervalMinutes), bounds.maxIntervalMinutes);
}
