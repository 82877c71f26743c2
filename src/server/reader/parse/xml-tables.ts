/**
 * The name tables of the XML feed reader (xml.ts): which namespace URIs stand for which prefix, and which elements
 * are read as raw text. They are the reading contract Feeder's feeds were parsed with when feedsmith 3.0.1 read
 * them (docs/decisions.md "Parse threads: our own XML feed reader"); xml.test.ts holds them equal to it.
 */
import type { FeedFormat } from '../types.js';

type XmlFormat = Exclude<FeedFormat, 'json'>;

/**
 * Namespace URIs by the prefix they are read as, lower-cased (blogChannel → blogchannel). Entries without a scheme
 * stand for both the http:// and the https:// form; a trailing slash is written where it is meant.
 */
const NAMESPACE_URIS: Record<string, string> = {
  admin: 'webns.net/mvcb/ webns.net/mvcb',
  atom: 'www.w3.org/2005/Atom www.w3.org/2005/Atom/ purl.org/atom/ns#',
  blogchannel: 'backend.userland.com/blogChannelModule backend.userland.com/blogChannelModule/',
  app: 'www.w3.org/2007/app www.w3.org/2007/app/',
  dc:
    'purl.org/dc/elements/1.1/ purl.org/dc/elements/1.1 dublincore.org/documents/dcmi-namespace/ dublincore.org/documents/dcmi-namespace ' +
    'purl.org/dc/elements/1.0/ purl.org/dc/elements/1.0',
  sy: 'purl.org/rss/1.0/modules/syndication/ purl.org/rss/1.0/modules/syndication',
  content: 'purl.org/rss/1.0/modules/content/ purl.org/rss/1.0/modules/content',
  creativecommons:
    'backend.userland.com/creativeCommonsRssModule backend.userland.com/creativeCommonsRssModule/ ' +
    'cyber.law.harvard.edu/rss/creativeCommonsRssModule.html cyber.law.harvard.edu/rss/creativeCommonsRssModule',
  slash: 'purl.org/rss/1.0/modules/slash/ purl.org/rss/1.0/modules/slash',
  itunes: 'www.itunes.com/dtds/podcast-1.0.dtd',
  podcast: 'podcastindex.org/namespace/1.0 podcastindex.org/namespace/1.0/ https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md',
  psc: 'podlove.org/simple-chapters podlove.org/simple-chapters/',
  media:
    'search.yahoo.com/mrss/ search.yahoo.com/mrss video.search.yahoo.com/mrss video.search.yahoo.com/mrss/ www.rssboard.org/media-rss ' +
    'www.rssboard.org/media-rss/ search.yahoo.com/searchmonkey/media/ search.yahoo.com/searchmonkey/media tools.search.yahoo.com/mrss/ ' +
    'tools.search.yahoo.com/mrss',
  georss: 'www.georss.org/georss www.georss.org/georss/',
  geo: 'www.w3.org/2003/01/geo/wgs84_pos#',
  thr: 'purl.org/syndication/thread/1.0 purl.org/syndication/thread/1.0/ purl.org/rss/1.0/modules/threading/ purl.org/rss/1.0/modules/threading',
  dcterms:
    'purl.org/dc/terms/ purl.org/dc/terms dublincore.org/documents/dcmi-terms/ dublincore.org/documents/dcmi-terms ' +
    'dublincore.org/specifications/dublin-core/dcmi-terms/ dublincore.org/specifications/dublin-core/dcmi-terms',
  wfw: 'wellformedweb.org/CommentAPI/ wellformedweb.org/CommentAPI',
  source: 'source.scripting.com/ source.scripting.com',
  feedpress: 'feed.press/xmlns feed.press/xmlns/ feedpress.com/xmlns feedpress.com/xmlns/ feedpress.it/xmlns feedpress.it/xmlns/',
  yt: 'www.youtube.com/xml/schemas/2015 www.youtube.com/xml/schemas/2015/',
  googleplay: 'www.google.com/schemas/play-podcasts/1.0/ www.google.com/schemas/play-podcasts/1.0 www.google.com/schemas/play-podcasts/1.0/play-podcasts.xsd',
  spotify: 'www.spotify.com/ns/rss www.spotify.com/ns/rss/',
  rdf: 'www.w3.org/1999/02/22-rdf-syntax-ns#',
  rss: 'purl.org/rss/1.0/ purl.org/rss/1.0',
  rawvoice: 'www.rawvoice.com/rawvoiceRssModule/ www.rawvoice.com/rawvoiceRssModule blubrry.com/developer/rawvoice-rss blubrry.com/developer/rawvoice-rss/',
  cc: 'creativecommons.org/ns# web.resource.org/cc/ web.resource.org/cc',
  opensearch: 'a9.com/-/spec/opensearch/1.1/ a9.com/-/spec/opensearch/1.0/ a9.com/-/spec/opensearchrss/1.0/',
  arxiv: 'arxiv.org/schemas/atom arxiv.org/schemas/atom/',
  pingback: 'madskills.com/public/xml/rss/module/pingback/ madskills.com/public/xml/rss/module/pingback',
  trackback: 'madskills.com/public/xml/rss/module/trackback/ madskills.com/public/xml/rss/module/trackback',
  prism:
    'prismstandard.org/namespaces/basic/3.0/ prismstandard.org/namespaces/basic/3.0 prismstandard.org/namespaces/basic/2.2/ ' +
    'prismstandard.org/namespaces/basic/2.2 prismstandard.org/namespaces/basic/2.1/ prismstandard.org/namespaces/basic/2.1 ' +
    'prismstandard.org/namespaces/basic/2.0/ prismstandard.org/namespaces/basic/2.0 prismstandard.org/namespaces/2.0/basic/ ' +
    'prismstandard.org/namespaces/2.0/basic prismstandard.org/namespaces/1.2/basic/ prismstandard.org/namespaces/1.2/basic ' +
    'prismstandard.org/namespaces/1.1/basic/ prismstandard.org/namespaces/1.1/basic prismstandard.org/namespaces/1.0/basic/ ' +
    'prismstandard.org/namespaces/1.0/basic purl.org/rss/1.0/modules/prism/ purl.org/rss/1.0/modules/prism',
  acast: 'schema.acast.com/1.0/ schema.acast.com/1.0',
};

function urisOf(prefix: string): string[] {
  const out: string[] = [];
  for (const entry of NAMESPACE_URIS[prefix].split(' ')) {
    if (entry.startsWith('http')) out.push(entry);
    else out.push(`http://${entry}`, `https://${entry}`);
  }
  return out;
}

/** Every known namespace URI, lower-cased, → the prefix it is read as. */
export const PREFIX_BY_URI: ReadonlyMap<string, string> = new Map(
  Object.keys(NAMESPACE_URIS).flatMap((prefix) => urisOf(prefix).map((uri) => [uri.toLowerCase(), prefix] as const)),
);

/** The namespaces whose elements a format reads without a prefix (a root `xmlns` or a prefix bound to them). */
const PRIMARY: Record<XmlFormat, string[]> = { rss: [], atom: ['atom'], rdf: ['rdf', 'rss'] };

export const PRIMARY_URIS: Record<XmlFormat, ReadonlySet<string>> = {
  rss: new Set(),
  atom: new Set(PRIMARY.atom.flatMap(urisOf).map((u) => u.toLowerCase())),
  rdf: new Set(PRIMARY.rdf.flatMap(urisOf).map((u) => u.toLowerCase())),
};

/**
 * Elements read as raw text wherever they occur (prefix → local names): their content is not parsed, only the
 * matching end tag is looked for, and the value is decoded afterwards (xml-text.ts parseString).
 */
const RAW_ANYWHERE: Record<string, string> = {
  acast: 'showid showurl settings importedfeed episodeid episodeurl',
  admin: 'errorreportsto generatoragent',
  app: 'draft edited',
  arxiv: 'affiliation comment journal_ref doi',
  atom: 'category generator icon id link logo rights subtitle tagline title updated modified content published issued created summary',
  blogchannel: 'blogroll blink mysubscriptions',
  cc: 'license morepermissions attributionname attributionurl useguidelines permits requires prohibits jurisdiction legalcode deprecatedon',
  content: 'encoded',
  creativecommons: 'license',
  dc: 'title creator subject description publisher contributor date type format identifier source language relation coverage rights',
  dcterms:
    'abstract accrualmethod accrualperiodicity accrualpolicy alternative audience bibliographiccitation contributor coverage creator date ' +
    'description educationlevel extent format hasformat haspart hasversion identifier instructionalmethod language license mediator medium ' +
    'provenance publisher relation rightsholder source spatial subject temporal title type accessrights available conformsto created ' +
    'dateaccepted datecopyrighted datesubmitted isformatof ispartof isreferencedby isreplacedby isrequiredby issued isversionof modified ' +
    'references replaces requires rights tableofcontents valid',
  feedpress: 'link newsletterid locale podcastid cssfile',
  geo: 'lat long alt',
  georss: 'point line polygon box featuretypetag relationshiptag featurename elev floor radius',
  googleplay: 'author description email block explicit image new-feed-url category',
  itunes: 'author title duration explicit episode season episodetype block summary subtitle keywords name email type new-feed-url complete ' + 'applepodcastsverify',
  media: 'rating adult title description category hash credit copyright text restriction keywords comment response backlink license location param',
  opensearch: 'totalresults startindex itemsperpage',
  pingback: 'server target to',
  podcast: 'locked funding soundbite person location season episode trailer license guid medium contentlink block txt updatefrequency',
  prism:
    'publicationname issn eissn isbn issueidentifier issuename issueteaser issuetype volume number edition aggregateissuenumber ' +
    'aggregationtype coverdate coverdisplaydate publicationdate publicationdisplaydate creationdate modificationdate datereceived ' +
    'onsaledate onsaleday offsaledate killdate copyrightyear contenttype alternatetitle subtitle teaser keyword seriestitle seriesnumber ' +
    'bookedition nationalcatalognumber productcode uspsnumber publishingfrequency channel subchannel1 subchannel2 subchannel3 subchannel4 ' +
    'section subsection1 subsection2 subsection3 subsection4 corporateentity distributor sellingagency organization person platform ' +
    'originplatform device complianceprofile blogtitle blogurl link url bytecount wordcount pagecount rating timeperiod versionidentifier ' +
    'ticker academicfield event genre industry location object profession sport embargodate copyright expirationdate rightsagent doi ' +
    'startingpage endingpage pagerange pageprogressiondirection samplepagerange hasalternative hascorrection hastranslation ' +
    'isalternativeof iscorrectionof istranslationof supplementtitle supplementdisplayid supplementstartingpage',
  rawvoice: 'rating liveembed flashlivestream httplivestream shoutcastlivestream livestream location frequency mycast metamark donate embed ishd',
  rdf: 'type value',
  slash: 'section department comments hit_parade',
  source: 'account url startday endday filename subscriptionlist cloud blogroll self markdown outline localtime linkfull inreplyto',
  spotify: 'countryoforigin',
  sy: 'updateperiod updatefrequency updatebase',
  thr: 'total',
  trackback: 'ping about',
  wfw: 'comment commentrss',
  yt: 'videoid channelid playlistid',
};

/** Names (prefixed, as read) of the elements that are raw text wherever they occur. */
export const RAW_NAMES: ReadonlySet<string> = new Set(Object.entries(RAW_ANYWHERE).flatMap(([prefix, names]) => names.split(' ').map((n) => `${prefix}:${n}`)));

const PERSON_PARTS = ['name', 'uri', 'url', 'email'];
const ATOM_SOURCE_PARTS = ['category', 'generator', 'icon', 'id', 'link', 'logo', 'rights', 'subtitle', 'title', 'updated', 'modified'];

/**
 * Raw-text elements that count only under given parents, wherever those occur: each entry is the element's name
 * after its parents' (`atom:author atom:name`).
 */
export const RAW_UNDER: readonly (readonly string[])[] = [
  ...['atom:author', 'atom:contributor'].flatMap((p) => PERSON_PARTS.map((n) => [p, `atom:${n}`])),
  ...['atom:author', 'atom:contributor'].flatMap((p) => PERSON_PARTS.map((n) => ['atom:source', p, `atom:${n}`])),
  ...ATOM_SOURCE_PARTS.map((n) => ['atom:source', `atom:${n}`]),
  ...['scenetitle', 'scenedescription', 'scenestarttime', 'sceneendtime'].map((n) => ['media:scene', n]),
];

const RSS_CHANNEL_RAW =
  'title link description language copyright managingeditor webmaster pubdate lastbuilddate category generator docs cloud ttl rating ' + 'skiphours.hour skipdays.day';
const RSS_SHARED_RAW =
  'image.description image.height image.link image.title image.url image.width textinput.title textinput.description textinput.name ' +
  'textinput.link item.title item.link item.description item.author.name item.category item.comments item.enclosure item.guid item.pubdate ' +
  'item.source';
const ATOM_PERSON = (parent: string) => PERSON_PARTS.map((n) => `${parent}.${n}`).join(' ');
const ATOM_FEED_RAW = `${ATOM_PERSON('author')} category ${ATOM_PERSON('contributor')} generator icon id link logo rights subtitle tagline title updated modified`;
const ATOM_ENTRY_RAW =
  `${ATOM_PERSON('author')} category content ${ATOM_PERSON('contributor')} id link published issued created rights ` +
  `${ATOM_PERSON('source.author')} source.category ${ATOM_PERSON('source.contributor')} source.generator source.icon source.id source.link ` +
  'source.logo source.rights source.subtitle source.title source.updated source.modified summary title updated modified';
const RDF_RAW =
  'channel.title channel.link channel.description image.title image.link image.url item.title item.link item.description textinput.title ' +
  'textinput.description textinput.name textinput.link';

function paths(prefix: string, list: string): string[] {
  return list.split(' ').map((p) => `${prefix}.${p}`);
}

/** Raw-text elements of each format by their whole path from the root (`rss.channel.item.title`). */
export const RAW_PATHS: Record<XmlFormat, ReadonlySet<string>> = {
  rss: new Set([...paths('rss.channel', RSS_CHANNEL_RAW), ...paths('rss.channel', RSS_SHARED_RAW), ...paths('rss', RSS_SHARED_RAW)]),
  atom: new Set([...paths('feed', ATOM_FEED_RAW), ...paths('feed.entry', ATOM_ENTRY_RAW)]),
  rdf: new Set(paths('rdf', RDF_RAW)),
};

/** Elements of a namespace that are read as objects (not raw), by prefix: with RAW_ANYWHERE, every element read. */
const READ_AS_OBJECTS: Record<string, string> = {
  acast: 'network signature',
  app: 'control',
  arxiv: 'primary_category',
  itunes: 'category image owner',
  media: 'backlinks comments community content embed group peerlink player price responses rights scene scenes starrating statistics status ' + 'subtitle tags thumbnail',
  opensearch: 'query',
  podcast:
    'alternateenclosure chapters chat image images integrity liveitem podping podroll publisher remoteitem socialinteract source ' +
    'transcript value valuerecipient valuetimesplit',
  psc: 'chapter chapters',
  rawvoice: 'mp4 poster subscribe webm',
  source: 'archive likes',
  spotify: 'access limit',
  thr: 'in-reply-to',
};

/** Names (prefixed) of the namespace elements that were read as objects: their attributes and children count. */
export const OBJECT_NAMES: ReadonlySet<string> = new Set(Object.entries(READ_AS_OBJECTS).flatMap(([prefix, names]) => names.split(' ').map((n) => `${prefix}:${n}`)));

/**
 * Elements of the namespaces Feeder does not read that were read as lists (every one of them counted); the others
 * were read once, from the first element of their name.
 */
export const LIST_NAMES: ReadonlySet<string> = new Set(
  (
    'creativecommons:license googleplay:category media:category media:content media:credit media:group media:hash media:license ' +
    'media:location media:param media:peerlink media:price media:rating media:restriction media:subtitle media:text media:thumbnail ' +
    'opensearch:query podcast:alternateenclosure podcast:block podcast:contentlink podcast:funding podcast:image podcast:liveitem ' +
    'podcast:location podcast:person podcast:remoteitem podcast:socialinteract podcast:soundbite podcast:source podcast:trailer ' +
    'podcast:transcript podcast:txt podcast:value podcast:valuerecipient podcast:valuetimesplit prism:academicfield ' +
    'prism:alternatetitle prism:bookedition prism:channel prism:copyrightyear prism:corporateentity prism:event prism:genre ' +
    'prism:hasalternative prism:hascorrection prism:hastranslation prism:industry prism:isalternativeof prism:isbn ' +
    'prism:iscorrectionof prism:keyword prism:link prism:location prism:object prism:offsaledate prism:onsaledate prism:onsaleday ' +
    'prism:organization prism:originplatform prism:person prism:platform prism:productcode prism:publicationdate ' +
    'prism:publicationdisplaydate prism:rating prism:sellingagency prism:subtitle prism:supplementtitle prism:teaser prism:ticker ' +
    'prism:url rawvoice:metamark source:account source:outline source:subscriptionlist thr:in-reply-to trackback:about'
  ).split(' '),
);

/**
 * Namespace prefixes whose elements feedsmith read into an item (or entry) and into a channel (or feed): an item
 * that holds any of them with a value is an item even when Feeder reads nothing of it (raw-feed.ts `present`).
 */
export const ITEM_PREFIXES: Record<XmlFormat, ReadonlySet<string>> = {
  rss: new Set(
    'atom cc dc content creativecommons slash itunes podcast psc googleplay media georss geo thr dcterms prism wfw source rawvoice spotify pingback trackback acast'.split(
      ' ',
    ),
  ),
  atom: new Set('app arxiv cc dc slash itunes googleplay psc media georss geo thr dcterms creativecommons wfw yt pingback trackback'.split(' ')),
  rdf: new Set('atom cc dc content slash media georss dcterms wfw'.split(' ')),
};

export const FEED_PREFIXES: Record<XmlFormat, ReadonlySet<string>> = {
  rss: new Set(
    'atom cc dc sy itunes podcast googleplay media georss geo dcterms prism creativecommons feedpress opensearch admin source blogchannel rawvoice spotify pingback acast'.split(
      ' ',
    ),
  ),
  atom: new Set('cc dc sy itunes googleplay media georss geo dcterms creativecommons opensearch yt admin pingback'.split(' ')),
  rdf: new Set('atom cc dc sy media georss dcterms admin'.split(' ')),
};
