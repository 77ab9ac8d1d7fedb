import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { OptionsError, TransportError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { noopLogger } from '../core/logger.js';
import { redactUrl } from '../core/redact.js';
import { HttpClient } from '../http/client.js';
import { type CachedSource, entriesToFeed, readCacheFile, writeCacheFile } from './cache-file.js';
import { HintFeedError } from './errors.js';
import { mergeNames, parseHintFeed } from './parse.js';
import { createSearchHandler, type SearchHandlerOptions } from './search-handler.js';
import { MAX_SEARCH_LIMIT, pickName, SearchIndex } from './search-index.js';
import type {
  HintEntry,
  HintFeedShape,
  HintSearchOptions,
  HintSearchResult,
  HintSource,
  RefreshResult,
  SourceRefreshResult,
} from './types.js';

/**
 * Options of {@link HintFeed}. Validated when the feed is created; a bad one throws
 * {@link OptionsError} naming it.
 *
 * @group Hints
 */
export interface HintFeedOptions {
  /**
   * Feed URLs, at least one, `https:` (plain `http:` only on loopback hosts). Several sources are
   * merged; when two list the same entityID, the source listed first wins for each language it
   * names and for the country, later sources only add languages it lacks.
   */
  sources: readonly HintSource[];
  /**
   * A file that keeps the last good copy of every source with its ETag / Last-Modified, written
   * atomically after every successful change, read by {@link HintFeed.open} / {@link HintFeed.load}.
   * Default: none (memory only).
   */
  cacheFile?: string;
  /** Largest feed body accepted per source, in bytes. Default 20 MiB (real feeds are about 1 MB). */
  maxBytes?: number;
  /** Time limit for one attempt to fetch one source, headers and whole body, in ms. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries per source on network errors and 429/502/503/504 (with backoff). Default 2. */
  retries?: number;
  /** The fetch implementation, resolved at call time. Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Structured logger; receives only redacted URLs. Default: no-op. */
  logger?: Logger;
}

/**
 * Options of {@link HintFeed.startAutoRefresh}.
 *
 * @group Hints
 */
export interface AutoRefreshOptions {
  /** Time between two refreshes, in ms. Default 3 600 000 (hourly: a 304 costs almost nothing). */
  everyMs?: number;
  /** A random 0..jitterMs ms added to every wait so many instances do not hit the feed at once. Default `everyMs / 10`. */
  jitterMs?: number;
  /** Refresh once at start (after loading `cacheFile`). Default true. */
  immediate?: boolean;
  /**
   * After a failed refresh, retry after this many ms, doubling per consecutive failure, never
   * later than `everyMs`. Default `min(everyMs, 60 000)`.
   */
  retryMs?: number;
}

/** Events of {@link HintFeed}. @group Hints */
export interface HintFeedEvents {
  /** A refresh swapped in a changed list. */
  update: [result: RefreshResult];
  /**
   * A refresh failed in whole or in part, or the cache file could not be written. Only emitted when
   * a listener is registered (otherwise logged), so an unhandled `'error'` can never crash the process.
   */
  error: [error: HintFeedError];
}

/** What {@link HintFeed.load} found in the cache file. @group Hints */
export interface CacheLoadResult {
  /** `loaded`: at least one source restored; `missing`: no file (or no `cacheFile`); `invalid`: see `error`. */
  readonly status: 'loaded' | 'missing' | 'invalid';
  /** Institutions served after loading. */
  readonly total: number;
  readonly error?: HintFeedError;
}

interface Source {
  /** The URL fetched: credentials moved out of it into `authorization`. */
  readonly url: string;
  /** The URL as configured, redacted: used in messages, logs and as the cache file key. */
  readonly safeUrl: string;
  readonly country: string | undefined;
  /** `Basic …` from the URL's userinfo (fetch refuses URLs with credentials). */
  readonly authorization: string | undefined;
  readonly secrets: readonly string[];
}

/** The last good state of one source. Immutable: a change makes a new one. */
interface SourcePart {
  readonly entries: ReadonlyMap<string, HintEntry>;
  readonly shape: HintFeedShape | undefined;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  readonly sha256: string | undefined;
  readonly fetchedAt: Date;
}

/** Everything served, swapped in by one assignment. */
interface Snapshot {
  readonly parts: readonly (SourcePart | undefined)[];
  readonly entries: ReadonlyMap<string, HintEntry>;
  readonly index: SearchIndex | undefined;
}

type Outcome =
  | { kind: 'updated'; part: SourcePart }
  | { kind: 'not-modified'; part: SourcePart }
  | { kind: 'failed'; error: HintFeedError };

const EMPTY: ReadonlyMap<string, HintEntry> = new Map();
const MAX_TIMER_MS = 2 ** 31 - 1;
export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_EVERY_MS = 3_600_000;
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const REDIRECT = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** `https:`, or `http:` on a loopback host (local tests and development). */
function allowedFeedUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
}

function positiveInt(name: string, value: unknown, max = Number.MAX_SAFE_INTEGER): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > max) {
    throw new OptionsError(`${name} must be a positive integer (at most ${max})`);
  }
}

function checkSources(sources: unknown): Source[] {
  if (!Array.isArray(sources) || sources.length === 0) {
    throw new OptionsError('sources must be a non-empty array of feed URLs');
  }
  const seen = new Set<string>();
  return sources.map((s: unknown, i) => {
    const raw = typeof s === 'string' || s instanceof URL ? s : (s as { url?: unknown } | null)?.url;
    const country =
      typeof s === 'object' && s !== null && !(s instanceof URL)
        ? (s as { country?: unknown }).country
        : undefined;
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new OptionsError(`sources[${i}] is not a valid URL`);
    }
    if (raw === undefined || raw === null) throw new OptionsError(`sources[${i}] has no url`);
    if (!allowedFeedUrl(url)) {
      throw new OptionsError(`sources[${i}] must be an https: URL (http: only on loopback hosts)`);
    }
    if (country !== undefined && (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country))) {
      throw new OptionsError(`sources[${i}].country must be a two-letter country code`);
    }
    const href = url.href;
    if (seen.has(href)) throw new OptionsError(`sources[${i}] is listed twice`);
    seen.add(href);
    let authorization: string | undefined;
    const secrets: string[] = [];
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      secrets.push(password, url.password);
      url.username = '';
      url.password = '';
    }
    for (const [, value] of url.searchParams) if (value.length >= 8) secrets.push(value);
    return {
      url: url.href,
      safeUrl: redactUrl(href),
      country: country?.toUpperCase(),
      authorization,
      secrets,
    };
  });
}

/**
 * The institution hint list: fetched from one or more JSON feeds, validated, merged, searchable, and
 * never lost. Every failure (network, status, size, JSON, shape) keeps the last good list serving; a
 * `cacheFile` keeps it across restarts. Satisfies `HintLookup`, so it can be given to
 * `AffiliationClient` as `hints`.
 *
 * Refreshes are single-flight (concurrent calls share one fetch per source) and sequenced (a slow
 * older refresh never overwrites the result of a newer one). Conditional GET with ETag /
 * Last-Modified per source, and a byte-identical body, both skip parsing.
 *
 * @example
 * ```ts
 * const feed = await HintFeed.open({
 *   sources: ['https://feeds.example.org/institutions.json'],
 *   cacheFile: '/var/cache/shop/hints.json',
 * });
 * const stop = feed.startAutoRefresh({ everyMs: 3_600_000 });
 * feed.on('error', (err) => log.warn(err.message));
 * feed.search('delft', { lang: 'nl', limit: 8 });
 * ```
 * @group Hints
 */
export class HintFeed extends EventEmitter<HintFeedEvents> {
  readonly #sources: readonly Source[];
  readonly #cacheFile: string | undefined;
  readonly #http: HttpClient;
  readonly #logger: Logger;
  readonly #maxBytes: number;
  #snapshot: Snapshot;
  #loading: Promise<CacheLoadResult> | undefined;
  #pending: Promise<RefreshResult> | undefined;
  #startedSeq = 0;
  #appliedSeq = 0;
  #lastResult: RefreshResult | undefined;
  #updatedAt: Date | undefined;
  #writeChain: Promise<void> = Promise.resolve();
  #autoStop: (() => void) | undefined;

  /** Create a feed without touching disk or network; see {@link HintFeed.open} to load `cacheFile` first. */
  constructor(options: HintFeedOptions) {
    super();
    if (typeof options !== 'object' || options === null)
      throw new OptionsError('HintFeed options are required');
    const sources = checkSources(options.sources);
    if (
      options.cacheFile !== undefined &&
      (typeof options.cacheFile !== 'string' || options.cacheFile === '')
    ) {
      throw new OptionsError('cacheFile must be a non-empty file path');
    }
    positiveInt('maxBytes', options.maxBytes);
    positiveInt('timeoutMs', options.timeoutMs, MAX_TIMER_MS);
    if (
      options.retries !== undefined &&
      (!Number.isInteger(options.retries) || options.retries < 0 || options.retries > 10)
    ) {
      throw new OptionsError('retries must be an integer from 0 to 10');
    }
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new OptionsError('fetch must be a function');
    }
    if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null)) {
      throw new OptionsError('logger must be an object');
    }
    this.#sources = sources;
    this.#cacheFile = options.cacheFile;
    this.#logger = options.logger ?? noopLogger;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#http = new HttpClient({
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retries: options.retries ?? 2,
      maxResponseBytes: this.#maxBytes,
      logger: this.#logger,
      // Passwords of source URLs and long query values (tokens) never appear in anything logged or thrown.
      secrets: sources.flatMap((s) => s.secrets),
    });
    this.#snapshot = { parts: sources.map(() => undefined), entries: EMPTY, index: undefined };
  }

  /**
   * Create a feed and load its `cacheFile` before returning, so it serves the last good list at once,
   * before the network answers. A missing or unreadable cache is not an error here: the feed starts
   * empty and the problem is logged (and reported by {@link HintFeed.load}).
   */
  static async open(options: HintFeedOptions): Promise<HintFeed> {
    const feed = new HintFeed(options);
    await feed.load();
    return feed;
  }

  /**
   * Load `cacheFile` (once; later calls return the first result). Never rejects. {@link refresh}
   * calls it first, so a feed made with `new` still seeds from the cache and sends its validators;
   * until then `has()` answers from an empty list. Cached data never overwrites a newer refresh.
   */
  load(): Promise<CacheLoadResult> {
    this.#loading ??= this.#load().catch((error: unknown) => {
      const err =
        error instanceof HintFeedError
          ? error
          : new HintFeedError('cannot load the hints cache file', { code: 'cache_invalid', cause: error });
      this.#logger.warn?.('hints cache not used', { code: err.code, message: err.message });
      return { status: 'invalid' as const, total: this.size, error: err };
    });
    return this.#loading;
  }

  async #load(): Promise<CacheLoadResult> {
    if (this.#cacheFile === undefined) return { status: 'missing', total: this.size };
    const file = await readCacheFile(this.#cacheFile);
    if (!file) return { status: 'missing', total: this.size };
    const parts = this.#sources.map((source): SourcePart | undefined => {
      const cached = file.sources.find((c) => c.url === source.safeUrl);
      if (!cached) return undefined;
      try {
        const parsed = parseHintFeed(cached.feed, { country: source.country });
        return {
          entries: parsed.entries,
          shape: parsed.shape,
          etag: cached.etag,
          lastModified: cached.lastModified,
          sha256: cached.sha256,
          fetchedAt: new Date(cached.fetchedAt),
        };
      } catch (error) {
        this.#logger.warn?.('hints cache entry not used', {
          url: source.safeUrl,
          message: (error as Error).message,
        });
        return undefined;
      }
    });
    if (parts.every((p) => p === undefined)) {
      return { status: 'missing', total: this.size };
    }
    // Sequence guard: a refresh that already applied is newer than the file.
    if (this.#appliedSeq === 0) {
      const entries = merge(parts);
      this.#snapshot = { parts, entries, index: new SearchIndex(entries.values()) };
      this.#updatedAt = latest(parts);
    }
    return { status: 'loaded', total: this.size };
  }

  /** Number of institutions served. */
  get size(): number {
    return this.#snapshot.entries.size;
  }

  /** True while a refresh is in flight. */
  get refreshing(): boolean {
    return this.#pending !== undefined;
  }

  /** When the served list was last fetched successfully (also from the cache file); undefined if never. */
  get updatedAt(): Date | undefined {
    return this.#updatedAt;
  }

  /** The result of the last completed refresh. */
  get lastResult(): RefreshResult | undefined {
    return this.#lastResult;
  }

  /** The institution with this entityID. */
  get(entityId: string): HintEntry | undefined {
    return this.#snapshot.entries.get(entityId);
  }

  /** Whether this entityID is a valid hint. This is the `HintLookup` contract. */
  has(entityId: string): boolean {
    return this.#snapshot.entries.has(entityId);
  }

  /**
   * The display name of an institution in `lang`, falling back to the primary language subtag
   * (`nl-BE` → `nl`), then English, then any name it has. Undefined when unknown or nameless.
   */
  displayName(entityId: string, lang?: string): string | undefined {
    const entry = this.#snapshot.entries.get(entityId);
    if (!entry) return undefined;
    return pickName(entry, lang === undefined ? undefined : lang.toLowerCase().replace(/_/g, '-'));
  }

  /** Every institution, in feed order. */
  entries(): IterableIterator<HintEntry> {
    return this.#snapshot.entries.values();
  }

  /**
   * Search institutions for a picker: case-, accent- and punctuation-insensitive; names that start
   * with the query first, then names with a word starting with it, then names containing it, then
   * names holding every word of a multi-word query; alphabetical within each group.
   */
  search(query: string, options: HintSearchOptions = {}): HintSearchResult[] {
    if (typeof query !== 'string') throw new OptionsError('search query must be a string');
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)) {
      throw new OptionsError(`limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
    }
    return this.#snapshot.index?.search(query, options) ?? [];
  }

  /** A `Request → Response` JSON endpoint for type-ahead, such as `<institution-picker>`'s (see {@link SearchHandlerOptions}). */
  searchHandler(options?: SearchHandlerOptions): (request: Request) => Promise<Response> {
    return createSearchHandler(this, () => this.#snapshot.index?.version ?? 'empty', options);
  }

  /**
   * Fetch every source (in parallel, conditional GET) and swap in the merged list if it is valid and
   * changed. Never rejects: failures are in the result and the last good list keeps serving. A call
   * while a refresh is in flight shares it; `{ force: true }` starts a new one anyway (the newest
   * result wins, an older one finishing later is discarded and resolves with the newer result).
   */
  refresh(options: { force?: boolean } = {}): Promise<RefreshResult> {
    if (this.#pending && !options.force) return this.#pending;
    const seq = ++this.#startedSeq;
    const run = this.#refresh(seq).catch((error: unknown): RefreshResult => {
      const err = new HintFeedError('unexpected error during refresh', {
        code: 'refresh_failed',
        cause: error,
      });
      this.#logger.error?.('hints refresh failed unexpectedly', {
        message: String((error as Error)?.message),
      });
      return {
        status: 'failed',
        added: [],
        removed: [],
        renamed: [],
        total: this.size,
        error: err,
        sources: [],
      };
    });
    const settled = run.finally(() => {
      if (this.#pending === settled) this.#pending = undefined;
    });
    this.#pending = settled;
    return settled;
  }

  async #refresh(seq: number): Promise<RefreshResult> {
    await this.load();
    const base = this.#snapshot;
    const outcomes = await Promise.all(
      this.#sources.map((source, i) => this.#fetchSource(source, base.parts[i])),
    );
    if (seq <= this.#appliedSeq) {
      // A newer refresh finished first: its result stands.
      return this.#lastResult!;
    }
    this.#appliedSeq = seq;
    const current = this.#snapshot;
    const sources: SourceRefreshResult[] = outcomes.map((o, i) => ({
      url: this.#sources[i]!.safeUrl,
      status: o.kind,
      ...(o.kind === 'failed' ? { error: o.error } : {}),
    }));
    const failures = outcomes.flatMap((o) => (o.kind === 'failed' ? [o.error] : []));
    // 304 confirms the part whose validators were sent; a failure keeps the latest good part.
    const parts = outcomes.map((o, i) => (o.kind === 'failed' ? current.parts[i] : o.part));
    const contentChanged = parts.some((p, i) => p?.entries !== current.parts[i]?.entries);
    const partsChanged = parts.some((p, i) => p !== current.parts[i]);

    let added: string[] = [];
    let removed: string[] = [];
    let renamed: string[] = [];
    let changed = false;
    let snapshot: Snapshot = current;
    if (contentChanged) {
      const entries = merge(parts);
      ({ added, removed, renamed, changed } = diff(current.entries, entries));
      snapshot = changed
        ? { parts, entries, index: new SearchIndex(entries.values()) }
        : { parts, entries: current.entries, index: current.index };
    } else if (partsChanged) {
      snapshot = { ...current, parts };
    }
    this.#snapshot = snapshot;
    if (outcomes.some((o) => o.kind !== 'failed')) this.#updatedAt = latest(parts) ?? this.#updatedAt;

    let error = failures[0];
    if (partsChanged && this.#cacheFile !== undefined) {
      const cacheError = await this.#persist(snapshot);
      error ??= cacheError;
    }
    const status = changed ? 'updated' : failures.length > 0 ? 'failed' : 'not-modified';
    const result: RefreshResult = {
      status,
      added,
      removed,
      renamed,
      total: snapshot.entries.size,
      ...(error ? { error } : {}),
      sources,
    };
    this.#lastResult = result;
    this.#logger.info?.('hints refreshed', {
      status,
      added: added.length,
      removed: removed.length,
      renamed: renamed.length,
      total: result.total,
      failed: failures.length,
    });
    if (status === 'updated') this.#emitSafely('update', result);
    if (error) this.#emitError(error);
    return result;
  }

  async #fetchSource(source: Source, previous: SourcePart | undefined): Promise<Outcome> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (source.authorization) headers.authorization = source.authorization;
    if (previous?.etag) headers['if-none-match'] = previous.etag;
    if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
    let response: Response;
    let url = source.url;
    // Redirects are followed here, not by fetch, so that a feed can never be moved to plain http
    // (or another scheme) and its credentials never follow it to another origin.
    for (let hop = 0; ; hop++) {
      try {
        response = await this.#http.fetch(url, { method: 'GET', headers, redirect: 'manual' });
      } catch (error) {
        return { kind: 'failed', error: transportToFeedError(error, source.safeUrl) };
      }
      const location = response.headers.get('location');
      if (!REDIRECT.has(response.status) || location === null) break;
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        next = new URL('invalid:');
      }
      if (hop >= MAX_REDIRECTS || !allowedFeedUrl(next)) {
        return {
          kind: 'failed',
          error: new HintFeedError(
            hop >= MAX_REDIRECTS
              ? `${source.safeUrl} redirected more than ${MAX_REDIRECTS} times`
              : `${source.safeUrl} redirected to ${redactUrl(next.href)}, which is not https:`,
            { code: 'feed_http_status', source: source.safeUrl, status: response.status },
          ),
        };
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
        return {
          kind: 'failed',
          error: new HintFeedError(
            `${source.safeUrl} answered 304 Not Modified to an unconditional request`,
            {
              code: 'feed_http_status',
              source: source.safeUrl,
              status: 304,
            },
          ),
        };
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
      return {
        kind: 'failed',
        error: new HintFeedError(`${source.safeUrl} answered HTTP ${response.status}`, {
          code: 'feed_http_status',
          source: source.safeUrl,
          status: response.status,
        }),
      };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const sha256 = createHash('sha256').update(bytes).digest('base64url');
    if (previous && previous.sha256 === sha256) {
      return { kind: 'not-modified', part: { ...previous, ...validators, sha256, fetchedAt: new Date() } };
    }
    let document: unknown;
    try {
      // isUtf8 (simdutf) then a plain decode is several times faster than a fatal TextDecoder.
      if (!isUtf8(bytes)) throw new Error('the body is not UTF-8');
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      document = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (cause) {
      return {
        kind: 'failed',
        error: new HintFeedError(
          `${source.safeUrl} did not return valid UTF-8 JSON (${bytes.byteLength} bytes)`,
          {
            code: 'feed_invalid_json',
            source: source.safeUrl,
            cause,
          },
        ),
      };
    }
    try {
      const parsed = parseHintFeed(document, { country: source.country });
      return {
        kind: 'updated',
        part: { entries: parsed.entries, shape: parsed.shape, ...validators, sha256, fetchedAt: new Date() },
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

  /** Queue an atomic write of `snapshot`; writes run one after another so the newest lands last. */
  #persist(snapshot: Snapshot): Promise<HintFeedError | undefined> {
    const file = this.#cacheFile!;
    const write = this.#writeChain.then(async () => {
      const sources: CachedSource[] = [];
      snapshot.parts.forEach((part, i) => {
        if (!part) return;
        const source = this.#sources[i]!;
        sources.push({
          url: source.safeUrl,
          ...(source.country ? { country: source.country } : {}),
          ...(part.etag ? { etag: part.etag } : {}),
          ...(part.lastModified ? { lastModified: part.lastModified } : {}),
          ...(part.sha256 ? { sha256: part.sha256 } : {}),
          fetchedAt: part.fetchedAt.toISOString(),
          feed: entriesToFeed(part.entries),
        });
      });
      await writeCacheFile(file, {
        format: 'affiliation-validation/hints-cache',
        version: 1,
        savedAt: new Date().toISOString(),
        sources,
      });
    });
    this.#writeChain = write.catch(() => {});
    return write.then(
      () => undefined,
      (error: unknown) =>
        error instanceof HintFeedError
          ? error
          : new HintFeedError('cannot write the hints cache file', {
              code: 'cache_write_failed',
              cause: error,
            }),
    );
  }

  #emitSafely(event: 'update', result: RefreshResult): void {
    try {
      this.emit(event, result);
    } catch (error) {
      // A throwing listener must not turn a refresh (or a timer) into an uncaught exception.
      this.#logger.error?.('a hints "update" listener threw', { message: String((error as Error)?.message) });
    }
  }

  #emitError(error: HintFeedError): void {
    if (this.listenerCount('error') === 0) {
      this.#logger.warn?.('hints refresh problem', { code: error.code, message: error.message });
      return;
    }
    try {
      this.emit('error', error);
    } catch (thrown) {
      this.#logger.error?.('a hints "error" listener threw', { message: String((thrown as Error)?.message) });
    }
  }

  /**
   * Refresh on a timer: every `everyMs` plus up to `jitterMs` of random delay, sooner after a
   * failure (`retryMs`, doubling). Timers are unref'd (they never keep the process alive); a tick
   * while a refresh is running joins it; results go to the `'update'` / `'error'` events. Returns a
   * function that stops the schedule (an in-flight refresh still completes). One schedule per feed.
   */
  startAutoRefresh(options: AutoRefreshOptions = {}): () => void {
    if (this.#autoStop)
      throw new OptionsError('auto refresh is already running for this feed; stop it first');
    positiveInt('everyMs', options.everyMs, MAX_TIMER_MS);
    const everyMs = options.everyMs ?? DEFAULT_EVERY_MS;
    if (
      options.jitterMs !== undefined &&
      (!Number.isInteger(options.jitterMs) ||
        options.jitterMs < 0 ||
        options.jitterMs + everyMs > MAX_TIMER_MS)
    ) {
      throw new OptionsError('jitterMs must be a non-negative integer (everyMs + jitterMs at most 2^31 - 1)');
    }
    positiveInt('retryMs', options.retryMs, MAX_TIMER_MS);
    if (options.immediate !== undefined && typeof options.immediate !== 'boolean') {
      throw new OptionsError('immediate must be a boolean');
    }
    const jitterMs = options.jitterMs ?? Math.min(Math.floor(everyMs / 10), MAX_TIMER_MS - everyMs);
    const retryMs = Math.min(everyMs, options.retryMs ?? 60_000);
    let stopped = false;
    let failures = 0;
    let timer: NodeJS.Timeout | undefined;

    const schedule = (delayMs: number) => {
      if (stopped) return;
      timer = setTimeout(tick, Math.min(delayMs, MAX_TIMER_MS));
      timer.unref();
    };
    const next = () => {
      const wait = failures > 0 ? Math.min(everyMs, retryMs * 2 ** Math.min(failures - 1, 30)) : everyMs;
      schedule(wait + Math.floor(Math.random() * (jitterMs + 1)));
    };
    const tick = () => {
      timer = undefined;
      // refresh() never rejects; the handler on the rejection path is belt and braces.
      this.refresh().then(
        (result) => {
          failures = result.status === 'failed' ? failures + 1 : 0;
          next();
        },
        () => {
          failures++;
          next();
        },
      );
    };
    if (options.immediate ?? true) schedule(0);
    else next();
    const stop = () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (this.#autoStop === stop) this.#autoStop = undefined;
    };
    this.#autoStop = stop;
    return stop;
  }
}

/** Merge the parts in source order: the first source wins per language and for the country. */
function merge(parts: readonly (SourcePart | undefined)[]): ReadonlyMap<string, HintEntry> {
  const present = parts.filter((p): p is SourcePart => p !== undefined);
  if (present.length === 0) return EMPTY;
  if (present.length === 1) return present[0]!.entries;
  const out = new Map<string, HintEntry>(present[0]!.entries);
  for (let i = 1; i < present.length; i++) {
    for (const [id, entry] of present[i]!.entries) {
      const first = out.get(id);
      if (!first) {
        out.set(id, entry);
        continue;
      }
      const names = mergeNames(first.names, entry.names);
      const country = first.country ?? entry.country;
      if (names !== first.names || country !== first.country) {
        out.set(id, Object.freeze({ entityId: id, names, country }));
      }
    }
  }
  return out;
}

function sameNames(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  let n = 0;
  for (const lang in a) {
    if (a[lang] !== b[lang]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}

function diff(
  before: ReadonlyMap<string, HintEntry>,
  after: ReadonlyMap<string, HintEntry>,
): { added: string[]; removed: string[]; renamed: string[]; changed: boolean } {
  const added: string[] = [];
  const removed: string[] = [];
  const renamed: string[] = [];
  let moved = false;
  for (const [id, entry] of after) {
    const old = before.get(id);
    if (!old) added.push(id);
    else if (old !== entry) {
      if (!sameNames(old.names, entry.names)) renamed.push(id);
      else if (old.country !== entry.country) moved = true;
    }
  }
  for (const id of before.keys()) if (!after.has(id)) removed.push(id);
  return { added, removed, renamed, changed: moved || added.length + removed.length + renamed.length > 0 };
}

function latest(parts: readonly (SourcePart | undefined)[]): Date | undefined {
  let out: Date | undefined;
  for (const p of parts) if (p && (!out || p.fetchedAt > out)) out = p.fetchedAt;
  return out;
}

function transportToFeedError(error: unknown, source: string): HintFeedError {
  if (error instanceof TransportError) {
    const code =
      error.code === 'response_too_large'
        ? 'feed_too_large'
        : error.code === 'timeout'
          ? 'feed_timeout'
          : 'feed_unreachable';
    return new HintFeedError(error.message, {
      code,
      source,
      cause: error,
      ...(error.status ? { status: error.status } : {}),
    });
  }
  return new HintFeedError(`${source}: ${(error as Error)?.message ?? 'request failed'}`, {
    code: 'feed_unreachable',
    source,
    cause: error,
  });
}
