/**
 * `startTestProvider()`: the test provider on a real node:http server, adapting Node requests to
 * the Web-standard core and back.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OptionsError } from '../core/errors.js';
import type { ProviderContext } from './context.js';
import type { StartTestProviderOptions } from './options.js';
import { TestProvider } from './provider.js';

/** Largest request body the server reads, in bytes. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A {@link TestProvider} listening on a real socket (what `TestProvider.start()` returns). Close it
 * when done (`await op.close()`).
 *
 * @group Testing
 */
export class RunningTestProvider extends TestProvider {
  /** The TCP port the server listens on. */
  readonly port: number;
  /** The interface the server is bound to. */
  readonly host: string;
  readonly #server: Server;
  #closing: Promise<void> | undefined;

  /** @internal Use {@link TestProvider.start}. */
  private constructor(ctx: ProviderContext, server: Server, host: string, port: number) {
    super(ctx);
    this.#server = server;
    this.host = host;
    this.port = port;
  }

  /** @internal Use {@link TestProvider.start}. */
  static async listen(options: StartTestProviderOptions): Promise<RunningTestProvider> {
    const host = options.host ?? '127.0.0.1';
    const port = options.port ?? 0;
    if (typeof host !== 'string' || host === '')
      throw new OptionsError('Invalid option "host": expected a host name or address');
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new OptionsError('Invalid option "port": expected an integer from 0 to 65535');
    }
    let provider: RunningTestProvider | undefined;
    const server = createServer((req, res) => {
      if (provider === undefined) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('starting');
        return;
      }
      void serve(provider, req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    try {
      const { port: actualPort } = server.address() as AddressInfo;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      const ctx = await TestProvider.context(options, `http://${urlHost}:${actualPort}`);
      provider = new RunningTestProvider(ctx, server, host, actualPort);
      return provider;
    } catch (error) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw error;
    }
  }

  /** Stop listening and drop open connections. Safe to call more than once. */
  override async close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closing;
  }

  /** @internal Over a real socket, `authorize()` uses the global fetch: real HTTP. */
  protected override defaultFetch(): typeof fetch {
    return (input, init) => globalThis.fetch(input, init);
  }
}

async function serve(provider: TestProvider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res
          .writeHead(413, { 'content-type': 'text/plain', connection: 'close' })
          .end('Request body too large');
        return;
      }
      chunks.push(chunk as Buffer);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const method = req.method ?? 'GET';
    // Append rather than resolve: a request target like `//host/x` must stay a path on this origin.
    const target = `${new URL(provider.baseUrl).origin}${(req.url ?? '/').startsWith('/') ? req.url : `/${req.url}`}`;
    if (!URL.canParse(target)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request target');
      return;
    }
    const request = new Request(target, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' || chunks.length === 0 ? undefined : Buffer.concat(chunks),
    });
    const response = await provider.handle(request);
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, out);
    res.end(method === 'HEAD' ? undefined : body);
  } catch {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('Internal error');
  }
}

/**
 * Start a local OpenID provider on `http://127.0.0.1:<free port>`.
 *
 * @deprecated Use `TestProvider.start(options)`, the one factory (same options, same result).
 * @group Testing
 */
export async function startTestProvider(
  options: StartTestProviderOptions = {},
): Promise<RunningTestProvider> {
  return RunningTestProvider.listen(options);
}
