import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { isoString, parseDate } from './dates.js';

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
    // US region names without S/D: the offset in force on that date
    ['Mon, 08 Jan 2024 10:20:30 ET', '2024-01-08T15:20:30.000Z'],
    ['Sat, 08 Jun 2024 10:20:30 ET', '2024-06-08T14:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 CT', '2024-01-08T16:20:30.000Z'],
    ['Sat, 08 Jun 2024 10:20:30 CT', '2024-06-08T15:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 MT', '2024-01-08T17:20:30.000Z'],
    ['Sat, 08 Jun 2024 10:20:30 PT', '2024-06-08T17:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 PT', '2024-01-08T18:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 AT', '2024-01-08T14:20:30.000Z'],
    ['Sun, 10 Mar 2024 01:30:00 ET', '2024-03-10T06:30:00.000Z'], // just before the switch to daylight time
    ['Sun, 10 Mar 2024 03:30:00 ET', '2024-03-10T07:30:00.000Z'], // just after it
    ['January 8, 2024 10:20 AM ET', '2024-01-08T15:20:00.000Z'],
    // IANA zone names
    ['Mon, 08 Jan 2024 10:20:30 Etc/GMT', '2024-01-08T10:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 America/Los_Angeles', '2024-01-08T18:20:30.000Z'],
    ['Sat, 08 Jun 2024 10:20:30 America/Los_Angeles', '2024-06-08T17:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 Europe/Berlin', '2024-01-08T09:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 Etc/GMT+5', '2024-01-08T15:20:30.000Z'], // POSIX sign: 5 hours behind
    ['2024-01-08T10:20:30 Asia/Tokyo', '2024-01-08T01:20:30.000Z'],
    ['Mon, 08 Jan 2024 10:20:30 Nowhere/Special', '2024-01-08T10:20:30.000Z'], // unknown name: UTC
    // W3C-DTF reduced precision and truncated ISO 8601
    ['2003-12', '2003-12-01T00:00:00.000Z'],
    ['2003', '2003-01-01T00:00:00.000Z'],
    ['2003-12-31T10', '2003-12-31T10:00:00.000Z'],
    ['2003-12-31T10Z', '2003-12-31T10:00:00.000Z'],
    ['2003-12-31T10+01:00', '2003-12-31T09:00:00.000Z'],
    ['2003-12-31T', '2003-12-31T00:00:00.000Z'],
    ['2003-335', '2003-12-01T00:00:00.000Z'], // ordinal date
    ['2004-366', '2004-12-31T00:00:00.000Z'],
    ['03-12-31', '2003-12-31T00:00:00.000Z'],
    ['--01-31', '2024-01-31T00:00:00.000Z'], // year-less: the year of now
    // asctime with a zone
    ['Sun Jul 15 01:16:00 +0000 2012', '2012-07-15T01:16:00.000Z'],
    ['Sun Jul 15 01:16:00 -0700 2012', '2012-07-15T08:16:00.000Z'],
    ['Sun Jul 15 01:16:00 PDT 2012', '2012-07-15T08:16:00.000Z'],
    // US numeric forms
    ['09/15/2014 4:20 pm PST', '2014-09-16T00:20:00.000Z'],
    ['09/15/2014 4:20 PM', '2014-09-15T16:20:00.000Z'],
    ['9/5/2014', '2014-09-05T00:00:00.000Z'],
    ['09/15/2014 16:20:10 +0200', '2014-09-15T14:20:10.000Z'],
    ['15/09/2014 16:20', '2014-09-15T16:20:00.000Z'], // the first number cannot be a month: day first
    ['09-15-2014', '2014-09-15T00:00:00.000Z'],
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
    '2003-13',
    '2003-000',
    '2003-366',
    '13/13/2014',
    'Mon, 08 Jan 2024 10:20:30 America/',
  ])('%j is not a date → null', (input) => {
    expect(iso(input)).toBeNull();
  });

  it('refuses dates before 1990 and clamps dates more than a day in the future to now', () => {
    expect(iso('Thu, 01 Jan 1970 00:00:00 GMT')).toBeNull();
    expect(iso('1989-12-31T23:59:59Z')).toBeNull();
    expect(iso('1990-01-01T00:00:00Z')).toBe('1990-01-01T00:00:00.000Z');
    // now = 2024-06-15T12:00Z: up to a day ahead is kept (clock skew, time zones), later becomes now.
    expect(iso('2024-06-16T11:59:00Z')).toBe('2024-06-16T11:59:00.000Z');
    expect(iso('2024-06-16T12:01:00Z')).toBe('2024-06-15T12:00:00.000Z');
    expect(iso('Sat, 01 Jan 2999 00:00:00 GMT')).toBe('2024-06-15T12:00:00.000Z');
  });

  it('handles non-strings and absurdly long input without work', () => {
    expect(parseDate(undefined)).toBeNull();
    expect(parseDate(null)).toBeNull();
    expect(parseDate(`2024-01-08T10:20:30Z${'0'.repeat(10_000)}`)).toBeNull();
  });

  it('refuses adversarial input', () => {
    // Each is 100,000 characters: a backtracking pattern would not end within the test's time limit.
    const nasty = ['1 '.repeat(50_000), `Mon, ${'8 '.repeat(50_000)}`, `${'-'.repeat(100_000)}Z`];
    for (const s of nasty) expect(parseDate(s)).toBeNull();
  });
});

describe('isoString', () => {
  it('is toISOString for every time (random whole and fractional milliseconds, the ends of the range, beyond)', () => {
    const edges = [0, 1, 999, 86_399_999, 86_400_000, Date.UTC(2000, 1, 29), Date.UTC(2100, 1, 28, 23, 59, 59, 999), Date.UTC(9999, 11, 31, 23, 59, 59, 999)];
    for (const t of [...edges, Date.UTC(10_000, 0, 1), -1, 0.5, 1e15 + 0.25]) expect(isoString(t)).toBe(new Date(t).toISOString());
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: 253_402_300_799_999 }),
          fc.integer({ min: 631_152_000_000, max: 2_000_000_000_000 }),
          fc.double({ min: -1e13, max: 3e14, noNaN: true }),
        ),
        (t) => {
          expect(isoString(t)).toBe(new Date(t).toISOString());
        },
      ),
      { numRuns: 100_000 },
    );
  });
});

describe('region zones (ET, PT, …)', () => {
  it('builds a formatter on a zone’s first use, not when the module loads, and keeps it', async () => {
    vi.resetModules();
    const Real = Intl.DateTimeFormat;
    let made = 0;
    // Counts the formatters built (a spy on the constructor would not build real ones).
    class Counting extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made++;
      }
    }
    (Intl as { DateTimeFormat: typeof Real }).DateTimeFormat = Counting as typeof Real;
    try {
      const fresh = await import('./dates.js');
      expect(made).toBe(0);
      expect(fresh.parseDate('Mon, 08 Jan 2024 10:20:30 +0100', NOW)).toBe('2024-01-08T09:20:30.000Z');
      expect(fresh.parseDate('Mon, 08 Jan 2024 10:20:30 EST', NOW)).toBe('2024-01-08T15:20:30.000Z');
      expect(made).toBe(0);
      expect(fresh.parseDate('Mon, 08 Jan 2024 10:20:30 PT', NOW)).toBe('2024-01-08T18:20:30.000Z');
      expect(fresh.parseDate('Sat, 08 Jun 2024 10:20:30 PT', NOW)).toBe('2024-06-08T17:20:30.000Z');
      expect(made).toBe(1);
    } finally {
      (Intl as { DateTimeFormat: typeof Real }).DateTimeFormat = Real;
    }
  });

  it('reads each date alike whatever zones came before it (hostile names interleaved with region zones)', () => {
    const clean: [string, string][] = [
      ['Mon, 08 Jan 2024 10:20:30 ET', '2024-01-08T15:20:30.000Z'],
      ['Sat, 08 Jun 2024 10:20:30 PT', '2024-06-08T17:20:30.000Z'],
      ['Mon, 08 Jan 2024 10:20:30 AKT', '2024-01-08T19:20:30.000Z'],
      ['Mon, 08 Jan 2024 10:20:30 America/Los_Angeles', '2024-01-08T18:20:30.000Z'],
    ];
    const hostile = [
      'Mon, 08 Jan 2024 10:20:30 PROTO',
      'Mon, 08 Jan 2024 10:20:30 Mars/Olympus_Mons',
      'Mon, 08 Jan 2024 10:20:30 constructor',
      `Mon, 08 Jan 2024 10:20:30 ${'Z'.repeat(5_000)}`,
      'Mon, 08 Jan 2024 10:20:30 Etc/GMT+99',
    ];
    const first = hostile.map((s) => parseDate(s, NOW));
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < clean.length; k++) {
        expect(parseDate(hostile[(k + round) % hostile.length], NOW)).toBe(first[(k + round) % hostile.length]);
        expect(parseDate(clean[k][0], NOW)).toBe(clean[k][1]);
      }
    }
  });
});
