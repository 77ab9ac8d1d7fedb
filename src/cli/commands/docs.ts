import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { BatchRequest, BatchResult, DocsSiteOptions, SyncItem, SyncReport } from '../../docs-site.js';
import {
  DocsSiteClient,
  DocsSiteError,
  DocsSyncError,
  MAX_BATCH_CONCURRENCY,
  syncFolder,
} from '../../docs-site.js';
import { type CliCommand, type CliIO, CliUsageError } from '../io.js';

/** Environment variables the `docs` command reads; credentials never come from arguments. */
export const DOCS_ENV = {
  baseUrl: 'AV_DOCS_BASE_URL',
  restRoot: 'AV_DOCS_REST_ROOT',
  routeStyle: 'AV_DOCS_ROUTE_STYLE',
  username: 'AV_DOCS_USERNAME',
  applicationPassword: 'AV_DOCS_APP_PASSWORD',
} as const;

const USAGE = `Usage:
  affiliation-validation docs get|post|put|patch|delete PATH [--query k=v]... [--data JSON|@FILE] [--base-url URL] [--rest-root ROOT] [--route-style path|query] [--json]
  affiliation-validation docs batch FILE.json [--validation normal|require-all-validate] [--concurrency N] [--base-url URL] [--json]
  affiliation-validation docs sync DIR [--type pages|posts] [--plan] [--prune] [--yes] [--force] [--base-url URL] [--json]

PATH is relative to the REST root, e.g. /wp/v2/posts. FILE.json holds an array of requests
({ method, path, body }) or { "validation": …, "requests": [ … ] }.

docs sync makes the site's pages (or posts) match the Markdown files of DIR (docs/docs-sync.md):
  --plan   print create/update/unchanged/conflict/delete per item and write nothing
  --prune  move to the trash the items the sync created whose file is gone (--yes when not on a terminal)
  --force  overwrite items changed on the site since the last sync (conflicts)
  exit codes: 0 in sync, 1 some items failed (or the site could not be reached), 2 bad command line,
              3 refused: conflicts (also a --plan showing them) or the trash not confirmed, 4 bad input in DIR,
              5 the site did not accept the user name and application password (every docs subcommand)

Environment:
  ${DOCS_ENV.baseUrl}      the site's base address (or --base-url)
  ${DOCS_ENV.restRoot}     the REST root (default wp-json; or --rest-root)
  ${DOCS_ENV.routeStyle}   path (default) or query: ?rest_route=… for sites without pretty permalinks
  ${DOCS_ENV.username}      user name for application-password authentication
  ${DOCS_ENV.applicationPassword}  the application password (never give it as an argument)
`;

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const CREDENTIAL_FLAG =
  /^-(-?(password|pass|app-password|application-password|apppassword|user|username|auth|token)(=.*)?|[up])$/i;

/** The client options from the flags and the environment; a bad one is a usage error. */
function clientOptions(
  values: { 'base-url'?: string; 'rest-root'?: string; 'route-style'?: string },
  io: CliIO,
): DocsSiteOptions {
  const baseUrl = values['base-url'] ?? io.env[DOCS_ENV.baseUrl];
  if (!baseUrl)
    throw new CliUsageError(`the site's address is missing: set ${DOCS_ENV.baseUrl} or pass --base-url`);
  const url = URL.parse(baseUrl);
  if (url?.username || url?.password) {
    throw new CliUsageError(
      `--base-url must not hold credentials; set ${DOCS_ENV.username} and ${DOCS_ENV.applicationPassword} instead`,
    );
  }
  const routeStyle = values['route-style'] ?? io.env[DOCS_ENV.routeStyle] ?? 'path';
  if (routeStyle !== 'path' && routeStyle !== 'query')
    throw new CliUsageError('--route-style must be path or query');
  const username = io.env[DOCS_ENV.username];
  const applicationPassword = io.env[DOCS_ENV.applicationPassword];
  if (Boolean(username) !== Boolean(applicationPassword)) {
    throw new CliUsageError(`set both ${DOCS_ENV.username} and ${DOCS_ENV.applicationPassword}, or neither`);
  }
  return {
    baseUrl,
    restRoot: values['rest-root'] ?? io.env[DOCS_ENV.restRoot],
    routeStyle,
    auth: username && applicationPassword ? { username, applicationPassword } : undefined,
    fetch: io.fetch,
  };
}

/** Run `make`; a missing REST API gets a hint in CLI terms. */
async function withHints<T>(io: CliIO, make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof DocsSiteError && error.code === 'rest_api_not_found') {
      io.stderr.write(
        `hint: check --base-url (${DOCS_ENV.baseUrl}), --rest-root (${DOCS_ENV.restRoot}, default wp-json), or try --route-style query (?rest_route=) for a site without pretty permalinks\n`,
      );
    }
    throw error;
  }
}

async function readJson(source: string, what: string): Promise<unknown> {
  let text = source;
  if (source.startsWith('@')) {
    try {
      text = await readFile(source.slice(1), 'utf8');
    } catch (error) {
      throw new CliUsageError(
        `${what}: cannot read ${source.slice(1)} (${(error as { code?: string }).code ?? 'error'})`,
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliUsageError(`${what} is not valid JSON`);
  }
}

function errorJson(error: DocsSiteError) {
  return { code: error.code, status: error.status, message: error.message, data: error.data };
}

/** `docs get|post|put|patch|delete|batch|sync`: script the documentation site. */
export const docsCommand: CliCommand = async (argv, io) => {
  try {
    return await runDocs(argv, io);
  } catch (error) {
    // Refused when asked who they are (`users/me`): the user name or application password is wrong.
    const refused = error instanceof DocsSiteError && error.code === 'credentials_refused';
    if (!refused || !error.path?.endsWith('/users/me')) throw error;
    io.stderr.write(
      `affiliation-validation docs: the site did not accept the user name and application password (${DOCS_ENV.username}, ${DOCS_ENV.applicationPassword}): check them, or make a new application password in the user's profile on the site [credentials_refused]\n`,
    );
    return SYNC_EXIT.credentials;
  }
};

/**
 * A client for the command. With credentials it has read the index (for the content namespace) and
 * asked the site who they are: WordPress takes a wrong application password for an anonymous request.
 */
async function connect(values: ReturnType<typeof parse>['values'], io: CliIO, read: boolean) {
  const options = clientOptions(values, io);
  if (!options.auth && !read) return withHints(io, () => new DocsSiteClient(options));
  const docs = await withHints(io, () => DocsSiteClient.connect(options));
  if (options.auth) await docs.verifyCredentials();
  return docs;
}

async function runDocs(argv: string[], io: CliIO): Promise<number> {
  const refused = argv.find((a) => CREDENTIAL_FLAG.test(a));
  if (refused) {
    throw new CliUsageError(
      `credentials are never taken from arguments (${refused.split('=')[0]}): set ${DOCS_ENV.username} and ${DOCS_ENV.applicationPassword}`,
    );
  }
  const { values, positionals } = parse(argv);
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const [verb, target, ...extra] = positionals;
  if (verb === undefined) throw new CliUsageError(`a subcommand is required\n${USAGE}`);
  if (extra.length > 0) throw new CliUsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (verb === 'batch') return runBatchFile(target, values, io);
  if (verb === 'sync') return runSync(target, values, io);
  for (const flag of ['type', 'plan', 'prune', 'yes', 'force'] as const) {
    if (values[flag] !== undefined && values[flag] !== false)
      throw new CliUsageError(`--${flag} is for docs sync`);
  }
  if (!VERBS.has(verb)) throw new CliUsageError(`unknown subcommand "${verb}"\n${USAGE}`);
  if (!target) throw new CliUsageError(`docs ${verb} needs a PATH, e.g. /wp/v2/posts`);
  if (values.validation !== undefined) throw new CliUsageError('--validation is for docs batch');
  if (values.concurrency !== undefined) throw new CliUsageError('--concurrency is for docs batch');
  const method = verb.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  if (values.data !== undefined && (method === 'GET' || method === 'DELETE')) {
    throw new CliUsageError(`--data is not sent with ${verb}; use --query`);
  }
  const query = new URLSearchParams();
  for (const pair of values.query ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliUsageError(`--query takes key=value (got "${pair}")`);
    query.append(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const body = values.data === undefined ? undefined : await readJson(values.data, '--data');
  const docs = await connect(values, io, false);
  const qs = query.toString();
  const path = qs ? `${target}${target.includes('?') ? '&' : '?'}${qs}` : target;
  try {
    const res = await withHints(io, () => docs.request(method, path, { body }));
    if (values.json) {
      const paging = [...res.headers].filter(([k]) => k === 'x-wp-total' || k === 'x-wp-totalpages');
      const headers = Object.fromEntries(paging);
      io.stdout.write(`${JSON.stringify({ status: res.status, headers, body: res.body })}\n`);
    } else {
      io.stdout.write(`${JSON.stringify(res.body, null, 2)}\n`);
      const total = res.headers.get('x-wp-total');
      const pages = res.headers.get('x-wp-totalpages');
      const paging = total !== null ? ` · ${total} items, ${pages ?? '?'} pages` : '';
      io.stderr.write(`${method} ${target}: ${res.status}${paging}\n`);
    }
    return 0;
  } catch (error) {
    if (values.json && error instanceof DocsSiteError) {
      io.stdout.write(`${JSON.stringify({ error: errorJson(error) })}\n`);
      io.stderr.write(`affiliation-validation docs: ${error.message} [${error.code}]\n`);
      return 1;
    }
    throw error;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      query: { type: 'string', multiple: true, short: 'q' },
      data: { type: 'string', short: 'd' },
      'base-url': { type: 'string' },
      'rest-root': { type: 'string' },
      'route-style': { type: 'string' },
      validation: { type: 'string' },
      concurrency: { type: 'string' },
      type: { type: 'string' },
      plan: { type: 'boolean', default: false },
      prune: { type: 'boolean', default: false },
      yes: { type: 'boolean', short: 'y', default: false },
      force: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

async function runBatchFile(
  file: string | undefined,
  values: ReturnType<typeof parse>['values'],
  io: CliIO,
): Promise<number> {
  if (!file) throw new CliUsageError('docs batch needs a FILE.json');
  if (values.data !== undefined || values.query !== undefined) {
    throw new CliUsageError('--data and --query are not used by docs batch; the requests come from the file');
  }
  const content = await readJson(`@${file}`, file);
  const fromFile =
    typeof content === 'object' && content !== null && !Array.isArray(content)
      ? (content as { validation?: unknown; requests?: unknown })
      : { requests: content };
  if (!Array.isArray(fromFile.requests)) {
    throw new CliUsageError(`${file} must hold an array of requests or { "requests": [ … ] }`);
  }
  const validation = values.validation ?? fromFile.validation ?? 'normal';
  if (validation !== 'normal' && validation !== 'require-all-validate') {
    throw new CliUsageError('--validation must be normal or require-all-validate');
  }
  let concurrency = 1;
  if (values.concurrency !== undefined) {
    concurrency = /^\d{1,3}$/.test(values.concurrency) ? Number(values.concurrency) : Number.NaN;
    if (!(concurrency >= 1 && concurrency <= MAX_BATCH_CONCURRENCY)) {
      throw new CliUsageError(
        `--concurrency must be a whole number from 1 to ${MAX_BATCH_CONCURRENCY} (calls to the batch route in flight at once)`,
      );
    }
  }
  const requests = fromFile.requests as BatchRequest[];
  const docs = await connect(values, io, true);
  const progress = progressReporter(io);
  let results: BatchResult[];
  try {
    results = await docs.batch(requests, { validation, concurrency, onProgress: progress.update });
  } finally {
    progress.end();
  }
  const failed = results.filter((r) => !r.ok).length;
  if (values.json) {
    const out = results.map((r, i) => ({
      index: i,
      method: (requests[i]?.method ?? 'POST').toUpperCase(),
      path: requests[i]?.path,
      ok: r.ok,
      status: r.status,
      body: r.body,
      ...(r.error ? { error: errorJson(r.error) } : {}),
    }));
    io.stdout.write(`${JSON.stringify(out)}\n`);
  } else {
    results.forEach((r, i) => {
      const req = requests[i];
      const what = `${(req?.method ?? 'POST').toUpperCase()} ${req?.path}`;
      const outcome = r.ok ? 'ok' : `${r.error?.message} [${r.error?.code}]`;
      io.stdout.write(`#${i + 1} ${r.status ?? '-'} ${what} ${outcome}\n`);
    });
  }
  io.stderr.write(`batch: ${results.length} requests, ${results.length - failed} ok, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

/** A progress bar on a TTY stderr, plain lines otherwise. */
function progressReporter(io: CliIO, label = 'batch') {
  const tty = io.stderr.isTTY === true;
  let drawn = false;
  return {
    update: ({ done, total }: { done: number; total: number }) => {
      if (tty) {
        const width = 30;
        const filled = total === 0 ? width : Math.round((done / total) * width);
        io.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
        drawn = true;
      } else {
        io.stderr.write(`${label}: ${done}/${total} done\n`);
      }
    },
    end: () => {
      if (drawn) io.stderr.write('\n');
    },
  };
}

/** Exit codes of `docs` (documented in the usage and docs/docs-sync.md). */
export const SYNC_EXIT = { ok: 0, failed: 1, usage: 2, refused: 3, badInput: 4, credentials: 5 } as const;

async function runSync(
  dir: string | undefined,
  values: ReturnType<typeof parse>['values'],
  io: CliIO,
): Promise<number> {
  if (!dir) throw new CliUsageError('docs sync needs a DIR of Markdown files');
  for (const flag of ['data', 'query', 'validation', 'concurrency'] as const) {
    if (values[flag] !== undefined) throw new CliUsageError(`--${flag} is not used by docs sync`);
  }
  const type = values.type ?? 'pages';
  if (type !== 'pages' && type !== 'posts') throw new CliUsageError('--type must be pages or posts');
  const stdin = io.stdin ?? process.stdin;
  const terminal = stdin.isTTY === true;
  if (values.prune && !values.plan && !values.yes && !terminal) {
    throw new CliUsageError(
      '--prune moves items to the trash: not on a terminal, confirm with --yes (see the plan first with --plan)',
    );
  }
  const docs = await withHints(io, () => DocsSiteClient.connect(clientOptions(values, io)));
  const progress = progressReporter(io, 'sync');
  let report: SyncReport;
  try {
    report = await syncFolder(docs, dir, {
      type,
      plan: values.plan,
      prune: values.prune,
      force: values.force,
      onProgress: progress.update,
      confirm:
        values.prune && !values.yes
          ? async (items) => {
              const trash = items.filter(
                (i) => i.action === 'delete' || (i.action === 'conflict' && !i.file),
              );
              if (trash.length === 0) return true;
              for (const item of items)
                if (item.action !== 'unchanged') io.stderr.write(`${itemLine(item)}\n`);
              return ask(stdin, io, `Move ${trash.length} item(s) to the trash and write the rest? [y/N] `);
            }
          : undefined,
    });
  } catch (error) {
    if (!(error instanceof DocsSyncError)) throw error;
    for (const issue of error.issues) {
      if (values.json) io.stdout.write(`${JSON.stringify({ error: issue })}\n`);
      io.stderr.write(`${issue.file ? `${issue.file}: ` : ''}${issue.message} [${issue.code}]\n`);
    }
    const refused = error.code === 'conflict';
    io.stderr.write(
      refused
        ? `sync: refused, ${error.issues.length} conflict(s); nothing was written. --plan shows them; --force overwrites them\n`
        : `sync: ${error.issues.length} problem(s) in ${dir}; nothing was written\n`,
    );
    return refused ? SYNC_EXIT.refused : SYNC_EXIT.badInput;
  } finally {
    progress.end();
  }
  for (const item of report.items) {
    if (!values.plan && !report.confirmed) break;
    io.stdout.write(`${values.json ? JSON.stringify(itemJson(item)) : itemLine(item)}\n`);
  }
  io.stderr.write(`${summary(report)}\n`);
  if (report.orphans.length > 0) {
    io.stderr.write(
      `sync: ${report.orphans.length} item(s) the sync created have no file any more (${report.orphans.slice(0, 5).join(', ')}${report.orphans.length > 5 ? ', …' : ''}); --prune moves them to the trash\n`,
    );
  }
  if (!report.confirmed) return SYNC_EXIT.refused;
  if (report.planned) return report.counts.conflict > 0 ? SYNC_EXIT.refused : SYNC_EXIT.ok;
  return report.failed > 0 ? SYNC_EXIT.failed : SYNC_EXIT.ok;
}

async function ask(stdin: NonNullable<CliIO['stdin']>, io: CliIO, question: string): Promise<boolean> {
  const rl = createInterface({ input: stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
  try {
    io.stderr.write(question);
    return /^y(es)?$/i.test((await rl.question('')).trim());
  } finally {
    rl.close();
  }
}

/** An item as one JSON line, its site error as code, status, message and data. */
function itemJson(item: SyncItem) {
  return { ...item, error: item.error === undefined ? undefined : errorJson(item.error) };
}

function itemLine(item: SyncItem): string {
  const what = `${item.action.padEnd(9)} ${item.slug}${item.id !== undefined ? ` #${item.id}` : ''}`;
  const file = item.file ? ` (${item.file})` : '';
  const changes = item.changes?.length ? ` [${item.changes.join(', ')}]` : '';
  const outcome =
    item.outcome === 'failed' || item.outcome === 'skipped'
      ? ` ${item.outcome.toUpperCase()}: ${item.error?.message ?? ''}${item.error ? ` [${item.error.code}]` : ''}`
      : '';
  return `${what}${file}${changes}${outcome}`;
}

function summary(report: SyncReport): string {
  const c = report.counts;
  const media = report.planned
    ? `${report.media.uploaded} image(s) to upload, ${report.media.reused} on the site`
    : `${report.media.uploaded} image(s) uploaded, ${report.media.reused} reused${report.media.failed ? `, ${report.media.failed} failed` : ''}`;
  const counts = `${c.create} create, ${c.update} update, ${c.unchanged} unchanged, ${c.conflict} conflict, ${c.delete} delete`;
  if (report.planned) return `plan: ${counts}; ${media}; nothing was written`;
  if (!report.confirmed) return `sync: not confirmed; nothing was written (${counts})`;
  return `sync: ${counts}; ${media}; ${report.failed} failed`;
}
