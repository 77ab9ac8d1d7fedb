import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { OptionsError } from '../../core/errors.js';
import type { BatchRequest, BatchResult, DocsSiteOptions } from '../../docs-site.js';
import { DocsSiteClient, DocsSiteError, MAX_BATCH_CONCURRENCY } from '../../docs-site.js';
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

PATH is relative to the REST root, e.g. /wp/v2/posts. FILE.json holds an array of requests
({ method, path, body }) or { "validation": …, "requests": [ … ] }.

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
  if (URL.canParse(baseUrl)) {
    const url = new URL(baseUrl);
    if (url.username || url.password) {
      throw new CliUsageError(
        `--base-url must not hold credentials; set ${DOCS_ENV.username} and ${DOCS_ENV.applicationPassword} instead`,
      );
    }
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

/** Run `make`; an `OptionsError` becomes a usage error, and a missing REST API gets a hint in CLI terms. */
async function withHints<T>(io: CliIO, make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof OptionsError) throw new CliUsageError(error.message);
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

/** `docs get|post|put|patch|delete|batch`: script the documentation site. */
export const docsCommand: CliCommand = async (argv, io) => {
  const refused = argv.find((a) => CREDENTIAL_FLAG.test(a));
  if (refused) {
    throw new CliUsageError(
      `credentials are never taken from arguments (${refused.split('=')[0]}): set ${DOCS_ENV.username} and ${DOCS_ENV.applicationPassword}`,
    );
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : 'bad arguments');
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const [verb, target, ...extra] = positionals;
  if (verb === undefined) throw new CliUsageError(`a subcommand is required\n${USAGE}`);
  if (extra.length > 0) throw new CliUsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (verb === 'batch') return runBatchFile(target, values, io);
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
  const docs = await withHints(io, () => new DocsSiteClient(clientOptions(values, io)));
  const qs = query.toString();
  const path = qs ? `${target}${target.includes('?') ? '&' : '?'}${qs}` : target;
  try {
    const res = await withHints(io, () => docs.request(method, path, { body }));
    const total = res.headers.get('x-wp-total');
    const pages = res.headers.get('x-wp-totalpages');
    if (values.json) {
      const headers: Record<string, string> = {};
      if (total !== null) headers['x-wp-total'] = total;
      if (pages !== null) headers['x-wp-totalpages'] = pages;
      io.stdout.write(`${JSON.stringify({ status: res.status, headers, body: res.body })}\n`);
    } else {
      io.stdout.write(`${JSON.stringify(res.body, null, 2)}\n`);
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
};

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
  const docs = await withHints(io, () => DocsSiteClient.connect(clientOptions(values, io)));
  const progress = progressReporter(io, requests.length);
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
function progressReporter(io: CliIO, total: number) {
  const tty = io.stderr.isTTY === true;
  let drawn = false;
  return {
    update: ({ done }: { done: number; total: number }) => {
      if (tty) {
        const width = 30;
        const filled = total === 0 ? width : Math.round((done / total) * width);
        io.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
        drawn = true;
      } else {
        io.stderr.write(`batch: ${done}/${total} done\n`);
      }
    },
    end: () => {
      if (drawn) io.stderr.write('\n');
    },
  };
}
