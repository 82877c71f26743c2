import { describe, expect, it } from 'vitest';
import { formatDateTime, formatPublished, parseUtc } from './dates.js';

describe('dates', () => {
  it('reads zone-less wire times as UTC', () => {
    expect(parseUtc('2026-11-22 17:48:00').toISOString()).toBe('2026-11-22T17:48:00.000Z');
    expect(parseUtc('2026-11-22T17:48:00Z').toISOString()).toBe('2026-11-22T17:48:00.000Z');
    expect(parseUtc('2026-11-22T17:48:00+01:00').toISOString()).toBe('2026-11-22T16:48:00.000Z');
  });

  it('has one style per language: German day first with 24 h, English day first with 24 h', () => {
    expect(formatDateTime('2026-11-02T17:48:00Z', 'de', 'UTC')).toBe('02.11.2026, 17:48');
    expect(formatDateTime('2026-11-02T07:05:00Z', 'en', 'UTC')).toBe('2 Nov 2026, 07:05');
    expect(formatDateTime('2026-11-22T17:48:00Z', 'en-US', 'UTC')).toBe('22 Nov 2026, 17:48');
    expect(formatDateTime('2026-11-22T17:48:00Z', 'de-DE', 'Europe/Berlin')).toBe('22.11.2026, 18:48');
  });

  it('gives an unreadable value back as it is', () => {
    expect(formatDateTime('soon', 'en')).toBe('soon');
  });

  it('shows the last day relative and older dates in the same style as everywhere else', () => {
    const now = new Date('2026-11-22T18:00:00Z');
    expect(formatPublished('2026-11-22T15:00:00Z', 'en', now, 'UTC')).toEqual({ text: '3 hours ago', full: '22 Nov 2026, 15:00', iso: '2026-11-22T15:00:00.000Z' });
    expect(formatPublished('2026-11-22T15:00:00Z', 'de', now, 'UTC').text).toBe('vor 3 Stunden');
    expect(formatPublished('2026-11-20T09:30:00Z', 'de', now, 'UTC').text).toBe('20.11.2026, 09:30');
    expect(formatPublished('nonsense', 'en', now)).toEqual({ text: '', full: '', iso: '' });
  });
});
