import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { HintFeedError } from './errors.js';
import type { HintEntry } from './types.js';

/**
 * The cache file: the last good copy of every source WITH its validators, so a restarted process (or
 * the next cron run of the CLI) serves hints at once and sends a conditional GET. Each source's
 * institutions are stored as a feed document of the combined shape (entries with a country) or the
 * per-country shape (entries without), and read back through the same validator as a downloaded feed.
 *
 * ```json
 * { "format": "affiliation-validation/hints-cache", "version": 1, "savedAt": "…",
 *   "sources": [{ "url": "https://…", "country": "NL", "etag": "\"abc\"", "lastModified": "…",
 *                 "sha256": "…", "fetchedAt": "…", "feed": { … } }] }
 * ```
 */
export const CACHE_FORMAT = 'affiliation-validation/hints-cache';

const CachedSourceSchema = z.object({
  url: z.string().min(1),
  country: z.string().optional(),
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  sha256: z.string().optional(),
  fetchedAt: z.iso.datetime(),
  feed: z.unknown(),
});

const CacheFileSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  version: z.literal(1),
  savedAt: z.iso.datetime(),
  sources: z.array(CachedSourceSchema),
});

export type CachedSource = z.infer<typeof CachedSourceSchema>;
export type CacheFile = z.infer<typeof CacheFileSchema>;

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
  const result = CacheFileSchema.safeParse(json);
  if (!result.success) {
    throw new HintFeedError(`${path} is not a hints cache file of this version`, {
      code: 'cache_invalid',
      cause: result.error,
    });
  }
  return result.data;
}

/** A source's institutions as a feed document that {@link parseHintFeed} reads back to the same entries. */
export function entriesToFeed(entries: ReadonlyMap<string, HintEntry>): Record<string, unknown> {
  let withCountry = false;
  for (const e of entries.values()) {
    withCountry = e.country !== undefined;
    break;
  }
  if (!withCountry) {
    const feed: Record<string, Readonly<Record<string, string>>> = {};
    for (const [id, e] of entries) feed[id] = e.names;
    return feed;
  }
  const feed: Record<string, Record<string, Readonly<Record<string, string>>>> = {};
  for (const [id, e] of entries) {
    const cc = e.country ?? 'ZZ';
    let country = feed[cc];
    if (!country) {
      country = {};
      feed[cc] = country;
    }
    country[id] = e.names;
  }
  return feed;
}

/**
 * Write atomically: a unique temporary file in the same directory, flushed, then renamed over the
 * target, so a reader (or a crash) sees the old file or the new one, never half of one.
 */
export async function writeCacheFile(path: string, content: CacheFile): Promise<void> {
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
