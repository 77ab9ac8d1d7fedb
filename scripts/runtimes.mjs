#!/usr/bin/env node
// The SDK on every runtime a shop runs (issue 28): `npm run test:runtimes` (after `npm run build`).
//
//   node scripts/runtimes.mjs [--only NAME,…] [--list]
//
// A full validation in both flows (scripts/runtime-e2e.mjs: discovery, the start route, the test
// provider's pages, the callback, the relay's form POST) against the package's test provider on
// 127.0.0.1, on:
//   - workerd through `wrangler dev --local`, with nodejs_compat and without it (the Worker checks
//     that Buffer and process are really absent), running examples/cloudflare-worker;
//   - Next.js 16 route handlers with runtime 'nodejs' and 'edge' (Turbopack) and Next.js 15 with
//     'edge' (webpack), `next build` then `next start`, running examples/nextjs;
//   - Bun and Deno (in process);
// and the docs-site REST client in a Worker without nodejs_compat, listing and creating a post on a
// small server on 127.0.0.1. The package is used as shops get it: `npm pack`, installed beside the
// tools in a temporary folder ($AV_RUNTIMES_DIR, default $TMPDIR/affiliation-validation-runtimes,
// kept between runs so a second run installs nothing). Offline but for the npm registry. Prints the
// time of each step; exits 1 when any runtime fails.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { validateBothFlows } from './runtime-e2e.mjs';
import {
  BUN_DENO,
  freePort,
  installInto,
  NEXT15,
  NEXT16,
  packTarball,
  prepareWorker,
  ROOT,
  ready,
  run,
  seconds,
  serve,
  WORK,
  WRANGLER,
} from './runtime-tools.mjs';

const CLIENT = { clientId: 'shop', clientSecret: 'shop-secret-for-runtime-checks' };
const COOKIE_SECRET = 'runtime-checks-cookie-secret-of-32-bytes-or-more';
const TARGETS = [
  'workerd-nodejs-compat',
  'workerd-no-nodejs-compat',
  'workerd-docs-site',
  'next16-nodejs',
  'next16-edge',
  'next15-edge',
  'bun',
  'deno',
];

/** CI's wrapper of examples/cloudflare-worker: the example as it is, and what the runtime has. */
const PROBE_WORKER = `import shop from './index';

export default {
  fetch(request: Request, env: Parameters<typeof shop.fetch>[1]): Promise<Response> | Response {
    if (new URL(request.url).pathname === '/__runtime') {
      const g = globalThis as Record<string, unknown>;
      return Response.json({ buffer: typeof g.Buffer, process: typeof g.process });
    }
    return shop.fetch(request, env);
  },
};
`;

/** A Worker that uses only the docs-site REST client: lists posts and creates one. */
const DOCS_SITE_WORKER = `import { DocsSiteClient } from 'affiliation-validation/docs-site';

interface Env { DOCS_BASE_URL: string; DOCS_USER: string; DOCS_PASSWORD: string }

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname !== '/run') return new Response('ready');
    try {
      const docs = new DocsSiteClient({
        baseUrl: env.DOCS_BASE_URL,
        contentNamespace: 'wp/v2',
        auth: { username: env.DOCS_USER, applicationPassword: env.DOCS_PASSWORD },
      });
      const page = await docs.posts.list({ per_page: 10 });
      const created = await docs.posts.create({ title: 'Written from a Worker', status: 'draft' });
      return Response.json({ listed: page.items.length, created: created.id });
    } catch (error) {
      return new Response(String((error as Error).stack ?? error), { status: 500 });
    }
  },
};
`;

const argv = process.argv.slice(2);
if (argv.includes('--list')) {
  console.log(TARGETS.join('\n'));
  process.exit(0);
}
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',') : TARGETS;
for (const name of only) if (!TARGETS.includes(name)) throw new Error(`unknown runtime ${name} (--list)`);

const results = [];

async function step(name, fn) {
  if (!only.includes(name)) return;
  console.log(`\n==> ${name}`);
  const t = performance.now();
  try {
    const detail = await fn();
    results.push({ name, ok: true, took: seconds(t), detail });
  } catch (error) {
    console.error(String(error?.stack ?? error));
    results.push({
      name,
      ok: false,
      took: seconds(t),
      detail: String(error?.message ?? error).split('\n')[0],
    });
  }
}

// --- the package, packed as shops get it ------------------------------------------------------------
if (!existsSync(path.join(ROOT, 'dist', 'index.js')))
  throw new Error('dist/ is not built: run npm run build first');
const tarball = packTarball();

const ports = {};
for (const name of TARGETS) ports[name] = await freePort();
const { TestProvider } = await import('../dist/testing.js');
const op = await TestProvider.start({
  clients: [{ ...CLIENT, redirectUris: TARGETS.map((name) => `http://127.0.0.1:${ports[name]}/callback`) }],
});
const shopEnv = (port) => ({
  AV_ISSUER: op.issuer,
  AV_CLIENT_ID: CLIENT.clientId,
  AV_CLIENT_SECRET: CLIENT.clientSecret,
  AV_REDIRECT_URI: `http://127.0.0.1:${port}/callback`,
  AV_COOKIE_SECRET: COOKIE_SECRET,
  AV_ENABLE_ID_TOKEN_FLOW: '1',
});

/** Both flows through the shop `name` on its port, over HTTP (redirects not followed: the driver is the browser). */
const validateOverHttp = (name) =>
  validateBothFlows({
    op,
    label: name,
    redirectUri: `http://127.0.0.1:${ports[name]}/callback`,
    shop: (request) => fetch(request, { redirect: 'manual' }),
    success: (response, text) => response.status === 200 && text.includes('id="affiliation">student<'),
  });

try {
  // --- workerd ----------------------------------------------------------------------------------------
  let worker;
  if (only.some((n) => n.startsWith('workerd'))) {
    worker = prepareWorker(tarball, { 'src/probe.ts': PROBE_WORKER, 'src/docs-site.ts': DOCS_SITE_WORKER });
    console.log(`wrangler ${WRANGLER.wrangler}, workerd ${worker.date} (installed in ${worker.took})`);
  }

  for (const [name, flags, expected] of [
    ['workerd-nodejs-compat', ['nodejs_compat'], { buffer: 'function', process: 'object' }],
    [
      'workerd-no-nodejs-compat',
      ['no_nodejs_compat', 'no_nodejs_compat_v2'],
      { buffer: 'undefined', process: 'undefined' },
    ],
  ]) {
    await step(name, async () => {
      const port = ports[name];
      const server = worker.dev('src/probe.ts', port, flags, shopEnv(port));
      try {
        const up = await ready(`http://127.0.0.1:${port}/`, server);
        const runtime = await (await fetch(`http://127.0.0.1:${port}/__runtime`)).json();
        console.log(
          `  ${flags.join(' + ')}: Buffer ${runtime.buffer}, process ${runtime.process} (ready in ${up})`,
        );
        if (runtime.buffer !== expected.buffer || runtime.process !== expected.process) {
          throw new Error(`expected Buffer ${expected.buffer} and process ${expected.process} in the Worker`);
        }
        await validateOverHttp(name);
        return `compatibility date ${worker.date}, ${flags.join(' + ')}`;
      } finally {
        await server.stop();
      }
    });
  }

  await step('workerd-docs-site', async () => {
    const site = await docsSite();
    const port = ports['workerd-docs-site'];
    const server = worker.dev('src/docs-site.ts', port, ['no_nodejs_compat', 'no_nodejs_compat_v2'], {
      DOCS_BASE_URL: site.url,
      DOCS_USER: site.user,
      DOCS_PASSWORD: site.password,
    });
    try {
      await ready(`http://127.0.0.1:${port}/`, server);
      const answer = await fetch(`http://127.0.0.1:${port}/run`);
      const body = await answer.text();
      if (answer.status !== 200) throw new Error(`the Worker answered ${answer.status}: ${body}`);
      const result = JSON.parse(body);
      const created = site.seen.find((r) => r.method === 'POST');
      if (result.listed !== 1 || result.created !== 7 || created?.authorization !== site.authorization) {
        throw new Error(`unexpected: ${body} ${JSON.stringify(site.seen)}`);
      }
      console.log(
        `  ok  listed ${result.listed} post, created post ${result.created} (Basic credentials sent)`,
      );
      return 'without nodejs_compat';
    } finally {
      await server.stop();
      await site.close();
    }
  });

  // --- Next.js ---------------------------------------------------------------------------------------
  for (const [name, versions, runtime] of [
    ['next16-nodejs', NEXT16, 'nodejs'],
    ['next16-edge', NEXT16, 'edge'],
    ['next15-edge', NEXT15, 'edge'],
  ]) {
    await step(name, async () => {
      const dir = path.join(WORK, name.split('-')[0]);
      const took = installInto(dir, versions, tarball);
      for (const sub of ['app', 'lib', '.next'])
        rmSync(path.join(dir, sub), { recursive: true, force: true });
      for (const sub of ['app', 'lib', 'tsconfig.json']) {
        cpSync(path.join(ROOT, 'examples', 'nextjs', sub), path.join(dir, sub), { recursive: true });
      }
      for (const route of ['start', 'callback']) {
        const file = path.join(dir, 'app', route, 'route.ts');
        const source = readFileSync(file, 'utf8');
        if (!source.includes("export const runtime = 'nodejs';")) throw new Error(`${file}: no runtime line`);
        writeFileSync(
          file,
          source.replace("export const runtime = 'nodejs';", `export const runtime = '${runtime}';`),
        );
      }
      const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
      const next = path.join(dir, 'node_modules', '.bin', 'next');
      const built = run(next, ['build'], { cwd: dir, env });
      console.log(
        `  next ${versions.next} build with runtime '${runtime}' in ${built.took} (installed in ${took})`,
      );
      const port = ports[name];
      const server = serve(next, ['start', '-H', '127.0.0.1', '-p', String(port)], {
        cwd: dir,
        env: { ...env, ...shopEnv(port) },
      });
      try {
        const up = await ready(`http://127.0.0.1:${port}/start`, server);
        console.log(`  next start ready in ${up}`);
        await validateOverHttp(name);
        return `next ${versions.next}, runtime '${runtime}', build ${built.took}`;
      } finally {
        await server.stop();
      }
    });
  }

  // --- Bun and Deno: in process, the repository's build -------------------------------------------------
  if (only.includes('bun') || only.includes('deno')) {
    const dir = path.join(WORK, 'bun-deno');
    installInto(dir, BUN_DENO);
    const bin = {
      bun: path.join(dir, 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun'),
      deno: path.join(dir, 'node_modules', '@deno', 'linux-x64-glibc', 'deno'),
    };
    for (const b of Object.values(bin)) run('chmod', ['+x', b]);
    const script = path.join(ROOT, 'scripts', 'runtime-e2e.mjs');
    await step('bun', async () => {
      console.log(run(bin.bun, [script], { cwd: ROOT }).stdout.trimEnd());
      return `Bun ${run(bin.bun, ['--version']).stdout.trim()}`;
    });
    await step('deno', async () => {
      const args = ['run', '--allow-all', '--node-modules-dir=manual', '--no-lock', script];
      console.log(run(bin.deno, args, { cwd: ROOT }).stdout.trimEnd());
      return run(bin.deno, ['--version']).stdout.split('\n')[0];
    });
  }
} finally {
  await op.close();
}

console.log('\nruntime                     result  time      ');
for (const r of results) {
  console.log(`${r.name.padEnd(28)}${(r.ok ? 'ok' : 'FAIL').padEnd(8)}${r.took.padEnd(10)}${r.detail ?? ''}`);
}
if (results.some((r) => !r.ok)) process.exitCode = 1;

/**
 * A small documentation site on 127.0.0.1: lists one post and creates post 7, recording each
 * request with its Authorization header.
 */
async function docsSite() {
  const seen = [];
  const user = 'editor';
  const password = 'abcd EFGH 1234 ijkl';
  const post = (id, title) => ({
    id,
    date: '2026-05-01T10:00:00',
    slug: `post-${id}`,
    status: 'draft',
    type: 'post',
    title: { rendered: title },
    content: { rendered: '<p>x</p>', protected: false },
    meta: [],
    _links: {},
  });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
      const json = (status, value, headers = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      };
      if (req.method === 'GET' && req.url.startsWith('/wp-json/wp/v2/posts')) {
        return json(200, [post(1, 'Hello')], { 'x-wp-total': '1', 'x-wp-totalpages': '1' });
      }
      if (req.method === 'POST' && req.url.startsWith('/wp-json/wp/v2/posts')) {
        return json(201, post(7, JSON.parse(body).title ?? ''));
      }
      json(404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    user,
    password,
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
