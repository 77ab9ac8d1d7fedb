/**
 * A real HTTP server on 127.0.0.1:0 serving hint feeds, with each fault a publisher can produce.
 * Tests set `server.route(path, behaviour)`; every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  | { kind: 'json'; body: unknown; etag?: string; lastModified?: string; delayMs?: number }
  | {
      kind: 'raw';
      body: string | Buffer;
      status?: number;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  | { kind: 'status'; status: number }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'truncate'; body: string; declaredLength: number }
  | { kind: 'trickle'; chunk: string; everyMs: number }
  | { kind: 'gate'; body: unknown; etag?: string; release: Promise<void> };

export interface RecordedRequest {
  path: string;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
  authorization: string | undefined;
  host: string | undefined;
}

export interface FeedServer {
  origin: string;
  url(path: string): string;
  route(path: string, behaviour: Behaviour): void;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, Behaviour>();
  const requests: RecordedRequest[] = [];
  const open = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({
      path,
      ifNoneMatch: req.headers['if-none-match'],
      ifModifiedSince: req.headers['if-modified-since'],
      authorization: req.headers.authorization,
      host: req.headers.host,
    });
    const b = routes.get(path);
    if (!b) {
      res.writeHead(404).end();
      return;
    }
    switch (b.kind) {
      case 'json':
      case 'gate': {
        if (b.kind === 'gate') await b.release;
        if (b.kind === 'json' && b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
        const etag = b.etag;
        const lastModified = b.kind === 'json' ? b.lastModified : undefined;
        if (etag && req.headers['if-none-match'] === etag) {
          res.writeHead(304, { etag }).end();
          return;
        }
        if (!etag && lastModified && req.headers['if-modified-since'] === lastModified) {
          res.writeHead(304, { 'last-modified': lastModified }).end();
          return;
        }
        const body = JSON.stringify(b.body);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (etag) headers.etag = etag;
        if (lastModified) headers['last-modified'] = lastModified;
        res.writeHead(200, headers).end(body);
        return;
      }
      case 'raw':
        if (b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
        res.writeHead(b.status ?? 200, { 'content-type': 'application/json', ...b.headers }).end(b.body);
        return;
      case 'status':
        res.writeHead(b.status, { 'content-type': 'text/plain' }).end('nope');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        return;
      case 'truncate':
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(b.declaredLength),
        });
        res.write(b.body, () => req.socket.destroy());
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => {
          if (res.destroyed) clearInterval(t);
          else res.write(b.chunk);
        }, b.everyMs);
        timers.add(t);
        res.on('close', () => clearInterval(t));
        return;
      }
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    route: (path, behaviour) => routes.set(path, behaviour),
    requests,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
