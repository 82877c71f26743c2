import type { ServerResponse } from 'node:http';
import { Agent, Client, Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { originClients, type OriginDispatcher } from './origin-clients.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let agent: Agent;
let made: OriginDispatcher[];

function agentWith(connections: number, maxOrigins = 256): Agent {
  const factory = originClients({ Client, Dispatcher }, connections, maxOrigins);
  return new Agent({
    keepAliveTimeout: 10_000,
    factory: (origin, options) => {
      const dispatcher = factory(origin, options);
      made.push(dispatcher);
      return dispatcher;
    },
  });
}

async function get(path: string): Promise<string> {
  const url = new URL(server.url(path));
  const response = await agent.request({ origin: url.origin, path: url.pathname, method: 'GET' });
  return response.body.text();
}

beforeEach(async () => {
  server = await startTestServer();
  made = [];
});

afterEach(async () => {
  await agent.close();
  await server.close();
});

describe('originClients: the connections to one origin', () => {
  it('opens up to its number of connections for requests at once, and queues the rest on them', async () => {
    agent = agentWith(2);
    const held: ServerResponse[] = [];
    let connectionsWhenTwoWaited = 0;
    let arrivedWhileHeld = 0;
    server.on('/slow', (_req, res) => {
      if (held.length === 2) {
        res.end('third');
        return;
      }
      held.push(res);
      arrivedWhileHeld = held.length;
      if (held.length === 2) {
        connectionsWhenTwoWaited = server.connections;
        for (const r of held) r.end('held');
      }
    });
    const bodies = await Promise.all([get('/slow'), get('/slow'), get('/slow')]);
    expect(bodies.sort()).toEqual(['held', 'held', 'third']);
    expect(connectionsWhenTwoWaited).toBe(2);
    expect(arrivedWhileHeld).toBe(2);
    // The third request went over one of the two connections once it was free.
    expect(server.connections).toBe(2);
    expect(made).toHaveLength(1);
  });

  it('sends requests one after another over one connection', async () => {
    agent = agentWith(16);
    server.on('/a', (_req, res) => res.end('a'));
    for (let i = 0; i < 5; i++) expect(await get('/a')).toBe('a');
    expect(server.connections).toBe(1);
  });

  it('is let go by the Agent once its last connection closed, and the next request gets a new one', async () => {
    agent = agentWith(4);
    server.on('/bye', (_req, res) => {
      // The server ends the connection after this answer, as one whose keep-alive ran out does.
      res.setHeader('connection', 'close');
      res.end('bye');
    });
    const answer = get('/bye');
    await new Promise<void>((resolve) => (made.length ? resolve() : setImmediate(() => resolve())));
    // The Agent hears of the disconnect through the events the dispatcher passes on (it listens first), and closes it.
    const disconnected = new Promise<void>((resolve) => made[0].once('disconnect', () => resolve()));
    expect(await answer).toBe('bye');
    await disconnected;
    expect(made).toHaveLength(1);
    expect(made[0].closed).toBe(true);
    server.on('/again', (_req, res) => res.end('again'));
    expect(await get('/again')).toBe('again');
    expect(made).toHaveLength(2);
    expect(made[1].closed).toBe(false);
  });

  it('answers a request after close with undici’s closed error, and destroy fails what is under way', async () => {
    agent = agentWith(2);
    const dispatcher = originClients({ Client, Dispatcher }, 2, 256)(new URL(server.url('/')).origin, {});
    await dispatcher.close();
    expect(dispatcher.closed).toBe(true);
    await expect(dispatcher.request({ path: '/', method: 'GET' })).rejects.toMatchObject({ code: expect.stringMatching(/^UND_ERR_(CLOSED|DESTROYED)$/) });

    const other = originClients({ Client, Dispatcher }, 2, 256)(new URL(server.url('/')).origin, {});
    server.on('/never', () => {});
    const pending = other.request({ path: '/never', method: 'GET' });
    await new Promise<void>((resolve) => {
      const wait = () => (server.requests.some((r) => r.path === '/never') ? resolve() : setImmediate(wait));
      wait();
    });
    await other.destroy();
    expect(other.destroyed).toBe(true);
    await expect(pending).rejects.toMatchObject({ code: 'UND_ERR_DESTROYED' });
  });

  it('keeps the connections of the most recent origins only, closing those of the least recent idle one', async () => {
    const servers = [server, await startTestServer(), await startTestServer()];
    agent = agentWith(4, 2);
    const held: ServerResponse[] = [];
    for (const s of servers) {
      s.on('/', (_req, res) => res.end('ok'));
      s.on('/held', (_req, res) => void held.push(res));
    }
    const at = async (i: number, path = '/') => {
      const url = new URL(servers[i].url(path));
      return (await agent.request({ origin: url.origin, path: url.pathname, method: 'GET' })).body.text();
    };
    try {
      // 0 has a request under way, 1 is idle: a third origin closes 1's connection, not 0's.
      const slow = at(0, '/held');
      await new Promise<void>((resolve) => {
        const wait = () => (held.length ? resolve() : setImmediate(wait));
        wait();
      });
      expect(await at(1)).toBe('ok');
      const [first, second] = made;
      const secondClosed = new Promise<void>((resolve) => second.once('disconnect', () => resolve()));
      expect(await at(2)).toBe('ok');
      await secondClosed;
      held[0].end('held');
      expect(await slow).toBe('held');
      expect(first.closed).toBe(false);
      // 0's connection is still there for its next request; 1 needs a new one.
      expect(await at(0)).toBe('ok');
      expect(servers[0].connections).toBe(1);
      expect(await at(1)).toBe('ok');
      expect(servers[1].connections).toBe(2);
    } finally {
      await servers[1].close();
      await servers[2].close();
    }
  });
});
