import { createRequire } from 'node:module';
import type { Agent, buildConnector, Client, Dispatcher } from 'undici';

/** The parts of undici the fetcher uses. */
export interface UndiciParts {
  Agent: typeof Agent;
  buildConnector: typeof buildConnector;
  Client: typeof Client;
  Dispatcher: typeof Dispatcher;
}

/**
 * undici's Agent, Client, Dispatcher and connector, loaded from the modules undici's own index takes them from,
 * without the rest of undici. The index loads all of it (fetch, its cache, WebSocket, EventSource, the proxy and
 * mock agents, the interceptors): 3 MB more of the main thread's live heap in a refreshing server than these four
 * (docs/decisions.md "Process memory: modules on first use"). undici has no exports map, so the paths resolve;
 * they are its own layout, pinned by package-lock.json, and undici-parts.test.ts fails if an update moves
 * them.
 */
export async function loadUndiciParts(): Promise<UndiciParts> {
  const require = createRequire(import.meta.url);
  const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Dispatcher;
  // What undici's index does for every dispatcher when it loads: request(), stream(), pipeline(), connect() and
  // upgrade() on the prototype (the same functions; doing it twice, when something loads the index too, changes nothing).
  Object.assign(dispatcher.prototype, require('undici/lib/api/index.js'));
  return {
    Agent: require('undici/lib/dispatcher/agent.js') as typeof Agent,
    buildConnector: require('undici/lib/core/connect.js') as typeof buildConnector,
    Client: require('undici/lib/dispatcher/client.js') as typeof Client,
    Dispatcher: dispatcher,
  };
}
