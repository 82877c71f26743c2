/**
 * The element events of htmlparser2's Parser (HTML mode, entities decoded), rebuilt on its Tokenizer for the
 * sanitiser (docs/decisions.md "Sanitising in one pass"). The Parser keeps its stack of open elements with
 * Array#unshift and calls back through optional handlers; this keeps it at the end of an array, and calls the one
 * handler the sanitiser has. The events are the Parser's, in the same order, for every input: its rules are copied
 * here one by one (node_modules/htmlparser2 Parser.js is the reference), and a differential run against the Parser
 * found no difference (docs/decisions.md "Sanitising on the tokenizer").
 *
 * - Tag and attribute names are lower-cased; an attribute's first occurrence wins; an attribute without a value is
 *   ''; character references in text and attribute values are decoded (text entities are text events of their own).
 * - A start tag closes the open elements on top that it implies closed (IMPLIES_CLOSE, `<p>a<p>b`); void elements
 *   are closed right after they open; `</br>` is a `<br>` and a `</p>` with no open p an empty p.
 * - `<x/>` opens x in HTML and closes it in svg or math (and not in their HTML integration points).
 * - An end tag closes its element and everything open above it; one that matches no open element is ignored.
 *   Whatever is open at the end is closed, innermost first.
 * - Comments, CDATA sections, declarations and processing instructions make no event; raw-text elements (script,
 *   style, textarea, title, xmp) are the Tokenizer's, as for the Parser.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** Attributes of an element (names lower-cased, first occurrence wins). */
export type Attributes = Record<string, string>;

/** What is told of the elements: the Parser's onopentag, ontext and onclosetag, and whether attributes are read. */
export interface ElementHandler {
  /** Whether onopentag reads the attributes of the element opening now; when not, they are not collected. */
  wantsAttributes(): boolean;
  onopentag(name: string, attribs: Attributes): void;
  ontext(text: string): void;
  onclosetag(name: string): void;
}

/** Void elements as htmlparser2 knows them: closed as soon as they open, never on the stack. */
export const VOID: ReadonlySet<string> = new Set([
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
 * Start tags that close the open element on top while it is one of these (htmlparser2's openImpliesClose):
 * `<p>a<p>b` or a list of unclosed `<li>` is two or many siblings, not a deep tree.
 */
export const IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map(
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

/** Elements that start foreign content, where `<x/>` closes x (htmlparser2's foreignContextElements). */
const FOREIGN = new Set(['math', 'svg']);
/** Elements inside foreign content that are HTML again (htmlparser2's htmlIntegrationElements). */
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/** Attributes passed when the handler does not read them (never written to). */
const UNREAD: Attributes = Object.freeze({});

/**
 * Told of every start tag once it has ended (its name lower-cased, after the elements it implies closed), and of
 * every end tag; returns false to stop the pass. The sanitiser's nesting bound (nesting.ts).
 */
export interface TagWatcher {
  open(name: string): boolean;
  close(name: string): void;
}

/** The depth past which ElementTree counts its open elements by name. */
const COUNTED_DEPTH = 32;

/** Thrown through the Tokenizer when the watcher stops the pass. */
const STOPPED = new Error('stopped by the tag watcher');

/** The Tokenizer's callbacks, turned into the Parser's element events. One instance per document. */
class ElementTree implements TokenizerCallbacks {
  /** Open elements, innermost last. */
  private readonly stack: string[] = [];
  /**
   * How many elements of each name are open, kept once the stack has been deeper than COUNTED_DEPTH: an end tag that
   * matches none is then ignored without walking the stack, so the work stays linear however deep it gets
   * (`<script/>` opens a script that is no raw text and stays open). Shallower, walking the stack costs less.
   */
  private counts: Map<string, number> | null = null;
  /**
   * Whether we are in foreign content, pushed by each svg/math (true) and integration element (false) opened and
   * popped by any end tag of those names, as the Parser keeps it; the last entry counts.
   */
  private readonly foreign: boolean[] = [false];
  /** The start tag being read: its name, and its attributes (null once told). */
  private tagName = '';
  private attribs: Attributes | null = null;
  private collecting = false;
  private attribName = '';
  private attribValue = '';

  constructor(
    private readonly source: string,
    private readonly handler: ElementHandler,
    private readonly watcher: TagWatcher | null,
  ) {}

  ontext(start: number, end: number): void {
    this.handler.ontext(this.source.slice(start, end));
  }

  ontextentity(codePoint: number): void {
    this.handler.ontext(String.fromCodePoint(codePoint));
  }

  onopentagname(start: number, end: number): void {
    this.openTag(this.source.slice(start, end).toLowerCase());
  }

  private openTag(name: string): void {
    this.tagName = name;
    const closes = IMPLIES_CLOSE.get(name);
    if (closes !== undefined) {
      const stack = this.stack;
      while (stack.length > 0 && closes.has(stack[stack.length - 1])) this.handler.onclosetag(this.pop());
    }
    if (!VOID.has(name)) {
      this.push(name);
      if (FOREIGN.has(name)) this.foreign.push(true);
      else if (INTEGRATION.has(name)) this.foreign.push(false);
    }
    this.collecting = this.handler.wantsAttributes();
    this.attribs = this.collecting ? {} : UNREAD;
  }

  onattribname(start: number, end: number): void {
    if (this.collecting) this.attribName = this.source.slice(start, end).toLowerCase();
  }

  onattribdata(start: number, end: number): void {
    if (this.collecting) this.attribValue += this.source.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    if (this.collecting) this.attribValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    if (!this.collecting) return;
    // Own properties only, as the Parser checks: a second `title` is ignored (and `__proto__` is never stored).
    if (this.attribs !== null && !Object.hasOwn(this.attribs, this.attribName)) this.attribs[this.attribName] = this.attribValue;
    this.attribValue = '';
  }

  onopentagend(): void {
    if (this.watcher !== null && !this.watcher.open(this.tagName)) throw STOPPED;
    this.endOpenTag();
  }

  onselfclosingtag(): void {
    if (this.watcher !== null && !this.watcher.open(this.tagName)) throw STOPPED;
    if (this.foreign[this.foreign.length - 1]) this.closeCurrentTag();
    else this.endOpenTag();
  }

  private endOpenTag(): void {
    const name = this.tagName;
    if (this.attribs !== null) {
      this.handler.onopentag(name, this.attribs);
      this.attribs = null;
    }
    if (VOID.has(name)) this.handler.onclosetag(name);
    this.tagName = '';
  }

  /** Ends the start tag being read and closes its element (a self-closing tag in foreign content). */
  private closeCurrentTag(): void {
    const name = this.tagName;
    this.endOpenTag();
    const stack = this.stack;
    if (stack.length > 0 && stack[stack.length - 1] === name) {
      this.handler.onclosetag(name);
      this.pop();
    }
  }

  private push(name: string): void {
    const stack = this.stack;
    stack.push(name);
    if (this.counts !== null) this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    else if (stack.length > COUNTED_DEPTH) {
      const counts = new Map<string, number>();
      for (const open of stack) counts.set(open, (counts.get(open) ?? 0) + 1);
      this.counts = counts;
    }
  }

  /** Removes the innermost open element and returns its name. */
  private pop(): string {
    const name = this.stack.pop()!;
    if (this.counts !== null) this.counts.set(name, this.counts.get(name)! - 1);
    return name;
  }

  /** Whether an element of this name is open. */
  private isOpen(name: string): boolean {
    if (this.counts !== null) return (this.counts.get(name) ?? 0) > 0;
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i] === name) return true;
    return false;
  }

  onclosetag(start: number, end: number): void {
    const name = this.source.slice(start, end).toLowerCase();
    this.watcher?.close(name);
    if (FOREIGN.has(name) || INTEGRATION.has(name)) this.foreign.pop();
    if (!VOID.has(name)) {
      if (this.isOpen(name)) {
        // Closes the innermost open element of that name and everything open inside it.
        let closed: string;
        do {
          closed = this.pop();
          this.handler.onclosetag(closed);
        } while (closed !== name);
      } else if (name === 'p') {
        this.openTag('p');
        this.closeCurrentTag();
      }
    } else if (name === 'br') {
      this.handler.onopentag('br', this.handler.wantsAttributes() ? {} : UNREAD);
      this.handler.onclosetag('br');
    }
  }

  onend(): void {
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) this.handler.onclosetag(stack[i]);
  }

  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
}

/**
 * Tells `handler` the elements and text of `html` as htmlparser2's Parser would. Returns false, part way, when the
 * watcher stopped the pass; what the handler was told by then is to be thrown away.
 */
export function walkElements(html: string, handler: ElementHandler, watcher: TagWatcher | null = null): boolean {
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, new ElementTree(html, handler, watcher));
  try {
    if (html !== '') tokenizer.write(html);
    tokenizer.end();
  } catch (error) {
    if (error === STOPPED) return false;
    throw error;
  }
  return true;
}
