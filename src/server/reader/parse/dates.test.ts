import { describe, expect, it } from 'vitest';
import { parseDate } from './dates.js';

const NOW = Date.UTC(2024, 5, 15, 12, 0, 0);
const iso = (s: string) => parseDate(s, NOW);

describe('parseDate', () => {
  it.each([
    // RFC 822 / 2822 (RSS pubDate)
    ['Mon, 08 Jan 2024 10:20:30 GMT', '2024-01-08T10:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 +0000', '2024-01-08T10:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 EST', '2024-01-08T15:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 EDT', '2024-01-08T14:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 PST', '2024-01-08T18:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 PDT', '2024-01-08T17:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 GMT+2', '2024-01-08T08:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 UTC-05:00', '2024-01-08T15:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 +02:00', '2024-01-08T08:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 -0330', '2024-01-08T13:50:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 +0100 (CET)', '2024-01-08T09:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30', '2024-01-08T10:20:30.000Z'], // missing zone: UTC
    ['Mon, 8 Jan 2024 10:20:30 GMT', '2024-01-08T10:20:30.000Z'], // single-digit day
    ['8 Jan 2024 10:20:30 GMT', '2024-01-08T10:20:30.000Z'], // no weekday
    ['Fri, 08 Jan 2024 10:20:30 GMT', '2024-01-08T10:20:30.000Z'], // wrong weekday is ignored
    ['Mon, 08 Jan 24 10:20:30 GMT', '2024-01-08T10:20:30.000Z'], // two-digit year
    ['Mon, 08 Jan 99 10:20:30 GMT', '1999-01-08T10:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20 GMT', '2024-01-08T10:20:00.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 Z', '2024-01-08T10:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 A', '2024-01-08T10:20:30.000Z'], // military zone: RFC 2822 §4.3 says UTC
    ['Mon, 08 Jan 2024 10:20:30 XYZ', '2024-01-08T10:20:30.000Z'], // unknown zone: UTC
    ['Monday, 08 January 2024 10:20:30 GMT', '2024-01-08T10:20:30.000Z'],
    ['08-Jan-2024 10:20:30 GMT', '2024-01-08T10:20:30.000Z'],
    // Other languages
    ['Mo, 08 Jan 2024 10:20:30 +0100', '2024-01-08T09:20:30.000Z'],
    ['Montag, 8. Januar 2024 10:20 MEZ', '2024-01-08T09:20:00.000Z'],
    ['Di, 05 Mär 2024 08:00:00 +0100', '2024-03-05T07:00:00.000Z'],
    ['Do, 03 Okt 2023 09:30:00 +0200', '2023-10-03T07:30:00.000Z'],
    ['24 Dez 2023 18:00:00 +0100', '2023-12-24T17:00:00.000Z'],
    ['lun., 8 janv. 2024 10:20:30 +0100', '2024-01-08T09:20:30.000Z'],
    ['Mar, 05 Mar 2024 10:00:00 +0100', '2024-03-05T09:00:00.000Z'], // French mardi + March
    ['5 de enero de 2024', null], // Spanish long form is not supported: null, not a wrong date
    // ISO 8601 / RFC 3339
    ['2024-01-08T10:20:30Z', '2024-01-08T10:20:30.000Z'],
    ['2024-01-08T10:20:30+05:30', '2024-01-08T04:50:30.000Z'],
    ['2024-01-08T10:20:30+0530', '2024-01-08T04:50:30.000Z'],
    ['2024-01-08T10:20:30-08', '2024-01-08T18:20:30.000Z'],
    ['2024-01-08T10:20:30.123456789Z', '2024-01-08T10:20:30.123Z'],
    ['2024-01-08T10:20:30', '2024-01-08T10:20:30.000Z'],
    ['2024-01-08T10:20Z', '2024-01-08T10:20:00.000Z'],
    ['2024-01-08', '2024-01-08T00:00:00.000Z'],
    ['2024-1-8', '2024-01-08T00:00:00.000Z'],
    ['20240108T102030Z', '2024-01-08T10:20:30.000Z'],
    ['  2024-01-08T10:20:30Z  ', '2024-01-08T10:20:30.000Z'],
    // Common broken forms
    ['2024-01-08 10:20:30', '2024-01-08T10:20:30.000Z'],
    ['2024-01-08 10:20:30 +0100', '2024-01-08T09:20:30.000Z'],
    ['2024/01/08 10:20', '2024-01-08T10:20:00.000Z'],
    ['Mon, 8 Jan 2024 10:20', '2024-01-08T10:20:00.000Z'],
    ['1704709230', '2024-01-08T10:20:30.000Z'],
    ['1704709230000', '2024-01-08T10:20:30.000Z'],
    ['January 8, 2024', '2024-01-08T00:00:00.000Z'],
    ['January 8, 2024 10:20 PM', '2024-01-08T22:20:00.000Z'],
    ['Jan 8, 2024 12:05 AM', '2024-01-08T00:05:00.000Z'],
    ['Mon Jan 08 2024 10:20:30 GMT+0100 (Central European Standard Time)', '2024-01-08T09:20:30.000Z'],
    ['Mon Jan  8 10:20:30 2024', '2024-01-08T10:20:30.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(iso(input)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'yesterday',
    'TBD',
    '2024-13-01',
    '2024-02-30',
    'Sat, 31 Feb 2024 10:00:00 GMT',
    'Mon, 08 Jan 2024 25:00:00 GMT',
    'Mon, 08 Jan 2024 10:61:00 GMT',
    'Mon, 08 Foo 2024 10:20:30 GMT',
    'Mon, 08 Jan 2024 10:20:30 +1900',
    '2024-01-08T10:20:30 and then some',
    '12345',
  ])('%j is not a date → null', (input) => {
    expect(iso(input)).toBeNull();
  });

  it('refuses implausible dates: before 1990 and more than two days in the future', () => {
    expect(iso('Thu, 01 Jan 1970 00:00:00 GMT')).toBeNull();
    expect(iso('1989-12-31T23:59:59Z')).toBeNull();
    expect(iso('1990-01-01T00:00:00Z')).toBe('1990-01-01T00:00:00.000Z');
    // now = 2024-06-15T12:00Z: up to two days ahead is accepted (clock skew, time zones), later is not.
    expect(iso('2024-06-17T11:59:00Z')).toBe('2024-06-17T11:59:00.000Z');
    expect(iso('2024-06-17T12:01:00Z')).toBeNull();
    expect(iso('Sat, 01 Jan 2999 00:00:00 GMT')).toBeNull();
  });

  it('handles non-strings and absurdly long input without work', () => {
    expect(parseDate(undefined)).toBeNull();
    expect(parseDate(null)).toBeNull();
    expect(parseDate(`2024-01-08T10:20:30Z${'0'.repeat(10_000)}`)).toBeNull();
  });

  it('is linear on adversarial input', () => {
    const nasty = ['1 '.repeat(50_000), `Mon, ${'8 '.repeat(50_000)}`, `${'-'.repeat(100_000)}Z`];
    const start = performance.now();
    for (const s of nasty) parseDate(s);
    expect(performance.now() - start).toBeLessThan(100);
  });
});
