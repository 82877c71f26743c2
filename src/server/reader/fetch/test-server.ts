import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'vitest';
import { ReaderError } from '../types.js';

/**
 * A local HTTP server for the reader's tests (fetch, discover, icon): each test registers handlers per path and
 * gets absolute URLs back. Listens on 127.0.0.1 with an ephemeral port, so tests need allowPrivateHosts: true.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  /** Absolute URL of a path on this server. */
  url(path: string): string;
  /** Registers the handler for an exact path (query string included when given, else any query matches). */
  on(path: string, handler: Handler): void;
  /** Requests seen so far, in order. */
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const handlers = new Map<string, Handler>();
  const requests: TestServer['requests'] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const handler = handlers.get(path) ?? handlers.get(path.replace(/\?.*$/, ''));
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    connections++;
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on: (path, handler) => void handlers.set(path, handler),
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The ReaderError a promise rejects with (fails the test when it resolves or throws something else). */
export async function readerError(promise: Promise<unknown>): Promise<ReaderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ReaderError);
  return err as ReaderError;
}
