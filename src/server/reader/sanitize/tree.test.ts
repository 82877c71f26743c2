import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { type Attributes, type ElementHandler, walkElements } from './tree.js';

/**
 * tree.ts rebuilds the element events of htmlparser2's Parser on its Tokenizer (docs/decisions.md "Sanitising on the
 * tokenizer"); the sanitiser relies on them being the Parser's, event for event. The Parser is still installed (as
 * part of htmlparser2), so it is the reference here.
 */

/** The events, as strings: start tags with their attributes (in their order), text, end tags. */
function record(walk: (handler: ElementHandler) => void): string[] {
  const out: string[] = [];
  walk({
    wantsAttributes: () => true,
    onopentag: (name: string, attribs: Attributes) => out.push(`<${name} ${JSON.stringify(Object.entries(attribs))}`),
    ontext: (text: string) => out.push(`"${text}`),
    onclosetag: (name: string) => out.push(`/${name}`),
  });
  return out;
}
const viaParser = (html: string) => record((handler) => new Parser(handler, { decodeEntities: true }).end(html));
const viaTree = (html: string) => record((handler) => walkElements(html, handler));

// prettier-ignore
const TAGS = [
  'p', 'li', 'td', 'tr', 'th', 'table', 'tbody', 'thead', 'tfoot', 'div', 'span', 'b', 'svg', 'math', 'foreignObject',
  'desc', 'mi', 'annotation-xml', 'title', 'textarea', 'script', 'style', 'xmp', 'br', 'img', 'a', 'ul', 'dd', 'dt',
  'select', 'option', 'optgroup', 'input', 'h1', 'pre', 'section', 'rt', 'rp', 'hr', 'body', 'head', 'link', 'x-y',
];
// prettier-ignore
const ATTRIBUTES = [
  ' href="https://e.example/?a=1&amp;b=2"', ' title=a', ' TITLE=b', ' Title', " alt='&lt;x&gt;'", ' src=&notin;x',
  ' class="&notit; &amp"', ' __proto__=x', ' constructor', ' 1=one', ' width="1"', ' x=&#x110000;&#0;', '/', ' a=b/',
];
// prettier-ignore
const OTHER = [
  'text', ' ', '&amp;', '&#x3c;', '&lt', '&notin;', '&notit;', '&ampx', '&#0;', '&#128;', '&', '<', '>', '< p>', '\0',
  '</br>', '</BR>', '</p>', '</P >', '</>', '<!-- c -->', '<!-->', '<!DOCTYPE html>', '<?x?>', '<![CDATA[ <b> ]]>',
  '<!x>', '<div class="x', '<a', '</svg >', '</math>', '</foreignobject>', '</title>', '</script>', '</textarea>',
];

const name = fc.constantFrom(...TAGS).chain((t) => fc.constantFrom(t, t.toUpperCase()));
const startTag = fc
  .tuple(name, fc.array(fc.constantFrom(...ATTRIBUTES), { maxLength: 3 }), fc.constantFrom('>', '/>', ' />'))
  .map(([t, a, end]) => `<${t}${a.join('')}${end}`);
const piece = fc.oneof(
  startTag,
  name.map((t) => `</${t}>`),
  fc.constantFrom(...OTHER),
  fc.string({ maxLength: 6 }),
);

describe('walkElements', () => {
  it('tells exactly the events htmlparser2 Parser tells, on random tag soup (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const html = pieces.join('');
        expect(viaTree(html)).toEqual(viaParser(html));
      }),
      { numRuns: 3000 },
    );
  });

  it('tells the Parser events on deep and long documents', () => {
    for (const html of [
      `${'<div><span>'.repeat(3000)}x${'</div>'.repeat(2000)}`,
      `${'<li>a<p>b'.repeat(3000)}</ul>`,
      `<svg>${'<g/><foreignObject><p/>'.repeat(500)}</svg>${'<div/>'.repeat(500)}`,
      `${'<table><tr><td>'.repeat(1000)}</table></br></p>`,
      `${'<script/><b>'.repeat(2000)}${'</i></script>'.repeat(1000)}</b>`,
    ]) {
      expect(viaTree(html)).toEqual(viaParser(html));
    }
  });

  it('does not collect attributes the handler will not read', () => {
    const seen: Attributes[] = [];
    walkElements('<a href="x"><b title="t"></b></a>', {
      wantsAttributes: () => seen.length === 0,
      onopentag: (_name, attribs) => seen.push(attribs),
      ontext: () => {},
      onclosetag: () => {},
    });
    expect(seen).toEqual([{ href: 'x' }, {}]);
  });
});
