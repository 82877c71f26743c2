/**
 * Property test over every text helper (reader/parse/text.ts, reader/sanitize, article-text.ts): whatever hostile
 * strings went through a helper before (unclosed raw-text elements, comments, CDATA, deep nesting, entity soups),
 * it never throws, and a clean string that follows gets exactly the answer it gets on its own. A helper that kept
 * state between calls (a shared parser left inside an unclosed <textarea>) fails here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseWhitespace, escapeHtml, htmlToText, nonEmpty, textToHtml, textWithMarkupToText } from '../reader/parse/text.js';
import { sanitizeContent, stripTracking } from '../reader/sanitize/index.js';
import { sanitizeSvg } from '../reader/sanitize/svg.js';
import { boundNesting } from '../reader/sanitize/nesting.js';
import { articleBody, ftsMatchQuery, pgTsQuery, searchWords, storedHtmlToText, teaser, teaserOfText } from './article-text.js';
import { simpleTsvector, TsvectorList } from './search-vector.js';

const BASE = 'https://blog.example.com/post';

/** Every helper, as string → something comparable. */
const HELPERS: Record<string, (s: string) => unknown> = {
  htmlToText,
  textWithMarkupToText,
  collapseWhitespace,
  textToHtml,
  escapeHtml,
  nonEmpty,
  sanitizeContent: (s) => sanitizeContent(s, { baseUrl: BASE }),
  sanitizeContentNoBase: (s) => sanitizeContent(s, { baseUrl: null }),
  sanitizeSvg,
  stripTracking,
  boundNesting,
  storedHtmlToText,
  articleBodyContent: (s) => articleBody(s, null),
  simpleTsvector,
  // A document's vectors as the parse threads make them (one list, its title and text): the same scratch space.
  tsvectorList: (s) => {
    const list = new TsvectorList();
    list.add(s, s);
    list.add('title', s);
    return list.finish();
  },
  articleBodySummary: (s) => articleBody(null, s),
  teaser,
  teaserShort: (s) => teaser(s, 40),
  teaserOfText: (s) => teaserOfText(s, 40),
  // The teaser as the refresh stores it: of the sanitised HTML (process-document.ts).
  storedTeaser: (s) => teaser(sanitizeContent(s, { baseUrl: BASE })),
  searchWords,
  ftsMatchQuery,
  pgTsQuery,
};

const HOSTILE = [
  '<style>',
  '<script>',
  '<title>',
  '<textarea>',
  '<xmp>',
  '<plaintext>',
  '<noscript>',
  '<iframe>',
  '<noembed>',
  '<template>',
  '<svg>',
  '<math>',
  '<select>',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<!DOCTYPE',
  '<?xml',
  '<',
  '>',
  '</',
  '</style',
  '</script>',
  '<a href="',
  '"',
  "'",
  '&',
  '&amp',
  '&amp;',
  '&#',
  '&#x',
  '&#x110000;',
  '&#0;',
  '&lt;',
  '&gt;',
  '&CounterClockwiseContourIntegral;',
  '&bogus;',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '<div>',
  '</div>',
  '<p>',
  '<li>',
  '<b>',
  '</i>',
  '<img src=x onerror=alert(1)>',
  '<int>',
  'std::vector<int',
  'javascript:',
  '=',
];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 8 })), { maxLength: 30 }).map((parts) => parts.join('')),
  // Deep nesting, closed or not.
  fc
    .record({ tag: fc.constantFrom('div', 'span', 'b', 'p', 'li', 'textarea', 'x'), n: fc.integer({ min: 1, max: 3000 }), close: fc.boolean() })
    .map(({ tag, n, close }) => `<${tag}>`.repeat(n) + 'text' + (close ? `</${tag}>`.repeat(n) : '')),
  // Entity soups.
  fc.array(fc.constantFrom('&amp;', '&', '&lt', '&#1234', '&#x1F600;', '&nbsp', '&notin;', '&notit;', ';', 'a'), { maxLength: 40 }).map((p) => p.join('')),
);

/** Clean strings: what ordinary titles and articles look like. */
const CLEAN = [
  '<b>Bold</b> &amp; <i>italic</i>',
  '<p>One paragraph.</p><p>Another, with <a href="/x">a link</a>.</p>',
  'std::vector&lt;int&gt; and C++ &lt;Weekly&gt;',
  'Plain text title',
  '<ul><li>one</li><li>two</li></ul><img src="https://img.example.com/a.png" alt="A">',
  'https://example.com/page?utm_source=rss&id=3',
  '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>',
];

describe('text helpers keep no state between calls (property)', () => {
  // Each helper's answer for each clean string, computed first, before any hostile input.
  const alone = new Map(Object.entries(HELPERS).map(([name, f]) => [name, CLEAN.map((c) => f(c))]));

  it('never throw on hostile strings and answer a clean string that follows as they do on its own', () => {
    fc.assert(
      fc.property(fc.array(hostileString, { minLength: 1, maxLength: 4 }), fc.nat({ max: CLEAN.length - 1 }), (hostile, ci) => {
        for (const [name, f] of Object.entries(HELPERS)) {
          for (const h of hostile) expect(() => f(h), `${name}(${JSON.stringify(h.slice(0, 80))})`).not.toThrow();
          expect(f(CLEAN[ci]), name).toEqual(alone.get(name)![ci]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a string ending inside each raw-text element leaves every helper as it was', () => {
    for (const open of ['<style>', '<script>', '<title>', '<textarea>', '<xmp>', '<plaintext>', '<noscript>', '<iframe>', '<!--', '<![CDATA[']) {
      for (const [name, f] of Object.entries(HELPERS)) {
        expect(() => f(`Why the ${open} element is special`)).not.toThrow();
        CLEAN.forEach((c, i) => expect(f(c), `${name} after ${open}`).toEqual(alone.get(name)![i]));
      }
    }
  });
});
