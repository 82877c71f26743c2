import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processDocument } from './process-document.js';

const fixture = (name: string) => readFileSync(new URL(`../reader/parse/testdata/${name}`, import.meta.url));

function contents(name: string): (string | null)[] {
  const result = processDocument({
    body: fixture(name),
    url: 'https://example.com/feed.xml',
    contentType: null,
    known: new Map(),
    now: Date.UTC(2025, 0, 1),
  });
  return result.fresh.map((item) => item.content);
}

describe('processDocument: the base of relative URLs in Atom content (RFC 4287 §2)', () => {
  it('resolves against the xml:base in scope for the content element, not the entry link', () => {
    const [feedBase, entryBase, elementBase] = contents('xmlbase-atom-content.xml');
    expect(feedBase).toContain('href="https://base.example.org/blog/page.html"');
    expect(feedBase).toContain('src="https://base.example.org/img/a.png"');
    expect(entryBase).toContain('href="https://base.example.org/entries/2/page.html"');
    expect(elementBase).toContain('href="https://content.example.net/c/page.html"');
    for (const c of [feedBase, entryBase, elementBase]) expect(c).not.toContain('elsewhere.example.com');
  });

  it('keeps the entry link as the base when the feed declares no xml:base', () => {
    const [content] = contents('xmlbase-atom-content-none.xml');
    expect(content).toContain('href="https://site.example.com/posts/1/page.html"');
  });
});
