/**
 * A node:http server on a free port that answers with a Web-standard handler, set once the server
 * knows its own address. It knows nothing of the provider it serves.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBounded } from '../core/body.js';
import { sendResponse, webRequest } from '../core/node-http.js';

/** Largest request body the server reads, in bytes. */
const MAX_BODY_BYTES = 1024 * 1024;

/** A listening server; it answers 503 until {@link HandlerServer.handler} is set. */
export interface HandlerServer {
  readonly server: Server;
  readonly port: number;
  /** `http://host:port`, with an IPv6 host in brackets. */
  readonly origin: string;
  handler: ((request: Request) => Promise<Response>) | undefined;
}

/** Listen on `host:port` (0: a free port). */
export async function listen(host: string, port: number): Promise<HandlerServer> {
  const server = createServer((req, res) => {
    const { handler } = state;
    if (handler === undefined) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('starting');
      return;
    }
    void serve(handler, origin, req, res);
  });
  // Rejects with the server's 'error' (a port in use, say) when it comes before 'listening'.
  await once(server.listen(port, host), 'listening');
  const { port: actualPort } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  const state: HandlerServer = { server, port: actualPort, origin, handler: undefined };
  return state;
}

/** Stop listening and drop open connections. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

class BodyTooLarge extends Error {}

async function serve(
  handler: (request: Request) => Promise<Response>,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    let streamed: Request;
    try {
      streamed = webRequest(req, origin);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request target');
      return;
    }
    // Read here, within the limit, so that no endpoint ever waits on a body that never ends.
    const body = await readBounded(streamed.body, MAX_BODY_BYTES, () => new BodyTooLarge(), {
      declaredLength: streamed.headers.get('content-length'),
    });
    const request = new Request(streamed.url, {
      method: streamed.method,
      headers: streamed.headers,
      ...(streamed.body === null ? {} : { body }),
    });
    await sendResponse(res, await handler(request), request.method);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('Request body too large');
      return;
    }
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('Internal error');
  }
}
