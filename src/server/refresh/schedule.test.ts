import { describe, expect, it } from 'vitest';
import { errorIntervalMinutes, nextCheckAt, successIntervalMinutes } from './schedule.js';

const bounds = { minIntervalMinutes: 15, maxIntervalMinutes: 1440 };
const now = new Date('2026-11-22T12:00:00.000Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

describe('successIntervalMinutes', () => {
  it('follows the posting frequency', () => {
    const hourly = [0, 60, 120, 180, 240].map(ago);
    expect(successIntervalMinutes(hourly, now, bounds, null)).toBe(60);
    const daily = [0, 1440, 2880].map(ago);
    expect(successIntervalMinutes(daily, now, bounds, null)).toBe(1440);
  });

  it('stays within the configured bounds', () => {
    const burst = [0, 1, 2, 3].map(ago);
    expect(successIntervalMinutes(burst, now, bounds, null)).toBe(15);
    const rare = [0, 20_000, 40_000].map(ago);
    expect(successIntervalMinutes(rare, now, bounds, null)).toBe(1440);
  });

  it('checks a feed that went quiet less often, but a night of silence does not make a news feed slow', () => {
    const quietNight = [480, 510, 540, 570].map(ago); // every 30 min until 8 h ago
    expect(successIntervalMinutes(quietNight, now, bounds, null)).toBe(120);
    const dormant = [10_000, 10_030].map(ago);
    expect(successIntervalMinutes(dormant, now, bounds, null)).toBe(1440);
  });

  it('checks hourly without dates, never more often than the feed allows (ttl), and ignores future dates', () => {
    expect(successIntervalMinutes([], now, bounds, null)).toBe(60);
    expect(successIntervalMinutes([0, 15, 30].map(ago), now, bounds, 180)).toBe(180);
    const future = new Date(now.getTime() + 86_400_000).toISOString();
    expect(successIntervalMinutes([future, ago(0)], now, bounds, null)).toBe(60);
  });
});

describe('errorIntervalMinutes', () => {
  it('backs off exponentially up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 30].map((n) => errorIntervalMinutes(n, bounds))).toEqual([15, 30, 60, 120, 240, 480, 960, 1440, 1440]);
  });
  it('waits at least as long as Retry-After says', () => {
    expect(errorIntervalMinutes(1, bounds, 7200)).toBe(120);
    expect(errorIntervalMinutes(5, bounds, 60)).toBe(240);
  });
});

describe('nextCheckAt', () => {
  it('spreads checks by at most ±10 %', () => {
    expect(nextCheckAt(now, 60, () => 0)).toBe(new Date(now.getTime() + 54 * 60_000).toISOString());
    expect(nextCheckAt(now, 60, () => 1)).toBe(new Date(now.getTime() + 66 * 60_000).toISOString());
  });
});
