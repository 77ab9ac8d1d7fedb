import { readBounded } from '../core/body.js';
import { OptionsError, TransportError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { noopLogger, redactingLogger } from '../core/logger.js';
import { integerOption, MAX_TIMER_MS } from '../core/options.js';
import { redact, redactUrl } from '../core/redact.js';
import { getDefaultFetch } from './dispatcher.js';

/**
 * Options of the shared HTTP layer. Every outbound request of the SDK goes through an
 * {@link HttpClient} built from these.
 *
 * @group Options
 */
export interface HttpOptions {
  /**
   * The fetch implementation, called as it is (it brings its own transport). Default: undici's own
   * `fetch` with the SDK's shared pooled keep-alive agent (proxy from `HTTPS_PROXY` / `HTTP_PROXY` /
   * `NO_PROXY`). msw intercepts only the global fetch: tests that use msw pass
   * `fetch: (input, init) => globalThis.fetch(input, init)`.
   */
  fetch?: typeof fetch | undefined;
  /**
   * Time limit for one attempt, from sending the request to the last byte of the body (so a body
   * that trickles in is cut off too), in milliseconds. Default 10 000 ms.
   */
  timeoutMs?: number | undefined;
  /** Retries for idempotent requests (GET, HEAD, OPTIONS, PUT, DELETE) on 429/502/503/504 and network errors. Default 2. */
  retries?: number | undefined;
  /** Largest response body accepted, in bytes, whether declared by `content-length` or streamed. Default 5 MiB. */
  maxResponseBytes?: number;
  /** Longest `Retry-After` honoured, in milliseconds; a longer one ends the retries and the response is returned. Default 30 000 ms. */
  maxRetryAfterMs?: number;
  /** Structured logger; receives only redacted data. Default: no-op. */
  logger?: Logger | undefined;
  /**
   * Exact secret values (client secret, application password) to redact from anything logged or
   * thrown, also in their URL- and form-encoded forms. `undefined` entries are ignored. Default none.
   */
  secrets?: readonly (string | undefined)[];
  /** The `user-agent` header. Default `affiliation-validation`. */
  userAgent?: string;
}

/** Per-request options on top of `RequestInit`. */
export interface HttpRequestInit extends RequestInit {
  /** Overrides {@link HttpOptions.timeoutMs} for this request. */
  timeoutMs?: number | undefined;
  /** Overrides {@link HttpOptions.maxResponseBytes} for this request. */
  maxResponseBytes?: number;
  /** Force retry on or off; by default only idempotent methods are retried, POST and PATCH never. */
  retry?: boolean;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const NEVER_RETRIED = new Set(['POST', 'PATCH']);
const RETRY_STATUS = new Set([429, 502, 503, 504]);
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
/** undici error codes that are time limits rather than broken connections. */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export const DEFAULT_TIMEOUT_MS = 10_000;

function checkOptions(options: HttpOptions): void {
  if (options === null || typeof options !== 'object') throw new OptionsError('options must be an object');
  integerOption('timeoutMs', options.timeoutMs, 0, { max: MAX_TIMER_MS });
  integerOption('retries', options.retries, 0, { min: 0, max: 10 });
  integerOption('maxResponseBytes', options.maxResponseBytes, 0);
  integerOption('maxRetryAfterMs', options.maxRetryAfterMs, 0, { min: 0, max: MAX_TIMER_MS });
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new OptionsError('fetch must be a function');
  }
  if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null)) {
    throw new OptionsError('logger must be an object with debug/info/warn/error methods');
  }
  if (
    options.secrets !== undefined &&
    (!Array.isArray(options.secrets) ||
      options.secrets.some((s: unknown) => typeof s !== 'string' && s !== undefined))
  ) {
    throw new OptionsError('secrets must be an array of strings');
  }
  if (
    options.userAgent !== undefined &&
    (typeof options.userAgent !== 'string' || /[\r\n]/.test(options.userAgent))
  ) {
    throw new OptionsError('userAgent must be a single-line string');
  }
}

type Resolved = {
  [K in Exclude<keyof HttpOptions, 'fetch' | 'secrets'>]-?: NonNullable<HttpOptions[K]>;
} & Pick<HttpOptions, 'fetch'> & { secrets: readonly string[] };

/**
 * The shared transport: undici's fetch on a pooled keep-alive agent, time limits, bounded bodies, retries
 * with backoff and jitter for idempotent requests honouring `Retry-After`, and redaction of
 * everything it logs or throws.
 *
 * Its {@link HttpClient.fetch} has the `fetch` signature and returns a `Response` whose body is
 * already read (within the size limit), so it can be handed to openid-client as `customFetch`.
 *
 * @example
 * ```ts
 * const http = new HttpClient({ timeoutMs: 5_000, secrets: [clientSecret] });
 * const res = await http.fetch('https://op.example.org/.well-known/openid-configuration');
 * const metadata = await res.json();
 * ```
 */
export class HttpClient {
  readonly #options: Resolved;
  /**
   * The logger given in the options, wrapped once so that it receives only redacted data (the
   * configured secrets and the generic rules) and can never break a request. Callers that log
   * about the same requests use this one rather than wrapping the logger again.
   */
  readonly logger: Logger;

  constructor(options: HttpOptions = {}) {
    checkOptions(options);
    this.#options = {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retries: options.retries ?? 2,
      maxResponseBytes: options.maxResponseBytes ?? 5 * 1024 * 1024,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
      logger: options.logger ?? noopLogger,
      // An unset secret (a public client has no client secret) is simply nothing to redact.
      secrets: Object.freeze(
        (options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s !== ''),
      ),
      userAgent: options.userAgent ?? 'affiliation-validation',
    };
    this.logger = redactingLogger(this.#options.logger, this.#options.secrets);
    this.fetch = this.fetch.bind(this);
  }

  /** Redact a text with the configured secrets as well as the generic rules. */
  redact(text: string): string {
    return redact(text, this.#options.secrets);
  }

  /**
   * Send a request. Resolves with a `Response` whose body is fully buffered; rejects with a
   * {@link TransportError} on network failure (`network`), a time limit (`timeout`), an outer
   * abort (`aborted`) or an oversized body (`response_too_large`). HTTP error statuses resolve
   * normally: the caller decides what they mean.
   */
  async fetch(input: string | URL | Request, init: HttpRequestInit = {}): Promise<Response> {
    return toResponse(await this.read(input, init));
  }

  /**
   * {@link HttpClient.fetch} without the `Response`: the status, headers and the body's bytes as
   * read, for a caller that parses them itself (one read of the body instead of two).
   */
  async read(input: string | URL | Request, init: HttpRequestInit = {}): Promise<HttpAnswer> {
    const o = this.#options;
    const log = this.logger;
    const { timeoutMs: initTimeout, maxResponseBytes: initMax, retry, ...requestInit } = init ?? {};
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input);
    const safe = redactUrl(url, o.secrets);
    checkUrl(url, safe);
    const fromRequest = input instanceof Request ? await requestParts(input, safe) : undefined;
    const base: RequestInit = fromRequest ? { ...fromRequest, ...requestInit } : requestInit;
    const method = base.method === undefined ? 'GET' : base.method.toUpperCase();
    const outer = base.signal ?? undefined;
    const timeoutMs = initTimeout ?? o.timeoutMs;
    const maxBytes = initMax ?? o.maxResponseBytes;
    integerOption('timeoutMs', timeoutMs, 0, { max: MAX_TIMER_MS });
    integerOption('maxResponseBytes', maxBytes, 0);

    // A stream body cannot be sent twice, so such a request is never retried.
    const stream = base.body instanceof ReadableStream || Symbol.asyncIterator in Object(base.body);
    const retryable = !stream && !NEVER_RETRIED.has(method) && (retry ?? IDEMPOTENT.has(method));
    const maxAttempts = retryable ? o.retries + 1 : 1;
    const f = o.fetch ?? (await getDefaultFetch());
    const headers = copyHeaders(base.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', o.userAgent);
    const sent: Sent = { method, url: safe, secrets: o.secrets, outer };

    for (let attempt = 1; ; attempt++) {
      if (outer?.aborted) throw abortedError(sent);
      // The time limit covers the whole attempt, the body too (undici's own limits are per pause).
      const limit = new AbortController();
      const timer = setTimeout(() => limit.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      // AbortSignal.any adds no listener to the caller's signal, however many requests share it.
      const signal = outer ? AbortSignal.any([outer, limit.signal]) : limit.signal;
      let answer: HttpAnswer;
      try {
        const raw = await f(url, { ...base, method, headers, signal });
        const body = await readLimited(raw, maxBytes, method, safe, signal);
        if (raw.status < 200 || raw.status > 599) {
          throw new TransportError(`${method} ${safe}: unusable response status ${raw.status}`, {
            code: 'invalid_response',
            status: raw.status,
            method,
            url: safe,
          });
        }
        answer = {
          status: raw.status,
          statusText: raw.statusText,
          headers: copyHeaders(raw.headers),
          url: raw.url || url,
          body,
        };
      } catch (error) {
        const err = toTransportError(error, sent, limit.signal.aborted ? timeoutMs : undefined);
        if (retryable && attempt < maxAttempts && err.code === 'network') {
          const waitMs = backoffMs(attempt);
          log.debug?.('retrying request after a network error', {
            method,
            url: safe,
            attempt,
            waitMs,
            error: err.message,
          });
          await sleep(waitMs, outer);
          continue;
        }
        log.debug?.('request failed', { method, url: safe, attempt, code: err.code, error: err.message });
        throw err;
      } finally {
        clearTimeout(timer);
      }

      if (retryable && attempt < maxAttempts && RETRY_STATUS.has(answer.status)) {
        const retryAfter = retryAfterMs(answer.headers.get('retry-after'));
        const waitMs = retryAfter ?? backoffMs(attempt);
        if (retryAfter === undefined || retryAfter <= o.maxRetryAfterMs) {
          log.debug?.('retrying request', { method, url: safe, status: answer.status, attempt, waitMs });
          await sleep(waitMs, outer);
          continue;
        }
        log.warn?.('Retry-After too long, not retrying', {
          method,
          url: safe,
          status: answer.status,
          waitMs,
          maxRetryAfterMs: o.maxRetryAfterMs,
        });
      }
      log.debug?.('request done', { method, url: safe, status: answer.status, attempt });
      return answer;
    }
  }
}

/** A response whose body has been read within the size limit: what {@link HttpClient.read} gives. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  /** The final URL (after redirects, when the fetch follows them). */
  url: string;
  /** `null` for a HEAD request or a status without a body. */
  body: Uint8Array<ArrayBuffer> | null;
}

/** The `Response` of an answer (its `url` too, which the constructor cannot set). */
export function toResponse(answer: HttpAnswer): Response {
  const response = new Response(answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
  Object.defineProperty(response, 'url', { value: answer.url });
  return response;
}

/** Only absolute http(s) URLs: anything else is a programming error, not something to retry. */
function checkUrl(url: string, safeUrl: string): void {
  if (!URL.canParse(url)) throw new OptionsError(`request URL is not an absolute URL: "${safeUrl}"`);
  const { protocol } = new URL(url);
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new OptionsError(`request URL must use http: or https:, got "${protocol}"`);
  }
}

/** The parts of a `Request` that a retry needs, with the body buffered so it can be sent again. */
async function requestParts(request: Request, safeUrl: string): Promise<RequestInit> {
  const parts: RequestInit = {
    method: request.method,
    headers: request.headers,
    redirect: request.redirect,
    signal: request.signal,
  };
  if (request.body !== null) {
    if (request.bodyUsed) throw new OptionsError(`the body of the Request for ${safeUrl} was already read`);
    parts.body = await request.arrayBuffer();
  }
  return parts;
}

/**
 * Copy headers entry by entry: `new Headers(otherHeaders)` can drop entries when the global
 * Request/Headers classes are patched (msw's interceptors do that), forEach cannot.
 */
function copyHeaders(init: HeadersInit | undefined): Headers {
  const out = new Headers();
  if (init === undefined || init === null) return out;
  const source =
    typeof (init as Headers).forEach === 'function' && !Array.isArray(init)
      ? (init as Headers)
      : new Headers(init);
  source.forEach((value, key) => {
    out.append(key, value);
  });
  return out;
}

/** What an error about a request names (its method, its redacted URL), and what it needs to build one. */
interface Sent {
  method: string;
  url: string;
  secrets: readonly string[];
  /** The caller's signal. */
  outer: AbortSignal | undefined;
}

function abortedError({ method, url, secrets, outer }: Sent): TransportError {
  return new TransportError(`${method} ${url} was aborted`, {
    code: 'aborted',
    method,
    url,
    cause: sanitizeCause(outer?.reason, secrets),
  });
}

function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A failed attempt's error; `timedOutMs` when the attempt's own time limit ended it. */
function toTransportError(error: unknown, sent: Sent, timedOutMs: number | undefined): TransportError {
  const { method, url, secrets } = sent;
  if (error instanceof TransportError) return error;
  if (sent.outer?.aborted) return abortedError(sent);
  const code = errorCode(error);
  if (timedOutMs !== undefined || (code && TIMEOUT_CODES.has(code))) {
    const what = timedOutMs !== undefined ? `after ${timedOutMs} ms` : `(${code})`;
    return new TransportError(`${method} ${url} timed out ${what}`, {
      code: 'timeout',
      method,
      url,
      cause: timedOutMs !== undefined ? undefined : sanitizeCause(error, secrets),
    });
  }
  return new TransportError(`${method} ${url} failed: ${describe(error, secrets)}`, {
    code: 'network',
    method,
    url,
    cause: sanitizeCause(error, secrets),
  });
}

/** `fetch failed (ECONNRESET: other side closed)`: the message and the root cause, redacted. */
function describe(error: unknown, secrets: readonly string[]): string {
  if (!(error instanceof Error)) return 'unknown error';
  let text = error.message || error.name;
  const inner = error.cause;
  if (inner instanceof Error) {
    const code = errorCode(inner);
    text += ` (${code ? `${code}: ` : ''}${inner.message})`;
  }
  return redact(text, secrets);
}

/**
 * Keep the cause's class name, code and (redacted) message, and its own cause one level down, but
 * never its other properties: undici errors carry sockets, request options and headers.
 */
export function sanitizeCause(error: unknown, secrets: readonly string[] = [], depth = 0): Error | undefined {
  if (error === undefined || error === null) return undefined;
  if (!(error instanceof Error)) {
    return new Error(
      redact(typeof error === 'string' ? error : `non-error value (${typeof error})`, secrets),
    );
  }
  const inner = depth < 2 ? sanitizeCause(error.cause, secrets, depth + 1) : undefined;
  const clean = new Error(redact(error.message, secrets), inner ? { cause: inner } : undefined);
  clean.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.defineProperty(clean, 'code', { value: code, enumerable: true });
  // The stack repeats the original message; rebuild it from the redacted one.
  clean.stack = `${clean.name}: ${clean.message}`;
  return clean;
}

async function readLimited(
  response: Response,
  maxBytes: number,
  method: string,
  url: string,
  signal: AbortSignal,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const noBody = method === 'HEAD' || NULL_BODY_STATUS.has(response.status) || response.body === null;
  const bytes = await readBounded(
    noBody ? null : response.body,
    maxBytes,
    (declared) =>
      new TransportError(
        `${method} ${url}: response ${declared === undefined ? '' : `of ${declared} bytes `}exceeds the ${maxBytes}-byte limit`,
        { code: 'response_too_large', status: response.status, method, url },
      ),
    { declaredLength: response.headers.get('content-length'), signal },
  );
  if (!noBody) return bytes;
  response.body?.cancel().catch(() => {});
  return null;
}

/**
 * Exponential backoff with full jitter: a random wait from 0 to `baseMs × 2^(attempt-1)`, capped at
 * `maxMs`. Defaults: 200 ms base, 5 000 ms cap.
 */
export function backoffMs(
  attempt: number,
  options: { baseMs?: number; maxMs?: number; random?: () => number } = {},
): number {
  const { baseMs = 200, maxMs = 5_000, random = Math.random } = options;
  return Math.round(random() * Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1)));
}

/**
 * Parse `Retry-After` (delay in seconds, or an HTTP date) into milliseconds from `now`. A date in
 * the past gives 0; anything unparseable gives `undefined`.
 */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, Number.MAX_SAFE_INTEGER);
  // Only HTTP dates (RFC 9110 IMF-fixdate and the obsolete forms have letters): not "1.5" or "-1".
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Wait `ms`, or less when `signal` aborts (the retry loop then throws `aborted`). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
