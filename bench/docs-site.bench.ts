/**
 * DocsSiteClient against a real WordPress (the one scripts/wordpress starts):
 *
 * 1. creating 500 posts through `batch()` (calls one after the other, and with `concurrency` 2 and 4)
 *    against one request per post, in the same run;
 * 2. iterating over 1,000 posts with `iterate()` (bounded concurrency) against fetching the pages one
 *    after the other;
 * 3. `syncFolder()` of 200 Markdown pages against the same pages written one by one (./docs-sync.ts).
 *
 * `BENCH_DOCS_SITE=sync` runs only the third.
 *
 * Uses the WordPress named by WP_BASE_URL / WP_USERNAME / WP_APP_PASSWORD or by .tmp/wordpress/env;
 * otherwise installs (Debian, as root) and starts a private one through scripts/wordpress and stops it
 * afterwards. Prints "skipped: WordPress not available" with the reason when none can be had. Everything
 * it creates is deleted again.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DocsSiteClient } from '../src/docs-site.js';
import { measureSync } from './docs-sync.js';
import { fmt, report } from './util.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('..', import.meta.url));
const scripts = join(repo, 'scripts', 'wordpress');

const POSTS_PER_METHOD = 500;
/** The `concurrency` values of batch() measured besides calls one after the other. */
const BATCH_CONCURRENCY = [2, 4];
const ITERATE_REPEATS = 3;
/** Rounds the creations are spread over (each way creates POSTS_PER_METHOD / ROUNDS per round). */
const ROUNDS = 5;

interface Site {
  baseUrl: string;
  restRoot: string;
  username: string;
  applicationPassword: string;
  /** The temp dir of a WordPress started by scripts/wordpress (for its servers' CPU time). */
  runDir?: string;
  stop?: () => Promise<void>;
}

function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)='(.*)'$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

function siteFrom(env: Record<string, string | undefined>): Site | undefined {
  const { WP_BASE_URL: baseUrl, WP_USERNAME: username, WP_APP_PASSWORD: applicationPassword } = env;
  if (!baseUrl || !username || !applicationPassword) return undefined;
  return {
    baseUrl,
    restRoot: env.WP_REST_ROOT ?? 'wp-json',
    username,
    applicationPassword,
    ...(env.WP_RUN_DIR ? { runDir: env.WP_RUN_DIR } : {}),
  };
}

async function answers(site: Site): Promise<boolean> {
  try {
    const response = await fetch(`${site.baseUrl}/${site.restRoot}/`, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function lastLine(error: unknown): string {
  const e = error as { stderr?: string; message?: string };
  const text = (e.stderr || e.message || String(error)).trim().split('\n');
  return text[text.length - 1] ?? 'unknown error';
}

/** A running WordPress, or the reason there is none. */
async function acquire(): Promise<Site | { reason: string }> {
  const fromEnv = siteFrom(process.env);
  if (fromEnv) return (await answers(fromEnv)) ? fromEnv : { reason: `${fromEnv.baseUrl} does not answer` };

  const manual = await readFile(join(repo, '.tmp', 'wordpress', 'env'), 'utf8').then(
    parseEnv,
    () => undefined,
  );
  const started = manual && siteFrom(manual);
  if (started && (await answers(started))) return started;

  if (process.platform !== 'linux') return { reason: 'scripts/wordpress needs Debian Linux' };
  const envFile = join(repo, '.tmp', 'wordpress', 'bench.env');
  const env = { ...process.env, WP_ENV_FILE: envFile, WP_OWNER_PID: String(process.pid) };
  try {
    console.log('  (installing and starting WordPress through scripts/wordpress)');
    await run('bash', [join(scripts, 'install.sh')], { env, maxBuffer: 16 << 20 });
    await run('bash', [join(scripts, 'start.sh')], { env });
  } catch (error) {
    return { reason: lastLine(error) };
  }
  const site = siteFrom(parseEnv(await readFile(envFile, 'utf8')));
  if (!site) return { reason: `${envFile} is incomplete` };
  site.stop = async () => {
    await run('bash', [join(scripts, 'stop.sh')], { env }).catch(() => undefined);
  };
  return site;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

/**
 * CPU time (ms) used so far by the servers of a WordPress from scripts/wordpress: the php -S and
 * mariadbd process groups, read from /proc. Unlike wall time, it does not depend on what else runs on
 * the machine. `undefined` when unknown (another WordPress, or no /proc).
 */
async function serverCpuMeter(runDir: string | undefined): Promise<() => Promise<number | undefined>> {
  const none = async () => undefined;
  if (!runDir || process.platform !== 'linux') return none;
  const groups = new Set<number>();
  for (const file of ['php.pgid', 'mariadbd.pgid']) {
    const pgid = Number((await readFile(join(runDir, file), 'utf8').catch(() => '')).trim());
    if (Number.isInteger(pgid) && pgid > 0) groups.add(pgid);
  }
  if (groups.size !== 2) return none;
  const ticksPerSecond =
    Number((await run('getconf', ['CLK_TCK']).catch(() => ({ stdout: '100' }))).stdout) || 100;
  return async () => {
    let ticks = 0;
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      // Fields after "(comm) ": state ppid pgrp … utime (14th field) stime (15th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (groups.has(Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks * 1000) / ticksPerSecond;
  };
}

async function measure(docs: DocsSiteClient, runDir: string | undefined): Promise<void> {
  const serverCpu = await serverCpuMeter(runDir);
  /** Wall time and server CPU time of `fn`. */
  const costOf = async <T>(fn: () => Promise<T>): Promise<[number, number | undefined, T]> => {
    const cpuBefore = await serverCpu();
    const [ms, value] = await timed(fn);
    const cpuAfter = await serverCpu();
    return [ms, cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore, value];
  };
  const token = `bench${randomBytes(5).toString('hex')}`;
  const body = (i: number, how: string) => ({
    title: `${token} ${how} ${i}`,
    content: `<!-- wp:paragraph --><p>Benchmark post ${i}.</p><!-- /wp:paragraph -->`,
    status: 'publish' as const,
  });
  const created: number[] = [];
  const parallel: number[] = [];
  try {
    // Warm-up: PHP's opcache and MariaDB's buffers, so neither side pays the first-request cost.
    for (let i = 0; i < 3; i++) await docs.posts.list({ per_page: 1 });

    // The ways take turns, 100 posts each per round, so that a change in what else runs on the
    // machine weighs on all of them alike; the times are the sums over the rounds.
    let singleMs = 0;
    let parallelMs = 0;
    let batchMs = 0;
    let singleCpu: number | undefined = 0;
    let batchCpu: number | undefined = 0;
    let leanMs = 0;
    let leanCpu: number | undefined = 0;
    /** batch() with several of its calls in flight (`concurrency`), by concurrency. */
    const concurrentMs = new Map<number, number>(BATCH_CONCURRENCY.map((c) => [c, 0]));
    const add = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined ? undefined : a + b;
    for (let round = 0; round < ROUNDS; round++) {
      const first = round * (POSTS_PER_METHOD / ROUNDS);
      const indexes = Array.from({ length: POSTS_PER_METHOD / ROUNDS }, (_, k) => first + k);
      const [sMs, sCpu] = await costOf(async () => {
        for (const i of indexes) created.push((await docs.posts.create(body(i, 'single'))).id);
      });
      singleMs += sMs;
      singleCpu = add(singleCpu, sCpu);
      // Not the baseline of the target, but the obvious alternative: single requests, 4 in flight.
      parallelMs += (
        await timed(async () => {
          const queue = [...indexes];
          const worker = async () => {
            for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
              parallel.push((await docs.posts.create(body(i, 'parallel'))).id);
            }
          };
          await Promise.all(Array.from({ length: 4 }, worker));
        })
      )[0];
      const [bMs, bCpu, results] = await costOf(() =>
        docs.batch(indexes.map((i) => docs.posts.batchCreate(body(i, 'batch')))),
      );
      batchMs += bMs;
      batchCpu = add(batchCpu, bCpu);
      // The same batch asking only for the new ids back (`_fields=id` on each item): the site then
      // skips preparing the full post for the answer.
      const [fMs, fCpu, lean] = await costOf(() =>
        docs.batch(
          indexes.map((i) => {
            const request = docs.posts.batchCreate(body(i, 'lean'));
            return { ...request, path: `${request.path}?_fields=id` };
          }),
        ),
      );
      leanMs += fMs;
      leanCpu = add(leanCpu, fCpu);
      // The same batch with several of its calls in flight at once (`concurrency`): the site works
      // on both cores. Items of different calls may then run in any order.
      for (const concurrency of BATCH_CONCURRENCY) {
        const [cMs, , both] = await costOf(() =>
          docs.batch(
            indexes.map((i) => docs.posts.batchCreate(body(i, `concurrent${concurrency}`))),
            { concurrency },
          ),
        );
        concurrentMs.set(concurrency, (concurrentMs.get(concurrency) ?? 0) + cMs);
        for (const r of both) if (r.ok) parallel.push((r.body as { id: number }).id);
      }
      for (const r of lean) if (r.ok) parallel.push((r.body as { id: number }).id);
      for (const r of results) if (r.ok) created.push((r.body as { id: number }).id);
      const failed = results.filter((r) => !r.ok).length;
      if (failed > 0)
        throw new Error(`${failed} batch items failed: ${results.find((r) => !r.ok)?.error?.message}`);
    }
    // Back to 1,000 posts for the iteration (the sequential and the plain batch() ones).
    await remove(docs, parallel.splice(0));

    console.log(`  create ${POSTS_PER_METHOD} posts (each way; ${ROUNDS} interleaved rounds)`);
    report('one request per post (sequential)', singleMs, 'ms');
    report('one request per post (4 in flight)', parallelMs, 'ms');
    report(
      `batch() (${ROUNDS * Math.ceil(POSTS_PER_METHOD / ROUNDS / docs.batchMaxItems)} calls of ≤ ${docs.batchMaxItems})`,
      batchMs,
      'ms',
    );
    report(
      'per post: sequential / batch()',
      `${fmt(singleMs / POSTS_PER_METHOD)} / ${fmt(batchMs / POSTS_PER_METHOD)}`,
      'ms',
    );
    report('ratio sequential / batch() (target ≥ 5×)', `${fmt(singleMs / batchMs)}×`);
    report('ratio 4 in flight / batch()', `${fmt(parallelMs / batchMs)}×`);
    for (const [concurrency, ms] of concurrentMs) {
      report(`batch() with concurrency: ${concurrency}`, ms, 'ms');
      report(`  ratio sequential / that (target ≥ 5×)`, `${fmt(singleMs / ms)}×`);
      report(`  ratio 4 in flight / that`, `${fmt(parallelMs / ms)}×`);
    }
    report('batch() with _fields=id per item', leanMs, 'ms');
    report('ratio sequential / batch() with _fields=id', `${fmt(singleMs / leanMs)}×`);
    if (singleCpu !== undefined && batchCpu !== undefined) {
      report(
        'server CPU/post, seq. / batch() (PHP+MariaDB)',
        `${fmt(singleCpu / POSTS_PER_METHOD)} / ${fmt(batchCpu / POSTS_PER_METHOD)}`,
        'ms',
      );
      report('server CPU ratio sequential / batch()', `${fmt(singleCpu / batchCpu)}×`);
      if (leanCpu !== undefined) {
        report('server CPU/post, batch() with _fields=id', leanCpu / POSTS_PER_METHOD, 'ms');
      }
    }

    const total = created.length;
    for (const perPage of [100, 10]) {
      const params = { search: token, per_page: perPage, orderby: 'id', order: 'asc' } as const;
      const sequentialRuns: number[] = [];
      const concurrentRuns: number[] = [];
      const busy: number[] = [];
      for (let r = 0; r < ITERATE_REPEATS; r++) {
        const [seqMs, seqCount] = await timed(async () => {
          let count = 0;
          let pages = 1;
          for (let page = 1; page <= pages; page++) {
            const result = await docs.posts.list({ ...params, page });
            pages = result.totalPages;
            count += result.items.length;
          }
          return count;
        });
        const clientBefore = process.cpuUsage();
        const [conMs, conCpu, conCount] = await costOf(async () => {
          let count = 0;
          for await (const _ of docs.posts.iterate(params)) count++;
          return count;
        });
        const client = process.cpuUsage(clientBefore);
        // How many of the machine's cores the concurrent run kept busy (server + this process).
        if (conCpu !== undefined) busy.push((conCpu + (client.user + client.system) / 1000) / conMs);
        if (seqCount !== total || conCount !== total) {
          throw new Error(`iterated ${seqCount} / ${conCount} posts, expected ${total}`);
        }
        sequentialRuns.push(seqMs);
        concurrentRuns.push(conMs);
      }
      const seq = median(sequentialRuns);
      const con = median(concurrentRuns);
      console.log(
        `  iterate ${total} posts, per_page ${perPage} (${Math.ceil(total / perPage)} pages; median of ${ITERATE_REPEATS})`,
      );
      report('sequential pages (list() page after page)', seq, 'ms');
      report('iterate() (bounded concurrency, default 4)', con, 'ms');
      report('ratio (target ≥ 2×)', `${fmt(seq / con)}×`);
      if (busy.length > 0) {
        report(
          'cores kept busy by iterate() (server + client)',
          `${fmt(median(busy))} of ${availableParallelism()}`,
        );
      }
    }
  } finally {
    // Clean up through batch() (DELETE with force), then check nothing is left.
    await remove(docs, [...created, ...parallel]);
    const remaining = (await docs.posts.list({ search: token, status: ['any'], per_page: 1 })).total;
    if (remaining > 0) console.log(`  cleanup: ${remaining} posts left`);
  }
}

/** Delete posts for good through batch(); says so when some could not be deleted. */
async function remove(docs: DocsSiteClient, ids: number[]): Promise<void> {
  const results = await docs.batch(ids.map((id) => docs.posts.batchDelete(id, { force: true })));
  const failed = results.filter((r) => !r.ok).length;
  if (failed > 0) console.log(`  cleanup: ${failed} of ${ids.length} deletes failed`);
}

export default async function docsSiteBench(): Promise<void> {
  const site = await acquire();
  if ('reason' in site) {
    console.log(`  skipped: WordPress not available (${site.reason})`);
    return;
  }
  try {
    // The server shares this machine's cores: what else runs bounds what concurrency can gain.
    report(
      'machine',
      `${availableParallelism()} cores, load average ${loadavg()
        .map((n) => fmt(n))
        .join(' / ')} before the run`,
    );
    const options = {
      baseUrl: site.baseUrl,
      restRoot: site.restRoot,
      auth: { username: site.username, applicationPassword: site.applicationPassword },
      contentNamespace: 'wp/v2',
      timeoutMs: 60_000,
    };
    if (process.env.BENCH_DOCS_SITE !== 'sync') await measure(new DocsSiteClient(options), site.runDir);
    await measureSync(options);
  } finally {
    await site.stop?.();
  }
}
