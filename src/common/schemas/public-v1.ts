import { Type, type TSchema } from 'typebox';
import { DEFAULT_PER_PAGE, MAX_EMAIL_LENGTH, MAX_ID, MAX_MARK_IDS, MAX_PAGE, MAX_PASSWORD_LENGTH, MAX_PER_PAGE, MAX_URL_LENGTH } from '../limits.js';
import { Id } from './common.js';
import { ErrorSchema } from './error-schema.js';

/** A database id (common.ts Id: 32-bit) with its own description. */
const IdOf = (description: string, example?: number) =>
  Type.Integer({ minimum: 1, maximum: MAX_ID, description, ...(example === undefined ? {} : { examples: [example] }) });

/**
 * Request and response schemas of the public API v1 (public-area-and-api.md §3 and §7, docs/decisions.md
 * "Public API v1"). They do three jobs at once: Fastify validates requests with them, serialises responses with
 * them (a response can carry no field that is not listed here), and @fastify/swagger turns them into the OpenAPI
 * document that /api-docs renders. Every field therefore carries a description, and most an example.
 */

const nullable = <T extends TSchema>(schema: T, description: string, example?: unknown) =>
  Type.Union([schema, Type.Null()], { description, ...(example === undefined ? {} : { examples: [example] }) });

const ISO_EXAMPLE = '2026-11-20T08:30:00.000Z';

export const ERRORS = {
  400: ErrorSchema('Invalid request: a missing or malformed field, parameter or body.', 'VALIDATION_ERROR', 'Invalid request: url must be string'),
  401: ErrorSchema('Not authenticated: the bearer token is missing, unknown, revoked or expired.', 'TOKEN_INVALID', 'The API token is invalid or has expired.'),
  403: ErrorSchema('The article belongs to a feed you have muted; unmute the feed to change it.', 'FEED_MUTED', 'This feed is muted; unmute it to change its articles.'),
  404: ErrorSchema('Not found: the id does not exist or belongs to someone else.', 'ARTICLE_NOT_FOUND', 'Article not found.'),
  429: ErrorSchema(
    'Too many requests: a rate limit is exhausted; wait for the number of seconds in Retry-After.',
    'RATE_LIMITED',
    'Rate limit exceeded: 100 requests per minute and 5,000 per day per user.',
  ),
} as const;

/** Discovery fetches the address given; what can go wrong on the other side is said with these. */
export const DISCOVERY_ERRORS = {
  404: ErrorSchema('No feed was found at or behind the address.', 'FEED_NOT_FOUND', 'No feed was found at this address.'),
  422: ErrorSchema(
    'The address may not be fetched (a private network) or what it serves cannot be used (too large, broken).',
    'FETCH_BLOCKED',
    'This address may not be fetched.',
  ),
  502: ErrorSchema('The site could not be reached or answered with an error.', 'FETCH_TIMEOUT', 'The site did not answer in time.'),
} as const;

/* ───────────── authenticate ───────────── */

export const AuthenticateBody = Type.Object(
  {
    username: Type.String({ maxLength: MAX_EMAIL_LENGTH, description: 'The e-mail address of your Feeder account.', examples: ['ada@example.com'] }),
    password: Type.String({ maxLength: MAX_PASSWORD_LENGTH, description: 'The password of your Feeder account.', examples: ['correct horse battery staple'] }),
  },
  { additionalProperties: false },
);

export const PublicUser = Type.Object(
  {
    id: Type.Integer({ description: 'The user id.', examples: [7] }),
    email: Type.String({ description: 'The e-mail address.', examples: ['ada@example.com'] }),
    name: Type.String({ description: 'The display name.', examples: ['Ada Lovelace'] }),
  },
  { description: 'The owner of the token.' },
);

export const AuthenticateReply = Type.Object(
  {
    message: Type.String({ description: 'A confirmation for people.', examples: ['Authentication successful.'] }),
    token: Type.String({
      description: 'The API token: send it as `Authorization: Bearer <token>`. Shown once; Feeder stores only its hash.',
      examples: ['q3J9tX0m4c1aZr8Vb2Lw6YdKe5HnUoPs7GiFj1QxTyA'],
    }),
    expires_at: Type.String({ description: 'When the token stops working (365 days after it was issued), UTC ISO 8601.', examples: ['2027-11-20T08:30:00.000Z'] }),
    user: PublicUser,
  },
  { description: 'A new API token.' },
);

/* ───────────── feeds ───────────── */

export const FeedsQuery = Type.Object(
  {
    include_favicons: Type.Optional(Type.Boolean({ default: false, description: 'Also send each feed icon inline as base64 (favicon_base64, favicon_type).' })),
  },
  { additionalProperties: false },
);

export const PublicFeed = Type.Object({
  id: Type.Integer({ description: 'The feed id (the same for every subscriber).', examples: [12] }),
  url: Type.String({ description: 'The address of the feed document.', examples: ['https://blog.example.org/feed.xml'] }),
  title: Type.String({ description: 'Your own title for the feed if you set one, else the feed’s title.', examples: ['Example Blog'] }),
  description: nullable(Type.String(), 'The feed’s description.', 'Notes on programming and tea.'),
  last_updated: nullable(Type.String(), 'When Feeder last fetched the feed successfully, UTC ISO 8601; null before the first fetch.', ISO_EXAMPLE),
  favicon_url: nullable(
    Type.String(),
    'The address of the feed icon (served by Feeder, cacheable for good); null when the feed has none.',
    'https://feeder.example.com/api/icons/0f3c2b7e9a1d4c6b8e2f5a7d9c1b3e5f',
  ),
  favicon_base64: Type.Optional(
    nullable(
      Type.String(),
      'The icon itself as base64, only with include_favicons=true; null when the feed has no icon or it is larger than 64 KB.',
      'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ…',
    ),
  ),
  favicon_type: Type.Optional(nullable(Type.String(), 'The icon’s media type, only with include_favicons=true.', 'image/png')),
  unread_count: Type.Integer({ description: 'Unread articles, not counting those your filters hide.', examples: [5] }),
  has_active_filters: Type.Boolean({ description: 'Whether you have filters on this feed.', examples: [true] }),
  filters_count: Type.Integer({ description: 'How many filters you have on this feed.', examples: [2] }),
});

export const FeedsReply = Type.Object(
  { feeds: Type.Array(PublicFeed, { description: 'Your feeds in your order; muted feeds are left out.' }) },
  { description: 'Your feeds.' },
);

export const UrlBody = Type.Object(
  {
    url: Type.String({
      maxLength: MAX_URL_LENGTH,
      description: 'A feed address, or the address of a site that links its feeds.',
      examples: ['https://blog.example.org/'],
    }),
  },
  { additionalProperties: false },
);

export const SearchReply = Type.Object(
  {
    feeds: Type.Array(
      Type.Object({
        title: Type.String({ description: 'The feed’s title.', examples: ['Example Blog'] }),
        url: Type.String({ description: 'The feed address; subscribe with it.', examples: ['https://blog.example.org/feed.xml'] }),
        favicon_url: nullable(Type.String(), 'The site’s icon address, when one was found.', 'https://blog.example.org/favicon.ico'),
        subscribed: Type.Boolean({ description: 'Whether you subscribe to this feed already.', examples: [false] }),
      }),
      { description: 'The feeds found, the most likely first.' },
    ),
  },
  { description: 'The feeds found at or behind the address.' },
);

export const SubscribeReply = Type.Object(
  {
    message: Type.String({ description: 'A confirmation for people.', examples: ['Subscribed to the feed.'] }),
    feed: Type.Object(
      {
        id: Type.Integer({ description: 'The feed id.', examples: [12] }),
        title: Type.String({ description: 'The feed’s title (empty until its first fetch when discovery found none).', examples: ['Example Blog'] }),
        url: Type.String({ description: 'The feed address.', examples: ['https://blog.example.org/feed.xml'] }),
        description: nullable(Type.String(), 'The feed’s description; null until the first fetch.', 'Notes on programming and tea.'),
        favicon_url: nullable(Type.String(), 'The feed icon’s address; null until Feeder has one.', null),
      },
      { description: 'The feed.' },
    ),
    is_new: Type.Boolean({ description: 'True when the subscription was made now; false when you subscribed to this feed already.', examples: [true] }),
  },
  { description: 'The subscription. Its articles arrive within seconds: Feeder fetches a new feed at once.' },
);

/* ───────────── articles ───────────── */

export const ArticlesQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'The page, from 1.', examples: [1] })),
    per_page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE, description: `Articles per page, at most ${MAX_PER_PAGE}.`, examples: [20] }),
    ),
    feed_id: Type.Optional(IdOf('Only this feed’s articles (404 when you do not subscribe to it; empty while it is muted).', 12)),
    folder_id: Type.Optional(IdOf('Only the articles of the feeds in this folder of yours, as one list (404 when it is not yours; not together with feed_id).', 3)),
    unread: Type.Optional(Type.Boolean({ description: 'true: only unread articles; false or absent: read and unread.', examples: [true] })),
    include_base64_favicons: Type.Optional(
      Type.Boolean({ default: false, description: 'Also send each article’s feed icon inline as base64 (feed_favicon_base64, feed_favicon_type).' }),
    ),
  },
  { additionalProperties: false },
);

export const PublicArticle = Type.Object({
  id: Type.Integer({ description: 'The article id.', examples: [4711] }),
  feed_id: Type.Integer({ description: 'The id of its feed.', examples: [12] }),
  title: Type.String({ description: 'The title.', examples: ['Why tea is better than coffee'] }),
  url: nullable(Type.String(), 'The article’s own address.', 'https://blog.example.org/tea'),
  content: nullable(Type.String(), 'The full content as sanitised HTML (scripts, styles and trackers removed).', '<p>It all began with a kettle…</p>'),
  summary: Type.String({ description: 'A plain-text teaser of at most a few hundred characters.', examples: ['It all began with a kettle…'] }),
  author: nullable(Type.String(), 'The author.', 'Ada Lovelace'),
  published_at: Type.String({ description: 'When it was published (or first seen, when the feed does not say), UTC ISO 8601.', examples: [ISO_EXAMPLE] }),
  is_read: Type.Boolean({ description: 'Whether you have read it.', examples: [false] }),
  is_favorite: Type.Boolean({ description: 'Whether it is one of your favourites.', examples: [false] }),
  feed_title: Type.String({ description: 'The feed’s title (your own title for it if you set one).', examples: ['Example Blog'] }),
  feed_favicon: nullable(
    Type.String(),
    'The address of the feed icon; null when the feed has none.',
    'https://feeder.example.com/api/icons/0f3c2b7e9a1d4c6b8e2f5a7d9c1b3e5f',
  ),
  feed_favicon_base64: Type.Optional(nullable(Type.String(), 'The feed icon as base64, only with include_base64_favicons=true.', 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ…')),
  feed_favicon_type: Type.Optional(nullable(Type.String(), 'The feed icon’s media type, only with include_base64_favicons=true.', 'image/png')),
});

export const Pagination = Type.Object(
  {
    total_items: Type.Integer({ description: 'Articles in the whole list.', examples: [57] }),
    total_pages: Type.Integer({ description: 'Pages of per_page articles (0 when the list is empty).', examples: [3] }),
    current_page: Type.Integer({ description: 'This page.', examples: [1] }),
    per_page: Type.Integer({ description: 'Articles per page.', examples: [20] }),
    has_next: Type.Boolean({ description: 'Whether a later page exists.', examples: [true] }),
    has_prev: Type.Boolean({ description: 'Whether an earlier page exists.', examples: [false] }),
    has_active_filters: Type.Boolean({ description: 'Whether filters on the feeds in view hide some articles.', examples: [false] }),
  },
  { description: 'Where this page is in the list.' },
);

export const ArticlesReply = Type.Object(
  {
    articles: Type.Array(PublicArticle, { description: 'Newest first; articles of muted feeds and those your filters hide are left out.' }),
    pagination: Pagination,
  },
  { description: 'A page of your articles.' },
);

export const ArticleParams = Type.Object({ article_id: IdOf('The article id.', 4711) });

export const ArticleStateReply = Type.Object(
  {
    message: Type.String({ description: 'A confirmation for people.', examples: ['Article marked as read.'] }),
    id: Type.Integer({ description: 'The article id.', examples: [4711] }),
    is_read: Type.Boolean({ description: 'Whether it is read now.', examples: [true] }),
    is_favorite: Type.Boolean({ description: 'Whether it is a favourite now.', examples: [false] }),
  },
  { description: 'The article’s state after the change (the call is idempotent).' },
);

export const ReadAllBody = Type.Object(
  {
    feed_id: Type.Optional(IdOf('Mark this feed’s unread articles of the last 30 days read.', 12)),
    article_ids: Type.Optional(
      Type.Array(Id, {
        maxItems: MAX_MARK_IDS,
        description: `Mark these articles read (at most ${MAX_MARK_IDS}); ids that are not yours, unknown, or of muted feeds are ignored.`,
        examples: [[4711, 4712]],
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of feed_id and article_ids.', examples: [{ feed_id: 12 }, { article_ids: [4711, 4712] }] },
);

export const ReadAllReply = Type.Object(
  {
    message: Type.String({ description: 'A confirmation for people.', examples: ['2 articles marked as read.'] }),
    count: Type.Integer({ description: 'How many articles changed from unread to read.', examples: [2] }),
    details: Type.Object(
      {
        existing_updated: Type.Integer({ description: 'Articles whose read state was changed.', examples: [2] }),
        new_entries: Type.Integer({ description: 'Read records created. Feeder keeps a record for every article of your feeds, so this is always 0.', examples: [0] }),
      },
      { description: 'How the count came about.' },
    ),
  },
  { description: 'How many articles were marked read.' },
);
