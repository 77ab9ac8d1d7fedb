/**
 * The HTTP layer against real sockets on 127.0.0.1: that the default fetch (undici's own, not Node's
 * global fetch with its older bundled undici) really uses the dispatcher it is given, keep-alive
 * reuse, time limits on a real connection, and connection failures.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Agent, buildConnector, type Dispatcher, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { HttpClient } from '../../src/http/client.js';
import { closeDefaultDispatcher, createDispatcher, getDefaultDispatcher } from '../../src/http/dispatcher.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let origin: string;
let connections = 0;
const routes = new Map<string, Handler>();
const sockets = new Set<Socket>();
const dispatchers: Dispatcher[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (route) route(req, res);
    else res.writeHead(404).end('not found');
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  routes.set('/hello', (_req, res) => res.end('hello'));
  routes.set('/trickle', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const t = setInterval(() => res.write('.'), 20);
    res.on('close', () => clearInterval(t));
  });
  routes.set('/silent', () => {
    // Never answers: the request stays open until the client gives up.
  });
  routes.set('/reset', (req) => req.socket.destroy());
  routes.set('/reset-mid-body', (req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('partial');
    setTimeout(() => req.socket.destroy(), 10);
  });
  routes.set('/large', (_req, res) => {
    res.writeHead(200, { 'content-length': String(64 * 1024) });
    res.end(Buffer.alloc(64 * 1024));
  });
});

afterAll(async () => {
  await Promise.all(dispatchers.map((d) => d.destroy()));
  await closeDefaultDispatcher();
  for (const socket of sockets) socket.destroy();
  server.close();
});

function track<T extends Dispatcher>(d: T): T {
  dispatchers.push(d);
  return d;
}

/** undici's own fetch on the given dispatcher: the SDK's default path, with a dispatcher of the test's choosing. */
function on(dispatcher: Dispatcher) {
  const fetch = (input: string, init?: RequestInit) => undiciFetch(input, { ...init, dispatcher } as never);
  return { fetch: fetch as unknown as typeof globalThis.fetch };
}

async function rejection(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('the dispatcher of the default fetch', () => {
  it('is really used by undici’s fetch (its connect function is called)', async () => {
    const connect = buildConnector({});
    const connectedTo: string[] = [];
    const agent = track(
      new Agent({
        connect: (options, callback) => {
          connectedTo.push(`${options.hostname}:${options.port}`);
          connect(options, callback);
        },
      }),
    );
    const res = await new HttpClient(on(agent)).fetch(`${origin}/hello`);
    expect(await res.text()).toBe('hello');
    expect(connectedTo).toEqual([new URL(origin).host]);
  });

  it('keeps connections alive and reuses them for later requests', async () => {
    const before = connections;
    const http = new HttpClient(on(track(await createDispatcher())));
    const requests = 10;
    for (let i = 0; i < requests; i++)
      expect(await (await http.fetch(`${origin}/hello`)).text()).toBe('hello');
    const opened = connections - before;
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThan(requests);
  });

  it('is by default the shared pooled agent, created on first use and used by the default fetch', async () => {
    await closeDefaultDispatcher();
    const before = connections;
    const http = new HttpClient();
    for (let i = 0; i < 5; i++) await http.fetch(`${origin}/hello`);
    // Five requests, fewer connections: the keep-alive pool of the agent served them.
    expect(connections - before).toBeGreaterThan(0);
    expect(connections - before).toBeLessThan(5);
    const shared = (await getDefaultDispatcher()) as Agent;
    expect(shared).toBeInstanceOf(Agent);
    expect(Object.keys(shared.stats)).toContain(origin);
    expect(await getDefaultDispatcher()).toBe(shared);
  });
});

describe('closeDefaultDispatcher', () => {
  it('is exported by the entry points that send requests and closes the shared pool', async () => {
    const entries = await Promise.all([
      import('../../src/index.js'),
      import('../../src/hints.js'),
      import('../../src/docs-site.js'),
    ]);
    for (const entry of entries) expect(entry.closeDefaultDispatcher).toBe(closeDefaultDispatcher);
    await new HttpClient().fetch(`${origin}/hello`);
    const first = (await getDefaultDispatcher()) as Agent;
    await entries[0].closeDefaultDispatcher();
    expect(first.closed).toBe(true);
    // The next request opens a new pool.
    expect(await (await new HttpClient().fetch(`${origin}/hello`)).text()).toBe('hello');
    expect(await getDefaultDispatcher()).not.toBe(first);
  });
});

describe('time limits on a real connection', () => {
  it('cuts off a body that trickles in within the per-attempt limit', async () => {
    const http = new HttpClient({ timeoutMs: 200, retries: 0, ...on(track(await createDispatcher())) });
    const error = await rejection(http.fetch(`${origin}/trickle`));
    expect(error.code).toBe('timeout');
  });

  it('reports the dispatcher’s headers time limit as "timeout"', async () => {
    const http = new HttpClient({
      timeoutMs: 20_000,
      retries: 0,
      ...on(track(await createDispatcher({ headersTimeoutMs: 100 }))),
    });
    const error = await rejection(http.fetch(`${origin}/silent`));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('UND_ERR_HEADERS_TIMEOUT');
  });

  it('reports the dispatcher’s body time limit as "timeout"', async () => {
    routes.set('/stall', (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('some');
    });
    const http = new HttpClient({
      timeoutMs: 20_000,
      retries: 0,
      ...on(track(await createDispatcher({ bodyTimeoutMs: 100 }))),
    });
    const error = await rejection(http.fetch(`${origin}/stall`));
    expect(error.code).toBe('timeout');
  });
});

describe('connection failures', () => {
  it('turns a connection reset into TransportError "network", after retrying a GET', async () => {
    let hits = 0;
    routes.set('/reset-count', (req) => {
      hits++;
      req.socket.destroy();
    });
    const http = new HttpClient({
      retries: 2,
      ...on(track(await createDispatcher())),
    });
    const error = await rejection(http.fetch(`${origin}/reset-count`));
    expect(error.code).toBe('network');
    expect(error.cause).toBeInstanceOf(Error);
    expect(hits).toBe(3);
  });

  it('turns a reset in the middle of the body into "network"', async () => {
    const http = new HttpClient({ retries: 0, ...on(track(await createDispatcher())) });
    const error = await rejection(http.fetch(`${origin}/reset-mid-body`));
    expect(error.code).toBe('network');
  });

  it('turns a refused connection into "network" and names the cause', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const http = new HttpClient({ retries: 0, ...on(track(await createDispatcher())) });
    const error = await rejection(http.fetch(`http://127.0.0.1:${port}/`));
    expect(error.code).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('limits the decoded size of a compressed body (a gzip bomb), not only the bytes on the wire', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    routes.set('/bomb', (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const http = new HttpClient({
      maxResponseBytes: 1024 * 1024,
      ...on(track(await createDispatcher())),
    });
    const error = await rejection(http.fetch(`${origin}/bomb`));
    expect(error.code).toBe('response_too_large');
  });

  it('refuses a declared body over the limit without reading it', async () => {
    const http = new HttpClient({ maxResponseBytes: 1024, ...on(track(await createDispatcher())) });
    const error = await rejection(http.fetch(`${origin}/large`));
    expect(error.code).toBe('response_too_large');
    // The connection is still usable afterwards.
    expect(await (await http.fetch(`${origin}/hello`)).text()).toBe('hello');
  });
});
