/**
 * Foreign content (svg, math) that is never closed. The sanitiser drops svg and math with everything inside
 * (content.ts NON_TEXT_TAGS), so an unclosed `<svg/onload=…>` used to take the rest of the article with it. A
 * browser ends such an element at the next HTML "breakout" start tag (HTML Living Standard, "The rules for parsing
 * tokens in foreign content": <p>, <div>, <b>, …), and the text from there on is shown. This pre-pass does the
 * same: it closes every svg/math left open at the end of the document right before the first breakout tag after
 * it. It never decides what is safe: whatever follows is still sanitised by the allowlist as any other HTML.
 */

const FOREIGN = ['svg', 'math'] as const;

/** Start tags that end foreign content (the HTML standard's list; <font> with attributes is left out). */
const BREAKOUT =
  /<(?:b|big|blockquote|body|br|center|code|dd|div|dl|dt|em|embed|h[1-6]|head|hr|i|img|li|listing|menu|meta|nobr|ol|p|pre|ruby|s|small|span|strong|strike|sub|sup|table|tt|u|ul|var)(?=[\s/>])/gi;

const OPEN: Record<(typeof FOREIGN)[number], RegExp> = { svg: /<svg(?=[\s/>])/gi, math: /<math(?=[\s/>])/gi };
const CLOSE: Record<(typeof FOREIGN)[number], RegExp> = { svg: /<\/svg\s*>/gi, math: /<\/math\s*>/gi };
const FOREIGN_START = /^<(?:svg|math)[\s/>]/i;

/**
 * Whether the HTML has an svg or math start tag (`<svg` or `<math`, any case, then whitespace, / or >). Only the "<"
 * followed by an s or an m are looked at closely: a case-insensitive expression over the whole article cost more
 * than the rest of this pre-pass.
 */
function maybeForeign(html: string): boolean {
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) {
    const c = html.charCodeAt(i + 1) | 0x20;
    if ((c === 0x73 /* s */ || c === 0x6d) /* m */ && FOREIGN_START.test(html.slice(i, i + 6))) return true;
  }
  return false;
}

/** One global regex's matches after `from`, without touching its lastIndex outside this call. */
function indexesFrom(re: RegExp, s: string, from: number): number[] {
  const copy = new RegExp(re.source, re.flags);
  copy.lastIndex = from;
  const out: number[] = [];
  for (let m = copy.exec(s); m; m = copy.exec(s)) out.push(m.index);
  return out;
}

/** `html` with unclosed svg/math elements closed before the next breakout tag (see the file comment). */
export function closeForeignContent(html: string): string {
  if (!maybeForeign(html)) return html;
  let out = html;
  for (const name of FOREIGN) {
    const closes = indexesFrom(CLOSE[name], out, 0);
    const after = closes.length > 0 ? closes[closes.length - 1] : 0;
    // Start tags after the last end tag are certainly unclosed.
    const opens = indexesFrom(OPEN[name], out, after);
    if (opens.length === 0) continue;
    const next = new RegExp(BREAKOUT.source, BREAKOUT.flags);
    next.lastIndex = opens[0];
    const breakout = next.exec(out)?.index;
    if (breakout === undefined) continue;
    const unclosed = opens.filter((i) => i < breakout).length;
    out = `${out.slice(0, breakout)}${`</${name}>`.repeat(unclosed)}${out.slice(breakout)}`;
  }
  return out;
}
