import { Parser } from 'htmlparser2';

/**
 * What discovery and the icon finder read from an HTML page: <link> elements, <base>, <title> and a few <meta>s.
 * htmlparser2's callback parser builds no DOM, so even a large page costs one linear pass and little memory.
 */

export interface PageLink {
  /** rel tokens, lower-cased (HTML "rel" is a set of space-separated keywords). */
  rel: string[];
  /** Absolute URL (resolved against <base href> and the page URL). */
  href: string;
  /** MIME type without parameters, lower-cased; '' when absent. */
  type: string;
  title: string;
  sizes: string;
}

export interface PageInfo {
  links: PageLink[];
  /** <title> text, whitespace collapsed; '' when absent. */
  title: string;
  /** <meta property|name|itemprop=…> contents by lower-cased key (first one wins): og:title, channelid, … */
  meta: Map<string, string>;
}

function resolve(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'data:' ? url.href : null;
  } catch {
    return null;
  }
}

export function scanHtml(html: string, pageUrl: string): PageInfo {
  const links: PageLink[] = [];
  const meta = new Map<string, string>();
  let base = pageUrl;
  let sawBase = false;
  let title = '';
  let inTitle = false;
  let titleDone = false;
  // Links are resolved after parsing: HTML applies the first <base href> to the whole document, wherever it is.
  const rawLinks: { rel: string[]; href: string; type: string; title: string; sizes: string }[] = [];

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'base' && !sawBase && attribs.href) {
          sawBase = true;
          base = resolve(attribs.href, pageUrl) ?? pageUrl;
        } else if (name === 'link' && attribs.href && attribs.rel) {
          rawLinks.push({
            rel: attribs.rel.toLowerCase().split(/\s+/).filter(Boolean),
            href: attribs.href,
            type: (attribs.type ?? '').split(';')[0].trim().toLowerCase(),
            title: (attribs.title ?? '').replace(/\s+/g, ' ').trim(),
            sizes: (attribs.sizes ?? '').trim().toLowerCase(),
          });
        } else if (name === 'meta' && attribs.content !== undefined) {
          const key = (attribs.property ?? attribs.name ?? attribs.itemprop ?? '').toLowerCase();
          if (key && !meta.has(key)) meta.set(key, attribs.content.trim());
        } else if (name === 'title' && !titleDone) {
          inTitle = true;
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);

  for (const raw of rawLinks) {
    const href = resolve(raw.href, base);
    if (href) links.push({ ...raw, href });
  }
  return { links, title: title.replace(/\s+/g, ' ').trim(), meta };
}
