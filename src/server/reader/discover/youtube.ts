/**
 * YouTube publishes an Atom feed for every channel and playlist at /feeds/videos.xml, but its pages link it only
 * for channels, and only under the channel id (UC…), which handle URLs (/@name) do not show.
 */

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
const CHANNEL_ID = /^UC[\w-]{22}$/;
/** Playlist ids: PL…, UU…, OL…, FL…; letters, digits, - and _ only. */
const PLAYLIST_ID = /^[\w-]{2,64}$/;
const FEED_BASE = 'https://www.youtube.com/feeds/videos.xml';

export function isYouTubeUrl(url: URL): boolean {
  return YOUTUBE_HOSTS.has(url.hostname.toLowerCase());
}

export function channelFeedUrl(channelId: string): string | null {
  return CHANNEL_ID.test(channelId) ? `${FEED_BASE}?channel_id=${channelId}` : null;
}

/**
 * The feed URL for a YouTube channel (/channel/UC…) or playlist (/playlist?list=…) URL; null for every other URL,
 * including handle pages (/@name, /c/name, /user/name), whose channel id only the page itself tells.
 */
export function youtubeFeedUrl(url: URL): string | null {
  if (!isYouTubeUrl(url)) return null;
  const channel = /^\/channel\/([^/]+)\/?/.exec(url.pathname);
  if (channel) return channelFeedUrl(channel[1]);
  if (url.pathname === '/playlist' || url.pathname === '/playlist/') {
    const list = url.searchParams.get('list');
    return list && PLAYLIST_ID.test(list) ? `${FEED_BASE}?playlist_id=${list}` : null;
  }
  return null;
}

/** The channel id a YouTube channel page names in its markup or inline JSON, or null. */
export function channelIdFromPage(html: string, meta: Map<string, string>): string | null {
  const fromMeta = meta.get('channelid') ?? meta.get('identifier');
  if (fromMeta && CHANNEL_ID.test(fromMeta)) return fromMeta;
  // ytInitialData names the page owner as "externalId" (channel metadata); "channelId" also appears for other
  // channels in recommendations, but the owner's comes first (header), so it is only the fallback.
  const match = /"externalId":"(UC[\w-]{22})"/.exec(html) ?? /"channelId":"(UC[\w-]{22})"/.exec(html);
  return match ? match[1] : null;
}
