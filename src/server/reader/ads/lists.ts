/**
 * The ad, affiliate and tracking lists as data (dashboard.md §5: extended content drops ad, affiliate and tracking
 * elements; docs/decisions.md "Ads, affiliate links and tracking: the lists"). German and English, the languages of
 * the spec's sites. The rules that read them are in ./index.ts; change a list here and its tests in index.test.ts
 * say what it catches and what it must leave alone. Plain data: no code runs here.
 */

/**
 * Class and id words of ad, affiliate and tracking blocks. Each must be a whole word part of a class or id (split at
 * `-`, `_`, space and camelCase), so "ad" matches `ad-banner` but not `header`, `shadow` or `download`.
 */
export const AD_CLASS_WORDS: readonly string[] = [
  'ad',
  'ads',
  'advert',
  'adverts',
  'advertisement',
  'advertising',
  'adsbygoogle',
  'adslot',
  'adunit',
  'dfp',
  'sponsor',
  'sponsored',
  'sponsoring',
  'promo',
  'promoted',
  'affiliate',
  'affiliates',
  'outbrain',
  'taboola',
  'plista',
  'tracking',
  'tracker',
  'pixel',
  'anzeige',
  'anzeigen',
  'werbung',
  'banner',
  'newsletter',
  'paywall',
  'pricebox',
  'shopbox',
  'productbox',
];

/**
 * Labels that mark an element as an ad when they are (almost) all of its text: "Anzeige", "* Werbung:",
 * "Sponsored". A sentence that merely uses the word is never one (index.ts isAdBlock).
 */
export const AD_LABELS: readonly string[] = [
  // German
  'Anzeige',
  'Anzeigen',
  'Werbung',
  'Werbeanzeige',
  'Gesponsert',
  'Gesponserter Inhalt',
  'Gesponserter Beitrag',
  'Sponsored Post',
  'Partnerinhalt',
  'Partner-Inhalt',
  'Bezahlter Inhalt',
  'Bezahlte Partnerschaft',
  'Produktplatzierung',
  'Enthält Werbung',
  'Werbelink',
  'Werbelinks',
  'Affiliate-Link',
  'Affiliate-Links',
  'Affiliatelink',
  'Affiliatelinks',
  'Partnerlink',
  'Partnerlinks',
  'Provisions-Link',
  'Provisions-Links',
  'Provisionslink',
  'Provisionslinks',
  // English
  'Ad',
  'Ads',
  'Advert',
  'Advertisement',
  'Advertising',
  'Sponsored',
  'Sponsored content',
  'Paid content',
  'Paid post',
  'Paid partnership',
  'Promoted',
  'Promoted content',
  'Partner content',
  'Affiliate link',
  'Affiliate links',
  'Contains affiliate links',
];

/**
 * Labels that start a short label line followed by a name: "Sponsored by Acme", "In Kooperation mit Samsung".
 * Lower case.
 */
export const AD_LABEL_PREFIXES: readonly string[] = [
  'anzeige:',
  'werbung:',
  'in kooperation mit',
  'unterstützt von',
  'präsentiert von',
  'gesponsert von',
  'sponsored by',
  'presented by',
  'paid for by',
  'in partnership with',
  'advertisement:',
];

/**
 * Sentences of affiliate and advertising disclosures, specific enough that a short block containing one is a
 * disclosure box ("* Affiliate-Link: Wir erhalten eine Provision…"). Lower case; matched as whole words on text with
 * whitespace collapsed and case folded.
 */
export const DISCLOSURE_SENTENCES: readonly string[] = [
  // German
  'mit * markierte links',
  'mit * gekennzeichnete links',
  'mit einem * markierte links',
  'mit einem * gekennzeichnete links',
  'mit einem sternchen markierte links',
  'mit einem sternchen gekennzeichnete links',
  'links mit einem * sind',
  'bei den mit * markierten links',
  'als amazon-partner verdiene ich an qualifizierten verkäufen',
  'als amazon-partner verdienen wir an qualifizierten verkäufen',
  'wir erhalten eine provision',
  'erhalten wir eine provision',
  'erhalte ich eine provision',
  'wir erhalten ggf. eine provision',
  'erhalten wir ggf. eine provision',
  'bekommen wir eine provision',
  'bekomme ich eine provision',
  'für dich ändert sich am preis nichts',
  'für euch ändert sich am preis nichts',
  'für sie ändert sich am preis nichts',
  'am preis ändert sich für dich nichts',
  'am preis ändert sich für sie nichts',
  'dieser artikel enthält affiliate-links',
  'dieser beitrag enthält affiliate-links',
  'dieser artikel enthält partnerlinks',
  'dieser beitrag enthält partnerlinks',
  'dieser beitrag enthält werbung',
  'dieser artikel enthält werbung',
  'dieser beitrag entstand in kooperation mit',
  'dieser artikel entstand in kooperation mit',
  // English
  'as an amazon associate i earn from qualifying purchases',
  'as an amazon associate we earn from qualifying purchases',
  'this post contains affiliate links',
  'this article contains affiliate links',
  'this page contains affiliate links',
  'this post may contain affiliate links',
  'this article may contain affiliate links',
  'we may earn a commission',
  'we may earn an affiliate commission',
  'we earn a commission',
  'i may earn a commission',
  'i earn a commission',
  'we may receive a commission',
  'we may get a commission',
  'at no extra cost to you',
  'at no additional cost to you',
  'this post is sponsored by',
  'this article is sponsored by',
];

/**
 * Shop calls specific to shop and price widgets: a short block (or a link or button) containing one goes.
 * Lower case.
 */
export const SHOP_CALLS: readonly string[] = [
  // German
  'jetzt kaufen bei',
  'jetzt bei amazon kaufen',
  'jetzt bei amazon ansehen',
  'bei amazon ansehen',
  'bei amazon kaufen',
  'bei amazon bestellen',
  'auf amazon ansehen',
  'jetzt ansehen bei',
  'preis prüfen',
  'preis bei amazon prüfen',
  'preise vergleichen',
  'bei ebay ansehen',
  'bei otto ansehen',
  'bei mediamarkt ansehen',
  'bei saturn ansehen',
  'bei idealo ansehen',
  'unverbindliche preisempfehlung',
  'letzte aktualisierung am',
  'preis inkl. mwst',
  // English
  'buy on amazon',
  'buy at amazon',
  'buy from amazon',
  'view on amazon',
  'see on amazon',
  'shop on amazon',
  'check price on amazon',
  'check price at amazon',
  'see price on amazon',
  'view deal at',
  'see deal at',
  'prices may vary',
  'price may vary',
  'last updated on',
];

/**
 * Words of shop boxes too common to decide alone: a short block goes when it holds one of these and a price, or a
 * link or button whose text is mostly one. Lower case.
 */
export const SHOP_WORDS: readonly string[] = [
  // German
  'jetzt kaufen',
  'jetzt bestellen',
  'zum angebot',
  'zum shop',
  'zum deal',
  'zum produkt',
  'angebot ansehen',
  'preis ansehen',
  'preisvergleich',
  'inkl. mwst',
  'inkl. versand',
  'zzgl. versand',
  'uvp',
  'bei amazon',
  // English
  'check price',
  'check prices',
  'see price',
  'see prices',
  'view deal',
  'see deal',
  'get the deal',
  'shop now',
  'buy now',
  'view product',
  'compare prices',
  'at amazon',
  'on amazon',
];

/** Prices: "19,99 €", "€ 5", "EUR 12,50", "$19.99", "£5". Lower-cased text; no global flag (tests only). */
export const PRICE_PATTERN =
  /(?:\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?\s?(?:€|eur\b|euro\b|\$|£|usd\b|chf\b))|(?:(?:€|\$|£|eur|usd|chf)\s?\d{1,3}(?:[.,]\d{3})*(?:[.,]\d{1,2})?)/;

/**
 * Affiliate networks and shop redirectors: a link to one of these hosts (or a subdomain) is an affiliate link.
 * Lower case, without "www.".
 */
export const AFFILIATE_HOSTS: readonly string[] = [
  'amzn.to',
  'amzn.eu',
  'amzn.com',
  'a.co',
  'amazon-adsystem.com',
  'awin1.com',
  'zenaps.com',
  'partners.webmasterplan.com',
  'go.skimresources.com',
  'go.redirectingat.com',
  'redirect.viglink.com',
  'click.linksynergy.com',
  'linksynergy.com',
  'shareasale.com',
  'tradedoubler.com',
  'pntra.com',
  'pntrs.com',
  'pjtra.com',
  'anrdoezrs.net',
  'dpbolvw.net',
  'jdoqocy.com',
  'kqzyfj.com',
  'tkqlhce.com',
  'rover.ebay.com',
  'ebay.us',
  'prf.hn',
  'ad.zanox.com',
  'adcell.de',
  'financeads.net',
  'belboon.de',
  'track.webgains.com',
  'track.adtraction.com',
  'avantlink.com',
  'pxf.io',
  'sjv.io',
  'evyy.net',
  '7eer.net',
  'geni.us',
  'howl.me',
  'shop-links.co',
  'fave.co',
  'tidd.ly',
  'clkde.tradedoubler.com',
  'ad.doubleclick.net',
];

/**
 * Redirectors that carry their target in a query parameter: a link through one is replaced by its target (when that
 * is an http(s) address), so the reader still reaches the shop's page, without the network in between.
 */
export const REDIRECT_TARGET_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'awin1.com': ['ued', 'p'],
  'partners.webmasterplan.com': ['ued'],
  'go.skimresources.com': ['url'],
  'go.redirectingat.com': ['url'],
  'redirect.viglink.com': ['u', 'out'],
  'click.linksynergy.com': ['murl', 'RD_PARM1'],
  'shareasale.com': ['urllink'],
  'tradedoubler.com': ['url'],
  'clkde.tradedoubler.com': ['url'],
  'rover.ebay.com': ['mpre'],
  'prf.hn': ['destination'],
  'ad.zanox.com': ['ULP'],
  'financeads.net': ['url'],
  'pxf.io': ['u'],
  'sjv.io': ['u'],
  'evyy.net': ['u'],
  '7eer.net': ['u'],
  'avantlink.com': ['url'],
  'track.webgains.com': ['wgtarget'],
  'track.adtraction.com': ['url'],
  'anrdoezrs.net': ['url'],
  'dpbolvw.net': ['url'],
  'jdoqocy.com': ['url'],
  'kqzyfj.com': ['url'],
  'tkqlhce.com': ['url'],
};

/**
 * Query parameters that make a link an affiliate link on any site; they are dropped from it (the link then still
 * leads to the same page). Lower case.
 */
export const AFFILIATE_PARAMS: readonly string[] = [
  'ascsubtag',
  'affid',
  'aff_id',
  'affiliate',
  'affiliate_id',
  'affiliateid',
  'aff_sub',
  'aff_sub2',
  'affsub',
  'awc',
  'irclickid',
  'irgwc',
  'clickref',
];

/**
 * Affiliate parameters of one shop: on a host containing the key (`amazon.` matches amazon.de and smile.amazon.com)
 * these count and are dropped too. Lower case.
 */
export const SHOP_AFFILIATE_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'amazon.': ['tag', 'linkcode', 'linkid', 'creative', 'creativeasin', 'camp', 'ascsubtag', 'ref_'],
  'ebay.': ['campid', 'mkcid', 'mkrid', 'mkevt', 'toolid', 'customid'],
};

/** Amazon's partner tag values: store ids end in -20 (US), -21 (DE, UK, FR, IT, ES), -22 (JP); `tag` counts anywhere with one. */
export const AFFILIATE_TAG = /^[\w.]+-2[0-2]$/i;

/** Tracking parameters stripped from every link (they identify the click, not the page). Lower case. */
export const TRACKING_PARAMS: readonly string[] = [
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'vero_conv',
  'wt_mc',
  'wt.mc_id',
  'wt_zmc',
  '_ga',
  '_gl',
  'ref_src',
  'ref_url',
  'spm',
  'scm',
  'cmpid',
  'ncid',
  'sr_share',
];

/** Every parameter starting with one of these is tracking too (`utm_source`, `utm_medium`, …). */
export const TRACKING_PARAM_PREFIXES: readonly string[] = ['utm_', 'pk_', 'mtm_', 'piwik_', 'matomo_'];
