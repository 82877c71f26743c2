import { describe, expect, it } from 'vitest';
import { cleanLink, hasAdClass, isAdBlock, isAdLabel, isAffiliateLink, stripTrackingParams } from './index.js';
import { AD_LABELS, AFFILIATE_HOSTS, DISCLOSURE_SENTENCES, SHOP_CALLS, SHOP_WORDS } from './lists.js';

/**
 * The ad, affiliate and tracking rules (dashboard.md §5; docs/decisions.md "Ads, affiliate links and tracking: the
 * lists"): what they catch, and the ordinary article text and links they must leave alone.
 */

const block = (text: string, tag = 'div') => isAdBlock({ tag, text });

describe('isAdBlock: class and id', () => {
  it('catches blocks whose class or id names an ad, as a whole word part', () => {
    for (const [className, id] of [
      ['ad-slot top', null],
      ['adSlot', null],
      [null, 'sponsored-links'],
      ['affiliate_box', null],
      ['article__anzeige', null],
      ['werbung', null],
      ['OUTBRAIN widget', null],
      ['price-box shopbox', null],
    ]) {
      expect(isAdBlock({ tag: 'div', className, id }), `${className} ${id}`).toBe(true);
    }
  });

  it('leaves classes that only contain the letters, and never removes the page frame', () => {
    for (const className of ['header', 'shadow', 'download-link', 'leading', 'readmore', 'badge', 'gradient', 'address', 'adjust', 'thread']) {
      expect(hasAdClass(className), className).toBe(false);
      expect(isAdBlock({ tag: 'div', className }), className).toBe(false);
    }
    for (const tag of ['html', 'body', 'main', 'article', 'BODY']) expect(isAdBlock({ tag, className: 'ad-wrapper' }), tag).toBe(false);
    expect(hasAdClass('')).toBe(false);
  });
});

describe('isAdBlock: labels', () => {
  it('catches an element that is just a label, with decoration, in German and English', () => {
    for (const text of [
      'Anzeige',
      '  ANZEIGE  ',
      '* Anzeige *',
      '(Werbung)',
      'Werbung:',
      '– Sponsored –',
      'Advertisement',
      'Gesponsert',
      '*Affiliate-Link',
      'Partnerlink',
      'Provisions-Link',
      'Paid content',
    ]) {
      expect(block(text, 'span'), text).toBe(true);
    }
    for (const text of ['Sponsored by Acme Corp', 'In Kooperation mit Samsung', 'Anzeige: Volkswagen AG', 'Präsentiert von Telekom'])
      expect(block(text, 'p'), text).toBe(true);
    // A heading that is only a label is one too.
    expect(block('Anzeige', 'h4')).toBe(true);
  });

  it('every listed label is caught on its own', () => {
    for (const label of AD_LABELS) expect(isAdLabel(label), label).toBe(true);
  });

  it('leaves sentences that merely use the words', () => {
    for (const text of [
      'Werbung ist für viele Verlage die wichtigste Einnahmequelle, sagt die Studie.',
      'Die Anzeige bei der Polizei wurde am Montag erstattet.',
      'Sponsored by nobody, the project lives on donations from its users and a small grant from the city council, which pays for hosting.',
      'Ad hoc decisions are rarely the best ones.',
      'Die Werbung im Fernsehen nervt.',
      'Promotion',
      'Kooperation',
    ]) {
      expect(block(text, 'p'), text).toBe(false);
    }
    expect(isAdLabel('Anzeigenblatt und Zeitung im Vergleich')).toBe(false);
    expect(isAdLabel('')).toBe(false);
  });
});

describe('isAdBlock: disclosures', () => {
  it('catches short disclosure boxes', () => {
    for (const text of [
      '* Affiliate-Links: Mit * markierte Links sind Affiliate-Links. Kaufst du darüber ein, erhalten wir eine Provision. Für dich ändert sich am Preis nichts.',
      'Als Amazon-Partner verdiene ich an qualifizierten Verkäufen.',
      'Hinweis: Dieser Beitrag enthält Werbung.',
      'As an Amazon Associate I earn from qualifying purchases.',
      'This post contains affiliate links. If you buy through them we may earn a commission at no extra cost to you.',
      'Disclosure: We may earn a commission when you buy through links on our site.',
    ]) {
      expect(block(text, 'p'), text).toBe(true);
    }
  });

  it('every disclosure sentence decides a short block', () => {
    for (const sentence of DISCLOSURE_SENTENCES) expect(block(`Hinweis: ${sentence}.`, 'p'), sentence).toBe(true);
  });

  it('leaves a long paragraph that quotes a disclosure, and a sentence about affiliate links', () => {
    const long = `${'Der Bundesgerichtshof hat entschieden, wie Blogs Werbung kennzeichnen müssen. '.repeat(5)}Ein typischer Satz lautet: „Wir erhalten eine Provision.“`;
    expect(long.length).toBeGreaterThan(400);
    expect(block(long, 'p')).toBe(false);
    expect(block('Ich habe das Buch über einen Partnerlink gekauft, weil die Autorin das so wollte.', 'p')).toBe(false);
    expect(block('Affiliate links are how many blogs pay for their hosting.', 'p')).toBe(false);
  });
});

describe('isAdBlock: shop boxes', () => {
  it('catches price and shop boxes, shop buttons and Amazon widgets', () => {
    for (const [text, tag] of [
      ['Jetzt kaufen bei Amazon', 'a'],
      ['bei Amazon ansehen', 'a'],
      ['Buy on Amazon', 'button'],
      ['Sony WH-1000XM5 Kopfhörer 279,99 € Jetzt kaufen', 'div'],
      ['Apple AirPods Pro 2 – UVP 279 € – Zum Angebot', 'li'],
      ['Anker Powerbank $39.99 Check price', 'div'],
      ['Letzte Aktualisierung am 22.11.2026 / Affiliate Links / Bilder von der Amazon Product Advertising API', 'small'],
      ['Zum Angebot', 'a'],
      ['Shop now »', 'a'],
      ['Preis prüfen', 'span'],
    ]) {
      expect(block(text, tag), text).toBe(true);
    }
    for (const call of SHOP_CALLS) expect(block(`Produkt X: ${call}`, 'div'), call).toBe(true);
  });

  it('every shop word decides a box with a price, between any punctuation', () => {
    // The phrase expressions run only on texts holding one of a phrase's words (index.ts candidateLists): a word
    // next to punctuation, a dash or a non-ASCII letter is still found.
    for (const word of SHOP_WORDS) {
      expect(block(`Kopfhörer – ${word}: 19,99 €`, 'div'), word).toBe(true);
      expect(block(`«${word}»—€5`, 'div'), word).toBe(true);
    }
    for (const sentence of DISCLOSURE_SENTENCES) expect(block(`(${sentence.toUpperCase()})`, 'p'), sentence).toBe(true);
    expect(block('Dinge bei Amazonien: 19,99 €', 'div')).toBe(false);
  });

  it('leaves prices and shop words in ordinary text', () => {
    for (const [text, tag] of [
      ['Der neue Tarif kostet 19,99 € im Monat, zwei Euro mehr als bisher.', 'p'],
      ['Wer jetzt kaufen will, sollte noch bis zum Black Friday warten.', 'p'],
      ['The shares rose to $41.20 after the announcement on Tuesday.', 'p'],
      ['Zum Angebot der Stadtbibliothek gehören auch Hörbücher und Filme für alle.', 'p'],
      ['Buy now, pay later: the regulator wants stricter rules for the lenders.', 'h2'],
    ]) {
      expect(block(text, tag), text).toBe(false);
    }
    // A list of prices in an article (a comparison table cell) is article content.
    expect(block('279,99 €', 'td')).toBe(false);
  });

  it('reads text only of block, inline, link and button elements, and only short ones, cheaply', () => {
    expect(isAdBlock({ tag: 'article', text: 'Anzeige' })).toBe(false);
    expect(isAdBlock({ tag: 'img', text: 'Anzeige' })).toBe(false);
    expect(isAdBlock({ tag: 'div' })).toBe(false);
    expect(isAdBlock({ tag: 'div', text: null })).toBe(false);
    expect(block('Jetzt kaufen bei Amazon '.repeat(1000))).toBe(false);
    expect(block('   ')).toBe(false);
  });
});

describe('isAffiliateLink', () => {
  it('catches Amazon partner tags, affiliate parameters and every listed network', () => {
    for (const href of [
      'https://www.amazon.de/dp/B0C8PRV8WY?tag=techblog-21',
      'https://www.amazon.com/dp/B0C8PRV8WY/?tag=site-20&linkCode=ogi',
      'https://smile.amazon.co.uk/gp/product/123?ascsubtag=abc',
      'https://shop.example.com/item/5?affid=1234',
      'https://shop.example.com/item/5?aff_id=99&x=1',
      'https://www.ebay.de/itm/123?mkcid=1&campid=5338',
      'https://amzn.to/3xYzAbC',
      'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&ued=https%3A%2F%2Fshop.example.com%2F',
      'http://partners.webmasterplan.com/click.asp?ref=1&site=2',
      'https://go.skimresources.com/?id=1X2&url=https%3A%2F%2Fshop.example.com',
      'https://redirect.viglink.com/?key=abc&u=https%3A%2F%2Fshop.example.com',
      'https://click.linksynergy.com/deeplink?id=x&mid=1&murl=https%3A%2F%2Fshop.example.com',
      'https://www.shareasale.com/r.cfm?b=1&u=2&m=3',
      'https://clk.tradedoubler.com/click?p=1&a=2',
      'https://www.anrdoezrs.net/links/123/type/dlg/https://shop.example.com',
      'https://rover.ebay.com/rover/1/707-53477-19255-0/1?mpre=https%3A%2F%2Fwww.ebay.de%2Fitm%2F1',
      'HTTPS://AMZN.TO/abc',
    ]) {
      expect(isAffiliateLink(href), href).toBe(true);
    }
    for (const host of AFFILIATE_HOSTS) expect(isAffiliateLink(`https://${host}/x`), host).toBe(true);
  });

  it('leaves ordinary links, shop links without partner ids, and look-alike hosts', () => {
    for (const href of [
      'https://www.amazon.de/dp/B0C8PRV8WY',
      'https://www.amazon.de/s?k=kopfhörer',
      'https://example.com/article?tag=politics',
      'https://example.com/tags?tag=release-2021',
      'https://www.ebay.de/itm/123',
      'https://notamzn.to/x',
      'https://awin1.com.example.org/x',
      'https://news.example.com/2026/11/story.html?page=2',
      '/relative/link?tag=site-21',
      'mailto:someone@example.com',
      'javascript:alert(1)',
      '',
      'not a url',
      `https://example.com/?q=${'x'.repeat(10_000)}`,
    ]) {
      expect(isAffiliateLink(href), href.slice(0, 80)).toBe(false);
    }
  });
});

describe('stripTrackingParams', () => {
  it('drops utm_* and click ids, and affiliate parameters, keeping the page', () => {
    expect(stripTrackingParams('https://news.example.com/a?id=5&utm_source=rss&utm_medium=feed&utm_campaign=x')).toBe('https://news.example.com/a?id=5');
    expect(stripTrackingParams('https://example.com/?fbclid=abc')).toBe('https://example.com/');
    expect(stripTrackingParams('https://example.com/p?gclid=1&msclkid=2&mc_cid=3&mc_eid=4#section')).toBe('https://example.com/p#section');
    expect(stripTrackingParams('https://www.amazon.de/dp/B0C8?tag=techblog-21&linkCode=ll1&th=1')).toBe('https://www.amazon.de/dp/B0C8?th=1');
    expect(stripTrackingParams('https://shop.example.com/i?ascsubtag=a&UTM_Source=b&color=red')).toBe('https://shop.example.com/i?color=red');
    expect(stripTrackingParams('https://example.com/a?pk_campaign=x&mtm_source=y')).toBe('https://example.com/a');
  });

  it('returns the very string when there is nothing to strip, and leaves other links alone', () => {
    for (const href of [
      'https://example.com/a?b=1&c=2',
      'https://example.com/article?tag=politics',
      'https://example.com/search?q=utm_source',
      'https://example.com/a?id=5&amp;x=1',
      '/relative?utm_source=x',
      'mailto:a@example.com?subject=utm_source',
      'https://example.com/%zz?utm',
      '',
    ]) {
      expect(stripTrackingParams(href), href).toBe(href);
    }
  });
});

describe('cleanLink', () => {
  it('follows redirectors that name their target, cleaned', () => {
    expect(cleanLink('https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&ued=https%3A%2F%2Fshop.example.com%2Fp%3Futm_source%3Dawin%26id%3D7')).toBe(
      'https://shop.example.com/p?id=7',
    );
    expect(cleanLink('https://go.skimresources.com/?id=1X2&url=https%3A%2F%2Fshop.example.com%2Fitem')).toBe('https://shop.example.com/item');
    expect(cleanLink('https://click.linksynergy.com/deeplink?id=x&mid=1&murl=https%3A%2F%2Fshop.example.com%2F')).toBe('https://shop.example.com/');
    expect(cleanLink('https://rover.ebay.com/rover/1/707/1?mpre=https%3A%2F%2Fwww.ebay.de%2Fitm%2F1%3Fcampid%3D5')).toBe('https://www.ebay.de/itm/1');
  });

  it('drops links through networks without a readable target, and a target that is another network', () => {
    expect(cleanLink('https://amzn.to/3xYzAbC')).toBeNull();
    expect(cleanLink('https://www.shareasale.com/r.cfm?b=1&u=2&m=3')).toBeNull();
    expect(cleanLink('https://go.skimresources.com/?url=javascript%3Aalert(1)')).toBeNull();
    expect(cleanLink('https://go.skimresources.com/?url=https%3A%2F%2Famzn.to%2Fx')).toBeNull();
  });

  it('strips tracking from ordinary links and leaves the rest exactly as given', () => {
    expect(cleanLink('https://www.amazon.de/dp/B0C8?tag=x-21')).toBe('https://www.amazon.de/dp/B0C8');
    expect(cleanLink('https://news.example.com/a?utm_source=rss')).toBe('https://news.example.com/a');
    for (const href of ['https://news.example.com/a?page=2', '/relative', '#top', 'mailto:x@example.com']) expect(cleanLink(href)).toBe(href);
  });
});
