import { describe, expect, it } from 'vitest';
import { firstSentences, formatPublished, parseUtc, prepareContent } from './text.js';

describe('firstSentences (§9: the compact card shows the first three sentences)', () => {
  it('keeps three sentences and collapses whitespace', () => {
    expect(firstSentences('One.  Two!\nThree? Four. Five.')).toBe('One. Two! Three?');
    expect(firstSentences('Only one sentence without a stop')).toBe('Only one sentence without a stop');
    expect(firstSentences('   ')).toBe('');
  });
});

describe('formatPublished', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('formats German dates day first with German month names', () => {
    expect(formatPublished('2026-01-05T09:07:00Z', 'de', now).text).toMatch(/^5\. Jan\. 2026, \d\d:07$/);
    expect(formatPublished('2026-01-05T09:07:00Z', 'en', now).text).toMatch(/^Jan 5, 2026, \d{1,2}:07 (AM|PM)$/);
  });
  it('says how long ago within the last day', () => {
    expect(formatPublished('2026-11-22T09:00:00Z', 'de', now).text).toMatch(/^vor \d+ Stunden$/);
  });
  it('reads zone-less times as UTC', () => {
    expect(parseUtc('2026-11-22T09:00:00').toISOString()).toBe('2026-11-22T09:00:00.000Z');
  });
});

describe('prepareContent (§5: images under 10 px are removed)', () => {
  it('drops tiny images by attribute or inline style, keeps the rest lazy, and opens links in a new tab', () => {
    const html = prepareContent(
      '<p>Hi <a href="https://a.example/">there</a></p><img src="t1" width="1" height="1"><img src="t2" style="width: 5px"><a href="https://ad.example/"><img src="t3" height="2"></a><img src="big" width="640">',
    );
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(Array.from(doc.images).map((i) => i.getAttribute('src'))).toEqual(['big']);
    expect(doc.images[0].getAttribute('loading')).toBe('lazy');
    const links = Array.from(doc.querySelectorAll('a'));
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://a.example/']);
    expect(links[0].getAttribute('target')).toBe('_blank');
    expect(links[0].getAttribute('rel')).toBe('noopener noreferrer');
  });
});
