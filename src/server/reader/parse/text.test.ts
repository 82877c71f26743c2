import { describe, expect, it } from 'vitest';
import { collapseWhitespace, escapeHtml, htmlToText, textToHtml, textWithMarkupToText } from './text.js';

describe('htmlToText', () => {
  it.each([
    ['Plain title', 'Plain title'],
    ['  spaced \n\t out  ', 'spaced out'],
    ['<b>Bold</b> and <i>italic</i>', 'Bold and italic'],
    ['<p>One</p><p>Two</p>', 'One Two'],
    ['Line<br>break', 'Line break'],
    ['Caf&eacute; &amp; cr&egrave;me&nbsp;br&ucirc;l&eacute;e&hellip;', 'Café & crème brûlée…'],
    ['It&rsquo;s &ldquo;quoted&rdquo; &mdash; &#8217;&#x2019;', 'It’s “quoted” — ’’'],
    ['&lt;b&gt; is literal', '<b> is literal'],
    ['a < b && c > d', 'a < b && c > d'],
    ['Tom & Jerry <3', 'Tom & Jerry <3'],
    ['<script>alert(1)</script>Safe<style>p{}</style>', 'Safe'],
    ['Bell\u0007 and \u0000null', 'Bell and null'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(htmlToText(input)).toBe(expected);
  });

  it('accepts null and undefined', () => {
    expect(htmlToText(null)).toBe('');
    expect(htmlToText(undefined)).toBe('');
  });
});

describe('no state survives a call', () => {
  // A string that ends inside a raw-text element used to leave the shared parser in that state: every later
  // call with a tag threw until the process restarted.
  it.each(['<style>', '<script>', '<title>', '<textarea>', '<xmp>', '<plaintext>', '<!--', '<![CDATA[', '<a href="x'])(
    'a string ending inside %s does not change the next one',
    (open) => {
      for (const f of [htmlToText, textWithMarkupToText]) {
        expect(() => f(`Why the ${open} element is special`)).not.toThrow();
        expect(f('<b>Bold</b> &amp; <i>italic</i>')).toBe('Bold & italic');
      }
    },
  );

  it('is linear on deep nesting', () => {
    const deep = `${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`;
    expect(htmlToText(deep)).toBe('deep');
    expect(textWithMarkupToText(deep)).toBe('deep');
  });
});

describe('textWithMarkupToText (titles, authors, descriptions that may carry markup)', () => {
  it.each([
    ['std::vector<int>', 'std::vector<int>'],
    ['C++ <Weekly>', 'C++ <Weekly>'],
    ['Generic <T> and <K, V>', 'Generic <T> and <K, V>'],
    ['a < b > c', 'a < b > c'],
    ['if x<y', 'if x<y'],
    ['Why the <textarea> element is special', 'Why the <textarea> element is special'],
    ['The <div> and <span> elements', 'The <div> and <span> elements'],
    ['<b>Breaking:</b> news', 'Breaking: news'],
    ['<em>a</em> <code>Map&lt;K&gt;</code>', 'a Map<K>'],
    ['<p>One<p>Two', 'One Two'],
    ['Line<br>break<img src="x">', 'Line break'],
    ['<script>alert(1)</script>Safe', 'Safe'],
    ['Lone <script>x', 'Lone <script>x'],
    ['</int> stray end', '</int> stray end'],
    ['<int>x</int>', '<int>x</int>'],
    ['Tom &amp; Jerry', 'Tom & Jerry'],
  ])('%j → %j', (input, expected) => {
    expect(textWithMarkupToText(input)).toBe(expected);
  });
});

describe('textToHtml / escapeHtml / collapseWhitespace', () => {
  it('escapes and keeps line breaks', () => {
    expect(textToHtml('a < b & "c"\nnext\r\nlast')).toBe('a &lt; b &amp; &quot;c&quot;<br>\nnext<br>\nlast');
    expect(escapeHtml(`<a href='x'>`)).toBe('&lt;a href=&#39;x&#39;&gt;');
    expect(collapseWhitespace('\u00a0a\u00a0\u00a0b ')).toBe('a b');
  });
});
