/**
 * `client.callbackHandler()`: the whole callback route for `Request → Response` frameworks (Hono,
 * Next.js route handlers, Deno/Bun-style servers, Express through an adapter).
 */
import { AffiliationError, TransportError } from '../core/errors.js';
import { escapeHtml } from '../core/html.js';
import type { CallbackParams } from './callback-input.js';
import { paramsFromUrl } from './callback-input.js';
import type { AnyAffiliationError } from './errors.js';
import { fragmentRelayHtml } from './relay.js';
import type { AffiliationResult, TransactionStore } from './types.js';

export { escapeHtml };

/**
 * Callbacks of {@link AffiliationClient.callbackHandler}.
 *
 * @group RP
 */
export interface CallbackHandlerOptions {
  /** Called with the validated result; return the response for the shopper (e.g. a redirect). */
  onSuccess(result: AffiliationResult, request: Request): Response | Promise<Response>;
  /**
   * Called when the callback is rejected: a `ProviderError`, `ValidationError`, `TransportError`,
   * … as the union {@link AnyAffiliationError}, so `switch (error.code)` narrows without
   * `instanceof`. Default: an HTML page with status 400 (502 when the service could not be
   * reached) showing `error.userMessage`, HTML-escaped.
   */
  onError?: ((error: AnyAffiliationError, request: Request) => Response | Promise<Response>) | undefined;
}

export interface HandlerDeps {
  read(request: Request): Promise<CallbackParams>;
  validate(params: Map<string, string>, cookie: string | undefined): Promise<AffiliationResult>;
  store: TransactionStore;
}

/** The default `onError`: a small, self-contained page with the shopper-safe message. */
/** The error page's only style, allowed by its hash: no `unsafe-inline`, no file to serve. */
const ERROR_PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}';
// SHA-256 of ERROR_PAGE_STYLE, written out: a Web Crypto hash is async (test/rp/handler.test.ts checks it).
const ERROR_PAGE_STYLE_HASH = "'sha256-GXxuLoJ4sEiVfOJ8dj1o9K2UAwL+SjVRxffAECOe72g='";

export function defaultErrorResponse(error: AffiliationError): Response {
  const status = error instanceof TransportError ? 502 : 400;
  // The callback route lives on the shop's origin, so "/" is the shop: the shopper gets a way back.
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Validation failed</title><style>${ERROR_PAGE_STYLE}</style></head>
<body><main><h1>Validation failed</h1><p>${escapeHtml(error.userMessage)}</p><p><a href="/">Back to the shop</a></p></main></body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; img-src data:; style-src ${ERROR_PAGE_STYLE_HASH}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  });
}

/**
 * The callback's answer as the browser gets it (a copy: the original's headers may be immutable,
 * as `Response.redirect`'s are): the transaction's cookie cleared, and never cached or
 * leaked through the Referer header (the callback URL holds the code and state; the page may show
 * the result). Headers the app set itself are kept.
 */
function finish(response: Response, clearCookie: string | undefined): Response {
  const headers = new Headers(response.headers);
  if (clearCookie) headers.append('set-cookie', clearCookie);
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  if (!headers.has('referrer-policy')) headers.set('referrer-policy', 'no-referrer');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function needsRelay(request: Request): boolean {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return false;
  try {
    return paramsFromUrl(new URL(request.url)) === undefined;
  } catch {
    return false; // malformed parameters: let validation report them
  }
}

export function createCallbackHandler(
  deps: HandlerDeps,
  options: CallbackHandlerOptions,
): (request: Request) => Promise<Response> {
  if (typeof options !== 'object' || options === null || typeof options.onSuccess !== 'function') {
    throw new TypeError('callbackHandler needs { onSuccess(result, request) }');
  }
  const onError = options.onError ?? ((error: AffiliationError) => defaultErrorResponse(error));
  return async (request: Request): Promise<Response> => {
    if (needsRelay(request)) {
      const relay = fragmentRelayHtml();
      return new Response(relay.html, { status: 200, headers: relay.headers });
    }
    let state: string | undefined;
    // A request always says what cookies it carries: none is ''.
    const cookie = request.headers.get('cookie') ?? '';
    let result: AffiliationResult;
    let response: Response;
    try {
      const read = await deps.read(request);
      state = read.params.get('state');
      result = await deps.validate(read.params, read.cookie);
    } catch (error) {
      if (!(error instanceof AffiliationError)) throw error;
      // Every error the relying party throws is one of the union's classes.
      response = await onError(error as AnyAffiliationError, request);
      return clear(response, state, cookie);
    }
    response = await options.onSuccess(result, request);
    return clear(response, state, cookie);
  };

  /**
   * Success or error, the transaction is over: the store gets to replace or delete the cookie of
   * this state (only that one; other validations of the same browser keep theirs).
   */
  function clear(response: Response, state: string | undefined, cookie: string): Response {
    const store = deps.store;
    return finish(response, state ? store.clearCookie?.(state, { cookie }) : undefined);
  }
}
