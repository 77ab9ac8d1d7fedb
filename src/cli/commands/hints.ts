import { resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { AffiliationError } from '../../core/errors.js';
import { readCacheFile } from '../../hints/cache-file.js';
import { HintFeedError } from '../../hints/errors.js';
import { HintFeed } from '../../hints/feed.js';
import type { HintSource, RefreshResult } from '../../hints/types.js';
import { type CliCommand, type CliIO, CliUsageError } from '../io.js';

/** Where `hints refresh` writes and `hints search` reads when no path is given. */
export const DEFAULT_HINTS_FILE = 'affiliation-hints.json';

const USAGE = `Usage:
  affiliation-validation hints refresh [--source [CC=]URL]... [--out FILE] [--json]
  affiliation-validation hints search QUERY [--file FILE | --source [CC=]URL...] [--country CC] [--lang LL] [--limit N] [--json]

refresh  Fetch the feeds (conditional GET with the validators stored in FILE), validate them and
         write FILE atomically. On failure FILE is left as it was. Without --source, the sources
         stored in FILE are refreshed. A source may be prefixed with its country: NL=https://….
         Exit codes: 0 updated or not modified, 1 failed (FILE untouched), 3 partly failed (FILE
         updated with the sources that answered, the others kept), 2 bad arguments.
search   Search institutions by name (case- and accent-insensitive), from FILE or from --source.

FILE defaults to $AFFILIATION_HINTS_FILE, else ./${DEFAULT_HINTS_FILE}.
`;

function defaultFile(io: CliIO): string {
  return io.env.AFFILIATION_HINTS_FILE || DEFAULT_HINTS_FILE;
}

function parseSource(value: string): HintSource {
  const m = /^([A-Za-z]{2})=(.+)$/.exec(value);
  return m ? { url: m[2]!, country: m[1]! } : value;
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

/** Build a feed, turning option errors into usage errors (they come from the command line). */
function feedFor(options: ConstructorParameters<typeof HintFeed>[0]): HintFeed {
  try {
    return new HintFeed(options);
  } catch (error) {
    if (error instanceof AffiliationError && error.code === 'invalid_options')
      throw new CliUsageError(error.message);
    throw error;
  }
}

async function storedSources(file: string): Promise<HintSource[]> {
  const cache = await readCacheFile(file);
  if (!cache) throw new CliUsageError(`--source is required (no hints file at ${file})`);
  const sources = cache.sources.map((s) => (s.country ? { url: s.url, country: s.country } : s.url));
  if (sources.some((s) => (typeof s === 'string' ? s : s.url).includes('[REDACTED]'))) {
    throw new CliUsageError(`the sources stored in ${file} hold redacted credentials; pass --source again`);
  }
  if (sources.length === 0) throw new CliUsageError(`--source is required (${file} lists no source)`);
  return sources;
}

function errorJson(error: HintFeedError | undefined) {
  return error ? { code: error.code, message: error.message } : undefined;
}

function printResult(io: CliIO, result: RefreshResult, file: string, json: boolean): void {
  if (json) {
    io.stdout.write(
      `${JSON.stringify({
        status: result.status,
        file,
        total: result.total,
        added: result.added,
        removed: result.removed,
        renamed: result.renamed,
        error: errorJson(result.error),
        sources: result.sources.map((s) => ({ url: s.url, status: s.status, error: errorJson(s.error) })),
      })}\n`,
    );
    return;
  }
  io.stdout.write(
    `${result.status}: ${result.added.length} added, ${result.removed.length} removed, ${result.renamed.length} renamed, ${result.total} total (${file})\n`,
  );
  for (const id of result.added) io.stdout.write(`  + ${id}\n`);
  for (const id of result.removed) io.stdout.write(`  - ${id}\n`);
  for (const id of result.renamed) io.stdout.write(`  ~ ${id}\n`);
  for (const s of result.sources) {
    if (s.error)
      io.stderr.write(`affiliation-validation hints: ${s.url}: ${s.error.message} [${s.error.code}]\n`);
  }
  if (result.error && !result.sources.some((s) => s.error === result.error)) {
    io.stderr.write(`affiliation-validation hints: ${result.error.message} [${result.error.code}]\n`);
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
  const sources = given.length > 0 ? given.map(parseSource) : await storedSources(file);
  const timeoutMs = positiveInt('timeout-ms', values['timeout-ms'] as string | undefined, 600_000);
  const feed = feedFor({ sources, cacheFile: file, fetch: io.fetch, ...(timeoutMs ? { timeoutMs } : {}) });
  const loaded = await feed.load();
  if (loaded.status === 'invalid') {
    io.stderr.write(
      `affiliation-validation hints: ${loaded.error?.message}; it will be replaced [cache_invalid]\n`,
    );
  }
  const result = await feed.refresh();
  printResult(io, result, file, values.json === true);
  if (result.status === 'failed') return 1;
  return result.error ? 3 : 0;
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
    feed = feedFor({ sources: given.map(parseSource), fetch: io.fetch });
    const result = await feed.refresh();
    if (result.status === 'failed') throw result.error!;
  } else {
    const file = resolve(String(values.file ?? defaultFile(io)));
    const cache = await readCacheFile(file);
    if (!cache)
      throw new CliUsageError(`no hints file at ${file}: run "hints refresh" first or pass --source`);
    const sources = cache.sources.map((s) => (s.country ? { url: s.url, country: s.country } : s.url));
    if (sources.length === 0) throw new HintFeedError(`${file} lists no source`, { code: 'cache_invalid' });
    // The stored URLs (possibly redacted) only key the cache here: nothing is fetched.
    feed = feedFor({ sources, cacheFile: file });
    const loaded = await feed.load();
    if (loaded.status === 'invalid') throw loaded.error!;
  }
  const hits = feed.search(positionals[0]!, {
    limit,
    ...(country ? { country } : {}),
    ...(lang ? { lang } : {}),
  });
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
