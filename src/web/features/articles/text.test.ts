import { describe, expect, it } from 'vitest';
import { firstSentences, looksLikeTeaser, plainText, prepareContent } from './text.js';

describe('firstSentences (§9: the compact card shows the first three sentences)', () => {
  it('keeps three sentences and collapses whitespace', () => {
    expect(firstSentences('One.  Two!\nThree? Four. Five.')).toBe('One. Two! Three?');
    expect(firstSentences('Only one sentence without a stop')).toBe('Only one sentence without a stop');
    expect(firstSentences('   ')).toBe('');
  });
});

describe('prepareContent (§5: images under 10 px are removed)', () => {
  it('drops tiny images by attribute or inline style, keeps the rest lazy, and opens links in a new tab', () => {
    const html = prepareContent(
      '<p>Hi <a href="https://a.example/">there</a></p><img src="t1" width="1" height="1"><img src="t2" style="width: 5px"><a href="https://ad.example/"><img src="t3" height="2"></a><img src="big" width="640">',
    );
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(Array.from(doc.images).map((i) => i.getAttribute('src'))).toEqual(['big']);
    expect(doc.images[0].getAttribute('loading')).toBe('lazy');
    const links = Array.from(doc.querySelectorAll('a'));
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://a.example/']);
    expect(links[0].getAttribute('target')).toBe('_blank');
    expect(links[0].getAttribute('rel')).toBe('noopener noreferrer');
  });
});

describe('looksLikeTeaser (docs/decisions.md "Reading flow")', () => {
  const para = (n: number, words = 30) => `<p>${Array.from({ length: words }, (_, i) => `word${n}-${i}`).join(' ')}.</p>`;
  const full = [1, 2, 3, 4].map((n) => para(n)).join('');

  it('takes several long paragraphs for the full article', () => {
    expect(full.length).toBeGreaterThan(1000);
    expect(looksLikeTeaser(full)).toBe(false);
    expect(looksLikeTeaser(`${full}<p>Published by <a href="https://x.example/">X</a>.</p>`)).toBe(false);
  });

  it('takes no text, or little text, for a teaser', () => {
    expect(looksLikeTeaser(null)).toBe(true);
    expect(looksLikeTeaser('')).toBe(true);
    expect(looksLikeTeaser('<p><img src="a.png"></p>')).toBe(true);
    expect(looksLikeTeaser('<p>Das Derby endet unentschieden.</p>')).toBe(true);
  });

  it('takes text that stops short or ends in a "read more" link for a teaser, however long', () => {
    expect(looksLikeTeaser(`${full.slice(0, -5)} and then…</p>`)).toBe(true);
    expect(looksLikeTeaser(`${full}<p>The rest [&hellip;]</p>`)).toBe(true);
    expect(looksLikeTeaser(`${full}<p>And so on [...]</p>`)).toBe(true);
    expect(looksLikeTeaser(`${full}<p><a href="https://x.example/1">Read more</a></p>`)).toBe(true);
    expect(looksLikeTeaser(`${full}<p><a href="https://x.example/1">Continue reading &raquo;</a></p>`)).toBe(true);
    expect(looksLikeTeaser(`${full}<a href="https://x.example/1">Weiterlesen</a>`)).toBe(true);
    expect(looksLikeTeaser(`${full}<p>» <a href="https://x.example/1">Zum vollständigen Artikel</a></p>`)).toBe(true);
  });

  it('takes one paragraph of moderate length for a teaser, a long one for the article', () => {
    expect(looksLikeTeaser(para(1, 120))).toBe(true);
    expect(looksLikeTeaser(para(1, 300))).toBe(false);
  });

  it('reads entities and ignores markup when measuring', () => {
    expect(plainText('<p>Caf&eacute; &amp; <b>Bar</b>&#33;&nbsp;&#x263A;</p>')).toBe('Caf&eacute; & Bar! ☺');
  });
});
