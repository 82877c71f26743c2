import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../reader/parse/text.js';
import { sanitizeContent } from '../reader/sanitize/index.js';
import { TEASER_SOURCE_MAX, ftsMatchQuery, pgTsQuery, storedHtmlToText, teaser, teaserOfText } from './article-text.js';

describe('storedHtmlToText', () => {
  const samples = [
    '<p>Hello <b>wo</b>rld &amp; more</p><ul><li>one</li><li>two</li></ul>',
    '<div>a<br>b</div><p title="x > y">Tom &amp; Jerry say "hi" &lt;tag&gt; caf\u00e9 &nbsp; end</p>',
    '<p>Entity &eacute; &#233; &hellip; and a comment <!-- x --></p>',
    'plain text without markup',
    '<table><tr><td>1</td><td>2</td></tr></table><pre>code\n  here</pre>',
  ];
  it.each(samples)('equals htmlToText on sanitised HTML: %s', (html) => {
    const clean = sanitizeContent(html, { baseUrl: 'https://example.com/' });
    expect(storedHtmlToText(clean)).toBe(htmlToText(clean));
  });

  it('equals htmlToText on any sanitised input', () => {
    const tags = fc.constantFrom(
      'p',
      'b',
      'div',
      'span',
      'li',
      'a href="https://x.y/?a=1&b=2"',
      'img src="https://x.y/i.png" alt="a>b"',
      'br',
      'em',
      'h2',
      'script',
      'style',
    );
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('&amp;', '&lt;', '&gt;', '&quot;', '&nbsp;', '&eacute;', '&#x27;', '&', '<', '>', '"', "'", '\u00a0'),
      tags.map((t) => `<${t}>`),
      tags.map((t) => `</${t.split(' ')[0]}>`),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const clean = sanitizeContent(parts.join(''), { baseUrl: 'https://example.com/' });
        expect(storedHtmlToText(clean)).toBe(htmlToText(clean));
      }),
      { numRuns: 300 },
    );
  });
});

describe('search queries', () => {
  it('quotes every word as a phrase and makes the last one a prefix (SQLite)', () => {
    expect(ftsMatchQuery('foo bar')).toBe('"foo" "bar"*');
    expect(ftsMatchQuery('"NEAR( x-y*')).toBe('"near" "x y"*');
    expect(ftsMatchQuery(' " * - ')).toBeNull();
  });
  it('builds a tsquery of quoted lexemes (PostgreSQL)', () => {
    expect(pgTsQuery('foo bar')).toBe("'foo' & 'bar':*");
    expect(pgTsQuery("o'neil x-y")).toBe("(('o' <-> 'neil') | 'o''neil') & (('x' <-> 'y':*) | 'x-y':*)");
    expect(pgTsQuery('& | ! :*')).toBeNull();
  });
  it('also looks for a word PostgreSQL keeps whole as typed', () => {
    expect(pgTsQuery('"Example.com", 3.5')).toBe(`(('example' <-> 'com') | '"example.com",') & (('3' <-> '5':*) | '3.5':*)`);
    expect(pgTsQuery('-11 kestrel')).toBe("('11' | '-11') & 'kestrel':*");
    expect(pgTsQuery("it's")).toBe("(('it' <-> 's':*) | 'it''s':*)");
    expect(pgTsQuery('a\\b')).toBe("(('a' <-> 'b':*) | 'a\\\\b':*)");
  });
});

describe('teaser', () => {
  it('cuts long text on a word boundary with an ellipsis', () => {
    const out = teaser(`<p>${'word '.repeat(200)}</p>`);
    expect(out.length).toBeLessThanOrEqual(601);
    expect(out.endsWith('word…')).toBe(true);
    expect(teaser('<p>short</p>')).toBe('short');
    expect(teaser(null)).toBe('');
  });

  it('reads only the head of a long item, with the answer the whole item gives', () => {
    const paragraphs = Array.from({ length: 20_000 }, (_, i) => `<p>Paragraph <b>${i}</b> &amp; its words.</p>`).join('');
    expect(paragraphs.length).toBeGreaterThan(TEASER_SOURCE_MAX);
    expect(teaser(paragraphs)).toBe(teaserOfText(htmlToText(paragraphs)));
    // A head of markup without text gives the text within the bound, not the text behind it.
    expect(teaser(`${'<span></span>'.repeat(10_000)}late text`)).toBe('');
    expect(teaser(`${'<span></span>'.repeat(1_000)}early text`)).toBe('early text');
  });
});
