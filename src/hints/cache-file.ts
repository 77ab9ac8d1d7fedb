import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HintFeedError } from './errors.js';
import type { SourcePart } from './fetch-source.js';
import { isPlainObject, parseHintFeed } from './parse.js';
import type { Source } from './sources.js';
import type { HintEntry } from './types.js';

/**
 * The cache file: the last good copy of every source WITH its validators, so a restarted process (or
 * the next cron run of the CLI) serves hints at once and sends a conditional GET. Each source's
 * institutions are stored as a feed document of the combined shape (entries with a country) or the
 * per-country shape (entries without), and read back through the same validator as a downloaded feed.
 * Every configured source is listed, also one that has never loaded (no `feed`, no `fetchedAt`), so
 * the CLI's next run without `--source` still knows it.
 *
 * ```json
 * { "format": "affiliation-validation/hints-cache", "version": 1, "savedAt": "…",
 *   "sources": [{ "url": "https://…", "country": "NL", "etag": "\"abc\"", "lastModified": "…",
 *                 "sha256": "…", "fetchedAt": "…", "feed": { … } },
 *               { "url": "https://…/africa.json", "region": "africa" }] }
 * ```
 */
export const CACHE_FORMAT = 'affiliation-validation/hints-cache';

/** One source in the cache file. */
export interface CachedSource {
  url: string;
  country?: string | undefined;
  region?: string | undefined;
  etag?: string | undefined;
  lastModified?: string | undefined;
  sha256?: string | undefined;
  /** Absent for a source that has never loaded. */
  fetchedAt?: string | undefined;
  feed?: unknown;
}

export interface CacheFile {
  format: typeof CACHE_FORMAT;
  version: 1;
  savedAt: string;
  sources: CachedSource[];
}

/** An ISO 8601 UTC date-time as `Date#toISOString()` writes it (seconds, optional fraction, `Z`). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

function isoTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_UTC.test(value) && !Number.isNaN(Date.parse(value));
}

const OPTIONAL_STRINGS = ['country', 'region', 'etag', 'lastModified', 'sha256'] as const;

/**
 * The cache file's content, checked by hand (a schema library here was most of what importing
 * `affiliation-validation/hints` cost: `npm run bench -- import`): the known fields only, or why not.
 */
function checkCacheFile(json: unknown): CacheFile | string {
  if (!isPlainObject(json)) return 'not a JSON object';
  if (json.format !== CACHE_FORMAT) return `"format" is not ${JSON.stringify(CACHE_FORMAT)}`;
  if (json.version !== 1) return '"version" is not 1';
  if (!isoTime(json.savedAt)) return '"savedAt" is not an ISO date-time';
  if (!Array.isArray(json.sources)) return '"sources" is not an array';
  const sources: CachedSource[] = [];
  for (const [i, item] of json.sources.entries()) {
    if (!isPlainObject(item)) return `sources[${i}] is not an object`;
    if (typeof item.url !== 'string' || item.url === '') return `sources[${i}].url is not a non-empty string`;
    const source: CachedSource = { url: item.url };
    for (const key of OPTIONAL_STRINGS) {
      const value = item[key];
      if (value === undefined) continue;
      if (typeof value !== 'string') return `sources[${i}].${key} is not a string`;
      source[key] = value;
    }
    if (item.fetchedAt !== undefined) {
      if (!isoTime(item.fetchedAt)) return `sources[${i}].fetchedAt is not an ISO date-time`;
      source.fetchedAt = item.fetchedAt;
    }
    if (item.feed !== undefined) source.feed = item.feed;
    sources.push(source);
  }
  return { format: CACHE_FORMAT, version: 1, savedAt: json.savedAt, sources };
}

/** Read and check a cache file; `undefined` when it does not exist. Throws `cache_invalid`. */
export async function readCacheFile(path: string): Promise<CacheFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HintFeedError(`cannot read the hints cache file ${path}: ${(error as Error).message}`, {
      code: 'cache_invalid',
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HintFeedError(`the hints cache file ${path} is not valid JSON`, {
      code: 'cache_invalid',
      cause: error,
    });
  }
  const result = checkCacheFile(json);
  if (typeof result === 'string') {
    throw new HintFeedError(`${path} is not a hints cache file of this version`, {
      code: 'cache_invalid',
      cause: new Error(result),
    });
  }
  return result;
}

/** The group key under which the file stores institutions without a country (read back as a region: no country). */
const NO_COUNTRY = 'no-country';

/** A source's institutions as a feed document that {@link parseHintFeed} reads back to the same entries. */
function entriesToFeed(entries: ReadonlyMap<string, HintEntry>): Record<string, unknown> {
  const all = [...entries.values()];
  if (all.every((e) => e.country === undefined))
    return Object.fromEntries(all.map((e) => [e.entityId, e.names]));
  const feed: Record<string, Record<string, Readonly<Record<string, string>>>> = {};
  for (const e of all) {
    const cc = e.country ?? NO_COUNTRY;
    feed[cc] ??= {};
    feed[cc][e.entityId] = e.names;
  }
  return feed;
}

/**
 * Write atomically: a unique temporary file in the same directory, flushed, then renamed over the
 * target, so a reader (or a crash) sees the old file or the new one, never half of one.
 */
async function writeCacheFile(path: string, content: CacheFile): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(tmp, 'w', 0o644);
    try {
      await handle.writeFile(JSON.stringify(content));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => {});
    throw new HintFeedError(`cannot write the hints cache file ${path}: ${(error as Error).message}`, {
      code: 'cache_write_failed',
      cause: error,
    });
  }
}

/** One source's entry in the file: its last good part, or only its name when it has never loaded. */
export function toCachedSource(source: Source, part: SourcePart | undefined): CachedSource {
  return {
    url: source.safeUrl,
    country: source.country,
    region: source.region,
    etag: part?.etag,
    lastModified: part?.lastModified,
    sha256: part?.sha256,
    fetchedAt: part?.fetchedAt.toISOString(),
    feed: part && entriesToFeed(part.entries),
  };
}

/** A cached entry read back as a source's part; `undefined` when it holds no list. Throws {@link HintFeedError}. */
export function partFromCache(cached: CachedSource, country: string | undefined): SourcePart | undefined {
  if (cached.feed === undefined || cached.fetchedAt === undefined) return undefined;
  const parsed = parseHintFeed(cached.feed, country ? { country } : {});
  return {
    entries: parsed.entries,
    etag: cached.etag,
    lastModified: cached.lastModified,
    sha256: cached.sha256,
    fetchedAt: new Date(cached.fetchedAt),
  };
}

/**
 * The write queue of one cache file: writes run one after another, so the newest snapshot lands
 * last, and `idle()` lets `close()` wait for the ones still pending.
 */
export function cacheWriter(path: string) {
  let chain: Promise<void> = Promise.resolve();
  return {
    /** Queue an atomic write; resolves with the error (writeCacheFile's HintFeedError) instead of rejecting. */
    write(sources: CachedSource[]): Promise<HintFeedError | undefined> {
      const savedAt = new Date().toISOString();
      const write = chain.then(() =>
        writeCacheFile(path, { format: CACHE_FORMAT, version: 1, savedAt, sources }),
      );
      chain = write.catch(() => {});
      return write.then(
        () => undefined,
        (error: HintFeedError) => error,
      );
    },
    /** Resolves when every queued write has finished (successfully or not). */
    idle: (): Promise<void> => chain,
  };
}
