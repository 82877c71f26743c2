import { describe, expect, it } from 'vitest';
import { extractArticle, isTinyImage } from './index.js';

type Img = Parameters<typeof isTinyImage>[0];
import { parseHTML } from 'linkedom';

const BASE = 'https://news.example.com/2026/11/story.html';
const para = (n: number) =>
  `<p>Paragraph ${n} of the story tells, at comfortable length, what happened in the town hall yesterday evening, who spoke, and what the council decided about the new library and the bus lines.</p>`;

const page = (article: string) => `<!doctype html><html><head><title>Story - News</title>
<script>window.tracker = 1</script></head><body>
<header class="site-header"><nav><a href="/">Home</a> <a href="/world">World</a></nav></header>
<div class="ad-slot top">Buy now! Cheap shoes</div>
<main><article><h1>The council decides</h1>${article}</article></main>
<aside id="sponsored-links"><a href="https://shop.example.com/?aff=1">Best price on laptops</a></aside>
<footer>© News</footer></body></html>`;

describe('extractArticle', () => {
  it('returns the readable article, sanitised, with relative URLs made absolute', () => {
    const html = page(`${para(1)}<p><img src="/img/hall.jpg" alt="Town hall" width="640" height="480"></p>${para(2)}${para(3)}
      <p><a href="../other.html" onclick="steal()">Related</a></p><script>alert(1)</script>`);
    const out = extractArticle(html, BASE)!;
    expect(out).not.toBeNull();
    expect(out.title).toBeTruthy();
    expect(out.content).toContain('Paragraph 1 of the story');
    expect(out.content).toContain('Paragraph 3 of the story');
    expect(out.content).toContain('src="https://news.example.com/img/hall.jpg"');
    expect(out.content).toContain('href="https://news.example.com/2026/other.html"');
    expect(out.content).not.toMatch(/<script|onclick|alert\(/);
    expect(out.content).not.toContain('Buy now');
    expect(out.content).not.toContain('Best price');
  });

  it('removes images declaring a size under 10 px and ad/affiliate blocks inside the article', () => {
    const html = page(`${para(1)}<img src="/spacer.gif" width="5" height="40"><img src="/pixel.png" style="height: 3px">
      <div class="affiliateBox"><p>Buy the book at our partner shop for the best price you will ever see anywhere, really, we promise you this.</p></div>
      ${para(2)}<img src="/photo.jpg" width="300">${para(3)}`);
    const out = extractArticle(html, BASE)!;
    expect(out.content).not.toContain('spacer.gif');
    expect(out.content).not.toContain('pixel.png');
    expect(out.content).toContain('photo.jpg');
    expect(out.content).not.toContain('partner shop');
  });

  it('drops ad labels, disclosure and shop boxes inside the article, and keeps sentences that mention them', () => {
    const html = page(`${para(1)}
      <p><span>Anzeige</span></p>
      <p>Werbung finanziert viele Verlage; der Stadtrat diskutierte gestern, ob die Stadtwerke auf ihren Bussen Werbung zeigen dürfen.</p>
      <p><small>* Mit * markierte Links sind Affiliate-Links. Kaufst du darüber ein, erhalten wir eine Provision.</small></p>
      ${para(2)}
      <div><strong>Sony WH-1000XM5</strong> 279,99 € <a href="https://www.amazon.de/dp/B0?tag=blog-21">Jetzt kaufen bei Amazon</a></div>
      <ul><li>Robust</li><li>Leise</li></ul>
      ${para(3)}`);
    const out = extractArticle(html, BASE)!;
    expect(out.content).toContain('Paragraph 3 of the story');
    expect(out.content).toContain('auf ihren Bussen Werbung zeigen');
    expect(out.content).toContain('Robust');
    expect(out.content).not.toMatch(/>\s*Anzeige\s*</);
    expect(out.content).not.toContain('Provision');
    expect(out.content).not.toContain('279,99');
    expect(out.content).not.toContain('Jetzt kaufen');
  });

  it('turns affiliate links into plain ones and strips tracking parameters, keeping the words', () => {
    const html = page(`${para(1)}
      <p>The book <a href="https://amzn.to/3xYz">Deep Work</a> changed how the council plans its meetings, and the <a href="https://www.amazon.de/dp/B0C8?tag=blog-21&amp;th=1">second edition</a> adds a chapter.</p>
      <p>Read the <a href="https://news.example.com/report?utm_source=rss&amp;utm_medium=feed&amp;id=7">full report</a> and the <a href="https://www.awin1.com/cread.php?awinmid=1&amp;ued=https%3A%2F%2Fshop.example.com%2Fbook">shop page</a>.</p>
      ${para(2)}<img src="https://ir-de.amazon-adsystem.com/e/ir?t=blog-21" width="300">${para(3)}`);
    const out = extractArticle(html, BASE)!;
    expect(out.content).toContain('Deep Work');
    expect(out.content).not.toContain('amzn.to');
    expect(out.content).toContain('href="https://www.amazon.de/dp/B0C8?th=1"');
    expect(out.content).toContain('href="https://news.example.com/report?id=7"');
    expect(out.content).toContain('href="https://shop.example.com/book"');
    expect(out.content).not.toMatch(/utm_|tag=blog|awin1|amazon-adsystem/);
  });

  it('keeps a short article whole even when it is about a disclosure', () => {
    const html = `<html><body><article><h1>Hinweis</h1><p>Als Amazon-Partner verdiene ich an qualifizierten Verkäufen. ${'So finanziert sich dieses Blog seit vielen Jahren, ohne Banner und ohne Tracking. '.repeat(2)}</p></article></body></html>`;
    const out = extractArticle(html, BASE);
    expect(out?.content).toContain('So finanziert sich dieses Blog');
  });

  it('keeps elements whose class merely contains the letters of an ad word', () => {
    const html = page(`<div class="shadow download-header">${para(1)}${para(2)}${para(3)}</div>`);
    expect(extractArticle(html, BASE)!.content).toContain('Paragraph 2');
  });

  it('returns null for a page without an article', () => {
    expect(extractArticle('<html><body><nav><a href="/">Home</a></nav></body></html>', BASE)).toBeNull();
    expect(extractArticle('', BASE)).toBeNull();
    expect(extractArticle('not html at all', BASE)).toBeNull();
  });

  it('tells tiny images by attribute and inline style', () => {
    const img = (attrs: string) => parseHTML(`<img ${attrs}>`).document.querySelector('img') as unknown as Img;
    expect(isTinyImage(img('width="1" height="1"'))).toBe(true);
    expect(isTinyImage(img('height="9px"'))).toBe(true);
    expect(isTinyImage(img('style="width:2px"'))).toBe(true);
    expect(isTinyImage(img('width="10"'))).toBe(false);
    expect(isTinyImage(img('width="50%"'))).toBe(false);
    expect(isTinyImage(img(''))).toBe(false);
  });
});
