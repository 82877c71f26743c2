/**
 * What sanitised content may load from outside: the page's Content-Security-Policy is built from these lists. A
 * module of its own so that the HTTP layer reads them without loading the sanitiser (bench/README.md "Budgets":
 * idle memory).
 */

/**
 * Video hosts whose players may be embedded: the path their embed player lives under, and the host the frame is
 * loaded from. YouTube embeds are rewritten to its no-cookie host (same player, no tracking cookies until play),
 * so the page's Content-Security-Policy (frame-src, EMBED_FRAME_SOURCES) names exactly the hosts kept here.
 * https only. PeerTube is not among them: its instances are arbitrary hosts, so a rule for it would let any site
 * that serves `/videos/embed/` run in the frame.
 */
export const IFRAME_HOSTS: ReadonlyMap<string, { path: string; host: string }> = new Map([
  ['www.youtube.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['youtube.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['www.youtube-nocookie.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['youtube-nocookie.com', { path: '/embed/', host: 'www.youtube-nocookie.com' }],
  ['player.vimeo.com', { path: '/video/', host: 'player.vimeo.com' }],
  ['www.dailymotion.com', { path: '/embed/video/', host: 'www.dailymotion.com' }],
  ['geo.dailymotion.com', { path: '/player', host: 'geo.dailymotion.com' }],
]);

/**
 * The origins an iframe in sanitised content can load from: the page's CSP frame-src is exactly this list
 * (docs/decisions.md "Feeds read right: dates, identity, fallbacks").
 */
export const EMBED_FRAME_SOURCES: readonly string[] = [...new Set([...IFRAME_HOSTS.values()].map((h) => `https://${h.host}`))];

/**
 * The sources audio, video and <source> elements in sanitised content can load from (mediaUrl: http and https):
 * the page's CSP media-src adds exactly these to 'self'.
 */
export const MEDIA_SOURCES: readonly string[] = ['https:', 'http:'];
