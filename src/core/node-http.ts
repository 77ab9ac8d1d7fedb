/**
 * The bridge between node:http and Web-standard `Request` / `Response`, for the SDK's own servers
 * (the test provider, the CLI demo's shop).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * The Web `Request` of a Node request, addressed on `origin` (never on the Host header), repeated
 * headers kept. The body is streamed unread: the handler bounds its size.
 */
export function webRequest(req: IncomingMessage, origin: string): Request {
  const method = req.method ?? 'GET';
  // Appended rather than resolved: a request target like `//host/x` stays a path on this origin.
  const path = req.url ?? '/';
  const url = `${new URL(origin).origin}${path.startsWith('/') ? path : `/${path}`}`;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, v);
  }
  return new Request(url, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

/** Write a Web `Response` to a Node response: status, headers (each `Set-Cookie` apart) and body. */
export async function sendResponse(res: ServerResponse, response: Response, method = 'GET'): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, headers);
  res.end(method === 'HEAD' ? undefined : body);
}
