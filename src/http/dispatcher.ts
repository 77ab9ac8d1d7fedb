import type { Dispatcher } from 'undici';

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;

/**
 * Load the undici package on first use, never at import time. The SDK sends every request with this
 * undici's own `fetch` and its own `Agent` / `EnvHttpProxyAgent`: one undici per request, never an
 * Agent of the npm package handed to the older undici bundled in Node (whose dispatcher interface can
 * differ). Loading the package installs its Agent as the process-wide global dispatcher (the one Node's
 * own `fetch` uses) when none exists yet; touching a fetch global first makes Node's bundled undici set
 * its own, exactly as the application's first `fetch` would, so the SDK never changes the transport of
 * the rest of the application.
 */
function loadUndici(): Promise<Undici> {
  void globalThis.Headers;
  undici ??= import('undici').catch((error: unknown) => {
    undici = undefined;
    throw error;
  });
  return undici;
}

/**
 * Options of {@link createDispatcher}.
 *
 * @group Options
 */
export interface DispatcherOptions {
  /** Time limit for opening a connection (TCP + TLS), in milliseconds. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Time limit between sending a request and receiving the complete response headers, in milliseconds. Default 30 000 ms. */
  headersTimeoutMs?: number;
  /** Longest pause between two chunks of a response body, in milliseconds. Default 30 000 ms. */
  bodyTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open for reuse, in milliseconds. Default 10 000 ms. */
  keepAliveTimeoutMs?: number;
  /** Most connections kept per origin. Default 16. */
  connections?: number;
  /**
   * The environment to read `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` from (either case).
   * Default: `process.env` at the time the dispatcher is created.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value?.trim() ? value.trim() : undefined;
}

/** Whether the environment asks for a proxy (`HTTPS_PROXY` / `HTTP_PROXY`, either case). */
export function proxyFromEnv(env: Readonly<Record<string, string | undefined>> = process.env) {
  return {
    httpProxy: envValue(env, 'http_proxy'),
    httpsProxy: envValue(env, 'https_proxy'),
    noProxy: envValue(env, 'no_proxy'),
  };
}

/**
 * Create a pooled keep-alive undici dispatcher with connect, headers and body time limits. When the
 * environment names a proxy (`HTTPS_PROXY` / `HTTP_PROXY`, honouring `NO_PROXY`) it is an undici
 * `EnvHttpProxyAgent`, otherwise a plain `Agent`.
 *
 * The SDK hands it to undici's own `fetch` (see {@link getDefaultFetch}). Close it with
 * `await dispatcher.close()` when you created it yourself.
 */
export async function createDispatcher(options: DispatcherOptions = {}): Promise<Dispatcher> {
  const { Agent, EnvHttpProxyAgent } = await loadUndici();
  const agentOptions = {
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 30_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    connections: options.connections ?? 16,
  };
  const proxy = proxyFromEnv(options.env ?? process.env);
  if (proxy.httpProxy || proxy.httpsProxy) {
    // Pass all three explicitly so the agent reads exactly the environment we were given.
    return new EnvHttpProxyAgent({
      ...agentOptions,
      httpProxy: proxy.httpProxy ?? '',
      httpsProxy: proxy.httpsProxy ?? '',
      noProxy: proxy.noProxy ?? '',
    });
  }
  return new Agent(agentOptions);
}

/**
 * The shared dispatcher and the fetch bound to it (made once per dispatcher rather than per request),
 * created on first use, never at import time: importing the SDK must have no side effects.
 */
let shared: Promise<{ dispatcher: Dispatcher; fetch: typeof fetch }> | undefined;

function getShared(): NonNullable<typeof shared> {
  shared ??= Promise.all([loadUndici(), createDispatcher()]).then(
    ([{ fetch: undiciFetch }, dispatcher]) => ({
      dispatcher,
      // undici's RequestInit and Response types are its own; at run time they are the Web-standard ones.
      fetch: ((input: string, init?: RequestInit) =>
        undiciFetch(input, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch,
    }),
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

/**
 * The fetch every {@link HttpClient} uses unless it is given one: undici's own `fetch` with the shared
 * default dispatcher, so the pool, the time limits and the proxy of {@link createDispatcher} are those
 * of the undici that sends the request. (An injected fetch, e.g. `globalThis.fetch` for msw, is called
 * as it is, without a dispatcher.)
 */
export const getDefaultFetch = async (): Promise<typeof fetch> => (await getShared()).fetch;

/**
 * The dispatcher shared by every {@link HttpClient} that is not given its own: created on first
 * use with the defaults of {@link createDispatcher}, reading the proxy environment at that moment.
 */
export const getDefaultDispatcher = async (): Promise<Dispatcher> => (await getShared()).dispatcher;

/**
 * Close the SDK's shared connection pool (its idle keep-alive connections), e.g. at the end of a test
 * run or before a graceful shutdown, so no socket keeps the process alive. The next request opens a
 * new pool. Clients given their own `fetch` do not use this pool.
 *
 * @example
 * ```ts
 * process.on('SIGTERM', async () => {
 *   await closeDefaultDispatcher();
 *   server.close();
 * });
 * ```
 * @group Transport
 */
export async function closeDefaultDispatcher(): Promise<void> {
  const current = shared;
  shared = undefined;
  await (await current?.catch(() => undefined))?.dispatcher.close();
}
