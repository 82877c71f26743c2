/**
 * Site icons delivered as SVG. They are shown through `<img src="data:image/svg+xml;base64,…">`, where browsers run
 * no script and load nothing external (SVG Integration, "secure animated mode"), so this allowlist is defence in
 * depth: if the stored icon were ever served or opened on its own, it still could do nothing but draw shapes.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';

/** Drawing elements only: no script, foreignObject, image, a, animate/set, style, filter, pattern or font. */
const SVG_TAGS = new Set([
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
]);

/**
 * Geometry and presentation attributes (SVG 2 / SVG 1.1 names, case-sensitive as in XML). No event handlers, no
 * style, no class (no stylesheet can reach an icon), no external references.
 */
const SVG_ATTRIBUTES = new Set([
  'xmlns',
  'xmlns:xlink',
  'version',
  'viewBox',
  'preserveAspectRatio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'fr',
  'd',
  'points',
  'pathLength',
  'transform',
  'id',
  'fill',
  'fill-opacity',
  'fill-rule',
  'clip-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'color',
  'visibility',
  'display',
  'vector-effect',
  'paint-order',
  'shape-rendering',
  'clip-path',
  'clipPathUnits',
  'mask',
  'maskUnits',
  'maskContentUnits',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'href',
  'xlink:href',
]);

/** A same-document reference: `#id`. */
const FRAGMENT = /^#[A-Za-z_][\w.:-]*$/;
/** `url(#id)` paint/clip/mask references, the only url() an icon needs. */
const INTERNAL_URL = /url\(\s*(['"]?)#[A-Za-z_][\w.:-]*\1\s*\)/gi;

/**
 * Attributes of an element to remove with its content. It is renamed to <g> (allowed) and exclusiveFilter drops it
 * by this identity: renaming to a disallowed tag would trip a sanitize-html 2.17 bug (content.ts, DROP).
 */
const DROP: sanitizeHtml.Attributes = Object.freeze({});

function transform(name: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  // Unknown elements go with their content: <script> content is plain text in XML parsing, so merely unwrapping
  // it would leave its source visible, and <foreignObject> would bring HTML along.
  if (!SVG_TAGS.has(name)) return { tagName: 'g', attribs: DROP };
  const out: sanitizeHtml.Attributes = {};
  for (const key of Object.keys(attribs)) {
    if (!SVG_ATTRIBUTES.has(key)) continue;
    const value = attribs[key];
    if (key === 'href' || key === 'xlink:href') {
      // Only <use> may reference, and only within the icon itself: no external files, no javascript: URLs.
      if (name === 'use' && FRAGMENT.test(value.trim())) out[key] = value.trim();
      continue;
    }
    // Any other url() must be an internal #id; everything else that smells of a URL or script is dropped.
    const rest = value.replace(INTERNAL_URL, '');
    if (/url\s*\(|script\s*:|expression\s*\(|[<>]/i.test(rest)) continue;
    out[key] = value;
  }
  if (name === 'svg') {
    // Browsers render an SVG image only in the SVG namespace; icons scraped from HTML often omit it.
    out.xmlns = 'http://www.w3.org/2000/svg';
    out['xmlns:xlink'] = 'http://www.w3.org/1999/xlink';
  }
  return { tagName: name, attribs: out };
}

const OPTIONS: sanitizeHtml.IOptions = {
  // XML mode: element and attribute names keep their case (linearGradient, viewBox), entities are XML's, and
  // script/style are ordinary elements, so their content is dropped through nonTextTags below.
  parser: { xmlMode: true },
  allowedTags: [...SVG_TAGS],
  allowedAttributes: { '*': [...SVG_ATTRIBUTES] },
  allowedSchemes: [],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href', 'xlink:href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'foreignObject'],
  exclusiveFilter: (frame) => frame.attribs === DROP,
  parseStyleAttributes: false,
  selfClosing: [],
  transformTags: { '*': transform },
};

/**
 * Sanitises an SVG icon. Returns the cleaned document, or null when nothing usable is left: the root must be one
 * <svg> element (text or a second element at the top level means the input was not an SVG document).
 */
export function sanitizeSvg(svg: string): string | null {
  const clean = sanitizeHtml(svg, OPTIONS).trim();
  if (clean === '') return null;
  const doc = parseDocument(clean, { xmlMode: true });
  let root = 0;
  for (const node of doc.children) {
    if (DomUtils.isTag(node)) {
      if (node.name !== 'svg' || ++root > 1) return null;
    } else if (DomUtils.isText(node) && node.data.trim() !== '') {
      return null;
    }
  }
  return root === 1 ? clean : null;
}
