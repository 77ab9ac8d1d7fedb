/**
 * Proxy from the environment: a tiny HTTP proxy and a target server on 127.0.0.1; requests to the
 * target go through the proxy when HTTP_PROXY is set, and straight to it when NO_PROXY covers it.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { type Dispatcher, EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { closeDefaultDispatcher, createDispatcher, proxyFromEnv } from '../../src/http/dispatcher.js';

let target: Server;
let proxy: Server;
let targetUrl: string;
let targetHost: string;
let proxyUrl: string;
/** What the proxy was asked for: CONNECT authorities and absolute-form request URLs. */
const proxied: string[] = [];
const sockets = new Set<Socket>();

function trackSockets(server: Server) {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
}

beforeAll(async () => {
  target = createServer((_req, res) => res.end('from target'));
  trackSockets(target);
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  targetUrl = `http://${targetHost}/thing`;

  // A forward proxy: absolute-form requests are relayed, CONNECT opens a tunnel.
  proxy = createServer((req, res) => {
    proxied.push(req.url ?? '');
    const url = new URL(req.url ?? '');
    const upstream = connect(Number(url.port), url.hostname, () => {
      upstream.write(
        `${req.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nconnection: close\r\n\r\n`,
      );
    });
    upstream.on('error', () => res.destroy());
    res.socket?.pipe(upstream);
    upstream.pipe(res.socket as Socket);
  });
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    proxied.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    sockets.add(upstream);
    sockets.add(client);
  });
  trackSockets(proxy);
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeDefaultDispatcher();
  proxied.length = 0;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  target.close();
  proxy.close();
});

/** undici's own fetch on the given dispatcher: the SDK's default path, with a dispatcher of the test's choosing. */
function on(dispatcher: Dispatcher) {
  const fetch = (input: string, init?: RequestInit) => undiciFetch(input, { ...init, dispatcher } as never);
  return { fetch: fetch as unknown as typeof globalThis.fetch };
}

async function get(http: HttpClient): Promise<string> {
  return (await http.fetch(targetUrl)).text();
}

describe('proxy from the environment', () => {
  it('the default fetch (undici’s own) honours the default dispatcher, which reads the environment at first use', async () => {
    // The module was imported above with no proxy variables; setting them now still takes effect.
    vi.stubEnv('HTTP_PROXY', proxyUrl);
    vi.stubEnv('NO_PROXY', '');
    expect(await get(new HttpClient())).toBe('from target');
    expect(proxied).toEqual([`CONNECT ${targetHost}`]);
  });

  it('sends requests through HTTP_PROXY', async () => {
    const dispatcher = await createDispatcher({ env: { HTTP_PROXY: proxyUrl } });
    expect(dispatcher).toBeInstanceOf(EnvHttpProxyAgent);
    expect(await get(new HttpClient(on(dispatcher)))).toBe('from target');
    expect(proxied).toEqual([`CONNECT ${targetHost}`]);
    await dispatcher.close();
  });

  it('honours the lower-case http_proxy too', async () => {
    const dispatcher = await createDispatcher({ env: { http_proxy: proxyUrl } });
    expect(await get(new HttpClient(on(dispatcher)))).toBe('from target');
    expect(proxied).toHaveLength(1);
    await dispatcher.close();
  });

  it.each([
    ['the host', '127.0.0.1'],
    ['the host and port', () => targetHost],
    ['a list holding the host', () => `example.org, ${targetHost.split(':')[0]}`],
    ['a wildcard', '*'],
  ])('goes direct when NO_PROXY names %s', async (_what, noProxy) => {
    const value = typeof noProxy === 'function' ? noProxy() : noProxy;
    const dispatcher = await createDispatcher({ env: { HTTP_PROXY: proxyUrl, NO_PROXY: value } });
    expect(await get(new HttpClient(on(dispatcher)))).toBe('from target');
    expect(proxied).toEqual([]);
    await dispatcher.close();
  });

  it('still proxies when NO_PROXY names other hosts only', async () => {
    const dispatcher = await createDispatcher({
      env: { HTTP_PROXY: proxyUrl, NO_PROXY: 'example.org,localhost:1' },
    });
    expect(await get(new HttpClient(on(dispatcher)))).toBe('from target');
    expect(proxied).toHaveLength(1);
    await dispatcher.close();
  });

  it('does not use HTTPS_PROXY for an http: URL, and goes direct with no proxy variables', async () => {
    const httpsOnly = await createDispatcher({ env: { HTTPS_PROXY: proxyUrl } });
    expect(await get(new HttpClient(on(httpsOnly)))).toBe('from target');
    const none = await createDispatcher({ env: {} });
    expect(none).not.toBeInstanceOf(EnvHttpProxyAgent);
    expect(await get(new HttpClient(on(none)))).toBe('from target');
    expect(proxied).toEqual([]);
    await Promise.all([httpsOnly.close(), none.close()]);
  });

  it('reports an unreachable proxy as a "network" error without leaking proxy credentials', async () => {
    const dispatcher = await createDispatcher({
      env: { HTTP_PROXY: 'http://proxyuser:proxyPass99@127.0.0.1:1' },
    });
    const error = await new HttpClient({ ...on(dispatcher), retries: 0 })
      .fetch(targetUrl)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TransportError', code: 'network' });
    expect(JSON.stringify(error) + String(error)).not.toContain('proxyPass99');
    await dispatcher.close();
  });
});

describe('proxyFromEnv', () => {
  it.each([
    [{}, { httpProxy: undefined, httpsProxy: undefined, noProxy: undefined }],
    [{ HTTPS_PROXY: 'http://p:1' }, { httpProxy: undefined, httpsProxy: 'http://p:1', noProxy: undefined }],
    [{ https_proxy: ' http://q:2 ', HTTPS_PROXY: 'http://p:1' }, { httpsProxy: 'http://q:2' }],
    [
      { HTTP_PROXY: '  ', no_proxy: 'a,b' },
      { httpProxy: undefined, noProxy: 'a,b' },
    ],
  ])('reads %j', (env, expected) => {
    expect(proxyFromEnv(env)).toMatchObject(expected);
  });
});
