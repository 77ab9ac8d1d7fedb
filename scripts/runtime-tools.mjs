// Tools of the runtime checks (scripts/runtimes.mjs) and of `npm run bench runtime`: the pinned
// versions, installing them into a kept temporary folder, the packed package, servers started in
// their own process group and stopped with it, and wrangler.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the tools and the apps are installed, kept between runs. */
export const WORK = path.resolve(
  process.env.AV_RUNTIMES_DIR ?? path.join(tmpdir(), 'affiliation-validation-runtimes'),
);
const pkg = (name) => JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));

/**
 * The tools, pinned. wrangler 4.86 is the last whose engines accept Node 20; its own workerd refuses
 * compatibility dates after 2026-05-03, so a current workerd runs under it (MINIFLARE_WORKERD_PATH)
 * and the Workers run with that workerd's date.
 */
export const WRANGLER = { wrangler: '4.86.0', workerd: '1.20261117.1' };
const NEXT_TYPES = {
  typescript: pkg('typescript').version,
  '@types/node': pkg('@types/node').version,
  '@types/react': '19.2.7',
};
export const NEXT16 = { next: '16.4.6', react: '19.2.1', 'react-dom': '19.2.1', ...NEXT_TYPES };
export const NEXT15 = { next: '15.5.29', react: '19.2.1', 'react-dom': '19.2.1', ...NEXT_TYPES };
export const BUN_DENO = { '@oven/bun-linux-x64': '1.4.5', '@deno/linux-x64-glibc': '2.9.6' };

export function seconds(since) {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** Run a command to completion, its output shown only when it fails. */
export function run(command, args, options = {}) {
  const t = performance.now();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  }
  return { stdout: r.stdout, took: seconds(t) };
}

/** A folder with these packages installed (kept between runs; only what changed is installed). */
export function installInto(dir, dependencies, tarball) {
  mkdirSync(dir, { recursive: true });
  const deps = { ...dependencies };
  if (tarball) {
    deps['affiliation-validation'] = `file:${tarball}`;
    // The same version number with new contents: npm would keep the installed copy.
    rmSync(path.join(dir, 'node_modules', 'affiliation-validation'), { recursive: true, force: true });
  }
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: path.basename(dir), private: true, type: 'module', dependencies: deps }, null, 2)}\n`,
  );
  const env = {
    ...process.env,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
  };
  return run('npm', ['install', '--no-package-lock', '--loglevel=error'], { cwd: dir, env }).took;
}

/** A free port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Start a long-running server (its own process group, so its children stop with it). */
export function serve(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Wait until `url` answers at all (any status), or fail with the server's output. */
export async function ready(url, server, limitMs = 120_000) {
  const t = performance.now();
  while (performance.now() - t < limitMs) {
    if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
    try {
      await (await fetch(url, { redirect: 'manual' })).arrayBuffer();
      return seconds(t);
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} did not answer within ${limitMs} ms:\n${server.output()}`);
}

/** The package as shops get it: `npm pack` of the build into WORK. */
export function packTarball() {
  mkdirSync(WORK, { recursive: true });
  const out = run('npm', ['pack', '--json', '--pack-destination', WORK, '--loglevel=error'], { cwd: ROOT });
  return path.join(WORK, JSON.parse(out.stdout)[0].filename);
}

/**
 * wrangler and a current workerd in WORK/worker with the package and examples/cloudflare-worker;
 * `dev()` starts `wrangler dev --local` there, `deploy()` bundles a Worker as `wrangler deploy
 * --dry-run` does.
 */
export function prepareWorker(tarball, files = {}) {
  const dir = path.join(WORK, 'worker');
  const took = installInto(dir, WRANGLER, tarball);
  cpSync(path.join(ROOT, 'examples', 'cloudflare-worker'), dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const bin = path.join(dir, 'node_modules', '.bin', 'wrangler');
  const workerd = path.join(dir, 'node_modules', 'workerd', 'bin', 'workerd');
  const date = run(workerd, ['--version']).stdout.trim().split(' ')[1]; // "workerd 2026-11-17"
  const env = {
    ...process.env,
    MINIFLARE_WORKERD_PATH: workerd,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_LOG_PATH: path.join(dir, '.wrangler', 'logs'),
  };
  const common = (flags) => [
    '--compatibility-date',
    date,
    ...flags.flatMap((flag) => ['--compatibility-flags', flag]),
  ];
  return {
    dir,
    date,
    took,
    dev(entry, port, flags, vars = {}) {
      const args = ['dev', entry, '--local', '--ip', '127.0.0.1', '--port', String(port), ...common(flags)];
      args.push('--show-interactive-dev-session=false', '--log-level', 'warn', '--inspector-port', '0');
      for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
      return serve(bin, args, { cwd: dir, env });
    },
    deploy(entry, outdir, flags) {
      const args = ['deploy', entry, '--dry-run', '--outdir', outdir, '--metafile', ...common(flags)];
      return run(bin, args, { cwd: dir, env }).stdout;
    },
  };
}
