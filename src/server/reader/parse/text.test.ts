import { describe, expect, it } from 'vitest';
import { collapseWhitespace, escapeHtml, htmlToText, textToHtml } from './text.js';

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

describe('textToHtml / escapeHtml / collapseWhitespace', () => {
  it('escapes and keeps line breaks', () => {
    expect(textToHtml('a < b & "c"\nnext\r\nlast')).toBe('a &lt; b &amp; &quot;c&quot;<br>\nnext<br>\nlast');
    expect(escapeHtml(`<a href='x'>`)).toBe('&lt;a href=&#39;x&#39;&gt;');
    expect(collapseWhitespace('\u00a0a\u00a0\u00a0b ')).toBe('a b');
  });
});
