/**
 * Reads the parameters of an authorization response from whatever the merchant's framework hands
 * over: a URL (string or `URL`, parameters in the query or in the fragment), a Web `Request` (GET,
 * or the form POST of the fragment relay / `response_mode=form_post`), or a Node `IncomingMessage`
 * with its form body already parsed or still unread.
 */
import type { IncomingMessage } from 'node:http';
import { mediaType, readBounded } from '../core/body.js';
import { ValidationError } from './errors.js';

/**
 * What {@link AffiliationClient.validateCallback} accepts: the callback URL (absolute, or a path
 * such as `req.url`), a `URL`, a Web `Request`, or a Node `IncomingMessage`.
 *
 * @group RP
 */
export type CallbackInput = string | URL | Request | IncomingMessage;

/**
 * Extra data for {@link AffiliationClient.validateCallback}.
 *
 * @group RP
 */
export interface ValidateCallbackOptions {
  /**
   * The form body of a POST callback (the fragment relay or `response_mode=form_post`) when the
   * input is an `IncomingMessage` whose body your framework already read: a raw
   * `application/x-www-form-urlencoded` string, `URLSearchParams`, or the object `express.urlencoded()`
   * puts on `req.body`. When absent, `req.body` is used if it is set, and otherwise the unread
   * request stream is read (at most 64 KiB).
   */
  body?: string | URLSearchParams | Record<string, unknown> | undefined;
  /**
   * The callback request's `Cookie` header, when the input is a URL: pass it even when the request
   * had none (`{ cookie: req.headers.cookie }`, `undefined` then counts as "no cookies"). The
   * transaction stores need it to find the transaction (`CookieTransactionStore`) or to check that
   * the callback comes from the browser that started the validation (`MemoryTransactionStore`).
   * Taken from the request itself for `Request` and `IncomingMessage`.
   */
  cookie?: string | null | undefined;
}

/** The parsed authorization response. */
export interface CallbackParams {
  params: Map<string, string>;
  /** Where the parameters were found. */
  source: 'query' | 'fragment' | 'form';
  /** The callback's Cookie header, if known. */
  cookie: string | undefined;
}

const MAX_BODY_BYTES = 64 * 1024;
const RESPONSE_KEYS = ['code', 'id_token', 'error', 'state'];

function missing(message: string): ValidationError {
  return new ValidationError(message, { code: 'missing_parameters' });
}

function fromPairs(pairs: Iterable<[string, string]>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of pairs) {
    if (map.has(key)) {
      if (key === 'state') {
        throw new ValidationError('The callback carries more than one state parameter', {
          code: 'state_mismatch',
        });
      }
      throw missing(`The callback parameter "${key.slice(0, 40)}" appears more than once`);
    }
    map.set(key, value);
  }
  return map;
}

function hasResponseKey(params: Map<string, string>): boolean {
  return RESPONSE_KEYS.some((k) => params.has(k));
}

/** Parameters of a callback URL: from the query, else from the fragment. */
export function paramsFromUrl(url: URL): Omit<CallbackParams, 'cookie'> | undefined {
  const query = url.search.length > 1 ? fromPairs(url.searchParams) : new Map<string, string>();
  if (hasResponseKey(query)) return { params: query, source: 'query' };
  const hash = url.hash.length > 1 ? fromPairs(new URLSearchParams(url.hash.slice(1))) : undefined;
  if (hash && hasResponseKey(hash)) return { params: hash, source: 'fragment' };
  if (query.size > 0) return { params: query, source: 'query' };
  if (hash && hash.size > 0) return { params: hash, source: 'fragment' };
  return undefined;
}

function toUrl(value: string, base: string): URL {
  try {
    return new URL(value, base);
  } catch {
    throw missing('The callback input is not a valid URL');
  }
}

function isWebRequest(input: unknown): input is Request {
  if (typeof Request !== 'undefined' && input instanceof Request) return true;
  try {
    return Object.getPrototypeOf(input)?.[Symbol.toStringTag] === 'Request';
  } catch {
    return false;
  }
}

function isIncomingMessage(input: unknown): input is IncomingMessage & { body?: unknown } {
  if (typeof input !== 'object' || input === null) return false;
  const m = input as { method?: unknown; url?: unknown; headers?: unknown; on?: unknown };
  return (
    typeof m.method === 'string' &&
    typeof m.url === 'string' &&
    typeof m.headers === 'object' &&
    m.headers !== null &&
    typeof m.on === 'function'
  );
}

function fromForm(body: string | URLSearchParams | Record<string, unknown>): Map<string, string> {
  if (typeof body === 'string' || body instanceof URLSearchParams)
    return fromPairs(new URLSearchParams(body));
  if (typeof body !== 'object' || body === null) throw missing('The callback form body is not a form');
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value))
      throw missing(`The callback parameter "${key.slice(0, 40)}" appears more than once`);
    if (typeof value !== 'string')
      throw missing(`The callback parameter "${key.slice(0, 40)}" is not a string`);
    pairs.push([key, value]);
  }
  return fromPairs(pairs);
}

function checkFormType(contentType: string | null | undefined): void {
  if (mediaType(contentType) !== 'application/x-www-form-urlencoded') {
    throw missing('A POST callback must be an application/x-www-form-urlencoded form');
  }
}

async function readWebBody(request: Request): Promise<string> {
  checkFormType(request.headers.get('content-type'));
  if (request.bodyUsed) throw missing('The callback request body was already read');
  try {
    const body = await readBounded(
      request.body,
      MAX_BODY_BYTES,
      () => missing('The callback form body is too large'),
      { declaredLength: request.headers.get('content-length') },
    );
    return new TextDecoder().decode(body);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw missing('The callback form body could not be read');
  }
}

/** A node request is read from its events: it is not a web stream, and is left open for the answer. */
function readNodeBody(req: IncomingMessage): Promise<string> {
  const contentType = req.headers['content-type'];
  checkFormType(Array.isArray(contentType) ? contentType[0] : contentType);
  return new Promise((resolve, reject) => {
    if (req.readableEnded || req.destroyed) {
      reject(missing('The callback form body was already read; pass it as { body }'));
      return;
    }
    const decoder = new TextDecoder();
    let text = '';
    let total = 0;
    const onData = (chunk: Uint8Array | string) => {
      const buf = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      total += buf.byteLength;
      if (total > MAX_BODY_BYTES) {
        cleanup();
        reject(missing('The callback form body is too large'));
        return;
      }
      text += decoder.decode(buf, { stream: true });
    };
    const onEnd = () => {
      cleanup();
      resolve(text + decoder.decode());
    };
    const onError = () => {
      cleanup();
      reject(missing('The callback form body could not be read'));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function noParams(method: string): ValidationError {
  if (method === 'GET' || method === 'HEAD') {
    return new ValidationError(
      'The callback carries no parameters: the response is probably in the URL fragment, which only the browser sees. Serve fragmentRelayHtml() so the browser posts it back.',
      { code: 'fragment_relay_required' },
    );
  }
  return missing('The callback form carries no parameters');
}

/**
 * Extract the authorization response parameters from a callback input.
 *
 * @param base The configured redirect URI, to resolve a path such as `req.url`.
 * @throws {ValidationError} `fragment_relay_required` for a GET without parameters,
 *   `missing_parameters` for input that is not a callback, `state_mismatch` for two states.
 */
export async function readCallback(
  input: CallbackInput,
  base: string,
  options: ValidateCallbackOptions = {},
): Promise<CallbackParams> {
  if (typeof input === 'string' || input instanceof URL) {
    const found = paramsFromUrl(typeof input === 'string' ? toUrl(input, base) : input);
    if (!found) throw noParams('GET');
    // The key given at all means the caller knows the request's cookies: none is '' (checked).
    const known = typeof options === 'object' && options !== null && 'cookie' in options;
    return { ...found, cookie: known ? (options.cookie ?? '') : undefined };
  }
  let read: () => Promise<string | URLSearchParams | Record<string, unknown>>;
  let cookie: string | string[] | null | undefined;
  if (isWebRequest(input)) {
    cookie = input.headers.get('cookie');
    read = () => readWebBody(input);
  } else if (isIncomingMessage(input)) {
    cookie = input.headers.cookie;
    const parsed = options.body !== undefined ? options.body : (input.body ?? undefined);
    read = async () => (parsed === undefined ? readNodeBody(input) : (parsed as Record<string, unknown>));
  } else {
    throw missing('The callback input must be a URL, a Request or an IncomingMessage');
  }
  // A request always says what cookies it carries: none is '' (checked), not undefined (unknown).
  const requestCookie = (Array.isArray(cookie) ? cookie.join('; ') : cookie) ?? options.cookie ?? '';
  const method = (input.method ?? 'GET').toUpperCase();
  if (method === 'POST') {
    const params = fromForm(await read());
    if (params.size === 0) throw noParams(method);
    return { params, source: 'form', cookie: requestCookie };
  }
  if (method !== 'GET' && method !== 'HEAD')
    throw missing(`A callback must be a GET or POST, not ${method.slice(0, 10)}`);
  const found = paramsFromUrl(toUrl(input.url ?? '', base));
  if (!found) throw noParams(method);
  return { ...found, cookie: requestCookie };
}
