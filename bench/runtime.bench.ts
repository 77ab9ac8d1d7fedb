/**
 * A shop on Cloudflare Workers: what it uploads and how soon its first shopper is answered.
 *
 * - The core entry bundled for a Worker by wrangler itself (`wrangler deploy --dry-run`, the
 *   example's Worker, examples/cloudflare-worker), in KiB unminified and gzipped as wrangler reports
 *   them, beside a Worker that bundles openid-client alone for discovery and the authorization URL,
 *   as a ratio; and what the bundle is made of, per package (wrangler's esbuild metafile).
 * - The cold start: the first requests to a freshly started `wrangler dev` Worker (the example,
 *   against the test provider on 127.0.0.1): ready, the first `GET /` (the isolate's first request),
 *   the first `POST /start` (discovery and the start) and a second one; beside the openid-client
 *   Worker's first and second requests (discovery and the URL). Median of 3 fresh Workers each.
 *
 * Uses the built package, packed (`npm run build` first), and the tools of `npm run test:runtimes`
 * (installed into $AV_RUNTIMES_DIR on first use).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { RUNTIME_MODULES } from '../tsup.config.js';
import { fmt, percentile, report } from './util.js';

interface Server {
  stop(): Promise<void>;
}
interface Worker {
  dir: string;
  date: string;
  dev(entry: string, port: number, flags: string[], vars?: Record<string, string>): Server;
  deploy(entry: string, outdir: string, flags: string[]): string;
}
interface Tools {
  WRANGLER: { wrangler: string; workerd: string };
  ROOT: string;
  WORK: string;
  freePort(): Promise<number>;
  packTarball(): string;
  prepareWorker(tarball: string, files: Record<string, string>): Worker;
  run(command: string, args: string[], options?: object): { stdout: string };
}

/** The baseline: openid-client alone, discovery once per isolate and the authorization URL. */
const OPENID_CLIENT_WORKER = `import * as oidc from 'openid-client';

interface Env { AV_ISSUER: string; AV_CLIENT_ID: string; AV_CLIENT_SECRET: string; AV_REDIRECT_URI: string }
let config: Promise<oidc.Configuration> | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname !== '/start') return new Response('ready');
    config ??= oidc.discovery(new URL(env.AV_ISSUER), env.AV_CLIENT_ID, env.AV_CLIENT_SECRET, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(await config, {
      redirect_uri: env.AV_REDIRECT_URI,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
    });
    return new Response(null, { status: 303, headers: { location: url.href } });
  },
};
`;

const KiB = 1024;

/** `Total Upload: 276.80 KiB / gzip: 69.78 KiB` → [276.8, 69.78]. */
function uploadSize(stdout: string): [number, number] {
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(stdout);
  if (!m) throw new Error(`no upload size in wrangler's output:\n${stdout}`);
  return [Number(m[1]), Number(m[2])];
}

/** Bytes in the bundle per package (ours: the SDK's dist/, split web/ vs chunks). */
function composition(metafile: string): [string, number][] {
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const by = new Map<string, number>();
  for (const output of Object.values(meta.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
      const name =
        m?.[1] === 'affiliation-validation' ? 'affiliation-validation (the SDK)' : (m?.[1] ?? file);
      by.set(name, (by.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

/**
 * The SDK's part by source folder: src/index.ts bundled by esbuild with wrangler's settings and
 * the Web builds that package.json `imports` gives a Worker (dist/ chunks do not name their sources).
 */
async function sdkBySourceFolder(root: string): Promise<[string, number][]> {
  const web = new Map(
    Object.values(RUNTIME_MODULES).map((m) => [path.resolve(root, m.node), path.resolve(root, m.web)]),
  );
  const result = await esbuild.build({
    entryPoints: [path.join(root, 'src', 'index.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    metafile: true,
    outdir: path.join(root, '.tmp', 'bench-web'),
    logLevel: 'silent',
    plugins: [
      {
        name: 'web-builds',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            const target = web.get(path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
            return target ? { path: target } : undefined;
          });
        },
      },
    ],
  });
  const by = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = /^src\/([^/]+)\//.exec(file);
      if (m?.[1]) by.set(`src/${m[1]}/`, (by.get(`src/${m[1]}/`) ?? 0) + bytesInOutput);
    }
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

async function timed(request: () => Promise<Response>): Promise<number> {
  const t = performance.now();
  const response = await request();
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`the Worker answered ${response.status}`);
  return performance.now() - t;
}

/** The duration of the first request that gets an answer (earlier ones find no listener yet). */
async function firstAnswer(url: string, limitMs = 120_000): Promise<number> {
  const until = performance.now() + limitMs;
  while (performance.now() < until) {
    try {
      return await timed(() => fetch(url));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${url} did not answer within ${limitMs} ms`);
}

export default async function bench(): Promise<void> {
  // @ts-expect-error: a plain .mjs script without declarations
  const tools = (await import('../scripts/runtime-tools.mjs')) as Tools;
  console.log(`  load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  tools.run('npm', ['run', 'build'], { cwd: tools.ROOT });
  const worker = tools.prepareWorker(tools.packTarball(), {
    'src/openid-client-only.ts': OPENID_CLIENT_WORKER,
  });
  console.log(
    `  wrangler ${tools.WRANGLER.wrangler} (esbuild), workerd ${worker.date}, nodejs_compat, not minified`,
  );

  const out = (name: string) => path.join(tools.WORK, 'bench-bundles', name);
  const [core, coreGzip] = uploadSize(worker.deploy('src/index.ts', out('core'), ['nodejs_compat']));
  const [base, baseGzip] = uploadSize(
    worker.deploy('src/openid-client-only.ts', out('openid-client'), ['nodejs_compat']),
  );
  report(
    'openid-client alone (discovery + authorization URL)',
    `${fmt(base)} KiB, gzip ${fmt(baseGzip)} KiB`,
  );
  report('the example Worker (affiliation-validation core)', `${fmt(core)} KiB, gzip ${fmt(coreGzip)} KiB`);
  report('ratio (unminified / gzipped)', `${fmt(core / base)}× / ${fmt(coreGzip / baseGzip)}×`);
  report('goal: the core Worker ≤ 350 KiB unminified', core <= 350 ? 'met' : 'NOT met');
  console.log('  what the core Worker is made of:');
  for (const [name, bytes] of composition(path.join(out('core'), 'bundle-meta.json'))) {
    if (bytes >= KiB) report(`  ${name}`, bytes / KiB, 'KiB');
  }
  console.log('  the SDK part by source folder (esbuild, same settings, from src/):');
  for (const [folder, bytes] of await sdkBySourceFolder(tools.ROOT))
    report(`  ${folder}`, bytes / KiB, 'KiB');

  // Cold start: fresh Workers against the test provider.
  const { TestProvider } = await import('../src/testing.js');
  const port = await tools.freePort();
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  const op = await TestProvider.start({
    clients: [{ clientId: 'shop', clientSecret: 'shop-secret-for-bench', redirectUris: [redirectUri] }],
  });
  const vars = {
    AV_ISSUER: op.issuer,
    AV_CLIENT_ID: 'shop',
    AV_CLIENT_SECRET: 'shop-secret-for-bench',
    AV_REDIRECT_URI: redirectUri,
    AV_COOKIE_SECRET: 'bench-cookie-secret-of-at-least-32-bytes',
  };
  const base1 = `http://127.0.0.1:${port}`;
  const start = () =>
    fetch(`${base1}/start`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: 'affiliation=student',
    });
  const figures: Record<string, number[]> = {};
  const note = (key: string, ms: number) => {
    figures[key] ??= [];
    figures[key].push(ms);
  };
  try {
    for (let i = 0; i < 3; i++) {
      for (const [name, entry] of [
        ['core', 'src/index.ts'],
        ['openid-client', 'src/openid-client-only.ts'],
      ] as const) {
        const t = performance.now();
        const server = worker.dev(entry, port, ['nodejs_compat'], vars);
        try {
          note(`${name} first GET /`, await firstAnswer(`${base1}/`));
          note(`${name} ready`, performance.now() - t);
          note(`${name} first POST /start`, await timed(start));
          note(`${name} second POST /start`, await timed(start));
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await op.close();
  }
  const median = (key: string) => percentile(figures[key] ?? [], 50);
  console.log('  cold start (median of 3 fresh wrangler dev Workers):');
  for (const name of ['openid-client', 'core']) {
    report(`  ${name}: wrangler dev started → first answer`, median(`${name} ready`), 'ms');
    report(`  ${name}: the first request (GET /)`, median(`${name} first GET /`), 'ms');
    report(`  ${name}: first POST /start (discovery + start)`, median(`${name} first POST /start`), 'ms');
    report(`  ${name}: second POST /start`, median(`${name} second POST /start`), 'ms');
  }
  report(
    'first POST /start, core / openid-client',
    `${fmt(median('core first POST /start') / median('openid-client first POST /start'))}×`,
  );
}
