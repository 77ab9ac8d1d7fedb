import { EventEmitter } from 'node:events';
import { OptionsError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { mapLimit } from '../core/map-limit.js';
import { integerOption, MAX_TIMER_MS } from '../core/options.js';
import { hintsRefreshChannel, traceAsync } from '../diagnostics/channels.js';
import { HttpClient } from '../http/client.js';
import { type AutoRefreshOptions, scheduleRefresh } from './auto-refresh.js';
import { cacheWriter, partFromCache, readCacheFile, toCachedSource } from './cache-file.js';
import { HintFeedError } from './errors.js';
import { fetchSource, type Outcome, type SourcePart } from './fetch-source.js';
import { diffEntries, EMPTY, mergeEntries } from './merge.js';
import { normaliseLang } from './parse.js';
import { nextTurn, pickName } from './search/build.js';
import { MAX_SEARCH_LIMIT, SearchIndex } from './search/index.js';
import { createSearchHandler, type SearchHandlerOptions } from './search-handler.js';
import { checkSources, type Source } from './sources.js';
import type {
  HintEntry,
  HintSearchOptions,
  HintSearchResult,
  HintSource,
  RefreshResult,
  SourceRefreshResult,
} from './types.js';

export type { AutoRefreshOptions } from './auto-refresh.js';

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
   * names, later sources only add languages it lacks; the country is the first one any source gives.
   * A URL ending in `/<cc>.json` (the service's per-country files, `cc` a lower-case ISO 3166 code)
   * gives its records that country unless the source names its own `country` or `region`.
   */
  sources: readonly HintSource[];
  /**
   * A file that keeps the last good copy of every source with its ETag / Last-Modified, written
   * atomically after every refresh in which a source answered, read by {@link HintFeed.open} /
   * {@link HintFeed.load}. It lists every configured source, also one that has never loaded.
   * Default: none (memory only).
   */
  cacheFile?: string | undefined;
  /** Largest feed body accepted per source, in bytes. Default 20 MiB (real feeds are about 1 MB). */
  maxBytes?: number | undefined;
  /** Time limit for one attempt to fetch one source, headers and whole body, in ms. Default 10 000 ms. */
  timeoutMs?: number | undefined;
  /** Retries per source on network errors and 429/502/503/504 (with backoff). Default 2. */
  retries?: number | undefined;
  /** The fetch implementation. Default: undici's `fetch` on the SDK's pooled agent; msw tests pass `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
  /** Structured logger; receives only redacted URLs. Default: no-op. */
  logger?: Logger | undefined;
}

/** Options of {@link HintFeed.ready}. @group Hints */
export interface HintFeedReadyOptions {
  /** Give up after this many ms, rejecting with `HintFeedError('not_loaded')`. Default 30 000 ms. */
  timeoutMs?: number | undefined;
}

/** Events of {@link HintFeed}. @group Hints */
export interface HintFeedEvents {
  /**
   * A refresh swapped in a changed list. `result.sources[i].skipped` lists the entries of each body
   * read in this refresh that were left out as invalid.
   */
  update: [result: RefreshResult];
  /**
   * A refresh failed in whole or in part, or the cache file could not be written. Only emitted when
   * a listener is registered (otherwise logged), so an unhandled `'error'` can never crash the process.
   */
  error: [error: HintFeedError];
}

/** What {@link HintFeed.load} found in the cache file. @group Hints */
export interface CacheLoadResult {
  /** `loaded`: at least one source restored; `missing`: no file (or no `cacheFile`, or no list in it); `invalid`: see `error`. */
  readonly status: 'loaded' | 'missing' | 'invalid';
  /** Institutions served after loading. */
  readonly total: number;
  readonly error?: HintFeedError;
}

/** Everything served, swapped in by one assignment. */
interface Snapshot {
  readonly parts: readonly (SourcePart | undefined)[];
  readonly entries: ReadonlyMap<string, HintEntry>;
  readonly index: SearchIndex | undefined;
}

export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_READY_TIMEOUT_MS = 30_000;
/**
 * Most sources fetched at once. The service publishes about 80 files on one host: fetching them
 * all at once would open as many connections to it and queue behind the pool anyway.
 */
export const SOURCE_CONCURRENCY = 8;

function latest(parts: readonly (SourcePart | undefined)[]): Date | undefined {
  let out: Date | undefined;
  for (const p of parts) if (p && (!out || p.fetchedAt > out)) out = p.fetchedAt;
  return out;
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
 * This class coordinates; the work is done by `sources.ts` (options, credentials),
 * `fetch-source.ts` (redirects, conditional GET, decoding), `merge.ts` (merge and diff),
 * `cache-file.ts` (the file and its write queue) and `auto-refresh.ts` (timers).
 *
 * @example
 * ```ts
 * const feed = await HintFeed.open({
 *   sources: ['https://feeds.example.org/nl.json', 'https://feeds.example.org/africa.json'],
 *   cacheFile: '/var/cache/shop/hints.json',
 * });
 * feed.startAutoRefresh({ everyMs: 3_600_000 });
 * feed.on('error', (err) => log.warn(err.message));
 * await feed.ready({ timeoutMs: 30_000 }); // a list from the cache file or a first refresh
 * feed.search('delft', { lang: 'nl', limit: 8 });
 * await feed.close(); // on shutdown: timers stopped, cache writes finished
 * ```
 * @group Hints
 */
export class HintFeed extends EventEmitter<HintFeedEvents> {
  readonly #sources: readonly Source[];
  readonly #writer: ReturnType<typeof cacheWriter> | undefined;
  readonly #cacheFile: string | undefined;
  readonly #http: HttpClient;
  readonly #logger: Logger;
  readonly #abort = new AbortController();
  #snapshot: Snapshot;
  #loading: Promise<CacheLoadResult> | undefined;
  #pending: Promise<RefreshResult> | undefined;
  #startedSeq = 0;
  #appliedSeq = 0;
  #lastResult: RefreshResult | undefined;
  #updatedAt: Date | undefined;
  #autoStop: (() => void) | undefined;
  #closed = false;
  /** entityIDs the service did not resolve, and the last refresh started before each report. */
  readonly #stale = new Map<string, number>();
  /** Callers of {@link ready} waiting for a first list. */
  readonly #waiters = new Set<{ resolve: () => void; reject: (error: HintFeedError) => void }>();

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
    const maxBytes = integerOption('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
    // timeoutMs, retries, fetch and logger are checked, and given their defaults, once: by the HTTP layer.
    this.#sources = sources;
    this.#cacheFile = options.cacheFile;
    this.#writer = options.cacheFile === undefined ? undefined : cacheWriter(options.cacheFile);
    this.#http = new HttpClient({
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      maxResponseBytes: maxBytes,
      logger: options.logger,
      // Passwords of source URLs and long query values (tokens) never appear in anything logged or thrown.
      secrets: sources.flatMap((s) => s.secrets),
    });
    // The feed's own log lines go through the same redacting wrapper as the requests'.
    this.#logger = this.#http.logger;
    this.#snapshot = { parts: sources.map(() => undefined), entries: EMPTY, index: undefined };
  }

  /**
   * Create a feed and load its `cacheFile` before returning, so it serves the last good list at once,
   * before the network answers. A missing or unreadable cache is not an error here: the feed starts
   * empty and the problem is logged (and reported by {@link HintFeed.load}). Without a cache, follow
   * it with {@link HintFeed.ready} before the feed gates `idpHint`s.
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
        const part = partFromCache(cached, source.country);
        // Stored under another country or region: serve it, but fetch it whole at the next refresh
        // (a 304 would keep the old country).
        if (part && (cached.country !== source.country || cached.region !== source.region)) {
          return { ...part, etag: undefined, lastModified: undefined, sha256: undefined };
        }
        return part;
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
    // Sequence guard: a refresh that already applied is newer than the file (also one that applied
    // while the index was being built).
    if (this.#appliedSeq === 0) {
      const entries = mergeEntries(parts.map((p) => p?.entries));
      const index = await SearchIndex.build(entries.values());
      if (this.#appliedSeq !== 0) return { status: 'loaded', total: this.size };
      this.#swap({ parts, entries, index });
      this.#updatedAt = latest(parts);
    }
    return { status: 'loaded', total: this.size };
  }

  #swap(snapshot: Snapshot): void {
    this.#snapshot = snapshot;
    if (this.#waiters.size > 0 && this.loaded) {
      for (const w of this.#waiters) w.resolve();
      this.#waiters.clear();
    }
  }

  /** Number of institutions served. */
  get size(): number {
    return this.#snapshot.entries.size;
  }

  /**
   * True once a list is served: from `cacheFile` or from a successful refresh of at least one
   * source. While false, `has()` answers false for everything, and an `AffiliationClient` given
   * this feed says that the feed has not loaded (instead of calling every hint unknown). Part of
   * the `HintLookup` contract.
   */
  get loaded(): boolean {
    return this.#snapshot.parts.some((p) => p !== undefined);
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

  /**
   * Wait until the feed serves a list ({@link loaded}): at once when `cacheFile` holds one,
   * otherwise until a refresh succeeds. With {@link startAutoRefresh} running it waits through
   * failed attempts (the schedule retries them); without it, it starts one refresh itself and
   * rejects as soon as that fails. Rejects with {@link HintFeedError} `not_loaded` (the last
   * refresh problem in `cause`) after `timeoutMs`, and `feed_closed` when the feed is closed.
   *
   * @example
   * ```ts
   * const feed = await HintFeed.open({ sources, cacheFile });
   * feed.startAutoRefresh();
   * await feed.ready({ timeoutMs: 30_000 });
   * const client = await AffiliationClient.discover({ ...options, hints: feed });
   * ```
   */
  async ready(options: HintFeedReadyOptions = {}): Promise<void> {
    if (typeof options !== 'object' || options === null) throw new OptionsError('options must be an object');
    const timeoutMs = integerOption('timeoutMs', options.timeoutMs, DEFAULT_READY_TIMEOUT_MS, {
      max: MAX_TIMER_MS,
    });
    if (this.#closed) throw closedError();
    await this.load();
    if (this.loaded) return;
    if (this.#closed) throw closedError();
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error: HintFeedError) => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.reject(this.#notLoaded(`within ${timeoutMs} ms`)), timeoutMs);
      this.#waiters.add(waiter);
      // Nothing else would refresh: start one, and fail with it.
      if (!this.#autoStop) {
        this.refresh().then((result) => {
          if (!this.loaded && this.#waiters.has(waiter)) {
            waiter.reject(this.#notLoaded('after a failed refresh', result.error));
          }
        });
      }
    });
  }

  #notLoaded(when: string, error = this.#lastResult?.error): HintFeedError {
    const why = error ? `: ${error.message}` : '';
    return new HintFeedError(
      `the hint feed has not loaded ${when} (no cache file and no successful refresh)${why}`,
      { code: 'not_loaded', ...(error ? { cause: error } : {}) },
    );
  }

  /**
   * Stop the feed: the auto-refresh timers stop, an in-flight refresh is aborted, {@link ready}
   * callers are rejected (`feed_closed`), and the returned promise resolves once pending cache
   * writes have landed. The list keeps answering `has()` / `search()`; `refresh()` then reports
   * `feed_closed`. Calling it again is harmless.
   */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#autoStop?.();
      this.#abort.abort(new Error('the hint feed was closed'));
      for (const w of [...this.#waiters]) w.reject(closedError());
    }
    await this.#pending;
    await this.#writer?.idle();
  }

  /** The institution with this entityID (none while it is reported stale: {@link reportStale}). */
  get(entityId: string): HintEntry | undefined {
    return this.#stale.has(entityId) ? undefined : this.#snapshot.entries.get(entityId);
  }

  /** Whether this entityID is a valid hint. This is the `HintLookup` contract (with {@link loaded}). */
  has(entityId: string): boolean {
    return this.#snapshot.entries.has(entityId) && !this.#stale.has(entityId);
  }

  /**
   * The service did not resolve this entityID (`access_denied`, `entity_id error`; an
   * `AffiliationClient` given this feed reports it): it is not offered (`has`, `get`, search) until a
   * refresh that starts after now succeeds, so no other shopper goes down the same dead end.
   */
  reportStale(entityId: string): void {
    if (!this.#snapshot.entries.has(entityId) || this.#stale.has(entityId)) return;
    this.#stale.set(entityId, this.#startedSeq);
    this.#logger.warn?.('hint not resolved by the service: not offered until the next refresh', { entityId });
  }

  /**
   * The display name of an institution in `lang`, falling back to the primary language subtag
   * (`nl-BE` → `nl`), then English, then any name it has. Undefined when unknown or nameless.
   */
  displayName(entityId: string, lang?: string): string | undefined {
    const entry = this.#snapshot.entries.get(entityId);
    if (!entry) return undefined;
    return pickName(entry, lang === undefined ? undefined : normaliseLang(lang));
  }

  /** Every institution, in feed order. */
  entries(): IterableIterator<HintEntry> {
    return this.#snapshot.entries.values();
  }

  /**
   * Search institutions for a picker: case-, accent- and punctuation-insensitive in every language.
   * Ranked: the exact name, then names that start with the query, names with words that every query
   * word starts (any order; short words also as initials), the entityID's host or an e-mail address's
   * domain and acronyms, substrings, one typo; the shopper's `recent` choices, `country` and `lang`
   * raise results (never hide them); institutions of higher education first within a group. Each
   * result says what matched (`match`, `ranges`, `matchedText`).
   */
  search(query: string, options: HintSearchOptions = {}): HintSearchResult[] {
    if (typeof query !== 'string') throw new OptionsError('search query must be a string');
    integerOption('limit', options.limit, undefined, { max: MAX_SEARCH_LIMIT });
    const found = this.#snapshot.index?.search(query, options) ?? [];
    return this.#stale.size === 0 ? found : found.filter((r) => !this.#stale.has(r.entityId));
  }

  /** A `Request → Response` JSON endpoint for type-ahead, such as `<institution-picker>`'s (see {@link SearchHandlerOptions}). */
  searchHandler(options?: SearchHandlerOptions): (request: Request) => Promise<Response> {
    // A stale report changes the answers too: their ETag says so.
    const version = () => `${this.#snapshot.index?.version ?? 'empty'} ${[...this.#stale.keys()].join(' ')}`;
    return createSearchHandler(this, version, options);
  }

  /**
   * Fetch every source (in parallel, conditional GET) and swap in the merged list if it is valid and
   * changed. Never rejects: failures are in the result and the last good list keeps serving. A call
   * while a refresh is in flight shares it; `{ force: true }` starts a new one anyway (the newest
   * result wins, an older one finishing later is discarded and resolves with the newer result).
   */
  refresh(options: { force?: boolean } = {}): Promise<RefreshResult> {
    if (this.#closed) {
      return Promise.resolve(this.#failedResult(closedError()));
    }
    if (this.#pending && !options.force) return this.#pending;
    const seq = ++this.#startedSeq;
    const run = traceAsync(
      hintsRefreshChannel,
      () => ({ feed: feedLabel(this.#sources[0]?.safeUrl), sources: this.#sources.length }),
      () =>
        this.#refresh(seq).catch((error: unknown): RefreshResult => {
          this.#logger.error?.('hints refresh failed unexpectedly', {
            message: String((error as Error)?.message),
          });
          return this.#failedResult(
            new HintFeedError('unexpected error during refresh', { code: 'refresh_failed', cause: error }),
          );
        }),
      (ctx, result) => {
        ctx.status = result.status;
        ctx.added = result.added.length;
        ctx.removed = result.removed.length;
        ctx.renamed = result.renamed.length;
        ctx.total = result.total;
        ctx.failedSources = result.sources.filter((s) => s.status === 'failed').length;
        if (this.#updatedAt) ctx.listUpdatedAt = this.#updatedAt.getTime();
        return result.status === 'failed' ? result.error : undefined;
      },
    );
    const settled = run.finally(() => {
      if (this.#pending === settled) this.#pending = undefined;
    });
    this.#pending = settled;
    return settled;
  }

  #failedResult(error: HintFeedError): RefreshResult {
    return { status: 'failed', added: [], removed: [], renamed: [], total: this.size, error, sources: [] };
  }

  async #refresh(seq: number): Promise<RefreshResult> {
    await this.load();
    const base = this.#snapshot;
    const outcomes = await mapLimit(this.#sources, SOURCE_CONCURRENCY, (source, i) =>
      fetchSource(this.#http, source, base.parts[i], this.#abort.signal),
    );
    // A changed list is indexed in slices before it is swapped in. Meanwhile another refresh may
    // apply: a newer one's result stands; after an older one, this one is built again on top of it.
    let next: Awaited<ReturnType<typeof nextSnapshot>>;
    let current: Snapshot;
    do {
      if (seq <= this.#appliedSeq) return this.#lastResult!;
      current = this.#snapshot;
      next = await nextSnapshot(current, outcomes);
    } while (this.#snapshot !== current || seq <= this.#appliedSeq);
    this.#appliedSeq = seq;
    const { parts, partsChanged, diff, snapshot } = next;
    const sources: SourceRefreshResult[] = outcomes.map((o, i) => ({
      url: this.#sources[i]!.safeUrl,
      status: o.kind,
      ...(o.kind === 'failed' ? { error: o.error } : {}),
      skipped: o.kind === 'updated' ? o.skipped : [],
      skippedCount: o.kind === 'updated' ? o.skippedCount : 0,
    }));
    const failures = outcomes.flatMap((o) => (o.kind === 'failed' ? [o.error] : []));
    this.#swap(snapshot);
    if (outcomes.some((o) => o.kind !== 'failed')) {
      this.#updatedAt = latest(parts) ?? this.#updatedAt;
      // A refresh started after a stale report confirms the entityID, or has dropped it.
      for (const [id, before] of this.#stale) if (before < seq) this.#stale.delete(id);
    }

    let error: HintFeedError | undefined = failures[0];
    let cacheError: HintFeedError | undefined;
    if (partsChanged && this.#writer) {
      // Every configured source is written, also one that has never loaded, so it is remembered.
      cacheError = await this.#writer.write(
        this.#sources.map((source, i) => toCachedSource(source, parts[i])),
      );
      error ??= cacheError;
    }
    const { added, removed, renamed } = diff;
    const status = diff.changed ? 'updated' : failures.length > 0 ? 'failed' : 'not-modified';
    const result: RefreshResult = {
      status,
      added,
      removed,
      renamed,
      total: snapshot.entries.size,
      ...(error ? { error } : {}),
      ...(cacheError ? { cacheError } : {}),
      sources,
    };
    this.#lastResult = result;
    let skipped = 0;
    for (const s of sources) {
      if (s.skippedCount === 0) continue;
      skipped += s.skippedCount;
      // The reported entries only (at most 20 a source), keys escaped: a broken file cannot flood the log.
      this.#logger.warn?.('hints feed entries skipped', {
        url: s.url,
        count: s.skippedCount,
        entries: s.skipped.map((e) => `${e.path.join(' → ')}: ${e.reason}`),
      });
    }
    this.#logger.info?.('hints refreshed', {
      status,
      added: added.length,
      removed: removed.length,
      renamed: renamed.length,
      total: result.total,
      failed: failures.length,
      skipped,
    });
    if (status === 'updated') this.#emitSafely('update', () => this.emit('update', result));
    // A refresh aborted by close() is no news for anyone.
    if (error && !this.#closed) this.#emitError(error);
    if (cacheError && cacheError !== error) this.#emitError(cacheError);
    return result;
  }

  /** Emits so that a throwing listener cannot turn a refresh (or a timer) into an uncaught exception. */
  #emitSafely(event: keyof HintFeedEvents, emit: () => void): void {
    try {
      emit();
    } catch (error) {
      this.#logger.error?.(`a hints "${event}" listener threw`, {
        message: String((error as Error)?.message),
      });
    }
  }

  #emitError(error: HintFeedError): void {
    if (this.listenerCount('error') > 0) this.#emitSafely('error', () => this.emit('error', error));
    else this.#logger.warn?.('hints refresh problem', { code: error.code, message: error.message });
  }

  /**
   * Refresh on a timer: every `everyMs` plus up to `jitterMs` of random delay, sooner after a
   * failure (`retryMs`, doubling). Timers are unref'd (they never keep the process alive); a tick
   * while a refresh is running joins it; results go to the `'update'` / `'error'` events. Returns a
   * function that stops the schedule (an in-flight refresh still completes). One schedule per feed;
   * {@link close} stops it too.
   */
  startAutoRefresh(options: AutoRefreshOptions = {}): () => void {
    if (this.#closed) throw new OptionsError('this hint feed is closed');
    if (this.#autoStop)
      throw new OptionsError('auto refresh is already running for this feed; stop it first');
    const cancel = scheduleRefresh(() => this.refresh(), options);
    const stop = () => {
      cancel();
      if (this.#autoStop === stop) this.#autoStop = undefined;
    };
    this.#autoStop = stop;
    return stop;
  }
}

/** What a refresh's outcomes make of `current`: the parts, what changed, and the snapshot to serve. */
async function nextSnapshot(current: Snapshot, outcomes: readonly Outcome[]) {
  // 304 confirms the part whose validators were sent; a failure keeps the latest good part.
  const parts = outcomes.map((o, i) => (o.kind === 'failed' ? current.parts[i] : o.part));
  const partsChanged = parts.some((p, i) => p !== current.parts[i]);
  let diff: ReturnType<typeof diffEntries> = { added: [], removed: [], renamed: [], changed: false };
  let snapshot: Snapshot = partsChanged ? { ...current, parts } : current;
  if (parts.some((p, i) => p?.entries !== current.parts[i]?.entries)) {
    // A turn of the event loop between the sources' parsing and the merge: together they stall the
    // shop past the refresh's goal at eduGAIN's size (npm run bench hints).
    await nextTurn();
    const entries = mergeEntries(parts.map((p) => p?.entries));
    diff = diffEntries(current.entries, entries);
    if (diff.changed)
      snapshot = { parts, entries, index: await SearchIndex.build(entries.values(), current.index) };
  }
  return { parts, partsChanged, diff, snapshot };
}

function closedError(): HintFeedError {
  return new HintFeedError('this hint feed is closed', { code: 'feed_closed' });
}

/** The host of a source URL, as telemetry names a feed (public: the feeds are published files). */
function feedLabel(url: string | undefined): string {
  return url && URL.canParse(url) ? new URL(url).host || url : '';
}
