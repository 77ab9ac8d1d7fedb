import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type CacheFile, readCacheFile } from '../../hints/cache-file.js';
import { HintFeedError } from '../../hints/errors.js';
import { HintFeed } from '../../hints/feed.js';
import { diffEntries, mergeEntries } from '../../hints/merge.js';
import { parseHintFeed, REGION_RE } from '../../hints/parse.js';
import { sourceOption } from '../../hints/sources.js';
import type { HintEntry, HintSource, RefreshResult } from '../../hints/types.js';
import { type CliCommand, type CliIO, CliUsageError } from '../io.js';

/** Where `hints refresh` writes and `hints search` reads when no path is given. */
export const DEFAULT_HINTS_FILE = 'affiliation-hints.json';

const USAGE = `Usage:
  affiliation-validation hints refresh [--source [NAME=]URL]... [--out FILE] [--json]
  affiliation-validation hints search QUERY [--file FILE | --source [NAME=]URL...] [--country CC] [--lang LL] [--limit N] [--json]

refresh  Fetch the feeds (conditional GET with the validators stored in FILE), validate them and
         write FILE atomically. Without --source, the sources stored in FILE are refreshed (FILE
         remembers every source of the last run, also one that failed). NAME is a country code
         (nl=https://…/nl.json: the records get that country; a URL ending in /<cc>.json names
         its country by itself) or a region (africa=https://…/africa.json: no country).
         Exit codes: 0 every source answered (FILE written); 1 every source failed or FILE could
         not be written (FILE left as it was); 3 some sources failed (FILE written: the others'
         new lists, the failed ones' last good lists); 2 bad arguments.
         added/removed/renamed compare FILE before and after the run.
search   Search institutions by name (case- and accent-insensitive), from FILE or from --source.

FILE defaults to $AFFILIATION_HINTS_FILE, else ./${DEFAULT_HINTS_FILE}.
`;

function defaultFile(io: CliIO): string {
  return io.env.AFFILIATION_HINTS_FILE || DEFAULT_HINTS_FILE;
}

/** `URL`, `cc=URL` (a country code, any case) or `region=URL` (`africa`, `net`, `org`, …). */
function parseSource(value: string): HintSource {
  const m = /^([^=:/?#]+)=(.+)$/.exec(value);
  if (!m) return value;
  const [, name, url] = m as unknown as [string, string, string];
  if (/^[A-Za-z]{2}$/.test(name)) return { url, country: name };
  if (REGION_RE.test(name)) return { url, region: name };
  throw new CliUsageError(
    `--source ${JSON.stringify(name)}=…: the name before "=" must be a two-letter country code (nl) or a lower-case region name (africa, net, org)`,
  );
}

function positiveInt(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new CliUsageError(`--${name} must be an integer from 1 to ${max}`);
  }
  return Number(value);
}

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliUsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
}

function storedSources(file: string, cache: CacheFile | undefined): HintSource[] {
  if (!cache) throw new CliUsageError(`--source is required (no hints file at ${file})`);
  const sources = cache.sources.map(sourceOption);
  if (cache.sources.some((s) => s.url.includes('[REDACTED]'))) {
    throw new CliUsageError(`the sources stored in ${file} hold redacted credentials; pass --source again`);
  }
  if (sources.length === 0) throw new CliUsageError(`--source is required (${file} lists no source)`);
  return sources;
}

function errorJson(error: HintFeedError | undefined) {
  return error ? { code: error.code, message: error.message } : undefined;
}

/** The institutions FILE serves: every source stored in it, merged in file order. */
function fileEntries(cache: CacheFile | undefined): ReadonlyMap<string, HintEntry> {
  if (!cache) return new Map();
  const lists = cache.sources.map((s) => {
    if (s.feed === undefined) return undefined;
    try {
      return parseHintFeed(s.feed, s.country ? { country: s.country } : {}).entries;
    } catch {
      return undefined; // the feed skips such an entry too (and says so)
    }
  });
  return mergeEntries(lists);
}

/** What `hints refresh` reports: the change of FILE, not of a process's memory. */
interface RefreshReport {
  /** `updated`: FILE written, its institutions changed; `not-modified`: FILE written, same institutions; `failed`: FILE left as it was. */
  status: RefreshResult['status'];
  total: number;
  added: readonly string[];
  removed: readonly string[];
  renamed: readonly string[];
}

function printReport(io: CliIO, report: RefreshReport, result: RefreshResult, file: string, json: boolean) {
  if (json) {
    const sources = result.sources.map((s) => ({ ...s, error: errorJson(s.error) }));
    io.stdout.write(`${JSON.stringify({ ...report, file, error: errorJson(result.error), sources })}\n`);
    return;
  }
  const failedSources = result.sources.filter((s) => s.status === 'failed').length;
  const failed = failedSources > 0 ? `, ${failedSources} of ${result.sources.length} sources failed` : '';
  const skippedCount = result.sources.reduce((sum, s) => sum + s.skippedCount, 0);
  const skipped =
    skippedCount > 0 ? `, ${skippedCount} invalid ${skippedCount === 1 ? 'entry' : 'entries'} skipped` : '';
  io.stdout.write(
    `${report.status}: ${report.added.length} added, ${report.removed.length} removed, ${report.renamed.length} renamed, ${report.total} total${failed}${skipped} (${file})\n`,
  );
  for (const id of report.added) io.stdout.write(`  + ${id}\n`);
  for (const id of report.removed) io.stdout.write(`  - ${id}\n`);
  for (const id of report.renamed) io.stdout.write(`  ~ ${id}\n`);
  // A source's error message names its URL once.
  for (const s of result.sources) {
    if (s.error) io.stderr.write(`affiliation-validation hints: ${s.error.message} [${s.error.code}]\n`);
    // The keys come escaped and cut short from the parser; at most 20 lines a source.
    for (const e of s.skipped) {
      io.stderr.write(
        `affiliation-validation hints: ${s.url}: skipped ${e.path.map((k) => `"${k}"`).join(' → ')}: ${e.reason} [entry_skipped]\n`,
      );
    }
    if (s.skippedCount > s.skipped.length) {
      io.stderr.write(
        `affiliation-validation hints: ${s.url}: and ${s.skippedCount - s.skipped.length} more invalid entries skipped [entry_skipped]\n`,
      );
    }
  }
  for (const error of [result.error, result.cacheError]) {
    if (error && !result.sources.some((s) => s.error === error)) {
      io.stderr.write(`affiliation-validation hints: ${error.message} [${error.code}]\n`);
    }
  }
}

async function refresh(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, {
    source: { type: 'string', multiple: true },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
    'timeout-ms': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new CliUsageError(`unexpected argument "${positionals[0]}"\n\n${USAGE}`);
  const file = resolve(String(values.out ?? defaultFile(io)));
  const given = (values.source as string[] | undefined) ?? [];
  const timeoutMs = positiveInt('timeout-ms', values['timeout-ms'] as string | undefined, 600_000);
  let cache: CacheFile | undefined;
  try {
    cache = await readCacheFile(file);
  } catch (error) {
    if (given.length === 0) {
      throw new CliUsageError(`--source is required (${(error as Error).message})`);
    }
    io.stderr.write(
      `affiliation-validation hints: ${(error as Error).message}; it will be replaced [cache_invalid]\n`,
    );
  }
  const sources = given.length > 0 ? given.map(parseSource) : storedSources(file, cache);
  const feed = new HintFeed({ sources, cacheFile: file, fetch: io.fetch, timeoutMs });
  const before = fileEntries(cache);
  const result = await feed.refresh();
  await feed.close();
  const failedSources = result.sources.filter((s) => s.status === 'failed').length;
  // The feed writes FILE whenever a source answered; it is left as it was when none did.
  const written = result.sources.length > failedSources && result.cacheError === undefined;
  const after = written ? new Map([...feed.entries()].map((e) => [e.entityId, e])) : before;
  const change = diffEntries(before, after);
  let status: RefreshReport['status'] = 'failed';
  if (written) status = change.changed ? 'updated' : 'not-modified';
  const { added, removed, renamed } = change;
  const total = written ? feed.size : before.size;
  printReport(io, { status, total, added, removed, renamed }, result, file, values.json === true);
  if (!written) return 1;
  return failedSources > 0 ? 3 : 0;
}

async function search(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, {
    file: { type: 'string' },
    source: { type: 'string', multiple: true },
    country: { type: 'string' },
    lang: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || !positionals[0]!.trim()) {
    throw new CliUsageError(`search takes exactly one QUERY (quote it if it has spaces)\n\n${USAGE}`);
  }
  const country = values.country as string | undefined;
  if (country !== undefined && !/^[A-Za-z]{2}$/.test(country)) {
    throw new CliUsageError('--country must be a two-letter country code');
  }
  const lang = values.lang as string | undefined;
  if (lang !== undefined && !/^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(lang)) {
    throw new CliUsageError('--lang must be a language tag such as en, nl or pt-BR');
  }
  const limit = positiveInt('limit', values.limit as string | undefined, 1000) ?? 10;
  const given = (values.source as string[] | undefined) ?? [];
  if (given.length > 0 && values.file !== undefined)
    throw new CliUsageError('use --file or --source, not both');

  let feed: HintFeed;
  if (given.length > 0) {
    feed = new HintFeed({ sources: given.map(parseSource), fetch: io.fetch });
    const result = await feed.refresh();
    if (result.status === 'failed') throw result.error!;
  } else {
    const file = resolve(String(values.file ?? defaultFile(io)));
    const cache = await readCacheFile(file);
    if (!cache)
      throw new CliUsageError(`no hints file at ${file}: run "hints refresh" first or pass --source`);
    const sources = cache.sources.map(sourceOption);
    if (sources.length === 0) throw new HintFeedError(`${file} lists no source`, { code: 'cache_invalid' });
    // The stored URLs (possibly redacted) only key the cache here: nothing is fetched.
    feed = new HintFeed({ sources, cacheFile: file });
    const loaded = await feed.load();
    if (loaded.status === 'invalid') throw loaded.error!;
  }
  const hits = feed.search(positionals[0]!, { limit, country, lang });
  if (values.json) {
    io.stdout.write(`${JSON.stringify(hits)}\n`);
  } else if (hits.length === 0) {
    io.stdout.write('no institution found\n');
  } else {
    for (const h of hits) io.stdout.write(`${h.name}\t${h.country ?? '--'}\t${h.entityId}\n`);
  }
  return 0;
}

/** `affiliation-validation hints refresh|search`. */
export const hintsCommand: CliCommand = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === 'refresh') return refresh(rest, io);
  if (sub === 'search') return search(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    (sub === undefined ? io.stderr : io.stdout).write(USAGE);
    return sub === undefined ? 2 : 0;
  }
  throw new CliUsageError(`unknown subcommand "${sub}"\n\n${USAGE}`);
};
