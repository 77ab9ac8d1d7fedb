/**
 * The library as a Web runtime gets it: the Node-only modules replaced by their Web builds, as
 * package.json `imports` does for workerd, Vercel's Edge and browsers (tsup.config.ts
 * RUNTIME_MODULES). The HTTP layer then sends through the global `fetch`, with the same time limit,
 * retries, `Retry-After`, size limits and redaction as on Node, against a real server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OptionsError, TransportError } from '../../src/core/errors.js';
import { DocsSiteClient, syncFolder } from '../../src/docs-site.js';
import { HintFeed } from '../../src/hints.js';
import { HttpClient } from '../../src/http/client.js';
import { closeDefaultDispatcher } from '../../src/index.js';

vi.mock('../../src/http/dispatcher.js', () => import('../../src/http/dispatcher-web.js'));
vi.mock('../../src/docs-site/files.js', () => import('../../src/docs-site/files-web.js'));
vi.mock('../../src/hints/cache-file.js', () => import('../../src/hints/cache-file-web.js'));

const SECRET = 'web-secret-value-123';
let server: Server;
let base: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const n = hits.get(path) ?? 0;
    if (path === '/hang') return; // never answers
    if (path === '/busy-then-ok') {
      if (n === 1) res.writeHead(503, { 'retry-after': '0' }).end('busy');
      else res.end('ok');
      return;
    }
    if (path === '/busy-long') return void res.writeHead(503, { 'retry-after': '120' }).end('busy');
    if (path === '/declared-large')
      return void res.writeHead(200, { 'content-length': '2048' }).end('x'.repeat(2048));
    if (path === '/streamed-large') {
      res.writeHead(200); // chunked: no content-length
      for (let i = 0; i < 8; i++) res.write('y'.repeat(256));
      return void res.end();
    }
    if (path === '/nl.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({ 'https://idp.tudelft.nl': { en: 'Delft University of Technology' } }),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function rejection(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('the Web transport', () => {
  it('sends through the global fetch, looked up at call time; an injected fetch wins', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      expect((await new HttpClient().fetch(`${base}/nl.json`)).status).toBe(200);
      expect(spy).toHaveBeenCalledTimes(1);
      const own = vi.fn(async () => new Response('mine'));
      expect(await (await new HttpClient({ fetch: own }).fetch(`${base}/nl.json`)).text()).toBe('mine');
      expect(own).toHaveBeenCalledTimes(1);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('cuts an attempt off at the time limit', async () => {
    const error = await rejection(new HttpClient({ timeoutMs: 100, retries: 0 }).fetch(`${base}/hang`));
    expect(error.code).toBe('timeout');
  });

  it('retries an idempotent request on 503 after its Retry-After, never a POST', async () => {
    const answer = await new HttpClient().fetch(`${base}/busy-then-ok`);
    expect([answer.status, await answer.text(), hits.get('/busy-then-ok')]).toEqual([200, 'ok', 2]);
    const post = await new HttpClient().fetch(`${base}/busy-long`, { method: 'POST' });
    expect([post.status, hits.get('/busy-long')]).toEqual([503, 1]);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    const answer = await new HttpClient({ maxRetryAfterMs: 1_000 }).fetch(`${base}/busy-long`);
    expect([answer.status, hits.get('/busy-long')]).toEqual([503, 2]);
  });

  it('refuses a body over the size limit, declared or streamed', async () => {
    const http = new HttpClient({ maxResponseBytes: 1024, retries: 0 });
    expect((await rejection(http.fetch(`${base}/declared-large`))).code).toBe('response_too_large');
    expect((await rejection(http.fetch(`${base}/streamed-large`))).code).toBe('response_too_large');
  });

  it('keeps secrets out of its errors', async () => {
    const http = new HttpClient({ secrets: [SECRET], retries: 0, timeoutMs: 2_000 });
    const error = await rejection(http.fetch(`http://127.0.0.1:1/token?client_secret=${SECRET}&x=${SECRET}`));
    expect(error.code).toBe('network');
    expect(
      JSON.stringify({ message: error.message, cause: String(error.cause), url: error.url }),
    ).not.toContain(SECRET);
  });

  it('has no pool to close', async () => {
    await expect(closeDefaultDispatcher()).resolves.toBeUndefined();
  });
});

describe('without a file system', () => {
  it('syncFolder() says where it runs', async () => {
    await expect(syncFolder({} as never, '/tmp')).rejects.toThrow(OptionsError);
    await expect(syncFolder({} as never, '/tmp')).rejects.toThrow(/Node, Bun or Deno/);
  });

  it('media.upload() of a file path asks for the bytes, a Blob or a stream', async () => {
    const docs = new DocsSiteClient({ baseUrl: base, contentNamespace: 'wp/v2' });
    await expect(docs.media.upload('/etc/hostname')).rejects.toMatchObject({
      code: 'invalid_param',
      message: expect.stringMatching(/no file system on this runtime: pass the bytes, a Blob or a stream/),
    });
  });

  it('a HintFeed refuses a cacheFile, and without one serves what it fetched', async () => {
    expect(() => new HintFeed({ sources: [`${base}/nl.json`], cacheFile: '/tmp/hints.json' })).toThrow(
      /cacheFile needs a file system/,
    );
    const feed = new HintFeed({ sources: [`${base}/nl.json`] });
    expect((await feed.refresh()).status).toBe('updated');
    expect(feed.search('delft')[0]?.entityId).toBe('https://idp.tudelft.nl');
    await feed.close();
  });
});
