/**
 * The nesting bound of the sanitiser (docs/decisions.md "Sanitising: nesting bound"): the tags of elements opened
 * past MAX_DEPTH open elements, or after MAX_ELEMENTS elements in all, are removed, keeping their text, so what the
 * sanitiser builds is never deeper than MAX_DEPTH. It was made for htmlparser2's Parser, which the sanitiser ran on
 * and which took seconds on 100,000 nested <div> (1.1 MB); the sanitiser's own stack (tree.ts) is linear, and the
 * bound stays as what the output is. The sanitiser watches it in its own pass (NestingBound), and only when an
 * element is past it does boundNesting rewrite the input (walking it with htmlparser2's Tokenizer) for a second
 * pass. Its output is still untrusted HTML and goes through the allowlist like any other input.
 */
import { Tokenizer } from 'htmlparser2';
import { IMPLIES_CLOSE, type TagWatcher, VOID } from './tree.js';

/** Open elements kept at most; tags deeper than this are removed. Real articles stay far below 100. */
export const MAX_DEPTH = 100;
/** Elements kept at most per document; tags of later ones are removed (their text stays). */
export const MAX_ELEMENTS = 50_000;

/**
 * Raw-text elements: their content is text to the tokenizer, so they never hold elements. Their tags are always
 * kept (removing the tag would turn a script's source into article text), costing at most one level.
 */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp']);

/**
 * The bound, told of the tags in order (tree.ts TagWatcher): the open elements as htmlparser2 nests them (void
 * elements and implied end tags do not count), and whether an element is kept.
 */
export class NestingBound implements TagWatcher {
  private readonly stack: string[] = [];
  private elements = 0;

  /** Whether the element of this start tag is kept; an element not kept is not counted. */
  open(name: string): boolean {
    const closes = IMPLIES_CLOSE.get(name);
    const stack = this.stack;
    if (closes) while (stack.length > 0 && closes.has(stack[stack.length - 1])) stack.pop();
    if (VOID.has(name) || RAW_TEXT.has(name)) return true;
    if (stack.length >= MAX_DEPTH || this.elements >= MAX_ELEMENTS) return false;
    this.elements++;
    // A self-closing non-void tag (`<div/>`) opens an element in HTML; the sanitiser reads it the same way.
    stack.push(name);
    return true;
  }

  /** An end tag of an element that was kept. */
  close(name: string): void {
    // Pop up to the matching element, as the HTML parser closes what is left open inside it.
    const at = this.stack.lastIndexOf(name);
    if (at !== -1) this.stack.length = at;
  }
}

/** Whether `html` has more than MAX_DEPTH tags: fewer cannot exceed the bound. */
export function mayExceedBound(html: string): boolean {
  let lts = 0;
  for (let i = html.indexOf('<'); i !== -1 && lts <= MAX_DEPTH; i = html.indexOf('<', i + 1)) lts++;
  return lts > MAX_DEPTH;
}

/**
 * `html` with the tags of too deep (or too many) elements removed, or `html` itself when nothing needed
 * removing. Linear in the input: the stack of open elements never exceeds MAX_DEPTH, so matching an end tag
 * against it is bounded.
 */
export function boundNesting(html: string): string {
  if (!mayExceedBound(html)) return html;

  const bound = new NestingBound();
  /** Open tags removed, by name, whose end tags are still to come (and to be removed with them). */
  const dropped = new Map<string, number>();
  /** Source ranges to remove, in order. */
  const cuts: number[] = [];
  let openStart = 0;
  let openName = '';
  const open = (end: number, selfClosing: boolean) => {
    if (bound.open(openName)) return;
    cuts.push(openStart, end + 1);
    if (!selfClosing) dropped.set(openName, (dropped.get(openName) ?? 0) + 1);
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
        bound.close(name);
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
