import { parseArgs } from 'node:util';
import { findUserByEmail } from '../accounts/accounts.repository.js';
import { normalizeEmail } from '../accounts/accounts.service.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { discoverFeeds } from '../reader/discover/index.js';
import { ReaderError } from '../reader/types.js';
import { poolParsers } from '../refresh/document-pool.js';
import { createRefreshEngine, type RefreshEngine } from '../refresh/engine.js';
import { normalizeFeedUrl } from './feed-url.js';
import { ensureFeed, findFeed, listFeedStates, subscribedFeedIds } from './feeds.repository.js';
import { subscribe } from './subscriptions.repository.js';

/**
 * `feeder feed …`: the operator's view of the feed engine from the command line.
 *   feeder feed add --email E <url>      subscribes the account to the feed at (or found from) <url> and fetches it
 *   feeder feed list [--email E]         every feed (or the account's) with its refresh state
 *   feeder feed refresh [<id>…]          fetches the given feeds (default: every subscribed feed) now
 */
const FEED_USAGE = `       feeder feed add --email <e-mail> <url>
       feeder feed list [--email <e-mail>]
       feeder feed refresh [<feed id>…]`;

type Out = (line: string) => void;

async function userIdOf(database: Database, email: string): Promise<number> {
  const user = await findUserByEmail(database.db, normalizeEmail(email));
  if (!user) throw new Error(`No account with the e-mail address ${email}.`);
  return user.id;
}

async function refreshAndReport(engine: RefreshEngine, feedId: number, label: string, out: Out): Promise<boolean> {
  const outcome = await engine.refreshFeed(feedId);
  switch (outcome.status) {
    case 'ok':
      out(`${label}: ${outcome.newArticles} new, ${outcome.updatedArticles} updated`);
      return true;
    case 'not-modified':
      out(`${label}: not modified`);
      return true;
    case 'error':
      out(`${label}: failed (${outcome.code}) ${outcome.message}`);
      return false;
    case 'returned':
      out(`${label}: interrupted before its articles were stored; it is due again`);
      return true;
    default:
      out(`${label}: another process is refreshing it right now`);
      return true;
  }
}

export async function runFeedCommand(args: string[], config: Readonly<Config>, database: Database, out: Out = console.log): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, options: { email: { type: 'string' } }, allowPositionals: true });
  const engine = createRefreshEngine({ config, database, role: 'web' });
  try {
    if (sub === 'add' && values.email && positionals.length === 1) {
      const userId = await userIdOf(database, values.email);
      let found;
      try {
        found = await discoverFeeds(positionals[0], engine.fetcher, poolParsers(engine.pool));
      } catch (err) {
        if (err instanceof ReaderError) throw new Error(`${err.message} (${err.code})`);
        throw err;
      }
      const url = normalizeFeedUrl(found[0].url);
      if (!url) throw new Error(`Discovery returned an unusable URL: ${found[0].url}`);
      const now = new Date().toISOString();
      const { feed } = await ensureFeed(database.db, url, now);
      const added = await subscribe(database.db, userId, feed.id, now);
      out(`${added ? 'Subscribed to' : 'Already subscribed to'} feed ${feed.id}: ${found[0].title || url} <${url}>`);
      if (found.length > 1)
        out(
          `Other feeds found there: ${found
            .slice(1)
            .map((f) => f.url)
            .join(', ')}`,
        );
      return (await refreshAndReport(engine, feed.id, `Feed ${feed.id}`, out)) ? 0 : 1;
    }
    if (sub === 'list' && positionals.length === 0) {
      const userId = values.email ? await userIdOf(database, values.email) : undefined;
      for (const f of await listFeedStates(database.db, userId)) {
        const state = f.error_count > 0 ? `${f.error_count} errors, last: ${f.last_error_code} ${f.last_error}` : 'ok';
        out(`${f.id}\t${f.title || '(untitled)'}\t${f.url}\n\tarticles ${f.articles}, last fetched ${f.last_fetched_at ?? 'never'}, next ${f.next_check_at}, ${state}`);
      }
      return 0;
    }
    if (sub === 'refresh' && !values.email) {
      const ids = positionals.length
        ? positionals.map((p) => {
            const id = Number(p);
            if (!Number.isInteger(id) || id <= 0) throw new Error(`Not a feed id: ${p}`);
            return id;
          })
        : await subscribedFeedIds(database.db);
      let failed = 0;
      for (const id of ids) {
        if (!(await findFeed(database.db, id))) {
          out(`Feed ${id}: no such feed`);
          failed++;
        } else if (!(await refreshAndReport(engine, id, `Feed ${id}`, out))) failed++;
      }
      return failed ? 1 : 0;
    }
    out(`Usage:\n${FEED_USAGE}`);
    return 2;
  } finally {
    await engine.stop();
  }
}
