import { mediaType } from '../core/body.js';
import { base64url, digest } from '../core/crypto.js';
import { TransportError } from '../core/errors.js';
import { redactUrl } from '../core/redact.js';
import { isSecureUrl } from '../core/url-policy.js';
import type { HttpAnswer, HttpClient } from '../http/client.js';
import { HintFeedError, type HintFeedErrorCode } from './errors.js';
import { readEntries } from './parse.js';
import type { Source } from './sources.js';
import type { HintEntry, SkippedHintEntry } from './types.js';

/** The last good state of one source. Immutable: a change makes a new one. */
export interface SourcePart {
  readonly entries: ReadonlyMap<string, HintEntry>;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  readonly sha256: string | undefined;
  readonly fetchedAt: Date;
}

/** What one fetch of one source gave. */
export type Outcome =
  | { kind: 'updated'; part: SourcePart; skipped: readonly SkippedHintEntry[]; skippedCount: number }
  | { kind: 'not-modified'; part: SourcePart }
  | { kind: 'failed'; error: HintFeedError };

const REDIRECT = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

function failed(message: string, source: Source, extra: { status?: number; cause?: unknown } = {}): Outcome {
  const code = extra.status === undefined ? 'feed_invalid_json' : 'feed_http_status';
  return { kind: 'failed', error: new HintFeedError(message, { code, source: source.safeUrl, ...extra }) };
}

/**
 * Fetch one source: conditional GET with the validators of `previous`, redirects followed by hand
 * (never to plain http elsewhere, credentials never to another origin), a byte-identical body
 * skipped by its SHA-256, then decoding and parsing. Never throws: a failure is an outcome.
 */
export async function fetchSource(
  http: HttpClient,
  source: Source,
  previous: SourcePart | undefined,
  signal?: AbortSignal,
): Promise<Outcome> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (source.authorization) headers.authorization = source.authorization;
  if (previous?.etag) headers['if-none-match'] = previous.etag;
  if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
  let response: HttpAnswer;
  let url = source.url;
  for (let hop = 0; ; hop++) {
    try {
      response = await http.read(url, {
        method: 'GET',
        headers,
        redirect: 'manual',
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      return { kind: 'failed', error: transportToFeedError(error, source.safeUrl) };
    }
    const location = response.headers.get('location');
    if (!REDIRECT.has(response.status) || location === null) break;
    // A Location that is no URL is refused as one of a scheme no feed may use.
    const next = new URL(URL.canParse(location, url) ? location : 'invalid:', url);
    if (hop >= MAX_REDIRECTS || !isSecureUrl(next)) {
      return failed(
        hop >= MAX_REDIRECTS
          ? `${source.safeUrl} redirected more than ${MAX_REDIRECTS} times`
          : `${source.safeUrl} redirected to ${redactUrl(next.href)}, which is not https:`,
        source,
        { status: response.status },
      );
    }
    if (next.origin !== new URL(url).origin) delete headers.authorization;
    url = next.href;
  }
  const validators = {
    etag: response.headers.get('etag') ?? undefined,
    lastModified: response.headers.get('last-modified') ?? undefined,
  };
  if (response.status === 304) {
    if (!previous) {
      return failed(`${source.safeUrl} answered 304 Not Modified to an unconditional request`, source, {
        status: 304,
      });
    }
    return {
      kind: 'not-modified',
      part: {
        ...previous,
        etag: validators.etag ?? previous.etag,
        lastModified: validators.lastModified ?? previous.lastModified,
        fetchedAt: new Date(),
      },
    };
  }
  if (response.status !== 200) {
    return failed(`${source.safeUrl} answered HTTP ${response.status}`, source, { status: response.status });
  }
  const bytes = response.body ?? new Uint8Array();
  const type = response.headers.get('content-type');
  const sha256 = base64url(await digest(bytes));
  if (previous && previous.sha256 === sha256) {
    return { kind: 'not-modified', part: { ...previous, ...validators, sha256, fetchedAt: new Date() } };
  }
  return readFeed(bytes, type, source, { ...validators, sha256 }, previous?.entries);
}

function readFeed(
  bytes: Uint8Array,
  type: string | null,
  source: Source,
  validators: { etag: string | undefined; lastModified: string | undefined; sha256: string },
  previous: ReadonlyMap<string, HintEntry> | undefined,
): Outcome {
  let text: string | undefined;
  let document: unknown;
  try {
    text = utf8.decode(bytes);
    document = JSON.parse(text);
  } catch (cause) {
    const what = text === undefined ? 'is not UTF-8 text' : 'is not valid JSON';
    return failed(notJsonMessage(source.safeUrl, type, bytes.byteLength, what), source, { cause });
  }
  try {
    const parsed = readEntries(document, source.country, previous);
    return {
      kind: 'updated',
      part: { entries: parsed.entries, ...validators, fetchedAt: new Date() },
      skipped: parsed.skipped,
      skippedCount: parsed.skippedCount,
    };
  } catch (error) {
    const err = error as HintFeedError;
    return {
      kind: 'failed',
      error: new HintFeedError(`${source.safeUrl}: ${err.message}`, {
        code: err instanceof HintFeedError ? err.code : 'feed_invalid_shape',
        source: source.safeUrl,
        cause: err.cause ?? err,
      }),
    };
  }
}

/** Strict UTF-8; a leading byte order mark is dropped. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why a body is not a feed, and what to check. A web page (a login, maintenance or error page, or
 * the directory listing instead of the file) is the usual cause, and its content type says so.
 */
function notJsonMessage(url: string, contentType: string | null, size: number, what: string): string {
  const type = mediaType(contentType);
  if (type !== undefined && !JSON_TYPE.test(type) && type !== 'text/plain') {
    return `${url} answered ${type} (${size} bytes), not a JSON feed: check that the URL is the feed file itself (such as …/nl.json), not a web page, a login page or a maintenance page`;
  }
  return `${url} answered ${type ?? 'without a content type'} but the body ${what} (${size} bytes): check that the URL is the feed file and that the publisher serves it complete`;
}

const FEED_CODES: Partial<Record<string, HintFeedErrorCode>> = {
  response_too_large: 'feed_too_large',
  timeout: 'feed_timeout',
};

function transportToFeedError(error: unknown, source: string): HintFeedError {
  const transport = error instanceof TransportError ? error : undefined;
  const message = transport?.message ?? `${source}: ${(error as Error)?.message ?? 'request failed'}`;
  return new HintFeedError(message, {
    code: FEED_CODES[transport?.code ?? ''] ?? 'feed_unreachable',
    source,
    cause: error,
    ...(transport?.status ? { status: transport.status } : {}),
  });
}
