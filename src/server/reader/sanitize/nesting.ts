/**
 * The nesting bound of the sanitiser (docs/decisions.md "Sanitising: nesting bound"). The sanitiser (content.ts) runs on
 * htmlparser2's Parser, whose element stack costs time proportional to its depth at every tag: 100,000 nested
 * <div> (1.1 MB) took seconds. This pre-pass walks the input once with htmlparser2's Tokenizer (no stack of its
 * own) and removes the tags of elements opened past MAX_DEPTH open elements, or after MAX_ELEMENTS elements in
 * all, keeping their text: what the sanitiser then parses is never deeper than MAX_DEPTH. Its output is still
 * untrusted HTML and goes through the allowlist like any other input.
 */
import { Tokenizer } from 'htmlparser2';

/** Open elements kept at most; tags deeper than this are removed. Real articles stay far below 100. */
export const MAX_DEPTH = 100;
/** Elements kept at most per document; tags of later ones are removed (their text stays). */
export const MAX_ELEMENTS = 50_000;

/**
 * Raw-text elements: their content is text to the tokenizer, so they never hold elements. Their tags are always
 * kept (removing the tag would turn a script's source into article text), costing at most one level.
 */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp']);
/** Void elements as htmlparser2 (and so the sanitiser) knows them: they never stay open. */
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const P = ['p'];
const FORM = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea'];
/**
 * Open tags that close the open element on top when it is one of these (htmlparser2's openImpliesClose, which
 * the sanitiser parses with): `<p>a<p>b` or a list of unclosed `<li>` is two or many siblings, not a deep tree.
 */
const IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    tr: ['tr', 'th', 'td'],
    th: ['th'],
    td: ['thead', 'th', 'td'],
    body: ['head', 'link', 'script'],
    li: ['li'],
    p: P,
    h1: P,
    h2: P,
    h3: P,
    h4: P,
    h5: P,
    h6: P,
    select: FORM,
    input: FORM,
    output: FORM,
    button: FORM,
    datalist: FORM,
    textarea: FORM,
    option: ['option'],
    optgroup: ['optgroup', 'option'],
    dd: ['dd', 'dt'],
    dt: ['dd', 'dt'],
    address: P,
    article: P,
    aside: P,
    blockquote: P,
    details: P,
    div: P,
    dl: P,
    fieldset: P,
    figcaption: P,
    figure: P,
    footer: P,
    form: P,
    header: P,
    hr: P,
    main: P,
    nav: P,
    ol: P,
    pre: P,
    section: P,
    table: P,
    ul: P,
    rt: ['rt', 'rp'],
    rp: ['rt', 'rp'],
    tbody: ['thead', 'tbody'],
    tfoot: ['thead', 'tbody'],
  }).map(([k, v]) => [k, new Set(v)]),
);

/**
 * `html` with the tags of too deep (or too many) elements removed, or `html` itself when nothing needed
 * removing. Linear in the input: the stack of open elements never exceeds MAX_DEPTH, so matching an end tag
 * against it is bounded.
 */
export function boundNesting(html: string): string {
  // Cheap exit: fewer tags than the depth bound cannot exceed it.
  let lts = 0;
  for (let i = html.indexOf('<'); i !== -1 && lts <= MAX_DEPTH; i = html.indexOf('<', i + 1)) lts++;
  if (lts <= MAX_DEPTH) return html;

  const stack: string[] = [];
  /** Open tags removed, by name, whose end tags are still to come (and to be removed with them). */
  const dropped = new Map<string, number>();
  /** Source ranges to remove, in order. */
  const cuts: number[] = [];
  let elements = 0;
  let openStart = 0;
  let openName = '';
  const open = (end: number, selfClosing: boolean) => {
    const closes = IMPLIES_CLOSE.get(openName);
    if (closes) while (stack.length > 0 && closes.has(stack[stack.length - 1])) stack.pop();
    if (VOID.has(openName) || RAW_TEXT.has(openName)) return;
    if (stack.length >= MAX_DEPTH || elements >= MAX_ELEMENTS) {
      cuts.push(openStart, end + 1);
      if (!selfClosing) dropped.set(openName, (dropped.get(openName) ?? 0) + 1);
      return;
    }
    elements++;
    // A self-closing non-void tag (`<div/>`) opens an element in HTML; the sanitiser's Parser reads it the same way.
    stack.push(openName);
  };
  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      onopentagname(start, end) {
        openStart = start - 1;
        openName = html.slice(start, end).toLowerCase();
      },
      onopentagend: (end) => open(end, false),
      onselfclosingtag: (end) => open(end, true),
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        const gt = html.indexOf('>', end);
        const close = gt === -1 ? html.length : gt + 1;
        const pending = dropped.get(name) ?? 0;
        if (pending > 0) {
          dropped.set(name, pending - 1);
          cuts.push(html.lastIndexOf('<', start), close);
          return;
        }
        // Pop up to the matching element, as the HTML parser closes what is left open inside it.
        const at = stack.lastIndexOf(name);
        if (at !== -1) stack.length = at;
      },
      ontext() {},
      ontextentity() {},
      oncomment() {},
      oncdata() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onattribname() {},
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  if (cuts.length === 0) return html;
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < cuts.length; i += 2) {
    parts.push(html.slice(from, cuts[i]));
    from = cuts[i + 1];
  }
  parts.push(html.slice(from));
  return parts.join('');
}
