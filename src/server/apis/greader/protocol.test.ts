import { describe, expect, it } from 'vitest';
import { Params, countParam, longItemId, microsecondsParam, parseItemId, parseStreamId, secondsParam } from './protocol.js';

/** The Google Reader vocabulary as clients send it (apis/greader/README.md "Ids"). */
describe('Google Reader protocol', () => {
  it('reads item ids in long, short and bare-hex form and refuses everything else', () => {
    expect(longItemId(255)).toBe('tag:google.com,2005:reader/item/00000000000000ff');
    expect(parseItemId(longItemId(123456))).toBe(123456);
    expect(parseItemId('tag:google.com,2005:reader/item/ff')).toBe(255);
    expect(parseItemId('123456')).toBe(123456);
    expect(parseItemId(' 42 ')).toBe(42);
    // Reeder: the 16 hex digits without the prefix.
    expect(parseItemId('000000000001e240')).toBe(123456);
    expect(parseItemId('0000000000000010')).toBe(16);
    for (const bad of [
      '',
      '0',
      '-1',
      '1.5',
      'abc',
      '1e3',
      'tag:google.com,2005:reader/item/',
      'tag:google.com,2005:reader/item/xyz',
      `tag:google.com,2005:reader/item/${'f'.repeat(17)}`,
      'ffffffffffffffff',
      '99999999999',
      '1234567890123456789',
    ]) {
      expect(parseItemId(bad), bad).toBeNull();
    }
  });

  it('reads stream ids', () => {
    expect(parseStreamId('user/-/state/com.google/reading-list')).toEqual({ kind: 'reading-list' });
    expect(parseStreamId('user/1234/state/com.google/starred')).toEqual({ kind: 'starred' });
    expect(parseStreamId('user/-/state/com.google/read')).toEqual({ kind: 'read' });
    expect(parseStreamId('user/-/state/com.google/kept-unread')).toEqual({ kind: 'kept-unread' });
    expect(parseStreamId('feed/12')).toEqual({ kind: 'feed', feedId: 12 });
    expect(parseStreamId('feed/https://example.com/feed/')).toEqual({ kind: 'feed-url', url: 'https://example.com/feed/' });
    expect(parseStreamId('user/-/label/Tech & Science')).toEqual({ kind: 'label', name: 'Tech & Science' });
    expect(parseStreamId('user/-/label/a/b')).toEqual({ kind: 'label', name: 'a/b' });
    for (const bad of [
      '',
      'feed/',
      'feed/0',
      'feed/99999999999',
      'feed/ftp://x',
      'feed/javascript:alert(1)',
      'user/-/label/',
      'user/-/label/  ',
      'user/-/state/com.google/broadcast',
      'pop/topic/top/language/en',
      'user//label/x',
    ]) {
      expect(parseStreamId(bad), bad).toBeNull();
    }
  });

  it('gathers parameters from query and body, repeated ones in order', () => {
    const p = new Params('i=1&i=2&s=a&n=', 'i=3&T=x&a=user%2F-%2Fstate%2Fcom.google%2Fread&t=A+B');
    expect(p.all('i')).toEqual(['1', '2', '3']);
    expect(p.get('s')).toBe('a');
    expect(p.get('n')).toBeUndefined();
    expect(p.get('a')).toBe('user/-/state/com.google/read');
    expect(p.get('t')).toBe('A B');
    expect(p.get('missing')).toBeUndefined();
    expect(new Params('%%%&=&a=%E0%A4%A').get('a')).toBeDefined();
  });

  it('clamps counts and reads times, refusing junk', () => {
    expect(countParam(undefined, 20, 1000)).toBe(20);
    expect(countParam('abc', 20, 1000)).toBe(20);
    expect(countParam('0', 20, 1000)).toBe(1);
    expect(countParam('-5', 20, 1000)).toBe(1);
    expect(countParam('50', 20, 1000)).toBe(50);
    expect(countParam('99999999999', 20, 1000)).toBe(1000);
    expect(secondsParam(undefined)).toBeUndefined();
    expect(secondsParam('0')).toBeUndefined();
    expect(secondsParam('1700000000')).toBe('2023-11-14T22:13:20.000Z');
    expect(secondsParam('soon')).toBeNull();
    expect(secondsParam('99999999999999')).toBeNull();
    expect(microsecondsParam('1700000000123456')).toBe('2023-11-14T22:13:20.123Z');
    expect(microsecondsParam('0')).toBeUndefined();
    expect(microsecondsParam('-1')).toBeNull();
  });
});
