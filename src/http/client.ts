import { OptionsError, TransportError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { noopLogger } from '../core/logger.js';
import { redact, redactUrl } from '../core/redact.js';

/**
 * Options of the shared HTTP layer. Every outbound request of the SDK goes through an
 * {@link HttpClient} built from these.
 *
 * @group Options
 */
export interface HttpOptions {
  /**
   * The fetch implementation. Resolved at call time: `options.fetch ?? globalThis.fetch`, so msw
   * and other interceptors of the global fetch see every request. Default: `globalThis.fetch`.
   */
  fetch?: typeof fetch;
  /** Time limit for one attempt, from sending the request to the end of the body. Default 10 000 ms. */
  timeoutMs?: number;
  /** Retries for idempotent requests (GET, HEAD, OPTIONS, PUT, DELETE) on 429/502/503/504 and network errors. Default 2. */
  retries?: number;
  /** Largest response body accepted, in bytes. Default 5 MiB. */
  maxResponseBytes?: number;
  /** Longest `Retry-After` honoured, in milliseconds; longer waits fail instead. Default 30 000 ms. */
  maxRetryAfterMs?: number;
  /** Structured logger; receives only redacted data. Default: no-op. */
  logger?: Logger;
  /** Exact secret values (client secret, application password) to redact from anything logged or thrown. */
  secrets?: readonly string[];
  /** The `user-agent` header. Default `affiliation-validation`. */
  userAgent?: string;
}

/** Per-request options on top of `RequestInit`. */
export interface HttpRequestInit extends RequestInit {
  /** Overrides {@link HttpOptions.timeoutMs} for this request. */
  timeoutMs?: number;
  /** Overrides {@link HttpOptions.maxResponseBytes} for this request. */
  maxResponseBytes?: number;
  /** Force retry on or off; by default only idempotent methods are retried, POST and PATCH never. */
  retry?: boolean;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRY_STATUS = new Set([429, 502, 503, 504]);

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

function checkNonNegativeInt(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 0) throw new OptionsError(`${name} must be a non-negative integer`);
}

/**
 * The shared transport: timeouts, bounded bodies, retries with backoff and jitter for idempotent
 * requests honouring `Retry-After`, and redaction of everything it logs or throws.
 *
 * Its {@link HttpClient.fetch} has the `fetch` signature and returns a `Response` whose body is
 * already read (within the size limit), so it can be handed to openid-client as `customFetch`.
 */
export class HttpClient {
  readonly #options: Required<Omit<HttpOptions, 'fetch' | 'secrets'>> &
    Pick<HttpOptions, 'fetch' | 'secrets'>;

  constructor(options: HttpOptions = {}) {
    checkNonNegativeInt('timeoutMs', options.timeoutMs);
    checkNonNegativeInt('retries', options.retries);
    checkNonNegativeInt('maxResponseBytes', options.maxResponseBytes);
    checkNonNegativeInt('maxRetryAfterMs', options.maxRetryAfterMs);
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new OptionsError('fetch must be a function');
    }
    this.#options = {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retries: options.retries ?? DEFAULT_RETRIES,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
      logger: options.logger ?? noopLogger,
      secrets: options.secrets,
      userAgent: options.userAgent ?? 'affiliation-validation',
    };
    this.fetch = this.fetch.bind(this);
  }

  /** Redact a text with the configured secrets as well as the generic rules. */
  redact(text: string): string {
    return redact(text, this.#options.secrets ?? []);
  }

  /**
   * Send a request. Resolves with a `Response` whose body is fully buffered; rejects with a
   * {@link TransportError} on network failure, timeout or an oversized body. HTTP error statuses
   * resolve normally: the caller decides what they mean.
   */
  async fetch(input: string | URL | Request, init: HttpRequestInit = {}): Promise<Response> {
    const o = this.#options;
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = input instanceof Request ? input.url : String(input);
    const retryable = init.retry ?? IDEMPOTENT.has(method);
    const maxAttempts = retryable ? o.retries + 1 : 1;
    const timeoutMs = init.timeoutMs ?? o.timeoutMs;
    const maxBytes = init.maxResponseBytes ?? o.maxResponseBytes;
    const safeUrl = this.redact(redactUrl(url));

    for (let attempt = 1; ; attempt++) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
      const onOuterAbort = () => controller.abort(init.signal?.reason);
      init.signal?.addEventListener('abort', onOuterAbort, { once: true });
      let response: Response;
      try {
        const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
        if (!headers.has('user-agent')) headers.set('user-agent', o.userAgent);
        const f = o.fetch ?? globalThis.fetch;
        const raw = await f(input, { ...init, method, headers, signal: controller.signal });
        const body = await readLimited(raw, maxBytes, method, safeUrl);
        response = new Response(body, {
          status: raw.status,
          statusText: raw.statusText,
          headers: raw.headers,
        });
        Object.defineProperty(response, 'url', { value: raw.url || url });
      } catch (error) {
        const err = this.#toTransportError(error, controller.signal, init.signal, method, safeUrl, timeoutMs);
        if (retryable && attempt < maxAttempts && err.code === 'network') {
          await sleep(backoffMs(attempt), init.signal);
          continue;
        }
        throw err;
      } finally {
        clearTimeout(timer);
        init.signal?.removeEventListener('abort', onOuterAbort);
      }

      if (retryable && attempt < maxAttempts && RETRY_STATUS.has(response.status)) {
        const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt);
        if (wait <= o.maxRetryAfterMs) {
          o.logger.debug?.('retrying request', {
            method,
            url: safeUrl,
            status: response.status,
            waitMs: wait,
          });
          await sleep(wait, init.signal);
          continue;
        }
      }
      o.logger.debug?.('request done', { method, url: safeUrl, status: response.status, attempt });
      return response;
    }
  }

  #toTransportError(
    error: unknown,
    own: AbortSignal,
    outer: AbortSignal | null | undefined,
    method: string,
    url: string,
    timeoutMs: number,
  ): TransportError {
    if (error instanceof TransportError) return error;
    if (outer?.aborted) {
      return new TransportError(`${method} ${url} was aborted`, { code: 'aborted', method, url });
    }
    if (own.aborted) {
      return new TransportError(`${method} ${url} timed out after ${timeoutMs} ms`, {
        code: 'timeout',
        method,
        url,
      });
    }
    const detail = error instanceof Error ? this.redact(error.message) : 'unknown error';
    return new TransportError(`${method} ${url} failed: ${detail}`, {
      code: 'network',
      method,
      url,
      cause: sanitizeCause(error),
    });
  }
}

/** Keep the cause's class and code, but never its possibly secret-bearing properties. */
function sanitizeCause(error: unknown): unknown {
  if (!(error instanceof Error)) return undefined;
  const clean = new Error(redact(error.message));
  clean.name = error.name;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') Object.assign(clean, { code });
  return clean;
}

async function readLimited(
  response: Response,
  maxBytes: number,
  method: string,
  url: string,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new TransportError(
      `${method} ${url}: response of ${declared} bytes exceeds the ${maxBytes}-byte limit`,
      {
        code: 'response_too_large',
        status: response.status,
        method,
        url,
      },
    );
  }
  if (!response.body || method === 'HEAD' || response.status === 204 || response.status === 304) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new TransportError(`${method} ${url}: response exceeds the ${maxBytes}-byte limit`, {
        code: 'response_too_large',
        status: response.status,
        method,
        url,
      });
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** Exponential backoff with full jitter: 0..(200 ms × 2^(attempt-1)), capped at 5 s. */
export function backoffMs(attempt: number): number {
  return Math.round(Math.random() * Math.min(5_000, 200 * 2 ** (attempt - 1)));
}

/** Parse `Retry-After` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new TransportError('request was aborted', { code: 'aborted' }));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new TransportError('request was aborted', { code: 'aborted' }));
      },
      { once: true },
    );
  });
}
