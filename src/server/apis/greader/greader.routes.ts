import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { badRequest, notFound, unauthorized } from '../../errors.js';
import { BODY_LIMIT, type App } from '../../http/types.js';
import type { SignInLimit } from '../../http/rate-limit.js';
import { refuseNul } from '../../nul.js';
import { feedServicesOf, type Services } from '../../services.js';
import type { ReaderUser } from './greader.auth.js';
import { presentAtom } from './greader.presenter.js';
import { CONTENTS_DEFAULT, CONTENTS_MAX, EDIT_IDS_MAX, IDS_MAX, ITEMS_PER_CALL_MAX, type StreamOptions } from './greader.service.js';
import { Params, READING_LIST, countParam, microsecondsParam, parseItemId, secondsParam } from './protocol.js';

/**
 * The Google Reader API at /api/greader.php (FreshRSS-compatible; apis/greader/README.md, decisions.md "External
 * apps"). Clients send the same call as GET or POST, with parameters in the query, an urlencoded body or both, and
 * stream ids inside the path (URL-encoded or not), so one route per method takes everything under the prefix and
 * this file maps the path to a service call. Its own scope reads every body as urlencoded text; the app's JSON
 * parsers elsewhere stay as they are.
 */
export const PREFIX = '/api/greader.php';

export interface GReaderRoutesOptions {
  config: Readonly<Pick<Config, 'publicUrl'>>;
  now: () => Date;
  /** The web sign-in's limit: ClientLogin counts in its buckets (README.md "Authentication"). */
  signIn: SignInLimit;
}

interface Call {
  request: FastifyRequest;
  reply: FastifyReply;
  params: Params;
  /** Signed in by the ClientLogin token in the form field T (no Authorization header): T is not an action token then. */
  tokenInForm: boolean;
  /** The path after /api/greader.php/reader/api/0/ (or after /reader/atom), decoded. */
  rest: string;
}

const json = (reply: FastifyReply, body: unknown) => reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
const text = (reply: FastifyReply, body: string) => reply.type('text/plain; charset=utf-8').send(body);

export async function registerGReaderRoutes(app: App, services: Pick<Services, 'feedServices'>, options: GReaderRoutesOptions): Promise<void> {
  const { now } = options;
  const { greaderAuth: auth, greader: service } = feedServicesOf(services);

  /** The stream options shared by stream/contents, stream/items/ids and the Atom stream. */
  function streamOptions(p: Params, defaultCount: number, maxCount: number): StreamOptions {
    const crawledFrom = secondsParam(p.get('ot'));
    const crawledUntil = secondsParam(p.get('nt'));
    if (crawledFrom === null || crawledUntil === null) throw badRequest('INVALID_TIME', 'ot and nt are times in seconds.');
    return {
      exclude: p.all('xt'),
      include: p.all('it'),
      crawledFrom,
      crawledUntil,
      oldestFirst: p.get('r') === 'o',
      limit: countParam(p.get('n'), defaultCount, maxCount),
      continuation: p.get('c'),
    };
  }

  /** Item ids of i= (repeatable); a malformed one is a 400 and nothing happens. */
  function itemIds(p: Params, max: number): number[] {
    const raw = p.all('i');
    if (raw.length > max) throw badRequest('TOO_MANY_ITEMS', `At most ${max} items per call.`);
    return raw.map((r) => {
      const id = parseItemId(r);
      if (id === null) throw badRequest('INVALID_ITEM_ID', `Not an item id: ${r.slice(0, 100)}`);
      return id;
    });
  }

  function checkActionToken(user: ReaderUser, call: Call): void {
    if (call.tokenInForm) return;
    if (!auth.actionTokenAccepted(user, call.params.get('T'))) throw unauthorized('INVALID_ACTION_TOKEN', 'The action token (T) is not this session’s.');
  }

  const ok = (reply: FastifyReply) => text(reply, 'OK');

  /** /reader/api/0/<rest> for a signed-in user. */
  async function api(user: ReaderUser, call: Call): Promise<FastifyReply> {
    const { reply, params: p, rest } = call;
    if (rest.startsWith('stream/contents')) {
      // The stream in the path (`stream/contents/user/-/state/com.google/reading-list`), else s=, else the reading list.
      const streamId = rest.slice('stream/contents'.length).replace(/^\/+/, '') || p.get('s') || READING_LIST;
      const o = streamOptions(p, CONTENTS_DEFAULT, CONTENTS_MAX);
      const [page, title] = await Promise.all([service.streamContents(user, streamId, o), service.streamTitle(user, streamId)]);
      return json(reply, {
        direction: 'ltr',
        id: streamId,
        title,
        updated: Math.floor(now().getTime() / 1000),
        items: page.items,
        ...(page.continuation !== undefined ? { continuation: page.continuation } : {}),
      });
    }
    // A trailing slash is no different call (`tag/list/`), but inside a stream id (`feed/https://x.org/feed/`) it stays.
    switch (rest.replace(/\/+$/, '')) {
      case 'token':
        return text(reply, auth.actionToken(user) + '\n');
      case 'user-info':
        return json(reply, await service.userInfo(user));
      case 'tag/list':
        return json(reply, await service.tagList(user));
      case 'subscription/list':
        return json(reply, await service.subscriptionList(user));
      case 'unread-count':
        return json(reply, await service.unreadCount(user));
      case 'stream/items/ids': {
        const o = streamOptions(p, CONTENTS_DEFAULT, IDS_MAX);
        const substreams = p.get('includeAllDirectSubstreams') === 'true';
        return json(reply, await service.streamItemIds(user, p.get('s') ?? READING_LIST, { ...o, substreams }));
      }
      case 'stream/items/contents': {
        const ids = itemIds(p, ITEMS_PER_CALL_MAX);
        const items = await service.itemsContents(user, ids, p.get('r') === 'o');
        return json(reply, { direction: 'ltr', id: READING_LIST, title: 'Reading list', updated: Math.floor(now().getTime() / 1000), items });
      }
      case 'edit-tag': {
        checkActionToken(user, call);
        // An edit-tag without items is a client error, not a no-op (FreshRSS and Miniflux answer 400 too).
        if (p.all('i').length === 0) throw badRequest('ITEM_REQUIRED', 'Name the items to tag (i).');
        await service.editTag(user, itemIds(p, EDIT_IDS_MAX), p.all('a'), p.all('r'));
        return ok(reply);
      }
      case 'mark-all-as-read': {
        checkActionToken(user, call);
        const before = microsecondsParam(p.get('ts'));
        if (before === null) throw badRequest('INVALID_TIME', 'ts is a time in microseconds.');
        await service.markAllAsRead(user, p.get('s'), before);
        return ok(reply);
      }
      case 'subscription/edit':
        checkActionToken(user, call);
        await service.subscriptionEdit(user, { action: p.get('ac'), streams: p.all('s'), titles: p.all('t'), add: p.get('a'), remove: p.get('r') });
        return ok(reply);
      case 'subscription/quickadd':
        checkActionToken(user, call);
        return json(reply, await service.quickAdd(user, p.get('quickadd')));
      case 'rename-tag':
        checkActionToken(user, call);
        await service.renameTag(user, p.get('s') ?? p.get('t'), p.get('dest'));
        return ok(reply);
      case 'disable-tag':
        checkActionToken(user, call);
        await service.disableTag(user, [...p.all('s'), ...p.all('t')]);
        return ok(reply);
      default:
        throw notFound('NOT_FOUND', 'No such Google Reader API call.');
    }
  }

  /** The Atom form of a stream (/reader/atom/<streamId>), for clients that read items that way. */
  async function atom(user: ReaderUser, call: Call): Promise<FastifyReply> {
    const { reply, params: p, request } = call;
    const streamId = call.rest || p.get('s') || READING_LIST;
    const o = streamOptions(p, CONTENTS_DEFAULT, CONTENTS_MAX);
    const [page, title] = await Promise.all([service.streamContents(user, streamId, o), service.streamTitle(user, streamId)]);
    const body = presentAtom({ streamId, title, selfUrl: options.config.publicUrl + request.url, updated: now(), items: page.items, continuation: page.continuation });
    return reply.type('application/atom+xml; charset=utf-8').send(body);
  }

  async function dispatch(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const url = request.raw.url ?? '';
    const queryAt = url.indexOf('?');
    const rawPath = (queryAt === -1 ? url : url.slice(0, queryAt)).slice(PREFIX.length);
    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      throw badRequest('INVALID_PATH', 'The path is not valid percent-encoding.');
    }
    const params = new Params(queryAt === -1 ? undefined : url.slice(queryAt + 1), typeof request.body === 'string' ? request.body : undefined);
    // The form body is decoded here, not by a parser the app's NUL hook sees (decisions.md "No NUL characters").
    refuseNul([path, params.entries()]);
    // Per-user answers (and tokens): never kept by a proxy or an HTTP cache.
    reply.header('cache-control', 'no-store');

    if (path.replace(/\/+$/, '') === '/accounts/ClientLogin') {
      // A password check like the web sign-in, limited like it: every attempt counts, per address and per account.
      const email = params.get('Email');
      const limited = await options.signIn.limiter.check(options.signIn.rules(request.ip, email));
      if (!limited.allowed) return text(reply.status(429).header('retry-after', String(limited.retryAfterSeconds)), 'Error=RateLimited\n');
      const token = await service.clientLogin(email, params.get('Passwd'));
      if (token === undefined) return text(reply.status(401), 'Error=BadAuthentication\n');
      // output=json: the same three fields as a JSON object (as Miniflux and The Old Reader answer).
      if (params.get('output') === 'json') return json(reply, { SID: token, LSID: token, Auth: token });
      return text(reply, `SID=${token}\nLSID=null\nAuth=${token}\n`);
    }
    const apiPath = /^\/reader\/api\/0\/(.*)$/s.exec(path);
    const atomPath = /^\/reader\/atom(?:\/(.*))?$/s.exec(path);
    if (path === '' || path === '/') return ok(reply);
    if (!apiPath && !atomPath) throw notFound('NOT_FOUND', 'No such Google Reader API call.');

    // Liferea 1.14 posts stream/items/contents (and its edits) with the ClientLogin token only as the form field T
    // and no Authorization header; such a POST signs in with T, as Miniflux accepts (README.md "Signing in").
    const header = request.headers.authorization;
    const formToken = header === undefined && request.method === 'POST' ? params.get('T') : undefined;
    const user = formToken ? await auth.authenticateToken(formToken) : await auth.authenticate(header);
    if (!user) {
      // Google's and FreshRSS's signal that the token is no good (clients then sign in again).
      reply.header('Google-Bad-Token', 'true');
      throw unauthorized('UNAUTHORIZED', 'Sign in with ClientLogin and send Authorization: GoogleLogin auth=<token>.');
    }
    const call = { request, reply, params, tokenInForm: formToken !== undefined, rest: (apiPath ? apiPath[1] : atomPath![1]) ?? '' };
    return apiPath ? api(user, call) : atom(user, call);
  }

  await app.register(async (scope) => {
    // Every body in this scope is urlencoded form text, whatever content type the client claims (some send none,
    // some text/plain); it is parsed with the query by Params.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.route({ method: ['GET', 'POST'], url: PREFIX, handler: async (_request, reply) => ok(reply) });
    scope.route({ method: ['GET', 'POST'], url: `${PREFIX}/*`, handler: dispatch });
  });
}
