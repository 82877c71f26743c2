import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadUndiciParts } from './undici-parts.js';

describe('undici parts', () => {
  it('are the classes undici itself exports, and a dispatcher made from them has the request API', async () => {
    const parts = await loadUndiciParts();
    const undici = await import('undici');
    expect(parts.Agent).toBe(undici.Agent);
    expect(parts.Client).toBe(undici.Client);
    expect(parts.Dispatcher).toBe(undici.Dispatcher);
    expect(parts.buildConnector).toBe(undici.buildConnector);

    const server = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new parts.Agent({ connect: parts.buildConnector({}) });
    try {
      const { port } = server.address() as AddressInfo;
      const response = await agent.request({ origin: `http://127.0.0.1:${port}`, path: '/', method: 'GET' });
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe('hello');
    } finally {
      await agent.close();
      server.close();
    }
  });
});
